package regen

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/careerfair"
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

// TestFrameAtJumpsBounded: checkpoints stop at what the Frames' share or
// the budget has room for, and a cursor without room for any still
// answers every jump exactly.
func TestFrameAtJumpsBounded(t *testing.T) {
	f, id, want := stored(t, careerfair.Game)
	last := len(want) - 1
	ctx := context.Background()
	if _, err := f.FrameAt(ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	c := f.use(id)
	f.done(c)
	// room is bytes for n checkpoints and a half, so that a copy measured
	// a little larger (see plan) fits as often.
	room := func(n int) int64 { return int64(n)*c.pointSize + c.pointSize/2 }
	for _, tt := range []struct {
		name             string
		share, budget, n int // checkpoints the share and the budget have room for, -1 for many
	}{
		{"share for none", 0, -1, 0},
		{"share for two", 2, -1, 2},
		{"budget for one", -1, 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBudget(testBudget, testWait)
			share := int64(testBudget)
			if tt.share >= 0 {
				share = c.mem.Size() + room(tt.share)
			}
			f := NewFrames(f.db, b, share)
			if _, err := f.FrameAt(ctx, id, 0); err != nil {
				t.Fatal(err)
			}
			if tt.budget >= 0 { // other work holds the rest
				r, err := b.Reserve(ctx, b.Limit()-b.Used()-room(tt.budget))
				if err != nil {
					t.Fatal(err)
				}
				defer r.Release()
			}
			r := rand.New(rand.NewPCG(3, 4))
			for i := range 100 {
				turn := r.IntN(last + 1)
				if i == 0 {
					turn = last
				}
				got, err := f.FrameAt(ctx, id, turn)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want[turn]) {
					t.Fatalf("turn %d: got %.200s, want %.200s", turn, got, want[turn])
				}
				if f.kept > share || b.Used() > b.Limit() {
					t.Fatalf("turn %d: %d bytes kept, %d of %d reserved; want at most %d kept", turn, f.kept, b.Used(), b.Limit(), share)
				}
			}
			c := f.use(id)
			defer f.done(c)
			if len(c.points) != tt.n {
				t.Errorf("%d checkpoints, want %d", len(c.points), tt.n)
			}
		})
	}
}
