package store

import (
	"encoding/binary"
	"fmt"
	"math"
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
	encFloat = 2 // runs of (8-byte little-endian float64, uvarint count) of equal values
)

// encodeLine appends the compact encoding of vs to dst. Per-turn numbers
// are mostly whole and change rarely or by a steady step (a counter, a
// level that holds for many turns), so whole lines are stored as runs of
// equal steps between consecutive values: a line that never changes costs
// a few bytes whatever the match length. Lines with any fractional value
// (or -0, or beyond 2^53) fall back to runs of equal values, bit-exact.
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
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(vs[i]))
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
	if len(data) == 0 {
		return nil, fmt.Errorf("empty line")
	}
	enc, data := data[0], data[1:]
	want := len(dst) + n
	prev := int64(0)
	for len(data) > 0 {
		var (
			v    float64
			step int64
		)
		switch enc {
		case encInt:
			var k int
			if step, k = binary.Varint(data); k <= 0 {
				return nil, fmt.Errorf("bad step")
			}
			data = data[k:]
		case encFloat:
			if len(data) < 8 {
				return nil, fmt.Errorf("short value")
			}
			v, data = math.Float64frombits(binary.LittleEndian.Uint64(data)), data[8:]
		default:
			return nil, fmt.Errorf("unknown encoding %d", enc)
		}
		count, k := binary.Uvarint(data)
		if k <= 0 || count == 0 || count > uint64(want-len(dst)) {
			return nil, fmt.Errorf("bad run length")
		}
		data = data[k:]
		for range count {
			if enc == encInt {
				prev += step
				v = float64(prev)
			}
			dst = append(dst, v)
		}
	}
	if len(dst) != want {
		return nil, fmt.Errorf("line holds %d values, want %d", n-(want-len(dst)), n)
	}
	return dst, nil
}
