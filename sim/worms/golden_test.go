package worms

import (
	"bytes"
	"fmt"
	"github.com/replaylab/replaylab/internal/golden"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// goldenMatches lock the per-round state hashes of both rulesets: any
// change to map generation, the rules, the coin or the hash encoding
// shows up in testdata/golden.txt (DESIGN.md §4).
var goldenMatches = []struct {
	ruleset string
	seed    uint64
	bots    [2]string
	cmds    [][2]string // played before the bots take over
}{
	{ruleset: "base", seed: 42, bots: [2]string{"tactical", "random"}},
	{ruleset: "final", seed: 0, bots: [2]string{"tactical", "tactical"}},
	{ruleset: "final", seed: 7, bots: [2]string{"random", "tactical"},
		cmds: [][2]string{{"move 23 5", "move 9 27"}, {"select 2;banana 20 25", "C;3;dig 7 26"}, {"jump", ""}, {"select 3;snowball 3 17", "SHOOT nw"}}},
	{ruleset: "final", seed: 4294967289, bots: [2]string{"tactical", "random"}}, // the engine's seed −7
}

// goldenText plays the golden matches and renders one line per round: the
// round, both commands and the state hash.
func goldenText(t *testing.T) []byte {
	var b bytes.Buffer
	for _, g := range goldenMatches {
		m := start(t, g.ruleset, g.seed)
		var bots [2]sim.Bot
		for s := range bots {
			def, _ := Game.Bot(g.bots[s])
			bots[s], _ = def.New(sim.Setup{Ruleset: g.ruleset, Seed: g.seed, Players: 2}, s, g.seed+uint64(s))
		}
		fmt.Fprintf(&b, "match %s seed=%d bots=%v\n0 %016x\n", g.ruleset, g.seed, g.bots, m.Hash())
		for r := 0; !m.Over(); r++ {
			var cmds [2]string
			if r < len(g.cmds) {
				cmds = g.cmds[r]
			} else {
				cmds = [2]string{bots[0].Act(m.View(0)), bots[1].Act(m.View(1))}
			}
			play(t, m, cmds[0], cmds[1])
			fmt.Fprintf(&b, "%d %q %q %016x\n", m.Turn(), cmds[0], cmds[1], m.Hash())
		}
		res := m.Result()
		fmt.Fprintf(&b, "result winner=%d %q scores %v %v\n\n", res.Winner, res.Reason, res.Players[0].Score, res.Players[1].Score)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	golden.Check(t, "testdata/golden.txt", goldenText(t))
}

func TestDeterminism(t *testing.T) {
	if !bytes.Equal(goldenText(t), goldenText(t)) {
		t.Error("two runs of the golden matches differ")
	}
}
