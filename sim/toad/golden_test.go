package toad

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/replaylab/replaylab/internal/golden"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// goldenMatches are the matches whose rolls and per-turn state hashes are
// locked in testdata/golden.txt: any change to the roll generator, the rules
// or the hash encoding shows up there (DESIGN.md §4).
var goldenMatches = []struct {
	seed uint64
	cfg  string
	bot  string // a built-in bot, or "" to play cmds
	cmds []string
}{
	{seed: 1, cfg: ``, bot: "astar"},
	{seed: 2, cfg: `{"turns":30,"start_hp":5,"strict_hp":true}`, bot: "astar"},
	{seed: 3, cfg: `{"turns":30}`, bot: "random"},
	{seed: 4, cfg: `{"rolls":[21,21,10,14,27,0,32,33,1,2]}`, cmds: []string{"G", "A", "", "jump", "F", "d", "s", "L2", "D", "stay"}},
}

// goldenText renders the golden text: per match its setup, rolls, redraws,
// then one line per turn with the command and the state hash.
func goldenText(t *testing.T) []byte {
	var b bytes.Buffer
	for _, g := range goldenMatches {
		m := newMatchSeed(t, g.cfg, g.seed)
		fmt.Fprintf(&b, "match seed=%d config=%s bot=%s\nrolls %v\nredraws %d\n0 - %016x\n", g.seed, g.cfg, g.bot, m.rolls, m.redraws, m.Hash())
		var bot sim.Bot
		if def, ok := Game.Bot(g.bot); ok {
			bot, _ = def.New(sim.Setup{Players: 1, Seed: g.seed}, 0, g.seed)
		}
		for i := 0; !m.Over(); i++ {
			var c string
			if bot != nil {
				c = bot.Act(m.View(0))
			} else if i < len(g.cmds) {
				c = g.cmds[i]
			} else {
				break
			}
			play(t, m, c)
			fmt.Fprintf(&b, "%d %q %016x\n", m.Turn(), c, m.Hash())
		}
		fmt.Fprintf(&b, "result %q\n\n", m.Result().Reason)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	golden.Check(t, "testdata/golden.txt", goldenText(t))
}

// TestDeterminism: the same setup and commands give the same hashes, and
// seeds give different rolls.
func TestDeterminism(t *testing.T) {
	if !bytes.Equal(goldenText(t), goldenText(t)) {
		t.Error("two runs of the golden matches differ")
	}
	seen := map[string]uint64{}
	for seed := uint64(0); seed < 50; seed++ {
		m := newMatchSeed(t, ``, seed)
		key, _ := json.Marshal(m.rolls)
		if prev, ok := seen[string(key)]; ok {
			t.Errorf("seeds %d and %d give the same rolls", prev, seed)
		}
		seen[string(key)] = seed
		if again := newMatchSeed(t, ``, seed); !slices.Equal(again.rolls, m.rolls) || again.Hash() != m.Hash() {
			t.Errorf("seed %d gives different rolls or hashes on a second New", seed)
		}
	}
}

// TestRedraws: the frame reports the generator's redraws; explicit rolls
// have none.
func TestRedraws(t *testing.T) {
	total := 0
	for seed := uint64(1); seed <= 100; seed++ {
		m := newMatchSeed(t, `{"turns":200,"start_hp":5}`, seed)
		_, want := generateRolls(seed, 200, 5, false)
		if got := m.Frame().(*Frame).Redraws; got != want {
			t.Errorf("seed %d: frame redraws %d, generator %d", seed, got, want)
		}
		total += want
	}
	if total == 0 {
		t.Error("no redraws in 100 hard games: the check never rejects")
	}
	if got := start(t, `{"rolls":[31,31,31,31,31]}`).Frame().(*Frame).Redraws; got != 0 {
		t.Errorf("explicit rolls report %d redraws", got)
	}
}
