package codenjoy_test

import (
	"context"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
)

// BenchmarkTurn measures a recorded turn of a trivial bot through the
// codenjoy websocket against the same program speaking JSON lines; the
// difference is the adapter's overhead per turn.
func BenchmarkTurn(b *testing.B) {
	b.Run("codenjoy", func(b *testing.B) {
		bot := start(b, 10*time.Second, "-mode", "walk", "{url}")
		defer bot.Close()
		benchTurns(b, bot)
	})
	b.Run("jsonlines", func(b *testing.B) {
		p, err := replay.StartProcess(context.Background(), []string{botPath, "-mode", "jsonlines"},
			replay.ProcessOptions{TurnLimit: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		benchTurns(b, p)
	})
}

func benchTurns(b *testing.B, a replay.Agent) {
	m := newMatch(b)
	turn := 0
	b.ResetTimer()
	for range b.N {
		if m.Over() {
			m = newMatch(b)
		}
		turn++
		ans := a.Act(context.Background(), turn, m.View(0))
		if ans.Note != "" {
			b.Fatalf("turn %d: note %q", turn, ans.Note)
		}
		if err := m.Step([]string{ans.Command, ""}); err != nil {
			b.Fatal(err)
		}
	}
}
