package analytics

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/store"
)

// testState returns the saved state of a full fit of n random matches.
func testState(t testing.TB, n int) []byte {
	t.Helper()
	st := newRulesetFit(store.RulesetCount{Game: "snake", Ruleset: "base"})
	for i, ps := range placings(randomSeats(rand.New(rand.NewPCG(7, uint64(n))), n)) {
		if err := st.in.Add(ps); err != nil {
			t.Fatalf("match %d: %v", i, err)
		}
		for _, p := range ps {
			st.ids[p.Player] = int64(len(p.Player))
		}
	}
	f, err := st.in.Fit(RatingPrior)
	if err != nil {
		t.Fatal(err)
	}
	f.Matches = st.in.Len()
	st.base, st.baseSeq, st.baseDistinct = f, int64(2*n), st.in.distinct()
	return encodeState(st)
}

// FuzzStateFit reads arbitrary bytes as a saved state, as they are and
// with their last four bytes made their checksum, so that damage gets
// past it: it never panics, and a state it takes encodes to bytes that
// decode and encode to themselves (placings it reads in another order or
// form encode canonically).
func FuzzStateFit(f *testing.F) {
	for _, n := range []int{1, 5, 40} {
		f.Add(testState(f, n))
	}
	f.Add([]byte{stateLayout})
	f.Fuzz(func(t *testing.T, b []byte) {
		fixed := b
		if len(b) >= 4 {
			fixed = binary.LittleEndian.AppendUint32(slices.Clip(b[:len(b)-4]), crc32.ChecksumIEEE(b[:len(b)-4]))
		}
		for _, b := range [][]byte{b, fixed} {
			st, err := stateFit(store.RulesetCount{Game: "snake", Ruleset: "base"}, b)
			if err != nil {
				continue
			}
			again := encodeState(st)
			st, err = stateFit(store.RulesetCount{Game: "snake", Ruleset: "base"}, again)
			if err != nil {
				t.Fatalf("%x, encoded again as %x: %v", b, again, err)
			}
			if third := encodeState(st); !bytes.Equal(third, again) {
				t.Errorf("%x encoded again: got %x, want %x", b, third, again)
			}
		}
	})
}

// TestStateFitNoPlayers reads a state of no players whose placings name
// one, with its checksum right: an error, not a panic.
func TestStateFitNoPlayers(t *testing.T) {
	b := []byte{stateLayout, 1, 1, 1}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(RatingPrior))
	b = append(b, 0, 1, 1, 1, 2, 1, 0, 1, 0, 1, 2, 1)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	if _, err := stateFit(store.RulesetCount{Game: "snake", Ruleset: "base"}, b); err == nil {
		t.Error("got a state, want an error")
	}
}
