package main

import (
	"context"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// TestDemoPlan checks every demo match's setup against its game (config,
// ruleset and seat count), that the FoodFight demo plays each match type
// with its own seat count, and that every career fair board of the demo
// is played under each of the game's rulesets.
func TestDemoPlan(t *testing.T) {
	seats := map[string][]int{} // game -> the seat counts its demo plays
	played := map[string]bool{} // "game config ruleset" of every demo match
	for _, m := range demoPlan() {
		played[m.game.Name+" "+m.config+" "+m.ruleset] = true
		h := m.header()
		if _, err := h.Check(); err != nil {
			t.Errorf("%s seed %d config %s with %d seats: %v", m.game.Name, m.seed, m.config, len(m.bots), err)
		}
		if n := len(m.bots); !slices.Contains(seats[m.game.Name], n) {
			seats[m.game.Name] = append(seats[m.game.Name], n)
		}
	}
	for _, tt := range []struct {
		game  string
		seats []int
	}{
		{"foodfight", []int{2, 3, 4}},
		{"toad", []int{1}},
	} {
		got := seats[tt.game]
		slices.Sort(got)
		if !slices.Equal(got, tt.seats) {
			t.Errorf("%s demo: got matches of %v seats, want %v", tt.game, got, tt.seats)
		}
	}
	cf, err := games.Lookup("careerfair")
	if err != nil {
		t.Fatal(err)
	}
	for _, setup := range demoSetups[cf.Name] {
		for _, r := range cf.Rulesets {
			if !played[cf.Name+" "+setup.config+" "+r] {
				t.Errorf("careerfair demo: no match on %s under ruleset %s", setup.config, r)
			}
		}
	}
}

// TestDemoRecordedMatch: the demo holds the starter bot's recorded match,
// which regenerates to the replay's own id with its stderr, its answer
// times and its debug drawings, so a demo shows them.
func TestDemoRecordedMatch(t *testing.T) {
	var recorded []demoMatch
	for _, m := range demoPlan() {
		if m.recorded != nil {
			recorded = append(recorded, m)
		}
	}
	if len(recorded) != 1 {
		t.Fatalf("got %d recorded demo matches, want the starter bot's one", len(recorded))
	}
	l, err := replay.DecodeBinary(recorded[0].recorded.replay)
	if err != nil {
		t.Fatal(err)
	}
	id, err := l.ID()
	if err != nil {
		t.Fatal(err)
	}
	rec, err := recordDemo(context.Background(), recorded[0])
	if err != nil {
		t.Fatal(err)
	}
	if rec.ID != id {
		t.Errorf("regenerated id %s, the replay's is %s", rec.ID, id)
	}
	streams := map[string]int{}
	for _, o := range rec.Output {
		streams[o.Stream]++
	}
	for _, s := range []string{store.Stderr, store.Times, store.Debug} {
		if streams[s] == 0 {
			t.Errorf("the recorded demo match has no %s output: %v", s, streams)
		}
	}
}

// TestDemoDrawings: every game's demo has matches whose built-in bots keep
// their debug drawings (the first round), and one of them regenerates
// with drawings in its output, so each game's inspector shows them.
func TestDemoDrawings(t *testing.T) {
	drawing := map[string][]demoMatch{}
	for _, m := range demoPlan() {
		if m.draw {
			drawing[m.game.Name] = append(drawing[m.game.Name], m)
		}
	}
	for _, g := range games.All() {
		if len(g.Bots) == 0 {
			continue
		}
		t.Run(g.Name, func(t *testing.T) {
			ms := drawing[g.Name]
			if len(ms) == 0 {
				t.Fatal("no demo match keeps drawings")
			}
			for _, m := range ms {
				rec, err := recordDemo(context.Background(), m)
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range rec.Output {
					if o.Stream == store.Debug {
						return
					}
				}
			}
			t.Errorf("none of the %d demo matches that keep drawings has any", len(ms))
		})
	}
}
