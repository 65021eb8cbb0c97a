package codenjoy_test

import (
	"context"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/replaytest"
)

// BenchmarkTurn measures a recorded turn of a trivial bot through the
// codenjoy websocket against the same program speaking JSON lines; the
// difference is the adapter's overhead per turn.
func BenchmarkTurn(b *testing.B) {
	b.Run("codenjoy", func(b *testing.B) {
		bot := start(b, 10*time.Second, "-mode", "walk", "{url}")
		defer bot.Close()
		replaytest.PlayTurns(b, bot, newMatch)
	})
	b.Run("jsonlines", func(b *testing.B) {
		p, err := replay.StartProcess(context.Background(), []string{botPath, "-mode", "jsonlines"},
			replay.ProcessOptions{TurnLimit: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		replaytest.PlayTurns(b, p, newMatch)
	})
}
