package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/store"
)

func newDeleteCmd() *cobra.Command {
	var dbPath string
	cmd := &cobra.Command{
		Use:   "delete [--db FILE] ID...",
		Short: "Delete stored matches with everything derived from them",
		Long: `Delete the stored matches IDs name (each a full id or a unique prefix of at
least 8 hex digits) with their replays, per-turn numbers, events, bot output,
critical sweeps and their share of every leaderboard, head-to-head record and rating, in one
transaction, then refit the ratings of their rulesets. The database is then
the one an import of the remaining matches would make. To store a match
again (with its bot output, or after a fix), delete it and import or upload
its replay. An id that names no match, or several, deletes nothing.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, ids []string) error {
			return deleteMatches(cmd.Context(), dbPath, ids, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&dbPath, "db", "replaylab.db", "database: an SQLite file or a postgres:// URL")
	return cmd
}

func deleteMatches(ctx context.Context, dbPath string, ids []string, w io.Writer) error {
	db, err := store.OpenExisting(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	deleted, err := db.DeleteMatches(ctx, ids)
	if err != nil {
		// One line per id refused, on one line of the error.
		return fmt.Errorf("nothing deleted: %s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	type ruleset struct{ game, name string }
	var touched []ruleset
	for _, d := range deleted {
		fmt.Fprintf(w, "deleted match %s (%s/%s)\n", d.ID[:12], d.Game, d.Ruleset)
		if r := (ruleset{d.Game, d.Ruleset}); !slices.Contains(touched, r) {
			touched = append(touched, r)
		}
	}
	// A server on the same file would refit within a minute; refitting
	// here makes the stored ratings right at once, and with no server.
	refit := analytics.NewRefitter(db, slog.New(slog.DiscardHandler))
	counts, err := db.RulesetCounts(ctx)
	if err != nil {
		return err
	}
	for _, r := range touched {
		i := slices.IndexFunc(counts, func(c store.RulesetCount) bool { return c.Game == r.game && c.Ruleset == r.name })
		if i < 0 {
			fmt.Fprintf(w, "%s/%s has no match left: its ratings are gone\n", r.game, r.name)
			continue
		}
		if err := refit.RefitRuleset(ctx, r.game, r.name); err != nil {
			return fmt.Errorf("the matches are deleted, but refitting the ratings failed (a server refits them when it starts): %w", err)
		}
		fmt.Fprintf(w, "refitted the ratings of %s/%s: %d matches left\n", r.game, r.name, counts[i].Matches)
	}
	return nil
}
