package regen

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/foodfight"
	"github.com/replaylab/replaylab/sim/worms"
	"github.com/replaylab/replaylab/store"
)

// record plays a match of g between built-in random bots (the career
// fair, which has none, between its last bot).
func record(t testing.TB, g *sim.Game, config string) *replay.Log {
	t.Helper()
	bot := "random"
	if _, ok := g.Bot(bot); !ok {
		bot = g.Bots[len(g.Bots)-1].Name
	}
	h := replay.NewHeader(g, "", 5, json.RawMessage(config))
	for range g.DefaultPlayers {
		h.Players = append(h.Players, replay.Player{Name: bot, Version: "1"})
	}
	if _, err := h.Check(); err != nil {
		t.Fatal(err)
	}
	var agents []replay.Agent
	for seat := range g.DefaultPlayers {
		a, err := replay.NewBuiltin(g, bot, h.Setup(), seat)
		if err != nil {
			t.Fatal(err)
		}
		agents = append(agents, a)
	}
	rec := replay.Recorder{Header: h, Agents: agents, HashEvery: 10}
	l, err := rec.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestBuildLines: every player gets its Alive line and one per metric,
// every worm its Alive line and one per per-unit metric (HP), each with a
// value per turn equal to what the match reported.
func TestBuildLines(t *testing.T) {
	rec, err := Build(context.Background(), record(t, worms.Game, `{"rounds":40}`))
	if err != nil {
		t.Fatal(err)
	}
	perSeat := (1 + len(worms.Game.Metrics)) + 3*(1+1)
	if got, want := len(rec.Lines), 2*perSeat; got != want {
		t.Errorf("%d lines, want %d", got, want)
	}
	for _, l := range rec.Lines {
		if len(l.Values) != rec.Turns+1 {
			t.Errorf("metric %d seat %d unit %d: %d values, want %d", l.Metric, l.Seat, l.Unit, len(l.Values), rec.Turns+1)
		}
		if l.Unit != sim.NoUnit && l.Metric != store.Alive && !worms.Game.Metrics[l.Metric].PerUnit {
			t.Errorf("unit %d of seat %d has a line of %s, which is not per unit", l.Unit, l.Seat, worms.Game.Metrics[l.Metric].Name)
		}
	}
	// Seat 0's first worm starts with 150 HP.
	for _, l := range rec.Lines {
		if l.Metric == 0 && l.Seat == 0 && l.Unit == 0 && l.Values[0] != 150 {
			t.Errorf("seat 0 worm 0 HP at turn 0: got %v, want 150", l.Values[0])
		}
	}
}

// rowsMatch reports given stat rows turn by turn.
type rowsMatch struct {
	sim.Match
	turns [][]sim.Stat
	turn  int
}

func (m *rowsMatch) AppendStats(dst []sim.Stat) []sim.Stat {
	dst = append(dst, m.turns[m.turn]...)
	m.turn++
	return dst
}

func TestLineSetRejectsChangingRows(t *testing.T) {
	g := &sim.Game{Metrics: []sim.MetricDef{{Name: "a"}, {Name: "b"}}}
	row := func(seat, unit int, values ...float64) sim.Stat {
		return sim.Stat{Seat: seat, Unit: unit, Values: values}
	}
	tests := []struct {
		name  string
		turns [][]sim.Stat
		want  string
	}{
		{"a row more", [][]sim.Stat{{row(0, -1, 1, 2)}, {row(0, -1, 1, 2), row(1, -1, 1, 2)}}, "2 stat rows, want 1"},
		{"rows swapped", [][]sim.Stat{{row(0, -1, 1, 2), row(1, -1, 1, 2)}, {row(1, -1, 1, 2), row(0, -1, 1, 2)}}, "stat row 0 is seat 1"},
		{"a value short", [][]sim.Stat{{row(0, -1, 1)}}, "1 values, want one per metric (2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ls := lineSet{game: g}
			m := &rowsMatch{turns: tt.turns}
			var err error
			for range tt.turns {
				if err = ls.add(m); err != nil {
					break
				}
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestBuildRoundsMetrics: a metric with a resolution is stored as the
// simulator's value rounded to it, every turn, and read back from the
// database as exactly that (FoodFight's energy and distances, at 0.01).
func TestBuildRoundsMetrics(t *testing.T) {
	g := foodfight.Game
	l := record(t, g, "")
	var want [][]sim.Stat // the simulator's rows, rounded, turn by turn
	rounded := 0          // values rounding changed
	_, err := replay.Run(context.Background(), l, func(tv *replay.TurnView) error {
		rows := tv.Match.AppendStats(nil)
		for _, r := range rows {
			for i, v := range r.Values {
				if r.Values[i] = g.Metrics[i].Round(v); r.Values[i] != v {
					rounded++
				}
			}
		}
		want = append(want, rows)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Build(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "round.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Ingest(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if rounded == 0 {
		t.Fatal("no value to round; want FoodFight's energy falling by 0.02 a turn, off by a float's error")
	}
	err = db.TurnStats(ctx, rec.ID, func(ts store.TurnStat) error {
		w := want[ts.Turn][ts.Seat] // one row per seat, in seat order
		if w.Seat != ts.Seat || w.Unit != ts.Unit {
			return fmt.Errorf("turn %d: stored row of seat %d unit %d, want seat %d unit %d", ts.Turn, ts.Seat, ts.Unit, w.Seat, w.Unit)
		}
		for i, v := range ts.Values {
			if math.Float64bits(v) != math.Float64bits(w.Values[i]) {
				return fmt.Errorf("turn %d seat %d %s: stored %v, want %v", ts.Turn, ts.Seat, g.Metrics[i].Name, v, w.Values[i])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
