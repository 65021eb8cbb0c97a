package awap_test

import (
	"context"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
)

// BenchmarkTurn measures a recorded turn of a team that stands still
// through the host against a Python bot that reads the same requests in
// JSON lines and answers the same; the difference is the host's overhead
// per turn (building the Tiles and States, calling step).
func BenchmarkTurn(b *testing.B) {
	b.Run("awap2019", func(b *testing.B) {
		bot := start(b, "odd", 10*time.Second)
		defer bot.Close()
		benchTurns(b, bot)
	})
	b.Run("jsonlines", func(b *testing.B) {
		p, err := replay.StartProcess(context.Background(), []string{"python3", "-u", "testdata/jsonlines.py"},
			replay.ProcessOptions{TurnLimit: 10 * time.Second, StartLimit: 20 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		benchTurns(b, p)
	})
}

// benchTurns plays b.N turns, in as many matches as it takes; it
// answers the idle steps too, so each match is mostly play steps.
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
