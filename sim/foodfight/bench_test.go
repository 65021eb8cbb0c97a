package foodfight

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// FuzzStep drives matches of every type, with and without the fixed_*
// flags, from arbitrary command text: no panic, the invariants hold after
// every turn, and a Step after the end is sim.ErrOver.
func FuzzStep(f *testing.F) {
	f.Add("moveForward\nturnLeft\npickupLeft\nthrowLeft\n\nduck", uint64(1), uint8(0), false)
	f.Add("pickupRight\nthrowRight\neatLeft\njump\nnull\nmoveBackward", uint64(2), uint8(1), true)
	f.Add("turnRight\nturnRight\nmoveForward\nmoveForward\npickupLeft\neatLeft\nthrowLeft", uint64(3), uint8(2), false)
	f.Fuzz(func(t *testing.T, cmds string, seed uint64, mtype uint8, fixed bool) {
		mt := matchTypes[int(mtype)%len(matchTypes)]
		setup := sim.Setup{Seed: seed, Players: mt.players}
		if fixed {
			setup.Config = []byte(`{"fixed_bounce": true, "fixed_spawn_bands": true}`)
		}
		mm, err := Game.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		m := mm.(*match)
		lines := strings.Split(cmds, "\n")
		c := make([]string, mt.players)
		next := 0
		for range totalTurns {
			for i := range c {
				c[i] = lines[next%len(lines)]
				next++
			}
			if err := m.Step(c); err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, m)
		}
		if !m.Over() {
			t.Fatalf("not over after %d turns", totalTurns)
		}
		if err := m.Step(c); !errors.Is(err, sim.ErrOver) {
			t.Fatalf("Step after the end: got %v, want sim.ErrOver", err)
		}
	})
}

// checkInvariants: energies within [0, 100]; each food type in one place
// at most, at most 4 in play; players 100 to 200 high after the first
// turn, inside the walls; headings within [0, 2π]; food never below the
// ground.
func checkInvariants(t *testing.T, m *match) {
	t.Helper()
	var seen [numKinds]int
	inPlay := 0
	place := func(k kind, where string) {
		if k < 0 || k >= numKinds {
			t.Fatalf("turn %d: food of kind %d %s", m.turn, k, where)
		}
		if seen[k]++; seen[k] > 1 {
			t.Fatalf("turn %d: a second %v %s", m.turn, k, where)
		}
		inPlay++
	}
	for i := range m.players {
		p := &m.players[i]
		if !(p.energy >= 0 && p.energy <= maxEnergy) {
			t.Fatalf("turn %d seat %d: energy %v", m.turn, i, p.energy)
		}
		if m.turn > 0 && !(p.height >= minHeight && p.height <= playerHeight) {
			t.Fatalf("turn %d seat %d: height %v", m.turn, i, p.height)
		}
		if !(p.heading >= 0 && p.heading <= twoPi) {
			t.Fatalf("turn %d seat %d: heading %v", m.turn, i, p.heading)
		}
		if !(p.loc.x >= playerRadius && p.loc.x <= fieldWidth-playerRadius && p.loc.y >= playerRadius && p.loc.y <= fieldDepth-playerRadius) {
			t.Fatalf("turn %d seat %d: at %v, outside the walls", m.turn, i, p.loc)
		}
		for _, k := range p.hands {
			if k != none {
				place(k, "in a hand")
			}
		}
	}
	for ti := range m.teams {
		for k := range kind(numKinds) {
			if m.teams[ti].tableFood&(1<<k) != 0 {
				place(k, "on a table")
			}
		}
	}
	for _, f := range m.food {
		place(f.kind, "on the field")
		if !(f.height >= 0) || math.IsNaN(f.loc.x) || math.IsNaN(f.loc.y) {
			t.Fatalf("turn %d: %v at %v, height %v", m.turn, f.kind, f.loc, f.height)
		}
		if !(f.heading >= 0 && f.heading <= twoPi) {
			t.Fatalf("turn %d: %v heading %v", m.turn, f.kind, f.heading)
		}
	}
	if inPlay > maxFood {
		t.Fatalf("turn %d: %d food types in play", m.turn, inPlay)
	}
}

// record plays a match of the command stream and returns every turn's
// commands.
func record(tb testing.TB, players int, seed uint64) [][]string {
	var out [][]string
	streamMatch(tb, players, seed, "", func(_ *match, c []string) {
		out = append(out, append([]string(nil), c...))
	})
	return out
}

// regenerate replays recorded commands from the setup, calling after (if
// not nil) after every turn, and returns the turns played.
func regenerate(b *testing.B, players int, seed uint64, cmds [][]string, after func(sim.Match)) int {
	m, err := Game.New(sim.Setup{Players: players, Seed: seed})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cmds {
		if err := m.Step(c); err != nil {
			b.Fatal(err)
		}
		if after != nil {
			after(m)
		}
	}
	return len(cmds)
}

// BenchmarkStep regenerates recorded matches of each type (Step only; the
// commands were chosen while recording), as replaying a stored match does.
func BenchmarkStep(b *testing.B) {
	for _, mt := range matchTypes {
		b.Run(mt.name, func(b *testing.B) {
			const seeds = 4
			var matches [seeds][][]string
			for i := range matches {
				matches[i] = record(b, mt.players, uint64(i+1))
			}
			b.ReportAllocs()
			b.ResetTimer()
			turns := 0
			for i := 0; i < b.N; i++ {
				turns += regenerate(b, mt.players, uint64(i%seeds+1), matches[i%seeds], nil)
			}
			b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "turns/s")
		})
	}
}

// BenchmarkStepHash is BenchmarkStep for a FREE_FOR_ALL match with the
// state hash after every turn, as a replay check does.
func BenchmarkStepHash(b *testing.B) {
	cmds := record(b, 3, 1)
	b.ResetTimer()
	turns := 0
	for i := 0; i < b.N; i++ {
		turns += regenerate(b, 3, 1, cmds, func(m sim.Match) { m.Hash() })
	}
	b.ReportMetric(float64(turns)/b.Elapsed().Seconds(), "turns/s")
}

// BenchmarkView measures building one controller's view of a TEAM field
// after 1000 turns of the command stream.
func BenchmarkView(b *testing.B) {
	mm, err := Game.New(sim.Setup{Players: 4, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	m := mm.(*match)
	r := rng.New(1)
	cmds := make([]string, 4)
	for range 1000 {
		for i := range cmds {
			cmds[i] = streamCommand(m, i, r)
		}
		if err := m.Step(cmds); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.View(i % 4)
	}
}
