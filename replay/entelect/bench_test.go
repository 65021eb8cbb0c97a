package entelect_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/entelect"
	"github.com/replaylab/replaylab/replay/replaytest"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/worms"
)

// BenchmarkTurn measures one turn of a trivial bot, which answers at once
// without reading the state: through JSON lines (the view on stdin) and
// through the Entelect runner's protocol (state.json and textMap.txt
// written, the round number on stdin). The difference is the adapter's
// cost per turn.
func BenchmarkTurn(b *testing.B) {
	m, err := worms.Game.New(sim.Setup{Ruleset: "final", Seed: 3, Players: 2})
	if err != nil {
		b.Fatal(err)
	}
	view := m.View(0)
	opt := replay.ProcessOptions{TurnLimit: 10 * time.Second, StartLimit: 10 * time.Second}
	b.Run("jsonlines", func(b *testing.B) {
		dir := botDir(b, "python3", "bot.py", "")
		script := filepath.Join(dir, "trivial.py")
		os.WriteFile(script, []byte("import sys\nfor line in sys.stdin:\n    print('nothing', flush=True)\n"), 0o644)
		p, err := replay.StartProcess(context.Background(), []string{"python3", script}, opt)
		if err != nil {
			b.Fatal(err)
		}
		replaytest.BenchTurns(b, p, view)
	})
	b.Run("entelect", func(b *testing.B) {
		dir := botDir(b, "python3", "bot.py", "")
		os.WriteFile(filepath.Join(dir, "bin", "bot.py"), []byte("import sys\nfor line in sys.stdin:\n    print('C;%d;nothing' % int(line), flush=True)\n"), 0o644)
		a, err := entelect.Start(context.Background(), dir, "final", opt)
		if err != nil {
			b.Fatal(err)
		}
		replaytest.BenchTurns(b, a, view)
	})
}
