package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/store"
)

func newImportCmd() *cobra.Command {
	var dbPath string
	cmd := &cobra.Command{
		Use:   "import [--db FILE] [PATH...]",
		Short: "Regenerate replays and store every turn in the database",
		Long: `Import replay files and directories (searched recursively for .rpl and .rlog
files) into the SQLite database. Replays are regenerated in parallel and
written by one writer, one transaction per match; a match already in the
database is skipped. A bad file is reported with its name, turn and reason,
the good ones are still imported, and the exit status is then 1.

A replay recorded under an older rules revision of its ruleset is imported
when this build reproduces every state hash it recorded (its numbers are
then this build's), and is otherwise reported as "recorded with an older
engine revision"; one of a newer revision is refused.

With no PATH, import regenerates the replays stored in the database that
have no match: a database written before the current schema keeps its
replays when this build opens it, but loses the matches it cannot convert.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return importPaths(cmd.Context(), dbPath, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&dbPath, "db", "replaylab.db", "database: an SQLite file (created if missing) or a postgres:// URL")
	return cmd
}

// findReplays expands directories into the replay files below them; files
// named explicitly are taken whatever their extension.
func findReplays(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".rpl") || strings.HasSuffix(path, ".rlog")) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// importPaths imports the replay files below paths, or with no paths the
// stored replays without a match.
func importPaths(ctx context.Context, dbPath string, paths []string, stdout, stderr io.Writer) error {
	// Files are found before the database is opened, so a wrong path
	// creates no database.
	items, err := findReplays(paths)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	what, load := "files", loadFile
	if len(paths) == 0 {
		if items, err = db.UnmatchedReplays(ctx); err != nil {
			return err
		}
		what, load = "stored replays", storedReplay(db)
	}
	failed, err := ingestAll(ctx, db, dbPath, items, what, load, stdout, stderr)
	if err != nil {
		return err
	}
	if failed > 0 {
		return exitError{1}
	}
	return nil
}

// loader reads an item to import: its replay and what its bots wrote
// besides their answers, when that was kept.
type loader func(ctx context.Context, item string) (*replay.Log, []store.BotOutput, error)

// loadFile reads a replay file and the bot output file record saved
// beside it.
func loadFile(_ context.Context, path string) (*replay.Log, []store.BotOutput, error) {
	l, err := readReplay(path)
	if err != nil {
		return nil, nil, err
	}
	out, err := readBotOutput(path)
	return l, out, err
}

// storedReplay loads a replay kept in the database by its match id; the
// database keeps no bot output without a match.
func storedReplay(db *store.DB) loader {
	return func(ctx context.Context, id string) (*replay.Log, []store.BotOutput, error) {
		data, err := db.Replay(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		l, err := replay.Read(bytes.NewReader(data))
		return l, nil, err
	}
}

// ingestAll regenerates items (files or stored replay ids, as load reads
// them) in parallel into db through one writer, reporting each failure by
// name and a summary line, and returns how many failed.
func ingestAll(ctx context.Context, db *store.DB, dbPath string, items []string, what string, load loader, stdout, stderr io.Writer) (failed int, err error) {
	start := time.Now()
	bar := newProgress(stderr, len(items), "import", "files")
	var created, dup, attached int
	buildAll(ctx, runtime.GOMAXPROCS(0), items, func(ctx context.Context, item string) (*store.Record, error) {
		l, out, err := load(ctx, item)
		if err != nil {
			return nil, err
		}
		rec, err := regen.Build(ctx, l)
		if err != nil {
			return nil, err
		}
		rec.Output = out
		return rec, nil
	}, func(path string, rec *store.Record, err error) {
		if err == nil {
			// Upload, not Ingest: a replay stored before without its bot
			// output file gets it now.
			isNew, fate, uerr := db.Upload(ctx, rec)
			switch err = uerr; {
			case err != nil:
			case isNew:
				created++
			default:
				dup++
				if fate == store.OutputStored {
					attached++
				}
			}
		}
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return // interrupted, neither imported nor failed
		default:
			failed++
			bar.println(fmt.Sprintf("%s: %v", path, err))
		}
		bar.step()
	})
	bar.done()
	if err := ctx.Err(); err != nil {
		return failed, fmt.Errorf("interrupted after %d %s: %w", created+dup+failed, what, err)
	}
	var outputs string
	if attached > 0 {
		outputs = fmt.Sprintf(" (bot output added to %d of them)", attached)
	}
	fmt.Fprintf(stdout, "imported %d new matches, %d already present%s, %d failed, from %d %s in %v into %s\n",
		created, dup, outputs, failed, len(items), what, time.Since(start).Round(time.Millisecond), store.DisplayName(dbPath))
	return failed, nil
}

// progress draws a one-line bar with the rate and the time left on a
// terminal; elsewhere (a log, a pipe) it prints a line at every tenth of
// the work and at least every progressEvery, so long runs still show they
// are moving without flooding the log.
type progress struct {
	w          io.Writer
	tty        bool
	n, total   int
	resumed    int // of n, done before this run: not in the rate
	start      time.Time
	lastDrawn  time.Time // last bar drawn or line printed
	lineActive bool
	lastTenth  int
	label      string // what the work is, for the lines written off a terminal
	unit       string // what is counted, for the rate
}

// progressEvery is the longest progress stays silent off a terminal.
const progressEvery = 5 * time.Second

func newProgress(w io.Writer, total int, label, unit string) *progress {
	p := &progress{w: w, total: total, label: label, unit: unit, start: time.Now()}
	p.lastDrawn = p.start
	if f, ok := w.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

// resume counts n units of the work as done before this run started (a
// sweep resumed through the store): the bar starts there, and the rate
// and the time left count this run's work only.
func (p *progress) resume(n int) {
	p.n, p.resumed = n, n
	if p.total > 0 {
		p.lastTenth = n * 10 / p.total
	}
}

func (p *progress) step() {
	p.n++
	since := time.Since(p.lastDrawn)
	switch {
	case p.tty && (since > 100*time.Millisecond || p.n == p.total):
		p.draw()
	case !p.tty && p.total >= 20 && p.n*10/p.total > p.lastTenth:
		p.lastTenth = p.n * 10 / p.total
		p.line()
	case !p.tty && since >= progressEvery:
		p.line()
	}
}

// rate says how fast the work goes and when it will be done.
func (p *progress) rate() string {
	elapsed := time.Since(p.start)
	if p.n == p.resumed || elapsed <= 0 {
		return ""
	}
	perSec := float64(p.n-p.resumed) / elapsed.Seconds()
	eta := time.Duration(float64(p.total-p.n) / perSec * float64(time.Second))
	return fmt.Sprintf(", %.1f %s/s, ETA %v", perSec, p.unit, eta.Round(time.Second))
}

func (p *progress) line() {
	fmt.Fprintf(p.w, "%s: %d/%d (%d%%)%s\n", p.label, p.n, p.total, 100*p.n/max(p.total, 1), p.rate())
	p.lastDrawn = time.Now()
}

func (p *progress) draw() {
	const width = 30
	filled := width
	if p.total > 0 {
		filled = width * min(p.n, p.total) / p.total
	}
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %d/%d%s", strings.Repeat("#", filled), strings.Repeat(" ", width-filled), p.n, p.total, p.rate())
	p.lastDrawn, p.lineActive = time.Now(), true
}

// println prints a message above the bar.
func (p *progress) println(msg string) {
	if p.lineActive {
		fmt.Fprint(p.w, "\r\033[K")
		p.lineActive = false
	}
	fmt.Fprintln(p.w, msg)
	if p.tty {
		p.draw()
	}
}

// done ends the bar. Off a terminal, work that stopped short (an
// interrupt) gets a last line with the count it reached, which the lines
// at tenths would not show.
func (p *progress) done() {
	switch {
	case p.lineActive:
		fmt.Fprintln(p.w)
	case !p.tty && p.n < p.total:
		p.line()
	}
}
