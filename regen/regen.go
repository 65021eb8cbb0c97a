// Package regen regenerates a replay into the rows storage keeps: it runs
// the match through replay.Run and collects each turn's metrics as lines,
// and its events into a store.Record. Build touches no database, so callers
// run many regenerations in parallel and hand the records to the store's
// single writer. Frames serves the inspector's per-turn frames by
// regenerating turns from the stored replay on demand.
package regen

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// EngineVersion names the build that regenerated a match, stored with it so
// a match can be traced to the code that produced its numbers.
var EngineVersion = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return "replaylab@" + s.Value[:12]
			}
		}
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return "replaylab@" + v
		}
	}
	return "replaylab@devel"
})

// Build regenerates the match of a log and collects everything
// store.DB.Ingest writes. It stops between turns once ctx is done. A log
// recorded under an older rules revision is built when this build
// reproduces it, with this build's events and numbers, and is otherwise an
// ErrOldRevision error (see replay.Run).
func Build(ctx context.Context, l *replay.Log) (*store.Record, error) {
	g, err := l.Header.Check()
	if err != nil {
		return nil, err
	}
	enc, err := l.Encode()
	if err != nil {
		return nil, err
	}
	rec := &store.Record{
		ID:            enc.ID,
		Game:          l.Header.Game,
		Ruleset:       l.Header.Ruleset,
		Seed:          l.Header.Seed,
		Config:        l.Header.Config,
		Encoded:       enc.Bytes,
		EngineVersion: EngineVersion(),
	}
	if p := l.Header.Parent; p != nil {
		rec.Parent = &store.Parent{ID: p.Match, Turn: p.Turn}
	}
	for _, p := range l.Header.Players {
		rec.Players = append(rec.Players, store.Player{Name: p.Name, Version: p.Version})
		rec.Fingerprints = append(rec.Fingerprints, p.Fingerprint)
	}
	lines := lineSet{game: g}
	start := time.Now()
	m, err := replay.Run(ctx, l, func(tv *replay.TurnView) error {
		if err := lines.add(tv.Match); err != nil {
			return fmt.Errorf("turn %d: %w", tv.Turn, err)
		}
		for _, e := range tv.Events {
			rec.Events = append(rec.Events, store.TurnEvent{Turn: tv.Turn, Event: e})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rec.RegenTime = time.Since(start)
	rec.Turns = m.Turn()
	rec.Result = m.Result()
	rec.Lines = lines.lines
	return rec, nil
}

// lineSet turns each turn's stat rows into lines, each value rounded to its
// metric's resolution (sim.MetricDef.Round). The first turn fixes the
// rows (a seat or unit, in the order the game reports them) and which lines
// each feeds: its Alive line and one per metric that applies to it. Every
// later turn must report the same rows in the same order.
type lineSet struct {
	game  *sim.Game
	lines []store.Line
	rows  []row
	stats []sim.Stat // reused from turn to turn
}

// row is one stat row of every turn and where its numbers go.
type row struct {
	seat, unit int
	alive      int   // index of the row's Alive line
	metrics    []int // metric indexes that apply to the row
	first      int   // index of the line of metrics[0]; the others follow
}

func (ls *lineSet) add(m sim.Match) error {
	g := ls.game
	ls.stats = m.AppendStats(ls.stats[:0])
	if ls.rows == nil {
		for _, s := range ls.stats {
			r := row{seat: s.Seat, unit: s.Unit, alive: len(ls.lines)}
			ls.lines = append(ls.lines, store.Line{Metric: store.Alive, Seat: s.Seat, Unit: s.Unit})
			r.first = len(ls.lines)
			for i := range g.Metrics {
				if g.Applies(i, s.Unit) {
					r.metrics = append(r.metrics, i)
					ls.lines = append(ls.lines, store.Line{Metric: i, Seat: s.Seat, Unit: s.Unit})
				}
			}
			ls.rows = append(ls.rows, r)
		}
	}
	if len(ls.stats) != len(ls.rows) {
		return fmt.Errorf("%d stat rows, want %d as at turn 0", len(ls.stats), len(ls.rows))
	}
	for k, s := range ls.stats {
		r := &ls.rows[k]
		if s.Seat != r.seat || s.Unit != r.unit {
			return fmt.Errorf("stat row %d is seat %d unit %d, want seat %d unit %d as at turn 0", k, s.Seat, s.Unit, r.seat, r.unit)
		}
		if len(s.Values) != len(g.Metrics) {
			return fmt.Errorf("seat %d unit %d: %d values, want one per metric (%d)", s.Seat, s.Unit, len(s.Values), len(g.Metrics))
		}
		alive := 0.0
		if s.Alive {
			alive = 1
		}
		l := &ls.lines[r.alive]
		l.Values = append(l.Values, alive)
		for j, i := range r.metrics {
			l := &ls.lines[r.first+j]
			l.Values = append(l.Values, g.Metrics[i].Round(s.Values[i]))
		}
	}
	return nil
}
