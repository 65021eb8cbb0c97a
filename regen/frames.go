package regen

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// Frame is the inspector's view of one turn: the game's own frame (State)
// with the commands that led to it, so the inspector shows each player's
// command next to the board it produced.
type Frame struct {
	Turn     int      `json:"turn"`
	Commands []string `json:"commands"` // one per seat; empty at turn 0
	State    any      `json:"state"`    // sim.Match.Frame()
}

// DefaultCursors is how many matches a Frames keeps a live cursor for: a
// few people stepping through a few matches each.
const DefaultCursors = 12

// Frames serves inspector frames by regenerating turns from the stored
// replay instead of storing them: a replay regenerates any turn
// bit-identically, and a whole stored match replays in milliseconds.
// It keeps a live cursor (a match positioned at its last served turn) for
// the most recently used matches, so stepping forward costs one Step a
// turn; an earlier turn replays from turn 0. A match recorded under an
// older rules revision replays in full first, each time it replays from
// turn 0 (see replay.Run): its frames are served only when this build
// reproduces it, and are otherwise an ErrOldRevision error. Frames is safe
// for concurrent use.
type Frames struct {
	db   *store.DB
	size int

	mu      sync.Mutex
	order   *list.List               // of *cursor, most recently used first
	cursors map[string]*list.Element // by match id
}

// NewFrames returns a Frames reading replays from db and keeping at most
// size cursors.
func NewFrames(db *store.DB, size int) *Frames {
	return &Frames{db: db, size: max(size, 1), order: list.New(), cursors: map[string]*list.Element{}}
}

// cursor is a regenerated match at some turn. Its mutex guards the match,
// which is not safe for concurrent use.
type cursor struct {
	id  string
	mu  sync.Mutex
	log *replay.Log
	m   sim.Match // nil until the first request, or after a failed one
}

// errStop stops replay.Run at the wanted turn.
var errStop = errors.New("stop")

// FrameAt returns the JSON frame of one turn of a stored match, as the
// inspector draws it. It stops between turns once ctx is done.
func (f *Frames) FrameAt(ctx context.Context, matchID string, turn int) (json.RawMessage, error) {
	c, err := f.cursor(ctx, matchID)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if turn < 0 || turn > len(c.log.Turns) {
		return nil, fmt.Errorf("frame %d of %s: %w", turn, matchID, store.ErrNotFound)
	}
	if err := c.seek(ctx, turn); err != nil {
		c.m = nil // a match stopped half-way is no place to resume from
		return nil, fmt.Errorf("frame %d of %s: %w", turn, matchID, err)
	}
	return encodeFrame(c.log, c.m)
}

// seek brings the cursor's match to turn: forward by stepping, backward by
// replaying from turn 0.
func (c *cursor) seek(ctx context.Context, turn int) error {
	if c.m == nil || c.m.Turn() > turn {
		m, err := replay.Run(ctx, c.log, func(tv *replay.TurnView) error {
			if tv.Turn == turn {
				return errStop
			}
			return nil
		})
		if !errors.Is(err, errStop) {
			return err
		}
		c.m = m
		stepped(turn)
		return nil
	}
	done := ctx.Done()
	for c.m.Turn() < turn {
		select {
		case <-done:
			return fmt.Errorf("turn %d: %w", c.m.Turn(), ctx.Err())
		default:
		}
		if err := c.m.Step(c.log.Turns[c.m.Turn()]); err != nil {
			return err
		}
		stepped(1)
	}
	return nil
}

// stepped counts Steps for tests; it is a no-op otherwise.
var stepped = func(int) {}

// encodeFrame writes the frame of m's current turn.
func encodeFrame(l *replay.Log, m sim.Match) (json.RawMessage, error) {
	cmds := []string{}
	if t := m.Turn(); t > 0 {
		cmds = l.Turns[t-1]
	}
	b, err := json.Marshal(Frame{Turn: m.Turn(), Commands: cmds, State: m.Frame()})
	if err != nil {
		return nil, fmt.Errorf("turn %d: encode frame: %w", m.Turn(), err)
	}
	return b, nil
}

// cursor returns the cursor of a match, loading and decoding its replay
// when it has none, and evicts the least recently used beyond the bound.
func (f *Frames) cursor(ctx context.Context, matchID string) (*cursor, error) {
	f.mu.Lock()
	if e, ok := f.cursors[matchID]; ok {
		f.order.MoveToFront(e)
		f.mu.Unlock()
		return e.Value.(*cursor), nil
	}
	f.mu.Unlock()
	// Loading happens outside the lock so a slow read does not hold up
	// other matches; two loads of one match race harmlessly.
	data, err := f.db.Replay(ctx, matchID)
	if err != nil {
		return nil, err
	}
	l, err := replay.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", matchID, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.cursors[matchID]; ok {
		f.order.MoveToFront(e)
		return e.Value.(*cursor), nil
	}
	c := &cursor{id: matchID, log: l}
	f.cursors[matchID] = f.order.PushFront(c)
	for f.order.Len() > f.size {
		old := f.order.Remove(f.order.Back()).(*cursor)
		delete(f.cursors, old.id)
	}
	return c, nil
}
