package regen

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
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
// turn. A cursor of a game whose matches copy themselves (sim.Cloner) also
// keeps checkpoints, copies of the match every interval turns taken as the
// cursor first passes them, so a jump to any turn copies the checkpoint
// before it and plays at most interval-1 turns; without checkpoints an
// earlier turn replays from turn 0. A match recorded under an
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
// makes the Frames drop the kept cursors nobody is using. A cursor's
// checkpoints grow its bytes as they are taken, each only when it fits now
// (Budget.TryReserve) and the cursor stays within the share: a checkpoint
// that does not fit is not taken, and jumps replay as without one.
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
	// points[i] is the match after turn (i+1)*every, never stepped: a
	// jump steps a copy of it. every is 0 until the first request, and
	// stays 0 for a game without sim.Cloner; full says the budget or the
	// share had no room for the next checkpoint.
	points    []sim.Match
	every     int
	pointSize int64
	full      bool
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
	if err := f.seek(ctx, c, turn); err != nil {
		c.m = nil // a match stopped half-way is no place to resume from
		return nil, fmt.Errorf("frame %d of %s: %w", turn, matchID, err)
	}
	return encodeFrame(c.log, c.m)
}

// seek brings the cursor's match to turn: forward by stepping when it is
// before turn and no checkpoint is nearer, else from a copy of the last
// checkpoint at or before turn, or by replaying from turn 0 when there is
// none (which checks the log's hashes on the way, as replay.Run does).
// Checkpoints are taken as the match first passes them. c.mu is held.
func (f *Frames) seek(ctx context.Context, c *cursor, turn int) error {
	p := min(turn/max(c.every, 1), len(c.points)) // checkpoints at or before turn
	switch {
	case c.m != nil && c.m.Turn() <= turn && c.m.Turn() >= p*c.every:
	case p > 0:
		c.m = c.points[p-1].(sim.Cloner).Clone()
	default:
		m, err := replay.Run(ctx, c.log, func(tv *replay.TurnView) error {
			if tv.Turn == 0 && c.every == 0 {
				f.plan(c, tv.Match)
			}
			f.checkpoint(c, tv.Match)
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
		f.checkpoint(c, c.m)
	}
	return nil
}

// The checkpoints of a cursor: at most maxPoints of them, together
// estimated at no more than pointBytes, and at least minEvery turns apart
// (a copy costs about as much as playing a few turns).
const (
	maxPoints  = 128
	pointBytes = 16 << 20
	minEvery   = 2
)

// plan sets how far apart c's checkpoints are, from the size of a copy of
// m, its match at turn 0, or leaves c without checkpoints when its game
// has no sim.Cloner. No game tells what its state holds, so a copy's size is
// measured as the bytes allocated while making it; other goroutines'
// allocations meanwhile can only make the estimate high, and it is capped
// at matchBytes, the most a match is estimated to hold.
func (f *Frames) plan(c *cursor, m sim.Match) {
	cl, ok := m.(sim.Cloner)
	if !ok {
		return
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cp := cl.Clone()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(cp)
	c.pointSize = min(max(int64(after.TotalAlloc-before.TotalAlloc), 1<<10), matchBytes)
	points := min(maxPoints, pointBytes/c.pointSize)
	turns := int64(len(c.log.Turns))
	c.every = int(max(minEvery, (turns+points-1)/max(points, 1)))
}

// checkpoint keeps a copy of m, c's match, when it is at the turn of c's
// next checkpoint and the copy's bytes fit now in the budget and in the
// Frames' share; one that does not fit ends c's checkpoints. c.mu is held.
func (f *Frames) checkpoint(c *cursor, m sim.Match) {
	if c.every == 0 || c.full || m.Turn() != (len(c.points)+1)*c.every {
		return
	}
	f.mu.Lock()
	fits := c.mem.Size()+c.pointSize <= f.share
	f.mu.Unlock()
	var r *Reservation
	if fits {
		r, fits = f.budget.TryReserve(c.pointSize)
	}
	if !fits {
		c.full = true
		return
	}
	c.points = append(c.points, m.(sim.Cloner).Clone())
	f.mu.Lock()
	defer f.mu.Unlock()
	c.mem.Join(r)
	if !c.kept {
		return
	}
	f.kept += c.pointSize
	for f.kept > f.share {
		f.drop(f.order.Back()) // c too, when least recently used: it is in use, and released when done
	}
}

// stepped counts Steps for tests; it is a no-op otherwise.
var stepped = func(int) {}

// encodeFrame writes the frame of m's current turn.
func encodeFrame(l *replay.Log, m sim.Match) (json.RawMessage, error) {
	cmds := []string{}
	if t := m.Turn(); t > 0 {
		cmds = l.Turns[t-1]
	}
	state := m.Frame()
	a, ok := state.(sim.JSONAppender)
	if !ok {
		b, err := json.Marshal(Frame{Turn: m.Turn(), Commands: cmds, State: state})
		if err != nil {
			return nil, fmt.Errorf("turn %d: encode frame: %w", m.Turn(), err)
		}
		return b, nil
	}
	// What json.Marshal writes for Frame, the state written by itself.
	c, err := json.Marshal(cmds)
	if err != nil {
		return nil, fmt.Errorf("turn %d: encode frame: %w", m.Turn(), err)
	}
	b := strconv.AppendInt(append(make([]byte, 0, 32<<10), `{"turn":`...), int64(m.Turn()), 10)
	b = append(append(append(b, `,"commands":`...), c...), `,"state":`...)
	if b, err = a.AppendJSON(b); err != nil {
		return nil, fmt.Errorf("turn %d: encode frame: %w", m.Turn(), err)
	}
	return append(b, '}'), nil
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
