package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

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
	cmd.Flags().StringVar(&dbPath, "db", "replaylab.db", "SQLite database file")
	cmd.Flags().StringVar(&match, "match", "", "match id or unique prefix")
	cmd.Flags().StringVar(&format, "format", "csv", "csv or jsonl")
	cmd.MarkFlagRequired("match")
	return cmd
}

func export(ctx context.Context, dbPath, id, format string, w io.Writer) error {
	if format != "csv" && format != "jsonl" {
		return fmt.Errorf("--format %q: want csv or jsonl", format)
	}
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
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	if format == "jsonl" {
		row := map[string]any{}
		enc := json.NewEncoder(bw)
		return db.TurnStats(ctx, m.ID, func(ts store.TurnStat) error {
			row["turn"], row["seat"], row["unit"], row["alive"] = ts.Turn, ts.Seat, ts.Unit, ts.Alive
			for _, md := range g.Metrics {
				row[md.Name], _ = ts.Value(md.Key)
			}
			return enc.Encode(row)
		})
	}
	cw := csv.NewWriter(bw)
	head := []string{"turn", "seat", "unit", "alive"}
	for _, md := range g.Metrics {
		head = append(head, md.Name)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	rec := make([]string, len(head))
	err = db.TurnStats(ctx, m.ID, func(ts store.TurnStat) error {
		rec[0], rec[1], rec[2], rec[3] = strconv.Itoa(ts.Turn), strconv.Itoa(ts.Seat), strconv.Itoa(ts.Unit), strconv.FormatBool(ts.Alive)
		for i, md := range g.Metrics {
			v, _ := ts.Value(md.Key)
			rec[4+i] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		return cw.Write(rec)
	})
	cw.Flush()
	if err != nil {
		return err
	}
	return cw.Error()
}
