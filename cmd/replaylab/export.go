package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

func newExportCmd() *cobra.Command {
	var dbPath, match, format string
	cmd := &cobra.Command{
		Use:   "export --match ID [--format csv|jsonl] [--db FILE]",
		Short: "Write a stored match's per-turn numbers as CSV or JSON lines",
		Long: `Write one row per turn, seat and unit (unit -1 = the player as a whole) with
the game's metrics as columns, to standard output. ID may be a unique
prefix of at least 8 hex digits.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return export(cmd.Context(), dbPath, match, format, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&dbPath, "db", "replaylab.db", "database: an SQLite file or a postgres:// URL")
	cmd.Flags().StringVar(&match, "match", "", "match id or unique prefix")
	cmd.Flags().StringVar(&format, "format", "csv", "csv or jsonl")
	cmd.MarkFlagRequired("match")
	return cmd
}

func export(ctx context.Context, dbPath, id, format string, w io.Writer) error {
	db, err := store.OpenExisting(ctx, dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	m, err := db.Match(ctx, id)
	if err != nil {
		return fmt.Errorf("match %s: %w", id, err)
	}
	g, err := games.Lookup(m.Game)
	if err != nil {
		return err
	}
	return db.ExportTurns(ctx, m.ID, g, format, w, nil)
}
