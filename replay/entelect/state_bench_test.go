package entelect

import (
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/worms"
)

// BenchmarkState measures building both state files of a round, the
// adapter's work per turn besides writing them.
func BenchmarkState(b *testing.B) {
	m, err := worms.Game.New(sim.Setup{Ruleset: "final", Seed: 3, Players: 2})
	if err != nil {
		b.Fatal(err)
	}
	v := m.View(0).(*worms.View)
	for b.Loop() {
		s := newState(v, true)
		if _, err := s.JSON(); err != nil {
			b.Fatal(err)
		}
		_ = s.Text()
	}
}
