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
// seat and unit, with turn, seat, unit, alive and then the metrics of g
// (the match's game, which names the stored metric numbers; nil for a
// game this build does not know, exported without metrics) by name.
// format is "csv" (with a header row) or "jsonl". The CSV is for people
// and spreadsheets: its seat counts from 1 and its unit is the number the
// game gives the unit (Worms' 11 to 23), empty for the player as a whole.
// JSON lines keep the indexes of the rest of the JSON: seat from 0, unit
// from 0 and -1 for the player as a whole. begin, if set, runs once just
// before the first byte is written, so an HTTP handler can still answer
// with an error when the query fails at once.
func (db *DB) ExportTurns(ctx context.Context, matchID string, g *sim.Game, format string, w io.Writer, begin func()) error {
	var metrics []sim.MetricDef
	var units sim.UnitNaming
	if g != nil {
		metrics, units = g.Metrics, g.Units
	}
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
			unit := ""
			if ts.Unit != sim.NoUnit {
				unit = strconv.Itoa(units.Number(ts.Seat, ts.Unit))
			}
			row[0], row[1], row[2], row[3] = strconv.Itoa(ts.Turn), strconv.Itoa(sim.SeatNumber(ts.Seat)), unit, strconv.FormatBool(ts.Alive)
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
