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

// The encodings of a line's values, the first byte of its blob. A blob
// says how it is encoded, so lines written before an encoding was added
// read as they always did.
const (
	encInt     = 1 // runs of (zigzag varint step, uvarint count) over whole values
	encFloat   = 2 // runs of (uvarint of the float64's bits byte-reversed, uvarint count) of equal values
	encDecimal = 3 // a byte d, then encInt's runs over the values times 10^d
	encPacked  = 4 // a byte d, then the steps between the values times 10^d in packed blocks
)

// maxDecimals is the most digits after the point a line keeps in whole
// steps (encDecimal, encPacked): a metric's declared resolution
// (sim.MetricDef.Resolution) is coarser.
const maxDecimals = 9

// pow10 holds the powers of ten up to 10^maxDecimals, each exact in a
// float64.
var pow10 = func() (p [maxDecimals + 1]float64) {
	p[0] = 1
	for d := 1; d <= maxDecimals; d++ {
		p[d] = p[d-1] * 10
	}
	return p
}()

// encodeLine appends the compact encoding of vs to dst. Per-turn numbers
// are mostly whole and change rarely or by a steady step (a counter, a
// level that holds for many turns), so whole lines are stored as runs of
// equal steps between consecutive values: a line that never changes costs
// a few bytes whatever the match length. A line of decimals, each value
// exactly what rounding to d digits after the point gives (regen rounds a
// metric to its declared resolution), is the whole line of its values
// times 10^d, with d. A line whose steps vary from turn to turn (a
// distance moved at a speed drawn each turn) is stored in packed blocks
// instead when that is shorter: each step in as few bits as its block
// needs, not a varint and a count.
//
// Any other line (-0, beyond 2^53, NaN, or fractions of more digits)
// falls back to runs of equal values, bit-exact; each value's bits are
// byte-reversed so that the zero low bytes of a short fraction (20.25,
// 0.5) vanish in the varint.
func encodeLine(dst []byte, vs []float64) []byte {
	if d, ok := decimals(vs); ok {
		scale := pow10[d]
		start := len(dst)
		if d == 0 {
			dst = append(dst, encInt)
		} else {
			dst = append(dst, encDecimal, byte(d))
		}
		dst = appendRuns(dst, vs, scale)
		// Packed blocks take two bytes each at least: a line of a few
		// runs (most lines) is shorter than they can be, and is left so
		// without packing it.
		if runs := len(dst) - start; runs > 2+2*(len(vs)+packedBlock-1)/packedBlock {
			packed := len(dst)
			dst = appendPacked(append(dst, encPacked, byte(d)), vs, scale)
			if len(dst)-packed < runs {
				return append(dst[:start], dst[packed:]...)
			}
			dst = dst[:packed]
		}
		return dst
	}
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

// decimals returns the fewest digits after the point, at most
// maxDecimals, that every value of vs keeps exactly: rounding v times 10^d
// to a whole number below 2^53 and dividing by 10^d gives back v's bits.
// ok is false when no such d exists. A value that keeps d digits may not
// keep more (a whole number near 2^53 has no room for them), so each
// increase of d checks the line again from its start.
func decimals(vs []float64) (d int, ok bool) {
	for i := 0; i < len(vs); {
		if isDecimal(vs[i], d) {
			i++
			continue
		}
		if d++; d > maxDecimals {
			return 0, false
		}
		i = 0
	}
	return d, true
}

// isDecimal reports whether v is what rounding to d digits after the
// point gives, and not -0, which a whole number cannot carry.
func isDecimal(v float64, d int) bool {
	k := math.Round(v * pow10[d])
	return math.Abs(k) < 1<<53 && math.Float64bits(k/pow10[d]) == math.Float64bits(v) && !(v == 0 && math.Signbit(v))
}

// whole returns v times scale, a whole number when decimals allows it.
func whole(v, scale float64) int64 { return int64(math.Round(v * scale)) }

// appendRuns appends the runs of equal steps between the values of vs
// times scale, the first step counted from 0.
func appendRuns(dst []byte, vs []float64, scale float64) []byte {
	prev := int64(0)
	for i := 0; i < len(vs); {
		k := whole(vs[i], scale)
		step := k - prev
		j := i + 1
		for ; j < len(vs); j++ {
			next := whole(vs[j], scale)
			if next-k != step {
				break
			}
			k = next
		}
		dst = binary.AppendVarint(dst, step)
		dst = binary.AppendUvarint(dst, uint64(j-i))
		prev = k
		i = j
	}
	return dst
}

// packedBlock is how many steps a packed block holds; the last block of
// a line holds the rest.
const packedBlock = 64

// appendPacked appends the steps between the values of vs times scale
// (the first counted from 0) in blocks of packedBlock: the block's
// smallest step (zigzag varint), the bits each step takes above it (a
// byte, 0 to 64) and the steps less the smallest in that many bits each,
// low bits first, the block padded to whole bytes. A block of equal steps
// takes two or three bytes.
func appendPacked(dst []byte, vs []float64, scale float64) []byte {
	var steps [packedBlock]uint64
	prev := int64(0)
	for i := 0; i < len(vs); i += packedBlock {
		block := vs[i:min(i+packedBlock, len(vs))]
		base := int64(math.MaxInt64)
		for j, v := range block {
			k := whole(v, scale)
			steps[j] = uint64(k - prev)
			base = min(base, k-prev)
			prev = k
		}
		var width int
		for j := range block {
			steps[j] -= uint64(base)
			width = max(width, bits.Len64(steps[j]))
		}
		dst = binary.AppendVarint(dst, base)
		dst = append(dst, byte(width))
		var w bitWriter
		for j := range block {
			dst = w.write(dst, steps[j], width)
		}
		dst = w.flush(dst)
	}
	return dst
}

// bitWriter appends numbers of any width up to 64 bits, low bits first.
type bitWriter struct {
	acc  uint64
	bits int // in acc, fewer than 8 between writes
}

func (w *bitWriter) write(dst []byte, v uint64, width int) []byte {
	for width > 0 {
		n := min(width, 56)
		w.acc |= (v & (1<<n - 1)) << w.bits
		w.bits += n
		v >>= n
		width -= n
		for w.bits >= 8 {
			dst = append(dst, byte(w.acc))
			w.acc >>= 8
			w.bits -= 8
		}
	}
	return dst
}

// flush appends the bits left, padded with zeros to a byte.
func (w *bitWriter) flush(dst []byte) []byte {
	if w.bits > 0 {
		dst = append(dst, byte(w.acc))
	}
	*w = bitWriter{}
	return dst
}

// bitReader reads what a bitWriter wrote.
type bitReader struct {
	data []byte
	acc  uint64
	bits int
}

func (r *bitReader) read(width int) (uint64, error) {
	var v uint64
	for got := 0; got < width; {
		n := min(width-got, 56)
		for r.bits < n {
			if len(r.data) == 0 {
				return 0, fmt.Errorf("packed steps cut short")
			}
			r.acc |= uint64(r.data[0]) << r.bits
			r.data = r.data[1:]
			r.bits += 8
		}
		v |= (r.acc & (1<<n - 1)) << got
		r.acc >>= n
		r.bits -= n
		got += n
	}
	return v, nil
}

// decodeLine appends the n values encoded in data to dst. It fails, never
// panics, on data that does not hold exactly n values.
func decodeLine(dst []float64, data []byte, n int) ([]float64, error) {
	enc, scale, data, err := lineEncoding(data)
	if err != nil {
		return nil, err
	}
	if enc == encPacked {
		return decodePacked(dst, data, n, scale)
	}
	want := len(dst) + n
	prev := int64(0)
	for len(data) > 0 {
		var r run
		if r, data, err = readRun(enc, data, want-len(dst)); err != nil {
			return nil, err
		}
		for range r.count {
			if enc != encFloat {
				prev += r.step
				r.value = float64(prev) / scale
			}
			dst = append(dst, r.value)
		}
	}
	if len(dst) != want {
		return nil, fmt.Errorf("line holds %d values, want %d", n-(want-len(dst)), n)
	}
	return dst, nil
}

// decodePacked appends the n values of the packed blocks in data, each
// divided by scale, to dst.
func decodePacked(dst []float64, data []byte, n int, scale float64) ([]float64, error) {
	prev := int64(0)
	for i := 0; i < n; i += packedBlock {
		base, k := binary.Varint(data)
		if k <= 0 || len(data) == k {
			return nil, fmt.Errorf("bad packed block at value %d", i)
		}
		width := int(data[k])
		if width > 64 {
			return nil, fmt.Errorf("packed block at value %d: %d bits a step", i, width)
		}
		r := bitReader{data: data[k+1:]}
		for range min(packedBlock, n-i) {
			step, err := r.read(width)
			if err != nil {
				return nil, fmt.Errorf("packed block at value %d: %w", i, err)
			}
			prev += base + int64(step)
			dst = append(dst, float64(prev)/scale)
		}
		data = r.data
	}
	if len(data) > 0 {
		return nil, fmt.Errorf("line holds more than %d values", n)
	}
	return dst, nil
}

// run is count values: each step more than the one before (encInt,
// encDecimal), or each equal to value (encFloat).
type run struct {
	step  int64
	value float64
	count uint64
}

// lineEncoding splits an encoded line into its encoding, the power of ten
// its whole numbers are divided by (1 for encFloat), and the rest.
func lineEncoding(data []byte) (enc byte, scale float64, rest []byte, err error) {
	if len(data) == 0 {
		return 0, 0, nil, fmt.Errorf("empty line")
	}
	switch enc, rest = data[0], data[1:]; enc {
	case encInt, encFloat:
		return enc, 1, rest, nil
	case encDecimal, encPacked:
		if len(rest) == 0 || rest[0] > maxDecimals {
			return 0, 0, nil, fmt.Errorf("bad number of decimals")
		}
		return enc, pow10[rest[0]], rest[1:], nil
	}
	return 0, 0, nil, fmt.Errorf("unknown encoding %d", enc)
}

// readRun reads the run at the start of data, of at most left values, and
// returns it with the data after it.
func readRun(enc byte, data []byte, left int) (run, []byte, error) {
	var r run
	if enc != encFloat {
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
