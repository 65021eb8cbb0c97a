package store

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"

	"github.com/replaylab/replaylab/sim"
)

// ExportTurns streams a match's per-turn numbers to w, one record per turn,
// seat and unit (unit -1 = the player as a whole), with turn, seat, unit,
// alive and then the given metrics (the game's list, which names the
// stored metric numbers) by name. format is "csv" (with a header
// row) or "jsonl". begin, if set, runs once just before the first byte is
// written, so an HTTP handler can still answer with an error when the query
// fails at once.
func (db *DB) ExportTurns(ctx context.Context, matchID string, metrics []sim.MetricDef, format string, w io.Writer, begin func()) error {
	if format != "csv" && format != "jsonl" {
		return invalidf("export format %q: want csv or jsonl", format)
	}
	bw := bufio.NewWriter(w)
	var (
		header = func() error { return nil }
		write  func(TurnStat) error
		flush  = func() error { return nil }
	)
	if format == "csv" {
		cw := csv.NewWriter(bw)
		row := make([]string, 4+len(metrics))
		header = func() error {
			head := append([]string{"turn", "seat", "unit", "alive"}, make([]string, len(metrics))...)
			for i, md := range metrics {
				head[4+i] = md.Name
			}
			return cw.Write(head)
		}
		write = func(ts TurnStat) error {
			row[0], row[1], row[2], row[3] = strconv.Itoa(ts.Turn), strconv.Itoa(ts.Seat), strconv.Itoa(ts.Unit), strconv.FormatBool(ts.Alive)
			for i := range metrics {
				row[4+i] = strconv.FormatFloat(ts.value(i), 'g', -1, 64)
			}
			return cw.Write(row)
		}
		flush = func() error { cw.Flush(); return cw.Error() }
	} else {
		enc := json.NewEncoder(bw)
		rec := map[string]any{}
		write = func(ts TurnStat) error {
			rec["turn"], rec["seat"], rec["unit"], rec["alive"] = ts.Turn, ts.Seat, ts.Unit, ts.Alive
			for i, md := range metrics {
				rec[md.Name] = ts.value(i)
			}
			return enc.Encode(rec)
		}
	}
	started := false
	start := func() error {
		started = true
		if begin != nil {
			begin()
		}
		return header()
	}
	err := db.TurnStats(ctx, matchID, func(ts TurnStat) error {
		if !started {
			if err := start(); err != nil {
				return err
			}
		}
		return write(ts)
	})
	if err == nil && !started {
		err = start()
	}
	if err == nil {
		err = flush()
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}
