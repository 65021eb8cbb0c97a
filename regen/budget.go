package regen

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/replaylab/replaylab/replay"
)

// ErrBusy is a reservation that did not fit in its Budget within the
// budget's wait: the budget is held by other work, and a retry a moment
// later may fit.
var ErrBusy = errors.New("the memory budget for replays is in use")

// TooLargeError is a reservation larger than its whole Budget: it never
// fits, however long it waits.
type TooLargeError struct {
	Need, Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("needs about %d MiB of memory, more than the %d MiB the budget for replays allows", mib(e.Need), mib(e.Limit))
}

// mib is n bytes in MiB, rounded up so that a need is never shown as
// smaller than it is.
func mib(n int64) int64 { return (n + 1<<20 - 1) >> 20 }

// Budget bounds, in bytes, the memory a server spends on decoded replays.
// A decoded replay costs about its command bytes, and a log may hold 64
// MiB of them in a file of a few kilobytes, so counting matches or files
// bounds nothing: every piece of work that holds a decoded replay (an
// upload being regenerated, an inspector cursor, a download, a
// comparison) reserves its estimated bytes first (DecodeBytes, LogBytes,
// CursorBytes, BuildBytes) and releases them when done. Idle inspector
// cursors are a cache: when a reservation does not fit, the Frames on the
// budget drops the least recently used of them to make room. Budget is
// safe for concurrent use.
type Budget struct {
	limit int64
	wait  time.Duration

	mu   sync.Mutex
	used int64
	// freed is closed, and replaced, whenever bytes are released, waking
	// the reservations waiting for room.
	freed chan struct{}
	// shed, when set, drops cached cursors nobody uses to free at least
	// need bytes, and returns how many it freed. It is called without mu.
	shed func(need int64) int64
}

// NewBudget returns a budget of limit bytes whose reservations wait at
// most wait for room: work that holds a budget takes a moment (a
// regeneration, a download), so a short wait spares a retry, and a longer
// one would only queue requests nobody waits for.
func NewBudget(limit int64, wait time.Duration) *Budget {
	return &Budget{limit: limit, wait: wait, freed: make(chan struct{})}
}

// Limit is the budget's size in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Used is how many bytes are reserved now.
func (b *Budget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Reservation is bytes held in a Budget until Release. Its methods are not
// safe for concurrent use; its holder is one piece of work.
type Reservation struct {
	b *Budget
	n int64
}

// Reserve reserves n bytes, waiting for room as long as the budget's wait
// and ctx allow: then it fails with an error wrapping ErrBusy, or with
// ctx's error when ctx was cancelled (the client went away). More than the
// whole budget fails at once with a *TooLargeError.
//
// A holder of a reservation must not wait for another one: two holders
// waiting for each other's bytes would both wait in vain. Decode, which
// does not know what its work needs until it has decoded, never does.
func (b *Budget) Reserve(ctx context.Context, n int64) (*Reservation, error) {
	if err := b.take(ctx, n); err != nil {
		return nil, err
	}
	return &Reservation{b: b, n: n}, nil
}

// TryReserve reserves n bytes if they fit now, dropping idle cursors to
// make room, without waiting: for work that holds its bytes as they
// arrive (an upload's body), where waiting would hold the client's
// earlier bytes while it waits.
func (b *Budget) TryReserve(n int64) (*Reservation, bool) {
	r := &Reservation{b: b}
	return r, r.TryGrow(n)
}

// TryGrow adds n bytes to r if they fit now, as TryReserve.
func (r *Reservation) TryGrow(n int64) bool {
	for {
		if r.b.tryTake(n) {
			r.n += n
			return true
		}
		r.b.mu.Lock()
		need, shed := r.b.used+n-r.b.limit, r.b.shed
		r.b.mu.Unlock()
		if shed == nil || n > r.b.limit || shed(need) == 0 {
			return false
		}
	}
}

// Size is how many bytes r holds.
func (r *Reservation) Size() int64 { return r.n }

// Join moves o's bytes into r: r holds them from now on, o none.
func (r *Reservation) Join(o *Reservation) {
	r.n += o.n
	o.n = 0
}

// Release gives r's bytes back. Releasing twice is harmless.
func (r *Reservation) Release() {
	if r.n > 0 {
		r.b.give(r.n)
		r.n = 0
	}
}

// DecodeError is a replay that Budget.Decode could not decode: Index is its
// place among the data given, Err the decoder's error.
type DecodeError struct {
	Index int
	Err   error
}

func (e *DecodeError) Error() string { return e.Err.Error() }
func (e *DecodeError) Unwrap() error { return e.Err }

// Decode decodes replays for a piece of work that holds them together and
// returns their logs with a reservation of what the work costs: the sum of
// cost over the logs (LogBytes, CursorBytes, BuildBytes). Nothing tells
// how large a replay decodes before it is decoded, so DecodeBytes a
// replay is reserved first; then the reservation shrinks to the cost, or
// grows to it when that takes no wait. When the budget has no room for the
// cost now, Decode lets go of everything, waits for the whole cost as
// Reserve does, and decodes again. It fails as Reserve does, or with a
// *DecodeError.
func (b *Budget) Decode(ctx context.Context, cost func(*replay.Log) int64, data ...[]byte) ([]*replay.Log, *Reservation, error) {
	n := int64(len(data)) * DecodeBytes
	for {
		mem, err := b.Reserve(ctx, n)
		if err != nil {
			return nil, nil, err
		}
		logs := make([]*replay.Log, len(data))
		var need int64
		for i, d := range data {
			if logs[i], err = replay.Decode(d); err != nil {
				mem.Release()
				return nil, nil, &DecodeError{Index: i, Err: err}
			}
			need += cost(logs[i])
		}
		if need <= mem.n {
			b.give(mem.n - need)
			mem.n = need
			return logs, mem, nil
		}
		if b.tryTake(need - mem.n) {
			mem.n = need
			return logs, mem, nil
		}
		mem.Release()
		n = max(need, n)
	}
}

// tryTake takes n bytes if they fit now.
func (b *Budget) tryTake(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	return true
}

func (b *Budget) take(ctx context.Context, n int64) error {
	if n > b.limit {
		return &TooLargeError{Need: n, Limit: b.limit}
	}
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	for {
		b.mu.Lock()
		if b.used+n <= b.limit {
			b.used += n
			b.mu.Unlock()
			return nil
		}
		need, freed, shed := b.used+n-b.limit, b.freed, b.shed
		b.mu.Unlock()
		if shed != nil && shed(need) > 0 {
			continue
		}
		select {
		case <-freed:
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.Canceled) {
				return ctx.Err()
			}
			return fmt.Errorf("%d MiB wanted, %d MiB of %d MiB free: %w", mib(n), (b.limit-b.Used())>>20, mib(b.limit), ErrBusy)
		}
	}
}

func (b *Budget) give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	close(b.freed)
	b.freed = make(chan struct{})
}

// The estimates below are of the Go heap, from the layout of a replay.Log
// and measurements of the largest logs the limits allow, 16,384 distinct
// commands of 4 KiB (64 MiB), repetitive or random, and of recorded
// matches of every game. They err high.
const (
	stringBytes = 16 // a string header: a command
	sliceBytes  = 24 // a slice header: a turn's commands
	// entryBytes covers a hash or a note of a log, and their encodings.
	entryBytes = 48
	// matchBytes covers a game's state (sim.Match): 1 to 12 KB for River
	// Toad, Worms, Snake and FoodFight, 575 KB for a Career Fair match.
	matchBytes = 2 << 20
	// commandCodeBytes bounds what the binary encoding adds to a command:
	// its symbol and a literal's length.
	commandCodeBytes = 8
	// turnRecordBytes and seatRecordBytes cover what a regeneration
	// records per turn and per seat and turn: the metric lines' values
	// and the events (measured: 320 bytes a turn for River Toad, 830 for
	// Worms and for FoodFight with 4 seats, 880 for Career Fair, 1,670
	// for Snake with 15 seats).
	turnRecordBytes = 256
	seatRecordBytes = 512
)

// DecodeBytes is what decoding a replay may take before its size is known:
// the largest log (replay.MaxLogCommandBytes, with its framing) and the
// decoder's window and dictionary. A binary replay of a few kilobytes can
// decode to that much, so this is reserved before every decode and
// resized to the decoded log's estimate after (measured: 1.2 times the
// command bytes at the peak of decoding the largest logs).
const DecodeBytes = replay.MaxLogCommandBytes + 32<<20

// LogBytes estimates the heap a decoded log holds: its command bytes, as
// if no two commands shared their text (the binary decoder shares
// repeated ones), a quarter more for the size classes of Go's allocator
// (a text line of a 4 KiB command takes 4,864 bytes), a string per command
// and a slice per turn, its header, hashes and notes.
func LogBytes(l *replay.Log) int64 {
	text, commands := commandBytes(l)
	return headerBytes(l) + text*5/4 + commands*stringBytes + int64(len(l.Turns))*sliceBytes
}

// commandBytes counts the bytes and the commands of a log.
func commandBytes(l *replay.Log) (text, commands int64) {
	for _, cmds := range l.Turns {
		commands += int64(len(cmds))
		for _, c := range cmds {
			text += int64(len(c))
		}
	}
	return text, commands
}

// headerBytes bounds what a log holds besides its turns.
func headerBytes(l *replay.Log) int64 {
	n := int64(len(l.Header.Config)) + int64(len(l.Hashes)+len(l.Notes))*entryBytes + 1<<10
	for _, p := range l.Header.Players {
		n += int64(len(p.Name)+len(p.Version)) + 2*stringBytes
	}
	return n
}

// CursorBytes estimates what an inspector cursor holds when it is made:
// the decoded log and its match. Its checkpoints add their own bytes as
// they are taken (see Frames).
func CursorBytes(l *replay.Log) int64 { return LogBytes(l) + matchBytes }

// BuildBytes estimates the peak of Build, with the decoded log it runs
// on: the log, its binary encoding (replay.Log.Encode holds the body
// twice and the compressed file: 2.5 times the body covers the measured
// 2.0 to 2.6), the match, and the record of its turns. For the largest
// logs it is 4 times the command bytes, where decoding and building
// them was measured at 3.05.
func BuildBytes(l *replay.Log) int64 {
	text, commands := commandBytes(l)
	body := headerBytes(l) + text + commands*commandCodeBytes
	turns, seats := int64(len(l.Turns)), int64(len(l.Header.Players))
	return LogBytes(l) + body*5/2 + matchBytes + turns*(turnRecordBytes+seats*seatRecordBytes)
}
