package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/games"
)

func newVerifyCmd() *cobra.Command {
	return &cobra.Command{
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
a newer revision than this build plays fails.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			failed := 0
			for _, path := range args {
				msg, err := verifyFile(cmd.Context(), path)
				if err != nil {
					failed++
					fmt.Fprintf(out, "%s: FAIL %v\n", path, err)
					continue
				}
				fmt.Fprintf(out, "%s: ok %s\n", path, msg)
			}
			if failed > 0 {
				return exitError{1}
			}
			return nil
		},
	}
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
