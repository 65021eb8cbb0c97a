package worms

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// playBots plays a match between two built-in bots and returns it and the
// commands played, one pair per round.
func playBots(t testing.TB, ruleset string, seed uint64, names [2]string) (*match, [][]string) {
	t.Helper()
	m := start(t, ruleset, seed)
	var bots [2]sim.Bot
	for s := range bots {
		def, ok := Game.Bot(names[s])
		if !ok {
			t.Fatalf("no bot %s", names[s])
		}
		bots[s], _ = def.New(sim.Setup{Ruleset: ruleset, Seed: seed, Players: 2}, s, seed*2+uint64(s))
	}
	var log [][]string
	for !m.Over() {
		cmds := []string{bots[0].Act(m.View(0)), bots[1].Act(m.View(1))}
		log = append(log, cmds)
		play(t, m, cmds...)
	}
	return m, log
}

// TestTacticalBeatsRandom measures the tactical bot's win rate against the
// random bot, seats alternating by seed (100 seeds, 20 with -short).
func TestTacticalBeatsRandom(t *testing.T) {
	seeds := 100
	if testing.Short() {
		seeds = 20
	}
	for _, ruleset := range Game.Rulesets {
		wins := 0
		for seed := range uint64(seeds) {
			seat := int(seed % 2)
			names := [2]string{"random", "random"}
			names[seat] = "tactical"
			m, _ := playBots(t, ruleset, seed, names)
			if m.Result().Winner == seat {
				wins++
			}
		}
		t.Logf("%s: tactical won %d of %d against random", ruleset, wins, seeds)
		if wins*100 < 90*seeds {
			t.Errorf("%s: tactical won %d of %d, want at least 90%%", ruleset, wins, seeds)
		}
	}
}

// TestBotsLegal: the random bot never plays an invalid command, and the
// tactical bot does not either; both read JSON-decoded views.
func TestBotsLegal(t *testing.T) {
	for _, ruleset := range Game.Rulesets {
		m, _ := playBots(t, ruleset, 5, [2]string{"random", "tactical"})
		for s := range numSeats {
			if n := m.players[s].invalid; n != 0 {
				t.Errorf("%s seat %d played %d invalid commands", ruleset, s, n)
			}
		}
	}
	m := start(t, "final", 9)
	for _, name := range []string{"random", "tactical"} {
		def, _ := Game.Bot(name)
		bot, _ := def.New(sim.Setup{}, 0, 1)
		twin, _ := def.New(sim.Setup{}, 0, 1)
		var generic map[string]any
		if err := roundTrip(m.View(0), &generic); err != nil {
			t.Fatal(err)
		}
		if got, want := bot.Act(generic), twin.Act(m.View(0)); got != want || got == "nothing" {
			t.Errorf("%s: JSON view gives %q, struct view %q", name, got, want)
		}
		if got := bot.Act("not a view"); got != "nothing" {
			t.Errorf("%s on garbage: %q", name, got)
		}
	}
}

// TestPeekReadsAsView: in every round of matches of both rulesets, the
// view Peek lends each seat, refilled round after round, encodes as its
// View, and every bot answers the same from it.
func TestPeekReadsAsView(t *testing.T) {
	for _, ruleset := range Game.Rulesets {
		var peeked, viewed [2][numSeats]sim.Bot
		for k, name := range []string{"random", "tactical"} {
			def, _ := Game.Bot(name)
			for s := range numSeats {
				peeked[k][s], _ = def.New(sim.Setup{Ruleset: ruleset, Players: 2}, s, uint64(s))
				viewed[k][s], _ = def.New(sim.Setup{Ruleset: ruleset, Players: 2}, s, uint64(s))
			}
		}
		_, log := playBots(t, ruleset, 3, [2]string{"tactical", "random"})
		m := start(t, ruleset, 3)
		for _, cmds := range log {
			for s := range numSeats {
				got, err := json.Marshal(m.Peek(s))
				if err != nil {
					t.Fatal(err)
				}
				if want, _ := json.Marshal(m.View(s)); string(got) != string(want) {
					t.Fatalf("%s round %d seat %d: got peeked view %s, want %s", ruleset, m.round+1, s, got, want)
				}
				for k := range peeked {
					if got, want := peeked[k][s].Act(m.Peek(s)), viewed[k][s].Act(m.View(s)); got != want {
						t.Fatalf("%s round %d seat %d bot %d: got %q from the peeked view, want %q", ruleset, m.round+1, s, k, got, want)
					}
				}
			}
			play(t, m, cmds...)
		}
	}
}

// FuzzStep plays random command text: no panic, and after every round HP
// rises only by a pack, no two worms share a cell, dirt never reappears.
func FuzzStep(f *testing.F) {
	f.Add("final", uint64(0), "move 24 5\nselect 2;banana 22 26\nsnowball 3 16\nshoot N\n\nC;1;dig 23 3")
	f.Add("base", uint64(42), "nothing\njump\nmove 9 28;move 9 27\nshoot ſe\nselect 2")
	f.Add("final", uint64(7), "select 3;snowball 30 16\nbanana 8 4\nmove -1 2147483648\n;;;")
	f.Fuzz(func(t *testing.T, ruleset string, seed uint64, text string) {
		if ruleset != "base" {
			ruleset = "final"
		}
		m := start(t, ruleset, seed)
		lines := strings.Split(text, "\n")
		for i := 0; i < 60; i++ {
			before := *m
			err := m.Step([]string{lines[i%len(lines)], lines[(i*7+3)%len(lines)]})
			if before.over {
				if !errors.Is(err, sim.ErrOver) {
					t.Fatalf("Step after the end: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, &before, m)
		}
	})
}

func checkInvariants(t *testing.T, before, m *match) {
	t.Helper()
	picked := map[int]bool{}
	for _, e := range m.events {
		if e.Kind == EventPickup {
			picked[e.Seat*wormsPerPlayer+e.Unit] = true
		}
	}
	var seen [numCells]int
	for g := range m.worms {
		w, b := &m.worms[g], &before.worms[g]
		if w.hp > b.hp && !(picked[g] && w.hp <= b.hp+packHP) {
			t.Fatalf("round %d: worm %d HP %d -> %d without a pack", m.round, g, b.hp, w.hp)
		}
		if m.onMapWorm(g) {
			c := w.y*mapSize + w.x
			if seen[c] != 0 {
				t.Fatalf("round %d: worms %d and %d share a cell", m.round, seen[c]-1, g)
			}
			seen[c] = g + 1
			if !w.alive() {
				t.Fatalf("round %d: dead worm %d still on the map", m.round, g)
			}
		}
	}
	for c := range numCells {
		if m.grid[c] == dirt && before.grid[c] != dirt {
			t.Fatalf("round %d: dirt reappeared at %d", m.round, c)
		}
		if int(m.occ[c]) > 0 && seen[c] != int(m.occ[c]) {
			t.Fatalf("round %d: occupancy of cell %d disagrees with the worms", m.round, c)
		}
	}
	if m.Hash() != m.Hash() {
		t.Fatal("Hash is not stable")
	}
}

// recorded plays bot matches of the final ruleset once and keeps their
// commands, so the benchmark measures Step alone.
func recorded(b *testing.B, n int) [][][]string {
	var out [][][]string
	for seed := range uint64(n) {
		_, log := playBots(b, "final", seed, [2]string{"tactical", "tactical"})
		out = append(out, log)
		_, log = playBots(b, "final", seed, [2]string{"tactical", "random"})
		out = append(out, log)
	}
	return out
}

// BenchmarkMatch regenerates recorded final matches between the built-in
// bots: New plus every Step, bots excluded.
func BenchmarkMatch(b *testing.B) {
	logs := recorded(b, 4)
	rounds := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		log := logs[i%len(logs)]
		m, _ := Game.New(sim.Setup{Ruleset: "final", Seed: uint64(i % len(logs) / 2), Players: 2})
		for _, cmds := range log {
			m.Step(cmds)
		}
		rounds += len(log)
	}
	b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkHash is the per-round digest the replay layer checks.
func BenchmarkHash(b *testing.B) {
	m := start(b, "final", 1)
	for b.Loop() {
		m.Hash()
	}
}

// TestFollowPlan: a worm follows the walk approach kept while it holds,
// also when its goal is a step off the firing cells, and searches again
// once it is too old, no longer leads to a firing cell or next to one,
// does not pass where the worm stands, or became dearer.
func TestFollowPlan(t *testing.T) {
	m := start(t, "base", 1)
	var b board
	if v, ok := sim.ReadView[View](m.View(0)); !ok || !b.read(v) {
		t.Fatal("no active worm in the first view")
	}
	var rt routes
	var fresh plan
	first := b.approach(b.me, &rt, &fresh)
	if len(fresh.cells) < 3 {
		t.Fatalf("got a kept walk of %d cells from %q, want at least 3", len(fresh.cells), first)
	}
	start := fresh.cells[0]
	goal := fresh.cells[len(fresh.cells)-1]
	// moveGoal marks as firing cells only the cell k steps from the goal
	// along the line its walk comes in on, as if the enemy had moved.
	moveGoal := func(k int) func(*plan, *[numCells]bool) {
		return func(_ *plan, goals *[numCells]bool) {
			clear(goals[:])
			c, before := goal, fresh.cells[len(fresh.cells)-2]
			for range k {
				c += goal - before
			}
			goals[c] = true
		}
	}
	tests := []struct {
		name   string
		change func(p *plan, goals *[numCells]bool)
		want   bool
	}{
		{"fresh", func(*plan, *[numCells]bool) {}, true},
		{"too old", func(p *plan, _ *[numCells]bool) { p.age = maxPlanAge }, false},
		{"no firing cell", func(p *plan, _ *[numCells]bool) { p.cells = p.cells[:1] }, false},
		{"elsewhere", func(p *plan, _ *[numCells]bool) { p.cells = p.cells[1:]; p.steps = p.steps[1:] }, false},
		{"dearer", func(p *plan, _ *[numCells]bool) { p.steps[1] = 0 }, false},
		{"goal a step off", moveGoal(1), true},
		{"goal two steps off", moveGoal(2), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := plan{cells: slices.Clone(fresh.cells), steps: slices.Clone(fresh.steps)}
			goals := rt.goal
			tc.change(&p, &rt.goal)
			defer func() { rt.goal = goals }()
			next, ok := b.follow(&p, start, &rt)
			if ok != tc.want {
				t.Fatalf("got follow %v, want %v", ok, tc.want)
			}
			if ok && (next != fresh.cells[1] || b.stepInto(next) != first) {
				t.Errorf("got step %q, want %q", b.stepInto(next), first)
			}
		})
	}
}

// TestFindRoutesCheapestGoal: in every round of a match, the firing cell
// the search picks costs what relaxing every cell until nothing changes
// says the cheapest firing cell costs.
func TestFindRoutesCheapestGoal(t *testing.T) {
	m := start(t, "final", 11)
	var bots [numSeats]sim.Bot
	for s := range bots {
		bots[s], _ = newTactical(sim.Setup{}, s, 0)
	}
	var b board
	var rt routes
	for !m.Over() {
		for s := range numSeats {
			v, _ := sim.ReadView[View](m.View(s))
			if !b.read(v) || len(b.enemy) == 0 {
				continue
			}
			start := b.me.Position.Y*mapSize + b.me.Position.X
			clear(rt.goal[:])
			b.firingCells(func(c int) { rt.goal[c] = true })
			b.findRoutes(start, &rt)
			got := -1
			if g := b.firingCell(&rt); g >= 0 {
				got = rt.costTo(g)
			}
			if want := cheapestGoal(&b, start, &rt.goal); got != want {
				t.Fatalf("round %d seat %d: got cheapest firing cell at cost %d, want %d", m.round, s, got, want)
			}
		}
		play(t, m, bots[0].Act(m.View(0)), bots[1].Act(m.View(1)))
	}
}

// cheapestGoal is the least cost below maxRouteCost of walking from start
// to a goal cell, -1 for none, by relaxing every cell until nothing changes.
func cheapestGoal(b *board, start int, goal *[numCells]bool) int {
	safe := b.safeRadius(b.v.CurrentRound + 3)
	var cost [numCells]int
	for c := range cost {
		cost[c] = 1 << 30
	}
	cost[start] = 0
	for changed := true; changed; {
		changed = false
		for c := range numCells {
			step := b.stepCost(c, safe)
			if step == 0 || c == start {
				continue
			}
			for _, n := range neighbours[c] {
				if n >= 0 && cost[n]+step < cost[c] && cost[n]+step < maxRouteCost {
					cost[c], changed = cost[n]+step, true
				}
			}
		}
	}
	best := -1
	for c := range numCells {
		if goal[c] && cost[c] < 1<<30 && (best < 0 || cost[c] < best) {
			best = cost[c]
		}
	}
	return best
}
