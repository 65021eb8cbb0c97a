package foodfight

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/replaylab/replaylab/internal/golden"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// goldenMatches are locked in testdata/golden.txt with the state hash after
// every turn: a change to the rules, the draw order, the float arithmetic or
// the hash encoding shows there (DESIGN.md §4). Rewrite it (-update) only
// with the ruleset's rules revision bumped (sim.Game.Revisions) and a
// changelog entry in docs/replay-format.md. CI checks them under GOAMD64=v3 and on arm64, where a product fused
// into an FMA would change a hash.
var goldenMatches = []struct {
	players int
	seed    uint64
	config  string
}{
	{2, 1, ""},
	{3, 2, ""},
	{4, 3, ""},
	{3, 4, `{"fixed_bounce": true, "fixed_spawn_bands": true}`},
}

// streamCommand is the command of seat in a test's seeded command stream,
// not a built-in bot (those may change; the goldens may not): it picks up
// food in reach, throws or eats what it holds, heads for the nearest food
// on the ground (or walks, turning at walls and tables, when there is
// none), and one time in four plays anything at all, garbage
// included, so that throws, hits, landings, eats and respawns all happen.
func streamCommand(m *match, seat int, r *rng.Rand) string {
	garbage := []string{"", "null", "jump", "MOVEFORWARD", "throwLeft ", `"duck"`, "eatLeft\n"}
	if r.IntN(4) == 0 {
		i := r.IntN(len(actionNames) + len(garbage))
		if i < len(actionNames) {
			return actionNames[i]
		}
		return garbage[i-len(actionNames)]
	}
	p := &m.players[seat]
	for h, k := range p.hands {
		switch {
		case k != none && r.IntN(8) == 0:
			return [2]string{"eatLeft", "eatRight"}[h]
		case k != none && r.IntN(3) == 0:
			return [2]string{"throwLeft", "throwRight"}[h]
		case k == none:
			for i := range m.food {
				if canPickup(p, &m.food[i], h) {
					return [2]string{"pickupLeft", "pickupRight"}[h]
				}
			}
		}
	}
	best, target := math.Inf(1), -1
	for i, f := range m.food {
		if d := f.loc.sub(p.loc).length(); f.height == 0 && d < best {
			best, target = d, i
		}
	}
	turn := 0.0
	if target >= 0 {
		turn = diff(p.heading, direction(m.food[target].loc.sub(p.loc)))
	}
	switch {
	case turn > 0.1:
		return "turnLeft"
	case turn < -0.1 || m.refusal(p, moveForward) != allowed:
		return "turnRight"
	}
	return "moveForward"
}

// streamMatch plays a whole match from the command stream of seed, calling
// visit after every turn.
func streamMatch(t testing.TB, players int, seed uint64, config string, visit func(m *match, cmds []string)) *match {
	t.Helper()
	s := sim.Setup{Seed: seed, Players: players}
	if config != "" {
		s.Config = json.RawMessage(config)
	}
	mm, err := Game.New(s)
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*match)
	r := rng.New(rng.SubSeed(seed, 0xc0de))
	cmds := make([]string, players)
	for !m.Over() {
		for i := range cmds {
			cmds[i] = streamCommand(m, i, r)
		}
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
		visit(m, cmds)
	}
	return m
}

// eventCounts counts a match's events by kind as it is played.
type eventCounts map[string]int

func (c eventCounts) add(m *match) {
	for _, e := range m.events {
		c[e.Kind]++
	}
}

func goldenText(t *testing.T) []byte {
	var b bytes.Buffer
	for _, g := range goldenMatches {
		fmt.Fprintf(&b, "match players=%d seed=%d config=%s\n", g.players, g.seed, g.config)
		counts := eventCounts{}
		m := streamMatch(t, g.players, g.seed, g.config, func(m *match, _ []string) {
			counts.add(m)
			checkInvariants(t, m)
			fmt.Fprintf(&b, "%d %016x\n", m.turn, m.Hash())
		})
		// The stream must make every part of the rules happen, or the
		// golden locks little more than walking.
		for _, kind := range []string{eventPickup, eventThrow, eventEat, eventHit, eventCollision, eventLand, eventDestroy, eventSpawn, sim.EventInvalid} {
			if counts[kind] == 0 {
				t.Errorf("%s match, seed %d: no %s event in 2000 turns", m.mtype.name, g.seed, kind)
			}
		}
		fmt.Fprintf(&b, "events %v\nresult %+v\n\n", map[string]int(counts), m.Result())
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	golden.Check(t, "testdata/golden.txt", goldenText(t))
}
