package careerfair

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/replaylab/replaylab/internal/golden"
)

// goldenMatches are locked in testdata/golden.txt with the state hash after
// every step: a change to the rules, the draw order or the hash encoding
// shows there (DESIGN.md §4). Rewrite it (-update) only with the ruleset's
// rules revision bumped (sim.Game.Revisions) and a changelog entry in docs/replay-format.md.
// Seat s plays cmds[(turn+3s) % len(cmds)].
var goldenMatches = []struct {
	ruleset string
	players int
	seed    uint64
	config  string
	cmds    []string
}{
	{ruleset: rulesetAWAP, players: 2, seed: 1, cmds: []string{
		"", "UP,LEFT,ENTER,NONE", "LEFT,LEFT,UP,UP", "ENTER,ENTER,ENTER,ENTER", "REPLACE,REPLACE,NONE,NONE",
		"DOWN,RIGHT,up,left", "junk,,UP", "UP,UP,UP,UP", "RIGHT,ENTER,REPLACE,DOWN", "UP,UP,UP,UP,UP"}},
	{ruleset: rulesetRunner, players: 1, seed: 2, config: `{"board":"sample"}`, cmds: []string{
		"LEFT,LEFT,LEFT,LEFT", "UP,UP,NONE,NONE", "ENTER,ENTER,ENTER,ENTER", "", "REPLACE,NONE,REPLACE,NONE",
		"DOWN,UP,LEFT,RIGHT", "ENTER,NONE,NONE,NONE", "REPLACE,REPLACE,REPLACE,REPLACE"}},
}

// playMatch plays a whole match with commands cycling over the seats,
// calling visit after every step.
func playMatch(t testing.TB, ruleset string, players int, seed uint64, config string, cmds []string, visit func(m *match, c []string)) *match {
	t.Helper()
	m := newCustom(t, ruleset, players, seed, config)
	c := make([]string, players)
	for !m.Over() {
		for i := range c {
			c[i] = cmds[(m.turn+3*i)%len(cmds)]
		}
		step(t, m, c...)
		if visit != nil {
			visit(m, c)
		}
	}
	return m
}

func goldenText(t *testing.T) []byte {
	var b bytes.Buffer
	for _, g := range goldenMatches {
		fmt.Fprintf(&b, "match ruleset=%s players=%d seed=%d config=%s cmds=%q\n", g.ruleset, g.players, g.seed, g.config, g.cmds)
		m := playMatch(t, g.ruleset, g.players, g.seed, g.config, g.cmds, func(m *match, cmds []string) {
			golden.Turn(&b, m.turn, cmds, m.Hash())
		})
		golden.Result(&b, m.Result())
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	golden.Check(t, "testdata/golden.txt", goldenText(t))
}

// TestReplay: replaying a match's commands gives the same hash after
// every step, and different seeds give different matches.
func TestReplay(t *testing.T) {
	g := goldenMatches[0]
	var cmds [][]string
	var hashes []uint64
	playMatch(t, g.ruleset, g.players, 9, g.config, g.cmds, func(m *match, c []string) {
		cmds = append(cmds, append([]string(nil), c...))
		hashes = append(hashes, m.Hash())
	})
	m := newCustom(t, g.ruleset, g.players, 9, g.config)
	for i, c := range cmds {
		step(t, m, c...)
		if h := m.Hash(); h != hashes[i] {
			t.Fatalf("step %d: hash %016x on replay, %016x when recorded", i+1, h, hashes[i])
		}
	}
	a, b := newCustom(t, "", 2, 7, ""), newCustom(t, "", 2, 8, "")
	step(t, a, "", "")
	step(t, b, "", "")
	if a.Hash() == b.Hash() {
		t.Error("seeds 7 and 8 play the first step identically")
	}
}
