package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

type forkFlags struct {
	recordFlags
	db       string
	at       int
	seatBots []string // SEAT=SPEC
	commands []string // SEAT=TEXT
}

func newForkCmd() *cobra.Command {
	var f forkFlags
	cmd := &cobra.Command{
		Use:   "fork REPLAY|ID --at N [--bot SEAT=SPEC...] [--command SEAT=TEXT...] [-o FILE] [--db FILE]",
		Short: "Play a match on from one of its turns with other bots or commands",
		Long: `Play turns 1 to N of the match in REPLAY (a replay file) as recorded, then
go on live from turn N+1 and write the new match's replay, as record does.

With --db FILE, the match may also be a stored one, named by its id or a
unique prefix of at least 8 hex digits (a file of that name comes first),
and the fork is stored in that database (created if missing) with its
parent and its bots' output, as import stores a replay; its id and
dashboard page (/matches/ID) are printed. Give -o, --db or both; nothing
is written or stored when the fork fails.

--bot SEAT=SPEC gives a seat (from 1) another bot, built-in (builtin:NAME)
or external (a command line, or an original protocol's spec such as
awap2019:PATH/team.py). A seat not named keeps its bot when it was a
built-in bot; a seat whose external bot is not named is refused, as the
replay cannot start it. Every bot is fed the views of turns 1 to N first,
as in the match, and its answers are compared with the recorded commands
(and then dropped), so a bot with memory reaches turn N+1 in the state it
would have had; the report says, per seat, whether it repeats the
recorded commands or where it first differs. --command SEAT=TEXT plays
TEXT for that seat at turn N+1 only, whatever its bot answers.

The new replay names its parent (the match id and N) in its header and
verifies on its own; a fork of a fork names its direct parent. The parent
must verify first (see 'replaylab verify').`,
		Example: `  replaylab fork m.rpl --at 150 --bot 2="python3 mybot.py" -o what-if.rpl
  replaylab fork m.rpl --at 40 --command 1=LEFT,ACT -o left.rpl
  replaylab fork --db replaylab.db 3fa9c2e1 --at 40 --bot 2=builtin:random`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return fork(cmd.Context(), args[0], &f, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	addPlayFlags(cmd, &f.recordFlags)
	fl := cmd.Flags()
	fl.IntVar(&f.at, "at", 0, "last turn played as recorded: the fork is live from the next one")
	fl.StringArrayVar(&f.seatBots, "bot", nil, "SEAT=SPEC: the bot of a seat (from 1) from the fork on: builtin:NAME, a command line or an original protocol's spec (repeat per seat)")
	fl.StringArrayVar(&f.commands, "command", nil, "SEAT=TEXT: the command a seat plays at the first live turn")
	fl.StringVarP(&f.out, "out", "o", "", "output file (.rpl binary, .rlog text, - = text on stdout)")
	fl.StringVar(&f.db, "db", "", "database to read a stored match from and store the fork in: an SQLite file (created if missing) or a postgres:// URL")
	fl.StringVar(&f.outputFile, "bot-output", "", "where to save external bots' stray stdout and stderr (default FILE.output.jsonl)")
	cmd.MarkFlagRequired("at")
	return cmd
}

func fork(ctx context.Context, path string, f *forkFlags, stdout, stderr io.Writer) error {
	if f.out == "" && f.db == "" {
		return usagef("give -o FILE, --db FILE or both: where the fork goes")
	}
	src := &matches{dbPath: f.db}
	g, parent, err := src.parent(ctx, path, path)
	src.close() // storing the fork opens the database again, once it is played
	if err != nil {
		return err
	}
	if n := len(parent.Turns); f.at < 1 || f.at >= n {
		return usagef("--at %d: the match has turns 1 to %d, and a fork plays at least one turn live: give a turn from 1 to %d", f.at, n, n-1)
	}
	named, err := seatValues("--bot", f.seatBots, len(parent.Header.Players))
	if err != nil {
		return err
	}
	forced, err := seatValues("--command", f.commands, len(parent.Header.Players))
	if err != nil {
		return err
	}
	for s, c := range forced {
		if len(c) > replay.MaxCommandBytes {
			return usagef("--command %d: a command of %d bytes, at most %d", s+1, len(c), replay.MaxCommandBytes)
		}
	}
	h, err := replay.Fork(parent, f.at)
	if err != nil {
		return err
	}
	specs, err := seatSpecs(g, &h, named, nil)
	if err != nil {
		return err
	}
	rec := &replay.Recorder{Header: h, From: parent, At: f.at, Force: forced}
	built, err := recordAndWrite(ctx, g, rec, specs, &f.recordFlags, stdout, stderr, func(r *replay.Recorder) {
		writeAgreements(stderr, r.Header.Players, r.Agreements, f.at)
	})
	if err != nil || f.db == "" {
		return err
	}
	w := stdout
	if f.out == "-" { // the replay took stdout
		w = stderr
	}
	return storeFork(ctx, f.db, built, w)
}

// storeFork stores a played fork, with its lineage and its bots' output,
// in the database at dbPath (created if missing), as import does, and
// prints its id and dashboard page.
func storeFork(ctx context.Context, dbPath string, rec *store.Record, w io.Writer) error {
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	created, _, err := db.Upload(ctx, rec)
	if err != nil {
		return fmt.Errorf("store the fork in %s: %w", store.DisplayName(dbPath), err)
	}
	how := "stored"
	if !created {
		how = "stored already" // the same fork played before: built-in bots play alike
	}
	fmt.Fprintf(w, "match %s %s in %s: /matches/%s\n", rec.ID, how, store.DisplayName(dbPath), rec.ID[:12])
	return nil
}

// readParent reads a replay to fork or ask about and regenerates it in
// full: only a match that verifies can be played on from one of its turns.
func readParent(ctx context.Context, path string) (*sim.Game, *replay.Log, error) {
	l, err := readReplay(path)
	if err != nil {
		return nil, nil, err
	}
	return playable(ctx, path, l)
}

// playable regenerates the match l, which name names in messages, and
// returns its game when it verifies.
func playable(ctx context.Context, name string, l *replay.Log) (*sim.Game, *replay.Log, error) {
	if _, err := replay.Run(ctx, l, nil); err != nil {
		return nil, nil, fmt.Errorf("%s does not verify, so it cannot be played on: %w", name, err)
	}
	g, err := games.Lookup(l.Header.Game)
	return g, l, err
}

// matches finds the matches fork and ask play on: replay files and, when
// dbPath is set (--db), the matches stored there, by id or unique prefix.
// The database is opened at the first stored match asked for.
type matches struct {
	dbPath string
	db     *store.DB
}

// parent reads the match in the replay file path or, when there is no
// such file and a database was given, the stored match whose id (or
// unique prefix) id is, and regenerates it as readParent does. A file
// that does not exist and is not a stored match's id is a usage error.
func (ms *matches) parent(ctx context.Context, path, id string) (*sim.Game, *replay.Log, error) {
	_, err := os.Stat(path)
	switch {
	case err == nil:
		return readParent(ctx, path)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, nil, err
	case ms.dbPath == "":
		return nil, nil, usagef("%s: no such replay file (with --db FILE, a stored match's id is taken too)", path)
	}
	if ms.db == nil {
		if ms.db, err = store.OpenExisting(ctx, ms.dbPath); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, usagef("%s: no such replay file, and --db %s does not exist", path, store.DisplayName(ms.dbPath))
		} else if err != nil {
			return nil, nil, err
		}
	}
	m, err := ms.db.Match(ctx, id)
	switch {
	case errors.Is(err, store.ErrInvalid):
		return nil, nil, usagef("%s: no such replay file, and not a match id (%d to 64 hex digits)", path, store.MinPrefix)
	case errors.Is(err, store.ErrNotFound):
		return nil, nil, usagef("%s: no such replay file, and %s has no match with that id", path, store.DisplayName(ms.dbPath))
	case errors.Is(err, store.ErrAmbiguous):
		return nil, nil, usageError{err}
	case err != nil:
		return nil, nil, err
	}
	data, err := ms.db.Replay(ctx, m.ID)
	if err != nil {
		return nil, nil, err
	}
	l, err := replay.Decode(data)
	if err != nil {
		return nil, nil, fmt.Errorf("stored match %s: %w", m.ID, err)
	}
	return playable(ctx, "stored match "+m.ID[:12], l)
}

// close closes the database, if it was opened.
func (ms *matches) close() {
	if ms.db != nil {
		ms.db.Close()
	}
}

// seatValues parses flag values of the form SEAT=VALUE, seats counting
// from 1, into values by 0-based seat.
func seatValues(flag string, values []string, seats int) (map[int]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	m := make(map[int]string, len(values))
	for _, v := range values {
		num, val, ok := strings.Cut(v, "=")
		n, err := strconv.Atoi(num)
		switch {
		case !ok || err != nil:
			return nil, usagef("%s %s: want SEAT=VALUE, the seat counting from 1", flag, v)
		case n < 1 || n > seats:
			return nil, usagef("%s %s: the match has seats 1 to %d", flag, v, seats)
		}
		if _, dup := m[n-1]; dup {
			return nil, usagef("%s: %s named twice", flag, sim.SeatName(n-1))
		}
		m[n-1] = val
	}
	return m, nil
}

// seatSpecs returns the bot spec of every seat of a match played on from
// a recorded one whose players h holds: the named spec, which takes the
// seat's player entry, or the seat's recorded built-in bot. A seat with
// neither gets fallback(seat) when fallback is not nil, "" as its spec;
// else it is refused, with every such seat named (replay.IsBuiltin says
// which bots are built-in).
func seatSpecs(g *sim.Game, h *replay.Header, named map[int]string, fallback func(seat int)) ([]string, error) {
	specs := make([]string, len(h.Players))
	var missing []string
	for s, p := range h.Players {
		if spec, ok := named[s]; ok {
			if err := checkSpec(g, spec); err != nil {
				return nil, usagef("--bot for %s: %v", sim.SeatName(s), err)
			}
			fp, err := botFingerprint(spec)
			if err != nil {
				return nil, fmt.Errorf("--bot %d (%s): %w", s+1, spec, err)
			}
			specs[s], h.Players[s] = spec, playerFor(spec, s, &recordFlags{})
			h.Players[s].Fingerprint = fp
			continue
		}
		if replay.IsBuiltin(g, p) {
			specs[s] = "builtin:" + p.Name
		} else if fallback != nil {
			fallback(s)
		} else {
			missing = append(missing, fmt.Sprintf("%s (%s)", sim.SeatName(s), botLabel(p.Name, p.Version)))
		}
	}
	if len(missing) > 0 {
		return nil, usagef("not a built-in bot, so it cannot be started from the replay: %s; give each a bot with --bot SEAT=SPEC", strings.Join(missing, ", "))
	}
	return specs, nil
}

// checkSpec refuses a built-in bot the game lacks, before any bot is
// started: a spec for another game's bot is the usual slip.
func checkSpec(g *sim.Game, spec string) error {
	if strings.TrimSpace(spec) == "" {
		return fmt.Errorf("empty bot spec")
	}
	if err := checkProtocol(g, spec); err != nil {
		return err
	}
	if name, ok := strings.CutPrefix(spec, "builtin:"); ok {
		if _, ok := g.Bot(name); !ok {
			names := make([]string, len(g.Bots))
			for i, b := range g.Bots {
				names[i] = "builtin:" + b.Name
			}
			return fmt.Errorf("game %s has no built-in bot %q (have %s)", g.Name, name, strings.Join(names, ", "))
		}
	}
	return nil
}

// writeAgreements reports, per seat, how far its bot repeated the
// recorded commands of turns 1 to at.
func writeAgreements(w io.Writer, players []replay.Player, ags []replay.Agreement, at int) {
	for _, a := range ags {
		p := players[a.Seat]
		if a.Turn == 0 {
			fmt.Fprintf(w, "%s (%s): the bot %s up to turn %d\n", sim.SeatName(a.Seat), botLabel(p.Name, p.Version), a, at)
		} else {
			fmt.Fprintf(w, "%s (%s): the bot %s\n", sim.SeatName(a.Seat), botLabel(p.Name, p.Version), a)
		}
	}
}
