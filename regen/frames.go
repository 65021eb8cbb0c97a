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
//
// Every cursor, kept or in use, holds its estimated bytes (CursorBytes) in
// the server's Budget: a count of matches bounds nothing when one match
// may hold 64 MiB of commands. The kept cursors hold at most share bytes
// together, the least recently used dropped first; a cursor larger than
// that serves its request and is dropped. Work that finds the budget full
// makes the Frames drop the kept cursors nobody is using.
type Frames struct {
	db     *store.DB
	budget *Budget
	share  int64

	mu      sync.Mutex
	order   *list.List               // of the kept *cursor, most recently used first
	cursors map[string]*list.Element // by match id
	kept    int64                    // bytes of the kept cursors
}

// NewFrames returns a Frames reading replays from db, holding its cursors
// in budget and keeping at most share bytes of them between requests. It
// is the budget's only Frames: the budget asks it for room.
func NewFrames(db *store.DB, budget *Budget, share int64) *Frames {
	f := &Frames{db: db, budget: budget, share: share, order: list.New(), cursors: map[string]*list.Element{}}
	budget.shed = f.shed
	return f
}

// cursor is a regenerated match at some turn. Its mutex guards the match,
// which is not safe for concurrent use.
type cursor struct {
	id  string
	mem *Reservation // CursorBytes of the log
	// users counts the requests using the cursor, and kept says it is in
	// the Frames' list; both are guarded by Frames.mu. The last user of a
	// cursor no longer kept releases its memory.
	users int
	kept  bool

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
	defer f.done(c)
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

// cursor returns the cursor of a match for one request, which calls done
// with it after. A match without one has its replay loaded and decoded
// within the budget (Budget.Decode).
func (f *Frames) cursor(ctx context.Context, matchID string) (*cursor, error) {
	if c := f.use(matchID); c != nil {
		return c, nil
	}
	// Loading happens outside the lock so a slow read does not hold up
	// other matches; two loads of one match race harmlessly.
	data, err := f.db.Replay(ctx, matchID)
	if err != nil {
		return nil, err
	}
	logs, mem, err := f.budget.Decode(ctx, CursorBytes, data)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", matchID, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.cursors[matchID]; ok {
		mem.Release()
		c := e.Value.(*cursor)
		c.users++
		f.order.MoveToFront(e)
		return c, nil
	}
	c := &cursor{id: matchID, mem: mem, log: logs[0], users: 1}
	if mem.Size() <= f.share {
		c.kept = true
		f.cursors[matchID] = f.order.PushFront(c)
		f.kept += mem.Size()
		for f.kept > f.share {
			f.drop(f.order.Back())
		}
	}
	return c, nil
}

// Forget drops the kept cursor of a match, if any: a deleted match must
// not go on serving frames, nor hold memory. A request using the cursor
// finishes with it.
func (f *Frames) Forget(matchID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.cursors[matchID]; ok {
		f.drop(e)
	}
}

// use returns the kept cursor of a match, counting its user, or nil.
func (f *Frames) use(matchID string) *cursor {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.cursors[matchID]
	if !ok {
		return nil
	}
	f.order.MoveToFront(e)
	c := e.Value.(*cursor)
	c.users++
	return c
}

// done ends a request's use of c.
func (f *Frames) done(c *cursor) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c.users--; c.users == 0 && !c.kept {
		c.mem.Release()
	}
}

// drop stops keeping the cursor of e, releasing its memory unless a
// request still uses it (the last one releases it). f.mu is held.
func (f *Frames) drop(e *list.Element) {
	c := f.order.Remove(e).(*cursor)
	delete(f.cursors, c.id)
	c.kept = false
	f.kept -= c.mem.Size()
	if c.users == 0 {
		c.mem.Release()
	}
}

// shed drops kept cursors nobody uses, least recently used first, until
// need bytes are freed or none is left, and returns the bytes freed.
// Cursors in use are kept: dropping them would free nothing now.
func (f *Frames) shed(need int64) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var freed int64
	for e := f.order.Back(); e != nil && freed < need; {
		prev := e.Prev()
		if c := e.Value.(*cursor); c.users == 0 {
			freed += c.mem.Size()
			f.drop(e)
		}
		e = prev
	}
	return freed
}
