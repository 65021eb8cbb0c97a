package regen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/careerfair"
	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/sim/worms"
	"github.com/replaylab/replaylab/store"
)

// stored records a match of g, stores it in a fresh database and returns a
// Frames over it with the frames of every turn as the store used to keep
// them (json of Frame, marshalled while replay.Run visits each turn).
func stored(t testing.TB, g *sim.Game) (f *Frames, id string, want []json.RawMessage) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "frames.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	l := record(t, g, "{}")
	rec, err := Build(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(ctx, rec); err != nil {
		t.Fatal(err)
	}
	_, err = replay.Run(ctx, l, func(tv *replay.TurnView) error {
		cmds := tv.Commands
		if cmds == nil {
			cmds = []string{}
		}
		b, err := json.Marshal(Frame{Turn: tv.Turn, Commands: cmds, State: tv.Match.Frame()})
		want = append(want, b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return NewFrames(db, NewBudget(testBudget, testWait), testBudget/2), rec.ID, want
}

// countSteps counts the turns FrameAt plays until the test ends.
func countSteps(t *testing.T) *int {
	t.Helper()
	n := new(int)
	old := stepped
	stepped = func(k int) { *n += k }
	t.Cleanup(func() { stepped = old })
	return n
}

// TestFrameAt: frames regenerated forward, backward and after a jump are
// byte-identical to the frames the store used to keep, and each costs
// only the turns it has to play: backward, from the checkpoint before the
// turn (steps -1: the turn modulo the checkpoints' interval); forward by
// one, one turn or none at a checkpoint (-2).
func TestFrameAt(t *testing.T) {
	for _, g := range []*sim.Game{toad.Game, worms.Game, snake.Game, careerfair.Game} {
		t.Run(g.Name, func(t *testing.T) {
			steps := countSteps(t)
			f, id, want := stored(t, g)
			last := len(want) - 1
			for _, tt := range []struct {
				turn, steps int
			}{
				{0, 0}, {1, 1}, {2, 1}, {last, last - 2}, {last / 2, -1}, {last/2 + 1, -2}, {3, -1}, {3, 0},
			} {
				if tt.steps < 0 {
					c := f.use(id)
					// -1: from the checkpoint before the turn; -2: one
					// turn on from the turn before, none when the turn
					// has a checkpoint of its own.
					if tt.steps == -1 {
						tt.steps = tt.turn % c.every
					} else {
						tt.steps = min(1, tt.turn%c.every)
					}
					f.done(c)
				}
				*steps = 0
				got, err := f.FrameAt(context.Background(), id, tt.turn)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want[tt.turn]) {
					t.Errorf("turn %d: got %.200s, want %.200s", tt.turn, got, want[tt.turn])
				}
				if *steps != tt.steps {
					t.Errorf("turn %d: played %d turns, want %d", tt.turn, *steps, tt.steps)
				}
			}
		})
	}
}

func TestFrameAtRejects(t *testing.T) {
	f, id, want := stored(t, toad.Game)
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		id   string
		turn int
	}{
		{"turn past the end", id, len(want)},
		{"negative turn", id, -1},
		{"unknown match", strings.Repeat("f", 64), 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := f.FrameAt(ctx, tt.id, tt.turn); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("FrameAt(%s, %d): got %v, want ErrNotFound", tt.id, tt.turn, err)
			}
		})
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := f.FrameAt(canceled, id, len(want)-1); !errors.Is(err, context.Canceled) {
		t.Errorf("FrameAt with a canceled context: got %v, want context.Canceled", err)
	}
	if got, err := f.FrameAt(ctx, id, 1); err != nil || !bytes.Equal(got, want[1]) {
		t.Errorf("FrameAt after a canceled request: got %.100s, %v; want %.100s", got, err, want[1])
	}
}

// TestFrameAtConcurrent asks for every turn of one match from parallel
// goroutines, as the inspector's prefetch does; run it with -race.
func TestFrameAtConcurrent(t *testing.T) {
	f, id, want := stored(t, worms.Game)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for turn := w; turn < len(want); turn += 3 {
				got, err := f.FrameAt(context.Background(), id, turn)
				if err != nil {
					t.Error(err)
					return
				}
				if !bytes.Equal(got, want[turn]) {
					t.Errorf("turn %d: got %.100s, want %.100s", turn, got, want[turn])
				}
			}
		})
	}
	wg.Wait()
}

// testBudget is room for a few decodes of the largest replay, and
// testWait how long its reservations wait for room: long enough for
// anything but a test that makes one wait for nothing.
const (
	testBudget = 4 * DecodeBytes
	testWait   = 100 * time.Millisecond
)

// storedToads stores n short River Toad matches and returns their ids.
func storedToads(t *testing.T, n int) (*store.DB, []string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "frames.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var ids []string
	for seed := range n {
		rec, err := Build(ctx, recordToadSeed(t, uint64(seed)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Ingest(ctx, rec); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.ID)
	}
	return db, ids
}

// cost is the CursorBytes of a stored match.
func cost(t *testing.T, db *store.DB, id string) int64 {
	t.Helper()
	data, err := db.Replay(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	l, err := replay.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return CursorBytes(l)
}

// TestFramesBound: the kept cursors hold at most the Frames' share of
// bytes, the least recently used dropped first, and what they hold is
// what the budget counts.
func TestFramesBound(t *testing.T) {
	ctx := context.Background()
	db, ids := storedToads(t, 5)
	// Room for the three most recent, not for a fourth.
	share := cost(t, db, ids[2]) + cost(t, db, ids[3]) + cost(t, db, ids[4])
	b := NewBudget(testBudget, testWait)
	f := NewFrames(db, b, share)
	for i, id := range ids {
		if _, err := f.FrameAt(ctx, id, 1); err != nil {
			t.Fatal(err)
		}
		if got, want := f.cached(), min(i+1, 3); got != want {
			t.Errorf("after %d matches: %d cursors, want %d", i+1, got, want)
		}
		if f.kept > share || b.Used() != f.kept {
			t.Errorf("after %d matches: %d bytes kept, %d reserved; want at most %d, the same", i+1, f.kept, b.Used(), share)
		}
	}
	f.mu.Lock()
	for _, id := range ids[:2] {
		if _, ok := f.cursors[id]; ok {
			t.Errorf("match %s: still cached, want the least recently used dropped", id[:8])
		}
	}
	f.mu.Unlock()
}

// TestFramesKeepNoCursorOverShare: a cursor larger than the share serves
// its request and gives its bytes back.
func TestFramesKeepNoCursorOverShare(t *testing.T) {
	db, ids := storedToads(t, 1)
	b := NewBudget(testBudget, testWait)
	f := NewFrames(db, b, cost(t, db, ids[0])-1)
	if _, err := f.FrameAt(context.Background(), ids[0], 2); err != nil {
		t.Fatal(err)
	}
	if got := f.cached(); got != 0 {
		t.Errorf("%d cursors kept, want 0", got)
	}
	if got := b.Used(); got != 0 {
		t.Errorf("%d bytes reserved after the request, want 0", got)
	}
}

// TestFramesShed: work that finds the budget full makes the Frames drop
// its idle cursors, least recently used first, and never one in use.
func TestFramesShed(t *testing.T) {
	ctx := context.Background()
	db, ids := storedToads(t, 3)
	b := NewBudget(testBudget, testWait)
	f := NewFrames(db, b, testBudget)
	for _, id := range ids {
		if _, err := f.FrameAt(ctx, id, 1); err != nil {
			t.Fatal(err)
		}
	}
	inUse := f.use(ids[0]) // as a request between cursor and done
	if inUse == nil {
		t.Fatal("match 0 not kept")
	}
	// Room for all but one cursor: the least recently used idle one,
	// match 1, goes.
	r, err := b.Reserve(ctx, b.Limit()-b.Used()+1)
	if err != nil {
		t.Fatalf("Reserve with idle cursors to drop: %v", err)
	}
	f.mu.Lock()
	_, kept0 := f.cursors[ids[0]]
	_, kept1 := f.cursors[ids[1]]
	_, kept2 := f.cursors[ids[2]]
	f.mu.Unlock()
	if !kept0 || kept1 || !kept2 {
		t.Errorf("kept matches 0, 1, 2: %v %v %v; want true false true", kept0, kept1, kept2)
	}
	// Nothing idle is left but match 2; a reservation that needs match 0
	// too waits for it, and gets it once its request is done.
	r.Release()
	if all, err := b.Reserve(ctx, b.Limit()); err == nil {
		all.Release()
		t.Fatal("Reserve of the whole budget while a cursor is in use: got it, want ErrBusy")
	} else if !errors.Is(err, ErrBusy) {
		t.Fatalf("Reserve of the whole budget while a cursor is in use: got %v, want ErrBusy", err)
	}
	f.done(inUse)
	all, err := b.Reserve(ctx, b.Limit())
	if err != nil {
		t.Fatalf("Reserve of the whole budget once no cursor is in use: %v", err)
	}
	all.Release()
	if got := f.cached(); got != 0 {
		t.Errorf("%d cursors kept, want 0", got)
	}
}

// recordToadSeed records a short River Toad match of a random bot.
func recordToadSeed(t *testing.T, seed uint64) *replay.Log {
	t.Helper()
	h := replay.Header{Format: replay.Format, Game: "toad", Seed: seed, Config: json.RawMessage(`{"turns":20}`),
		Players: []replay.Player{{Name: "random", Version: "1"}}}
	a, err := replay.NewBuiltin(toad.Game, "random", h.Setup(), 0)
	if err != nil {
		t.Fatal(err)
	}
	l, err := (&replay.Recorder{Header: h, Agents: []replay.Agent{a}}).Record(context.Background())
	if err != nil {
		t.Fatal(fmt.Errorf("record seed %d: %w", seed, err))
	}
	return l
}

// cached is how many cursors f holds.
func (f *Frames) cached() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.order.Len()
}

// BenchmarkFrameAt answers random turns of a Snake match of five seats,
// the longest matches to regenerate: most requests replay from turn 0.
func BenchmarkFrameAt(b *testing.B) {
	f, id, want := stored(b, snake.Game)
	turn := 0
	for b.Loop() {
		if _, err := f.FrameAt(context.Background(), id, turn); err != nil {
			b.Fatal(err)
		}
		turn = (turn*7919 + 13) % len(want)
	}
	b.ReportMetric(float64(len(want)-1), "turns")
}
