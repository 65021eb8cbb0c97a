package store

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// Alive is the metric number of a line holding whether its player or unit
// is alive (1) or not (0) at each turn, beside the lines of the game's
// metrics, which are numbered by their index in the game's list.
const Alive = -1

// Line is one metric of one player (Unit == sim.NoUnit) or unit over a
// whole match: Values[t] is its value at turn t, from turn 0 to the last.
// Storage knows a metric only by its number, never by its name.
type Line struct {
	Metric int // index in the game's metric list, or Alive
	Seat   int
	Unit   int
	Values []float64
}

// The encodings of a line's values, the first byte of its blob.
const (
	encInt   = 1 // runs of (zigzag varint delta, uvarint count) over int64 values
	encFloat = 2 // runs of (uvarint of the float64's bits byte-reversed, uvarint count) of equal values
)

// encodeLine appends the compact encoding of vs to dst. Per-turn numbers
// are mostly whole and change rarely or by a steady step (a counter, a
// level that holds for many turns), so whole lines are stored as runs of
// equal steps between consecutive values: a line that never changes costs
// a few bytes whatever the match length. Lines with any fractional value
// (or -0, or beyond 2^53) fall back to runs of equal values, bit-exact;
// each value's bits are byte-reversed so that the zero low bytes of a
// short fraction (20.25, 0.5) vanish in the varint.
func encodeLine(dst []byte, vs []float64) []byte {
	whole := true
	for _, v := range vs {
		if v != math.Trunc(v) || math.Abs(v) >= 1<<53 || v == 0 && math.Signbit(v) {
			whole = false
			break
		}
	}
	if !whole {
		dst = append(dst, encFloat)
		for i := 0; i < len(vs); {
			j := i + 1
			for j < len(vs) && math.Float64bits(vs[j]) == math.Float64bits(vs[i]) {
				j++
			}
			dst = binary.AppendUvarint(dst, bits.ReverseBytes64(math.Float64bits(vs[i])))
			dst = binary.AppendUvarint(dst, uint64(j-i))
			i = j
		}
		return dst
	}
	dst = append(dst, encInt)
	prev := int64(0)
	for i := 0; i < len(vs); {
		step := int64(vs[i]) - prev
		j := i + 1
		for j < len(vs) && int64(vs[j])-int64(vs[j-1]) == step {
			j++
		}
		dst = binary.AppendVarint(dst, step)
		dst = binary.AppendUvarint(dst, uint64(j-i))
		prev = int64(vs[j-1])
		i = j
	}
	return dst
}

// decodeLine appends the n values encoded in data to dst. It fails, never
// panics, on data that does not hold exactly n values.
func decodeLine(dst []float64, data []byte, n int) ([]float64, error) {
	enc, data, err := lineEncoding(data)
	if err != nil {
		return nil, err
	}
	want := len(dst) + n
	prev := int64(0)
	for len(data) > 0 {
		var r run
		if r, data, err = readRun(enc, data, want-len(dst)); err != nil {
			return nil, err
		}
		for range r.count {
			if enc == encInt {
				prev += r.step
				r.value = float64(prev)
			}
			dst = append(dst, r.value)
		}
	}
	if len(dst) != want {
		return nil, fmt.Errorf("line holds %d values, want %d", n-(want-len(dst)), n)
	}
	return dst, nil
}

// run is count values: each step more than the one before (encInt), or
// each equal to value (encFloat).
type run struct {
	step  int64
	value float64
	count uint64
}

// lineEncoding splits an encoded line into its encoding and its runs.
func lineEncoding(data []byte) (byte, []byte, error) {
	if len(data) == 0 {
		return 0, nil, fmt.Errorf("empty line")
	}
	if data[0] != encInt && data[0] != encFloat {
		return 0, nil, fmt.Errorf("unknown encoding %d", data[0])
	}
	return data[0], data[1:], nil
}

// readRun reads the run at the start of data, of at most left values, and
// returns it with the data after it.
func readRun(enc byte, data []byte, left int) (run, []byte, error) {
	var r run
	if enc == encInt {
		var k int
		if r.step, k = binary.Varint(data); k <= 0 {
			return r, nil, fmt.Errorf("bad step")
		}
		data = data[k:]
	} else {
		b, k := binary.Uvarint(data)
		if k <= 0 {
			return r, nil, fmt.Errorf("bad value")
		}
		r.value, data = math.Float64frombits(bits.ReverseBytes64(b)), data[k:]
	}
	count, k := binary.Uvarint(data)
	if k <= 0 || count == 0 || count > uint64(left) {
		return r, nil, fmt.Errorf("bad run length")
	}
	r.count = count
	return r, data[k:], nil
}
