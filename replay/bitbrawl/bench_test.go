package bitbrawl_test

import (
	"context"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/bitbrawl"
	"github.com/replaylab/replaylab/replay/replaytest"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/foodfight"
)

// BenchmarkTurn measures one turn of a trivial bot that answers at once:
// through JSON lines and through the runner's protocol (the field, the
// symbols, an action back), both Python. The difference is the adapter's
// cost per turn.
func BenchmarkTurn(b *testing.B) {
	m, err := foodfight.Game.New(sim.Setup{Seed: 4, Players: 2})
	if err != nil {
		b.Fatal(err)
	}
	view := m.View(0)
	opt := replay.ProcessOptions{TurnLimit: 10 * time.Second, StartLimit: 10 * time.Second}
	b.Run("jsonlines", func(b *testing.B) {
		p, err := replay.StartProcess(context.Background(), []string{"python3", "-c", "import sys\nfor l in sys.stdin: print('duck', flush=True)"}, opt)
		if err != nil {
			b.Fatal(err)
		}
		replaytest.BenchTurns(b, p, view)
	})
	b.Run("runner", func(b *testing.B) {
		a, err := bitbrawl.Start(context.Background(), []string{"python3", "testdata/runner.py"}, time.Hour, opt)
		if err != nil {
			b.Fatal(err)
		}
		replaytest.BenchTurns(b, a, view)
	})
}
