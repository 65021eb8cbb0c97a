package toad

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// cmdSlices holds one shared []string per action letter, so replaying a
// plan does not allocate.
var cmdSlices = func() map[string][]string {
	out := map[string][]string{}
	for _, a := range actions {
		out[a.letter] = []string{a.letter}
	}
	return out
}()

// planFor plays the astar bot through the match of cfg (seed 1) and returns
// its commands; the match must be won.
func planFor(t testing.TB, cfg string) [][]string {
	t.Helper()
	m := start(t, cfg)
	bot, _ := newAStar(sim.Setup{}, 0, 0)
	var plan [][]string
	for !m.Over() {
		c := bot.Act(m.View(0))
		plan = append(plan, cmdSlices[c])
		play(t, m, c)
	}
	if m.status != won {
		t.Fatalf("astar lost %s: %s", cfg, m.Result().Reason)
	}
	return plan
}

// outcome is how a match went, or can go at best, from some state.
type outcome struct {
	win      bool
	hp       int // the final HP of a win
	survived int // the last turn the toad is alive after
}

// oracle solves the match from m's state by a DP over the real match: per
// turn it keeps, for each column, the copy of the match with the most HP
// (more HP never hurts, which TestOracleMatchesBruteForce checks).
func oracle(m *match) outcome {
	best := outcome{survived: m.turn}
	layer := []*match{m}
	for len(layer) > 0 {
		var byCol [numCols]*match
		for _, s := range layer {
			for _, a := range actions {
				c := *s
				c.events = nil
				c.Step([]string{a.letter})
				switch {
				case c.status == dead:
				case c.status == won:
					if !best.win || c.hp > best.hp {
						best.win, best.hp = true, c.hp
					}
					best.survived = c.turn
				case byCol[c.col] == nil || c.hp > byCol[c.col].hp:
					byCol[c.col] = &c
					best.survived = c.turn
				}
			}
		}
		layer = layer[:0:0]
		for _, s := range byCol {
			if s != nil {
				layer = append(layer, s)
			}
		}
	}
	return best
}

// bruteForce tries every plan from m's state.
func bruteForce(m *match) outcome {
	best := outcome{survived: m.turn}
	for _, a := range actions {
		c := *m
		c.events = nil
		c.Step([]string{a.letter})
		var o outcome
		switch c.status {
		case dead:
			continue
		case won:
			o = outcome{win: true, hp: c.hp, survived: c.turn}
		default:
			o = bruteForce(&c)
		}
		if o.win && (!best.win || o.hp > best.hp) {
			best.win, best.hp = true, o.hp
		}
		best.survived = max(best.survived, o.survived)
	}
	return best
}

// playBot plays bot to the end of m; with viaJSON the bot sees each view
// as decoded JSON (map[string]any), like an external bot.
func playBot(t *testing.T, m *match, bot sim.Bot, viaJSON bool) (outcome, []string) {
	t.Helper()
	var cmds []string
	for !m.Over() {
		var view any = m.View(0)
		if viaJSON {
			data, err := json.Marshal(view)
			if err != nil {
				t.Fatal(err)
			}
			var v map[string]any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
			view = v
		}
		c := bot.Act(view)
		cmds = append(cmds, c)
		play(t, m, c)
		if ev := m.Events(); len(ev) > 0 && ev[0].Kind == sim.EventInvalid {
			t.Fatalf("turn %d: the bot played an invalid command: %s", m.turn, ev[0].Detail)
		}
	}
	if m.status == won {
		return outcome{win: true, hp: m.hp, survived: m.turn}, cmds
	}
	return outcome{survived: m.turn - 1}, cmds
}

// oracleCase is one instance of the oracle tests.
type oracleCase struct {
	name string
	cfg  string
	seed uint64
}

// oracleCases returns 2000 seeded games (always solvable) and 2000 games
// over unconstrained random rolls, many of them without a win, 5 to 12
// turns, with varied start HP and strict_hp.
func oracleCases() []oracleCase {
	var cases []oracleCase
	for seed := uint64(1); seed <= 2000; seed++ {
		hp := 20
		if seed%3 == 0 {
			hp = 1 + int(seed%10)
		}
		cases = append(cases, oracleCase{
			name: fmt.Sprintf("seeded %d", seed),
			cfg:  fmt.Sprintf(`{"turns":%d,"start_hp":%d,"strict_hp":%v}`, 5+seed%8, hp, seed%5 == 0),
			seed: seed,
		})
	}
	r := rng.New(99)
	for i := range 2000 {
		rolls := make([]int, r.IntRange(5, 12))
		for j := range rolls {
			rolls[j] = r.IntN(maxRoll + 1)
		}
		data, _ := json.Marshal(rolls)
		cases = append(cases, oracleCase{
			name: fmt.Sprintf("random %d", i),
			cfg:  fmt.Sprintf(`{"rolls":%s,"start_hp":%d,"strict_hp":%v}`, data, r.IntRange(1, 12), r.IntN(4) == 0),
		})
	}
	return cases
}

func newMatchSeed(t *testing.T, cfg string, seed uint64) *match {
	t.Helper()
	m, err := Game.New(sim.Setup{Players: 1, Seed: seed, Config: json.RawMessage(cfg)})
	if err != nil {
		t.Fatalf("New(%s): %v", cfg, err)
	}
	return m.(*match)
}

// TestAStarOracle: astar wins exactly when a win exists, with the most HP
// any win leaves; without a win it survives as long as possible.
func TestAStarOracle(t *testing.T) {
	lost := 0
	for i, tc := range oracleCases() {
		m := newMatchSeed(t, tc.cfg, tc.seed)
		want := oracle(m)
		if tc.seed != 0 && !want.win {
			t.Errorf("%s %s: the seeded rolls %v have no win", tc.name, tc.cfg, m.rolls)
		}
		if !want.win {
			lost++
		}
		bot, _ := newAStar(sim.Setup{}, 0, 0)
		got, cmds := playBot(t, m, bot, i%10 == 0)
		if got != want {
			t.Errorf("%s %s rolls %v: astar %+v with %v, the oracle %+v", tc.name, tc.cfg, m.rolls, got, cmds, want)
		}
	}
	if lost < 200 {
		t.Errorf("only %d of the random games have no win: the no-win path is hardly tested", lost)
	}
}

// TestOracleMatchesBruteForce checks the DP oracle (more HP dominates)
// against trying every plan, on the short cases.
func TestOracleMatchesBruteForce(t *testing.T) {
	n := 0
	for _, tc := range oracleCases() {
		m := newMatchSeed(t, tc.cfg, tc.seed)
		if len(m.rolls) > 6 || n >= 400 {
			continue
		}
		n++
		if got, want := oracle(m), bruteForce(m); got != want {
			t.Errorf("%s %s: oracle %+v, brute force %+v", tc.name, tc.cfg, got, want)
		}
	}
}

// TestAStarReplans moves the toad off the plan for a few turns, then lets
// astar play: it must notice and reach the best outcome from there.
func TestAStarReplans(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		m := newMatchSeed(t, `{"turns":20}`, seed)
		bot, _ := newAStar(sim.Setup{}, 0, 0)
		other, _ := newRandom(sim.Setup{}, 0, seed)
		for i := uint64(0); i <= seed%6 && !m.Over(); i++ {
			bot.Act(m.View(0))
			play(t, m, other.Act(m.View(0)))
		}
		if m.Over() {
			continue
		}
		want := oracle(m)
		if got, _ := playBot(t, m, bot, false); got != want {
			t.Errorf("seed %d: after leaving the plan astar got %+v, the oracle %+v", seed, got, want)
		}
	}
}

func TestAStarNoWin(t *testing.T) {
	m := start(t, `{"rolls":[0,0,31,0,0,0,0]}`)
	bot, _ := newAStar(sim.Setup{}, 0, 0)
	got, cmds := playBot(t, m, bot, false)
	if got.win || got.survived != 6 || m.Result().Reason != "caught by a snake on turn 7" {
		t.Errorf("astar %+v playing %v: %s; want caught on turn 7", got, cmds, m.Result().Reason)
	}
	if !slices.Equal(cmds, []string{"D", "D", "D", "D", "D", "D", "D"}) {
		t.Errorf("astar played %v, want Stay (free) every turn", cmds)
	}
}

// TestSeededRollsAreSolvable: for many seeds, lengths and settings the
// generated rolls have a win (by the oracle over the real match) and
// astar finds it.
func TestSeededRollsAreSolvable(t *testing.T) {
	lengths := []int{1, 3, 4, 5, 6, 9, 50, 200, 1000}
	settings := []string{`"start_hp":20`, `"start_hp":1`, `"start_hp":3,"strict_hp":true`}
	for _, n := range lengths {
		seeds := uint64(200)
		if n >= 200 {
			seeds = 20
		}
		for _, s := range settings {
			for seed := uint64(1); seed <= seeds; seed++ {
				cfg := fmt.Sprintf(`{"turns":%d,%s}`, n, s)
				m := newMatchSeed(t, cfg, seed)
				if !oracle(m).win {
					t.Fatalf("seed %d %s: no win", seed, cfg)
				}
				if n >= 200 && seed <= 3 {
					bot, _ := newAStar(sim.Setup{}, 0, 0)
					if got, _ := playBot(t, m, bot, false); !got.win {
						t.Errorf("seed %d %s: astar lost (%+v)", seed, cfg, got)
					}
				}
			}
		}
	}
}

// TestBotsReadJSONViews: a bot fed the view as decoded JSON (what an
// external process gets) plays exactly as one fed the struct.
func TestBotsReadJSONViews(t *testing.T) {
	for _, name := range []string{"astar", "random"} {
		def, _ := Game.Bot(name)
		for seed := uint64(1); seed <= 20; seed++ {
			var runs [2][]string
			for i, viaJSON := range []bool{false, true} {
				bot, err := def.New(sim.Setup{Players: 1, Seed: seed}, 0, seed)
				if err != nil {
					t.Fatal(err)
				}
				_, runs[i] = playBot(t, newMatchSeed(t, `{"turns":40}`, seed), bot, viaJSON)
			}
			if !slices.Equal(runs[0], runs[1]) {
				t.Errorf("%s seed %d: struct views give %v, JSON views %v", name, seed, runs[0], runs[1])
			}
		}
	}
	bot, _ := newAStar(sim.Setup{}, 0, 0)
	if c := bot.Act(json.RawMessage(`{"turn":0,"rolls":[0],"hp":20,"column":1}`)); c == "" || c == "A" || c == "S" {
		t.Errorf("astar on raw JSON at column 1 plays %q", c)
	}
	if c := bot.Act(42); c != "" {
		t.Errorf("astar on a non-view plays %q, want no command", c)
	}
}

func TestRandomBot(t *testing.T) {
	bot, _ := newRandom(sim.Setup{}, 0, 5)
	seen := map[string]bool{}
	m := start(t, `{"rolls":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"start_hp":1000}`)
	_, cmds := playBot(t, m, bot, false) // fails on any invalid command
	for _, c := range cmds {
		seen[c] = true
	}
	if len(seen) != len(actions) {
		t.Errorf("40 random moves used only %v", seen)
	}
}

func BenchmarkAStar(b *testing.B) {
	for _, n := range []int{50, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			view := start(b, fmt.Sprintf(`{"turns":%d}`, n)).View(0)
			b.ReportAllocs()
			for b.Loop() {
				bot, _ := newAStar(sim.Setup{}, 0, 0)
				bot.Act(view)
			}
		})
	}
}
