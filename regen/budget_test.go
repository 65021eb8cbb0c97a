package regen

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/replaylab/replaylab/internal/heavy"
	"github.com/replaylab/replaylab/replay"
)

// TestBudgetReserve: reservations fit the limit or wait for room; one
// larger than the whole budget fails at once; a wait ends with ErrBusy at
// its deadline or the context's error when cancelled.
func TestBudgetReserve(t *testing.T) {
	ctx := context.Background()
	b := NewBudget(100, time.Minute)
	a, err := b.Reserve(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	var tooLarge *TooLargeError
	if _, err := b.Reserve(ctx, 101); !errors.As(err, &tooLarge) || tooLarge.Need != 101 || tooLarge.Limit != 100 {
		t.Errorf("Reserve(101) of 100: got %v, want a TooLargeError", err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.Reserve(gone, 41); !errors.Is(err, context.Canceled) {
		t.Errorf("Reserve(41) with 40 free and a cancelled context: got %v, want context.Canceled", err)
	}
	got := make(chan error, 1)
	go func() {
		r, err := b.Reserve(ctx, 41)
		if err == nil {
			r.Release()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("Reserve(41) with 40 free returned %v before room was freed", err)
	case <-time.After(10 * time.Millisecond):
	}
	a.Release()
	if err := <-got; err != nil {
		t.Errorf("Reserve(41) once 100 were free: %v", err)
	}
	a.Release() // a second release gives nothing back
	if used := b.Used(); used != 0 {
		t.Errorf("%d bytes used after every release, want 0", used)
	}

	short := NewBudget(100, 10*time.Millisecond)
	if _, err := short.Reserve(ctx, 60); err != nil {
		t.Fatal(err)
	}
	if _, err := short.Reserve(ctx, 41); !errors.Is(err, ErrBusy) {
		t.Errorf("Reserve(41) with 40 free past the budget's wait: got %v, want ErrBusy", err)
	}
}

// encoded is the binary replay of a short River Toad match.
func encoded(t *testing.T) []byte {
	t.Helper()
	enc, err := recordToadSeed(t, 1).Encode()
	if err != nil {
		t.Fatal(err)
	}
	return enc.Bytes
}

// TestBudgetDecode: Decode holds DecodeBytes a replay while it decodes,
// then the work's cost; a cost that does not fit now is waited for with
// nothing held, and the replays decoded again.
func TestBudgetDecode(t *testing.T) {
	ctx := context.Background()
	data := encoded(t)
	b := NewBudget(3*DecodeBytes, time.Minute)
	decodes := 0
	costs := func(n int64) func(*replay.Log) int64 {
		return func(*replay.Log) int64 { decodes++; return n }
	}
	logs, mem, err := b.Decode(ctx, costs(100), data, data)
	if err != nil || len(logs) != 2 || logs[1] == nil || b.Used() != 200 || decodes != 2 {
		t.Fatalf("Decode of 2 replays costing 100: %d logs, %v, %d used, %d decodes; want 2, 200 used, 2 decodes", len(logs), err, b.Used(), decodes)
	}
	mem.Release()

	// A cost above DecodeBytes with room for it: taken at once.
	decodes = 0
	_, mem, err = b.Decode(ctx, costs(2*DecodeBytes), data)
	if err != nil || mem.Size() != 2*DecodeBytes || decodes != 1 {
		t.Fatalf("Decode costing 2 DecodeBytes in an empty budget of 3: %v, size %d, %d decodes; want 1 decode", err, mem.Size(), decodes)
	}
	mem.Release()

	// Without room for it: decoded again once room is made.
	other, err := b.Reserve(ctx, DecodeBytes+1)
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(10*time.Millisecond, other.Release)
	decodes = 0
	_, mem, err = b.Decode(ctx, costs(2*DecodeBytes), data)
	if err != nil || mem.Size() != 2*DecodeBytes || decodes != 2 {
		t.Fatalf("Decode costing 2 DecodeBytes beside 1 DecodeBytes+1: %v, size %d, %d decodes; want 2 decodes", err, mem.Size(), decodes)
	}
	mem.Release()

	var tooLarge *TooLargeError
	if _, _, err := b.Decode(ctx, costs(4*DecodeBytes), data); !errors.As(err, &tooLarge) || b.Used() != 0 {
		t.Errorf("Decode costing more than the budget: %v, %d used; want a TooLargeError, 0 used", err, b.Used())
	}
	var de *DecodeError
	if _, _, err := b.Decode(ctx, costs(1), data, []byte("RPL\x02junk")); !errors.As(err, &de) || de.Index != 1 || b.Used() != 0 {
		t.Errorf("Decode of a broken second replay: %v, %d used; want a DecodeError of index 1, 0 used", err, b.Used())
	}
}

// TestBudgetDecodeConcurrent: replays whose work costs more than their
// decoding, decoded by more requests at once than the budget holds the
// work of, all get their turn: none waits while it holds bytes another
// one waits for.
func TestBudgetDecodeConcurrent(t *testing.T) {
	data := encoded(t)
	b := NewBudget(3*DecodeBytes, time.Minute)
	cost := func(*replay.Log) int64 { return 2 * DecodeBytes }
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 5 {
				_, mem, err := b.Decode(context.Background(), cost, data)
				if err != nil {
					t.Error(err)
					return
				}
				runtime.Gosched()
				mem.Release()
			}
		})
	}
	wg.Wait()
	if used := b.Used(); used != 0 {
		t.Errorf("%d bytes used after every release, want 0", used)
	}
}

// TestBudgetConcurrent: however many goroutines reserve at once, what they
// hold together never exceeds the limit, and they all get their turn.
func TestBudgetConcurrent(t *testing.T) {
	const limit = 1000
	b := NewBudget(limit, time.Minute)
	var held, most atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				n := int64(1 + (g*37+i*101)%400)
				r, err := b.Reserve(context.Background(), n)
				if err != nil {
					t.Error(err)
					return
				}
				h := held.Add(n)
				for m := most.Load(); h > m && !most.CompareAndSwap(m, h); m = most.Load() {
				}
				runtime.Gosched()
				held.Add(-n)
				r.Release()
			}
		})
	}
	wg.Wait()
	if m := most.Load(); m > limit {
		t.Errorf("held %d bytes at once, more than the limit %d", m, limit)
	}
	if used := b.Used(); used != 0 {
		t.Errorf("%d bytes used after every release, want 0", used)
	}
}

// TestEstimatesCover: the estimates are at least the heap a decoded log
// of long distinct commands holds, by either decoder, and not wildly
// more; and decoding fits what is reserved for it.
func TestEstimatesCover(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes a 16 MiB log")
	}
	l, err := heavy.Toad(1, heavy.MaxTurns/4)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	text, err := l.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	est := LogBytes(l)
	l = nil
	for _, tt := range []struct {
		name string
		data []byte
	}{{"binary", enc.Bytes}, {"text", text}} {
		t.Run(tt.name, func(t *testing.T) {
			before := liveHeap()
			got, err := replay.Decode(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			held := int64(liveHeap() - before)
			if est < held || est > held*3/2 {
				t.Errorf("LogBytes %d for a log that holds %d bytes: want at least that, at most half more", est, held)
			}
			// Decoding the largest log never takes a second pass.
			if CursorBytes(got) > DecodeBytes || BuildBytes(got) < 3*held {
				t.Errorf("CursorBytes %d, BuildBytes %d for %d bytes held: want at most DecodeBytes %d, at least three times", CursorBytes(got), BuildBytes(got), held, DecodeBytes)
			}
			runtime.KeepAlive(got)
		})
	}
}

// liveHeap is the heap the program reaches, after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestBudgetTryReserve: a reservation that does not wait fits now or fails
// at once, grows only while it fits, and gives back all it holds.
func TestBudgetTryReserve(t *testing.T) {
	b := NewBudget(100, time.Minute)
	held, err := b.Reserve(context.Background(), 70)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := b.TryReserve(20)
	if !ok {
		t.Fatal("TryReserve(20) with 30 free failed")
	}
	if r.TryGrow(11) {
		t.Error("TryGrow(11) with 10 free succeeded")
	}
	if !r.TryGrow(10) || r.Size() != 30 {
		t.Errorf("TryGrow(10) with 10 free: got a reservation of %d, want 30", r.Size())
	}
	if _, ok := b.TryReserve(1); ok {
		t.Error("TryReserve(1) of a full budget succeeded")
	}
	held.Release()
	r.Release()
	if used := b.Used(); used != 0 {
		t.Errorf("%d bytes used after every release, want 0", used)
	}
}
