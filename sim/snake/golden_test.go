package snake

import (
	"bytes"
	"fmt"
	"github.com/replaylab/replaylab/internal/golden"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// goldenMatches are locked in testdata/golden.txt with the state hash after
// every tick: a change to the rules, the draw order or the hash encoding
// shows there (DESIGN.md §4). Rewrite it (-update) only with the ruleset's
// rules revision bumped (sim.Game.Revisions) and a changelog entry in docs/replay-format.md.
var goldenMatches = []struct {
	ruleset string
	seed    uint64
	bots    []string
	cmds    []string // played by every seat in turn when bots is nil
}{
	{ruleset: "codebattle2020", seed: 1, bots: []string{"greedy", "random", "greedy", "random", "random"}},
	{ruleset: "codenjoy", seed: 2, bots: []string{"random", "greedy", "random"}},
	{ruleset: "codebattle2020", seed: 3, cmds: []string{"", "UP", "ACT,LEFT", "DOWN,ACT", "LEFT,UP", "act(0)", "ACT(1,2)", "jump", "RIGHT", "ACT,ACT"}},
}

// playMatch plays a whole match with built-in bots, or with cmds cycling
// over the seats, calling visit after every tick.
func playMatch(t testing.TB, ruleset string, seed uint64, bots []string, cmds []string, players int, visit func(m *match, cmds []string)) *match {
	t.Helper()
	if bots != nil {
		players = len(bots)
	}
	mm, err := Game.New(sim.Setup{Ruleset: ruleset, Seed: seed, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*match)
	var bs []sim.Bot
	for i, name := range bots {
		def, _ := Game.Bot(name)
		b, err := def.New(sim.Setup{Ruleset: ruleset, Seed: seed, Players: players}, i, seed*100+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	c := make([]string, players)
	for !m.Over() {
		for i := range c {
			if bs != nil {
				c[i] = bs[i].Act(m.View(i))
			} else {
				c[i] = cmds[(m.turn+i)%len(cmds)]
			}
		}
		if err := m.Step(c); err != nil {
			t.Fatal(err)
		}
		if visit != nil {
			visit(m, c)
		}
	}
	return m
}

func goldenText(t *testing.T) []byte {
	var b bytes.Buffer
	for _, g := range goldenMatches {
		fmt.Fprintf(&b, "match ruleset=%s seed=%d bots=%v cmds=%q\n", g.ruleset, g.seed, g.bots, g.cmds)
		m := playMatch(t, g.ruleset, g.seed, g.bots, g.cmds, 5, func(m *match, cmds []string) {
			golden.Turn(&b, m.turn, cmds, m.Hash())
		})
		golden.Result(&b, m.Result())
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	golden.Check(t, "testdata/golden.txt", goldenText(t))
}

// TestReplay: replaying a recorded match's commands gives the same hash
// after every tick, and different seeds give different matches.
func TestReplay(t *testing.T) {
	var cmds [][]string
	var hashes []uint64
	playMatch(t, "", 7, []string{"greedy", "random", "greedy", "random", "greedy"}, nil, 0, func(m *match, c []string) {
		cmds = append(cmds, append([]string(nil), c...))
		hashes = append(hashes, m.Hash())
	})
	m := newDefault(t, 7)
	for i, c := range cmds {
		step(t, m, c...)
		if h := m.Hash(); h != hashes[i] {
			t.Fatalf("turn %d: hash %016x on replay, %016x when recorded", i+1, h, hashes[i])
		}
	}
	if !m.Over() {
		t.Error("replay is not over")
	}
	if newDefault(t, 7).Hash() == newDefault(t, 8).Hash() {
		t.Error("seeds 7 and 8 start identically")
	}
}
