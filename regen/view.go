package regen

import (
	"bytes"
	"context"
	"fmt"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/store"
)

// SeatView is what the bot of one seat received before a turn.
type SeatView struct {
	// Request is the line an external bot read, byte for byte
	// (replay.WriteRequest), without its newline.
	Request []byte
	// Text is the view in an original protocol's text form, when the
	// caller asked for one.
	Text string
}

// ViewAt returns the view the bot of seat received before turn of a
// stored match: Match.View of the state after turn−1, the state its
// command of turn was chosen from. Turn 0 is the setup, before any view.
// text, when not nil, writes the view in another form; it runs while the
// match is held, since a view may share the match's state.
func (f *Frames) ViewAt(ctx context.Context, matchID string, turn, seat int, text func(view any) string) (SeatView, error) {
	c, err := f.cursor(ctx, matchID)
	if err != nil {
		return SeatView{}, err
	}
	defer f.done(c)
	c.mu.Lock()
	defer c.mu.Unlock()
	if turn < 1 || turn > len(c.log.Turns) {
		return SeatView{}, fmt.Errorf("view before turn %d of %s: %w", turn, matchID, store.ErrNotFound)
	}
	if seat < 0 || seat >= len(c.log.Header.Players) {
		return SeatView{}, fmt.Errorf("view of seat index %d of %s: %w", seat, matchID, store.ErrNotFound)
	}
	if err := f.seek(ctx, c, turn-1); err != nil {
		c.m = nil // a match stopped half-way is no place to resume from
		return SeatView{}, fmt.Errorf("view before turn %d of %s: %w", turn, matchID, err)
	}
	v := c.m.View(seat)
	var b bytes.Buffer
	if err := replay.WriteRequest(&b, turn, seat, v); err != nil {
		return SeatView{}, fmt.Errorf("view before turn %d of %s: %w", turn, matchID, err)
	}
	sv := SeatView{Request: bytes.TrimSuffix(b.Bytes(), []byte("\n"))}
	if text != nil {
		sv.Text = text(v)
	}
	return sv, nil
}
