package regen

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

// TestFrameAtJumps: random jumps, through checkpoints where the game has
// them, give every game's frames byte-identical to a replay from turn 0,
// and a jump plays fewer turns than the checkpoints' interval once the
// cursor has passed the turn it jumps to.
func TestFrameAtJumps(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			steps := countSteps(t)
			f, id, want := stored(t, g)
			last := len(want) - 1
			ctx := context.Background()
			if _, err := f.FrameAt(ctx, id, last); err != nil { // takes every checkpoint
				t.Fatal(err)
			}
			c := f.use(id)
			if c == nil {
				t.Fatal("no cursor kept")
			}
			f.done(c)
			_, cloner := c.m.(sim.Cloner)
			if cloner && (c.every == 0 || len(c.points) != last/c.every) {
				t.Fatalf("%d checkpoints every %d turns of %d, want one at every multiple", len(c.points), c.every, last)
			}
			r := rand.New(rand.NewPCG(uint64(last), 7))
			for range 300 {
				turn := r.IntN(last + 1)
				*steps = 0
				got, err := f.FrameAt(ctx, id, turn)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want[turn]) {
					t.Fatalf("turn %d: got %.200s, want %.200s", turn, got, want[turn])
				}
				if cloner && *steps >= c.every {
					t.Errorf("turn %d: played %d turns, want fewer than %d", turn, *steps, c.every)
				}
			}
		})
	}
}
