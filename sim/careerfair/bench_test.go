package careerfair

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// BenchmarkStep regenerates whole matches on gates6 with its full crowd of
// 600 and two idle teams, the original's 72.6 steps/s setting (issue 12).
func BenchmarkStep(b *testing.B) {
	cmds := []string{"", ""}
	b.ReportAllocs()
	steps := 0
	for i := 0; b.Loop(); i++ {
		m, err := Game.New(sim.Setup{Players: 2, Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		for !m.Over() {
			m.Step(cmds)
			steps++
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// FuzzStep drives matches on small boards and gates6 from arbitrary
// commands: no panic, and the invariants hold after every step.
func FuzzStep(f *testing.F) {
	f.Add("UP,LEFT,ENTER,NONE\nENTER,ENTER,ENTER,ENTER\nREPLACE,REPLACE,NONE,NONE\n\njunk,,UP", uint64(1), uint8(0))
	f.Add("LEFT,LEFT,LEFT,LEFT\nUP,UP,UP,UP\nENTER,NONE,REPLACE,NONE\nREPLACE,REPLACE,REPLACE,REPLACE", uint64(2), uint8(5))
	f.Add("RIGHT\nDOWN,DOWN\n,,,,,\nenter , replace", uint64(3), uint8(6))
	boards := []string{"tiny", "debug", "sample", "gates6"}
	f.Fuzz(func(t *testing.T, cmds string, seed uint64, pick uint8) {
		players := 1 + int(pick)%2
		ruleset := rulesetRunner
		if players == 2 && pick&4 != 0 {
			ruleset = rulesetAWAP
		}
		m := newCustom(t, ruleset, players, seed, `{"board":"`+boards[int(pick>>3)%len(boards)]+`"}`)
		lines := strings.Split(cmds, "\n")
		c := make([]string, players)
		for turn := 0; ; turn++ {
			for i := range c {
				c[i] = lines[(turn*players+i)%len(lines)]
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

// checkInvariants: the tile counts match the bots, every queued bot is in
// its line's queue on one of its tiles, thresholds follow the population,
// team orders hold each bot once and scores never fall below 0.
func checkInvariants(t *testing.T, m *match) {
	t.Helper()
	free := make([]int32, len(m.free))
	queued := make([]int32, len(m.free))
	for i := range m.bots {
		b := &m.bots[i]
		if b.line < 0 {
			free[b.loc]++
			if b.inLine {
				t.Fatalf("step %d: bot %d is free but in_line", m.turn, i)
			}
			continue
		}
		queued[b.loc]++
		if k := m.b.lineOf[b.loc]; k != b.line || !slices.Contains(m.lines[k].queue, int32(i)) || !b.inLine {
			t.Fatalf("step %d: bot %d queued for %d on a tile of line %d, in queue %v", m.turn, i, b.line, k, m.lines[b.line].queue)
		}
	}
	for tl := range free {
		if free[tl] != m.free[tl] || queued[tl] != m.queued[tl] {
			t.Fatalf("step %d: tile %d counts %d/%d, bots say %d/%d", m.turn, tl, m.free[tl], m.queued[tl], free[tl], queued[tl])
		}
		if got, want := m.threshold[tl], thresholdOf(free[tl]+queued[tl]); got != want {
			t.Fatalf("step %d: tile %d threshold %d, want %d", m.turn, tl, got, want)
		}
	}
	for ti := range m.teams {
		tm := &m.teams[ti]
		seen := map[int32]bool{}
		for _, i := range tm.bots {
			if seen[i] || int(m.bots[i].team) != ti {
				t.Fatalf("step %d: team %d order %v", m.turn, ti, tm.bots)
			}
			seen[i] = true
		}
		if tm.score < 0 {
			t.Fatalf("step %d: team %d score %d", m.turn, ti, tm.score)
		}
	}
}

// TestStepAllocs: once the crowd has settled, a step of idle teams
// allocates nothing.
func TestStepAllocs(t *testing.T) {
	m := newCustom(t, "", 2, 7, "")
	cmds := []string{"", ""}
	for range 100 {
		step(t, m, cmds...)
	}
	if got := testing.AllocsPerRun(100, func() { m.Step(cmds) }); got != 0 {
		t.Errorf("got %v allocations per step, want 0", got)
	}
}
