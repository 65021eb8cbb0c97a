package awap_test

import (
	"context"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/replaytest"
)

// BenchmarkTurn measures a recorded turn of a team that stands still
// through the host against a Python bot that reads the same requests in
// JSON lines and answers the same; the difference is the host's overhead
// per turn (building the Tiles and States, calling step).
func BenchmarkTurn(b *testing.B) {
	b.Run("awap2019", func(b *testing.B) {
		bot := start(b, "odd", 10*time.Second)
		defer bot.Close()
		replaytest.PlayTurns(b, bot, newMatch)
	})
	b.Run("jsonlines", func(b *testing.B) {
		p, err := replay.StartProcess(context.Background(), []string{"python3", "-u", "testdata/jsonlines.py"},
			replay.ProcessOptions{TurnLimit: 10 * time.Second, StartLimit: 20 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		replaytest.PlayTurns(b, p, newMatch)
	})
}
