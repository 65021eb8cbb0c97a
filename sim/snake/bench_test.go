package snake

import (
	"errors"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// FuzzStep drives matches from arbitrary commands on the default map and on
// a small one: no panic, and the invariants hold after every tick.
func FuzzStep(f *testing.F) {
	f.Add("UP\nLEFT,ACT\nACT,DOWN\n\nRIGHT", uint64(1), false, uint8(5))
	f.Add("act(0)\nACT(1,2)\nLEFT,UP\nACT,ACT\njump\n  down  ", uint64(2), true, uint8(2))
	f.Add("DOWN\nDOWN\nLEFT\nLEFT\nUP\nUP\nRIGHT\nRIGHT,ACT", uint64(3), true, uint8(3))
	f.Fuzz(func(t *testing.T, cmds string, seed uint64, small bool, players uint8) {
		n := 2 + int(players)%4
		setup := sim.Setup{Seed: seed, Players: n, Ruleset: Game.Rulesets[seed%2]}
		if small {
			setup.Config = []byte(`{"map":["☼☼☼☼☼☼☼☼","☼#  ○  ☼","☼# ●   ☼","☼#  ®  ☼","☼#$    ☼","☼#     ☼","☼  ●   ☼","☼☼☼☼☼☼☼☼"]}`)
		}
		mm, err := Game.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		m := mm.(*match)
		lines := strings.Split(cmds, "\n")
		c := make([]string, n)
		for turn := 0; turn < 2000; turn++ {
			for i := range c {
				c[i] = lines[(turn*n+i)%len(lines)]
			}
			over := m.Over()
			err := m.Step(c)
			if over {
				if !errors.Is(err, sim.ErrOver) {
					t.Fatalf("Step after the end: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, m)
		}
	})
}

// checkInvariants: living snakes have a body (a head-on cut can leave one
// cell, nothing else fewer than 2) and nothing
// under the head after eating, scores are never negative, the object
// counters match the grid, and the board draws size x size glyphs.
func checkInvariants(t *testing.T, m *match) {
	t.Helper()
	var counts [flyingPill + 1]int
	for _, o := range m.grid {
		counts[o]++
	}
	if counts[apple] != m.nApple || counts[stone] != m.nStone || counts[gold] != m.nGold || counts[furyPill] != m.nFury || counts[flyingPill] != m.nFly {
		t.Fatalf("turn %d: object counters %d %d %d %d %d, grid %v", m.turn, m.nApple, m.nStone, m.nGold, m.nFury, m.nFly, counts)
	}
	for i := range m.snakes {
		s := &m.snakes[i]
		if s.score < 0 {
			t.Fatalf("turn %d seat %d: score %d", m.turn, i, s.score)
		}
		if !s.alive {
			continue
		}
		if len(s.body) == 0 {
			t.Fatalf("turn %d seat %d: living snake of length %d", m.turn, i, len(s.body))
		}
		if o := m.grid[s.head()]; s.active && o >= apple && !(o == stone && s.flying > 0) {
			t.Fatalf("turn %d seat %d: object %d under a living head", m.turn, i, o)
		}
	}
	for _, row := range m.board(-1) {
		if n := len([]rune(row)); n != m.size {
			t.Fatalf("turn %d: row of %d glyphs, want %d", m.turn, n, m.size)
		}
	}
}

// record plays a 5-seat match of ruleset between built-in bots and returns
// every tick's commands.
func record(tb testing.TB, ruleset string, seed uint64, bots []string) [][]string {
	var out [][]string
	playMatch(tb, ruleset, seed, bots, nil, 0, func(_ *match, c []string) {
		out = append(out, append([]string(nil), c...))
	})
	return out
}

// BenchmarkStep regenerates recorded 5-player matches between the built-in
// bots in each ruleset (Step only; the bots ran while recording).
func BenchmarkStep(b *testing.B) {
	for _, ruleset := range Game.Rulesets {
		b.Run(ruleset, func(b *testing.B) {
			var matches [][][]string
			for seed := uint64(1); seed <= 4; seed++ {
				matches = append(matches, record(b, ruleset, seed, []string{"greedy", "random", "greedy", "random", "greedy"}))
			}
			b.ReportAllocs()
			b.ResetTimer()
			ticks := 0
			for i := 0; i < b.N; i++ {
				seed := uint64(i%4 + 1)
				m, _ := Game.New(sim.Setup{Ruleset: ruleset, Players: 5, Seed: seed})
				for _, c := range matches[i%4] {
					m.Step(c)
				}
				ticks += len(matches[i%4])
			}
			b.ReportMetric(float64(ticks)/b.Elapsed().Seconds(), "ticks/s")
		})
	}
}

// BenchmarkParseCommand measures reading the commands bots send, in each
// ruleset.
func BenchmarkParseCommand(b *testing.B) {
	cmds := []string{"", "UP", "left", "ACT,RIGHT", "DOWN,ACT", "ACT(0)", "LEFT ACT", "ACT(1,2)", "message('hi')"}
	b.Run("codebattle2020", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			parseCommand(cmds[i%len(cmds)])
		}
	})
	b.Run("codenjoy", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			k := newKeywords(cmds[i%len(cmds)])
			for _, ok := k.next(); ok; _, ok = k.next() {
			}
		}
	})
}

// BenchmarkStepHash is BenchmarkStep with the state hash after every tick,
// as a replay check does.
func BenchmarkStepHash(b *testing.B) {
	cmds := record(b, "", 1, []string{"greedy", "random", "greedy", "random", "greedy"})
	b.ResetTimer()
	ticks := 0
	for i := 0; i < b.N; i++ {
		m, _ := Game.New(sim.Setup{Players: 5, Seed: 1})
		for _, c := range cmds {
			m.Step(c)
			m.Hash()
		}
		ticks += len(cmds)
	}
	b.ReportMetric(float64(ticks)/b.Elapsed().Seconds(), "ticks/s")
}

// BenchmarkView measures building one bot's board string.
func BenchmarkView(b *testing.B) {
	m := newDefault(b, 1)
	for range 100 {
		m.Step([]string{"", "", "", "", ""})
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m.view.valid = false
		m.View(i % 5)
	}
}
