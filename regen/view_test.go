package regen

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/store"
)

// TestViewAt checks the view of every seat before every turn of a stored
// Snake match, reached in any order, against the request a fresh run
// writes from the state after the turn before: what the seat's bot read.
func TestViewAt(t *testing.T) {
	ctx := context.Background()
	f, id, _ := stored(t, snake.Game)
	l := record(t, snake.Game, "{}")
	var want [][][]byte // [turn][seat]
	_, err := replay.Run(ctx, l, func(tv *replay.TurnView) error {
		var seats [][]byte
		for seat := range l.Header.Players {
			var b bytes.Buffer
			if err := replay.WriteRequest(&b, tv.Turn+1, seat, tv.Match.View(seat)); err != nil {
				return err
			}
			seats = append(seats, bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		}
		want = append(want, seats)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	last := len(l.Turns)
	// Forward, then from the end backwards: the cursor steps and replays.
	turns := []int{1, 2, 3, last, last / 2, 1}
	for _, turn := range turns {
		for seat := range l.Header.Players {
			got, err := f.ViewAt(ctx, id, turn, seat, func(any) string { return "text" })
			if err != nil {
				t.Fatalf("turn %d seat %d: %v", turn, seat, err)
			}
			if !bytes.Equal(got.Request, want[turn-1][seat]) || got.Text != "text" {
				t.Errorf("turn %d seat %d: got %s (text %q), want %s", turn, seat, got.Request, got.Text, want[turn-1][seat])
			}
		}
	}
	for _, bad := range []struct{ turn, seat int }{{0, 0}, {last + 1, 0}, {1, -1}, {1, len(l.Header.Players)}} {
		if _, err := f.ViewAt(ctx, id, bad.turn, bad.seat, nil); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("turn %d seat %d: got %v, want not found", bad.turn, bad.seat, err)
		}
	}
}
