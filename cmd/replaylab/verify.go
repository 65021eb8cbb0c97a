package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/games"
)

func newVerifyCmd() *cobra.Command {
	var jobs int
	cmd := &cobra.Command{
		Use:   "verify FILE...",
		Short: "Regenerate replays, check their state hashes and print the result",
		Long: `Regenerate each replay turn by turn, check every state hash the recorder
wrote and the end record, and print the result and winner. A replay that
does not decode (corrupt, truncated, too large), does not regenerate or
whose hashes differ is reported with the turn and reason, and the exit
status is 1. A replay recorded by an older build (format replaylab/1) has no
end record, so losing its last lines cannot be detected: verify says so.

A replay recorded under an older rules revision of its ruleset (a rule has
changed since) is ok when this build reproduces every state hash it
recorded, and verify names both revisions; otherwise it fails with
"recorded with an older engine revision", not as a divergence. A replay of
a newer revision than this build plays fails.

Files are verified --jobs at a time (one per core by default) and reported
in the order given.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if jobs < 1 {
				return usagef("--jobs must be at least 1, not %d", jobs)
			}
			defer tuneGC()()
			if failed := verifyFiles(cmd.Context(), cmd.OutOrStdout(), args, jobs); failed > 0 {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&jobs, "jobs", runtime.GOMAXPROCS(0), "replays regenerated at once (each holds one replay in memory)")
	return cmd
}

// tuneGC lets the heap grow to five times what is live instead of twice,
// unless GOGC or GOMEMLIMIT says otherwise, and returns what restores the
// settings (the tests run commands in one process). verify keeps little
// between files (one replay a job), so at the default a run of many files
// spends about 8% of its CPU collecting a heap of a few MB; the memory
// limit keeps a large replay's heap within 1 GiB where it can.
func tuneGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent, limit := debug.SetGCPercent(400), debug.SetMemoryLimit(1<<30)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// verifyFiles verifies paths with up to jobs at once, printing each
// result in the order of paths as soon as it and those before it are
// done, and returns how many failed. A replay regenerates on one core, so
// several files use several; memory is one replay per job.
func verifyFiles(ctx context.Context, out io.Writer, paths []string, jobs int) (failed int) {
	type result struct {
		msg string
		err error
	}
	results := make([]chan result, len(paths))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(jobs, len(paths)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				if err := ctx.Err(); err != nil {
					results[i] <- result{err: err}
					continue
				}
				msg, err := verifyFile(ctx, paths[i])
				results[i] <- result{msg, err}
			}
		})
	}
	defer wg.Wait()
	for i, path := range paths {
		r := <-results[i]
		if r.err != nil {
			failed++
			fmt.Fprintf(out, "%s: FAIL %v\n", path, r.err)
			continue
		}
		fmt.Fprintf(out, "%s: ok %s\n", path, r.msg)
	}
	return failed
}

func verifyFile(ctx context.Context, path string) (string, error) {
	l, id, err := readReplayID(path)
	if err != nil {
		return "", err
	}
	m, err := replay.Run(ctx, l, nil)
	if err != nil {
		var de *replay.DivergenceError
		if errors.As(err, &de) {
			return "", fmt.Errorf("%w (%d of %d recorded hashes checked before it)", err, countHashesBefore(l, de.Turn), len(l.Hashes))
		}
		return "", err
	}
	h := l.Header
	end := "end record matches"
	if l.End == nil {
		end = "no end record (" + replay.FormatV1 + ", recorded by an older build: truncation cannot be detected)"
	}
	return fmt.Sprintf("%s/%s seed %d, %d turns, %s; %d hashes match%s; %s; id %s",
		h.Game, h.Ruleset, h.Seed, m.Turn(), describeResult(m.Result(), h.Players), len(l.Hashes), olderRevision(&h), end, id[:12]), nil
}

// olderRevision notes a replay recorded under an older rules revision that
// this build reproduces, or returns "".
func olderRevision(h *replay.Header) string {
	g, err := games.Lookup(h.Game)
	if err != nil || h.RulesRevision() == g.Revision(h.Ruleset) {
		return ""
	}
	return fmt.Sprintf(" (recorded under rules revision r%d; this build plays r%d and reproduces it)", h.RulesRevision(), g.Revision(h.Ruleset))
}

func countHashesBefore(l *replay.Log, turn int) int {
	n := 0
	for _, h := range l.Hashes {
		if h.Turn < turn {
			n++
		}
	}
	return n
}
