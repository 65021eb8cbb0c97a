package worms

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt")

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

// golden plays the golden matches and renders one line per round: the
// round, both commands and the state hash.
func golden(t *testing.T) []byte {
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
	const path = "testdata/golden.txt"
	got := golden(t)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("golden text differs (a rule, generator or hash change needs a new ruleset):\n%s", firstDiff(got, want))
	}
}

func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d:\ngot  %s\nwant %s", i+1, gl, wl)
		}
	}
	return ""
}

func TestDeterminism(t *testing.T) {
	if !bytes.Equal(golden(t), golden(t)) {
		t.Error("two runs of the golden matches differ")
	}
}
