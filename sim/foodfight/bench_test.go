package foodfight

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
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
