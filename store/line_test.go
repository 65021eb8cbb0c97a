package store

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestLineRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		values  []float64
		maxSize int
	}{
		{"empty", nil, 1},
		{"constant", slices.Repeat([]float64{20}, 2001), 6},
		{"counter", func() []float64 {
			vs := make([]float64, 2001)
			for i := range vs {
				vs[i] = float64(i / 100)
			}
			return vs
		}(), 1 + 20*4},
		{"steady step", []float64{0, 1, 2, 3, 4, 5, 6}, 5},
		{"negative", []float64{-3, 5, -7, 1 << 52, -(1 << 52)}, 40},
		{"fractions", []float64{0.25, 0.25, 0.5, 1, 20.25, math.Inf(1), math.NaN()}, 1 + 5*4 + 11}, // NaN has a low bit set
		{"full mantissa", []float64{0.1, math.Pi}, 1 + 2*11},
		{"negative zero", []float64{0, math.Copysign(0, -1)}, 1 + 2*3},
		{"huge", []float64{1 << 60, 1 << 60}, 1 + 4},
		{"decimals", decay(2001), 1 + 1 + 4 + 3},
		{"noisy decimals", walk(2001, 7), 2 + 32*(3+2*64)},
		{"decimals and a whole number near 2^53", []float64{0.5, 1<<53 - 1}, 1 + 2*9},
		{"decimals and negative zero", []float64{0.25, math.Copysign(0, -1)}, 1 + 2*4},
		{"more decimals than kept", []float64{1e-10, 2e-10}, 1 + 2*11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := encodeLine(nil, tt.values)
			if len(data) > tt.maxSize {
				t.Errorf("encoded in %d bytes, want at most %d", len(data), tt.maxSize)
			}
			got, err := decodeLine(nil, data, len(tt.values))
			if err != nil {
				t.Fatal(err)
			}
			if !sameBits(got, tt.values) {
				t.Errorf("got %v, want %v", got, tt.values)
			}

		})
	}
}

// decay is n values from 100 down by 0.02 a turn, each rounded to 0.01 as
// regen stores a metric of that resolution: one run of equal steps.
func decay(n int) []float64 {
	vs := make([]float64, n)
	for i := range vs {
		vs[i] = math.Round((100-0.02*float64(i))*100) / 100
	}
	return vs
}

// walk is n values of a distance that grows by a step drawn anew each
// turn, rounded to 0.01: no two steps in a row equal, so it is packed.
func walk(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, seed))
	vs := make([]float64, n)
	x := 0.0
	for i := range vs {
		x += 10 + 2*r.NormFloat64()
		vs[i] = math.Round(x*100) / 100
	}
	return vs
}

func TestLineEncodings(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		want   []byte // the encoding byte, then the decimals
	}{
		{"whole", []float64{1, 2, 3}, []byte{encInt}},
		{"whole noisy", []float64{1, 5, 2, 9, 3, 7, 4, 8}, []byte{encPacked, 0}},
		{"decimals", decay(100), []byte{encDecimal, 2}},
		{"noisy decimals", walk(100, 1), []byte{encPacked, 2}},
		{"one decimal", []float64{0.5, 1, 1.5, 2, 2.5, 3}, []byte{encDecimal, 1}},
		{"not decimal", []float64{1.0 / 3}, []byte{encFloat}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := encodeLine(nil, tt.values)
			if got := data[:min(len(data), len(tt.want))]; !slices.Equal(got, tt.want) {
				t.Errorf("encoded as % x, want % x", got, tt.want)
			}
		})
	}
}

// TestLineDecimalsUnrounded: a line of values that are not what rounding
// to a few digits gives is kept bit-exact, never rounded by storage.
func TestLineDecimalsUnrounded(t *testing.T) {
	vs := []float64{100, 99.98, 99.96000000000001} // 100 less 0.02 twice, unrounded
	data := encodeLine(nil, vs)
	if data[0] != encFloat {
		t.Errorf("encoded as %d, want %d (bit-exact)", data[0], encFloat)
	}
	got, err := decodeLine(nil, data, len(vs))
	if err != nil || !sameBits(got, vs) {
		t.Errorf("got %v, %v, want %v", got, err, vs)
	}
}

// TestLineOldBlobs: lines stored by builds before the decimal and packed
// encodings, bytes as those builds wrote them, read as they did.
func TestLineOldBlobs(t *testing.T) {
	tests := []struct {
		data []byte
		want []float64
	}{
		{[]byte{0x2, 0xc0, 0xb2, 0x1, 0x1, 0xc0, 0xb0, 0xf9, 0xc7, 0x9b, 0xea, 0xfa, 0xc2, 0x1f, 0x1, 0xc0, 0xb0, 0xf5, 0x87, 0xb7, 0xf4, 0xb5, 0x85, 0x3e, 0x2},
			[]float64{100, 99.98, 99.96000000000001, 99.96000000000001}},
		{[]byte{0x1, 0x0, 0x1, 0x6, 0x1, 0x0, 0x2, 0x8, 0x1}, []float64{0, 3, 3, 3, 7}},
		{[]byte{0x2, 0xc0, 0xf6, 0x91, 0xf1, 0xbc, 0x8c, 0xd5, 0xeb, 0x34, 0x2}, []float64{434.3003876985633, 434.3003876985633}},
	}
	for _, tt := range tests {
		got, err := decodeLine(nil, tt.data, len(tt.want))
		if err != nil || !sameBits(got, tt.want) {
			t.Errorf("decoded % x as %v, %v; want %v", tt.data, got, err, tt.want)
		}
	}
}

func TestBitsRoundTrip(t *testing.T) {
	vs := []uint64{0, 1, math.MaxUint64, 1 << 63, 12345, 1<<56 - 1, 1 << 56}
	for _, width := range []int{0, 1, 7, 8, 9, 56, 57, 63, 64} {
		var w bitWriter
		var data []byte
		for _, v := range vs {
			data = w.write(data, v, width)
		}
		data = w.flush(data)
		if want := (len(vs)*width + 7) / 8; len(data) != want {
			t.Errorf("width %d: wrote %d bytes, want %d", width, len(data), want)
		}
		r := bitReader{data: data}
		for _, v := range vs {
			want := v
			if width < 64 {
				want &= 1<<width - 1
			}
			if got, err := r.read(width); err != nil || got != want {
				t.Errorf("width %d: read %#x, %v, want %#x", width, got, err, want)
			}
		}
	}
}

func TestDecodeLineErrors(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		n    int
	}{
		{"empty", nil, 0},
		{"unknown encoding", []byte{9, 0, 1}, 1},
		{"too few", encodeLine(nil, []float64{1, 2}), 3},
		{"too many", encodeLine(nil, []float64{1, 2, 3}), 2},
		{"zero run", []byte{encInt, 2, 0}, 1},
		{"cut step", []byte{encInt, 0x80}, 1},
		{"cut float", []byte{encFloat, 0x80, 0x80}, 1},
		{"cut run", append([]byte{encInt}, binary.AppendVarint(nil, 5)...), 1},
		{"no decimals", []byte{encDecimal}, 1},
		{"too many decimals", []byte{encDecimal, maxDecimals + 1, 2, 1}, 1},
		{"decimals too few", encodeLine(nil, []float64{0.5, 1.5}), 3},
		{"packed too few", encodeLine(nil, walk(100, 1)), 101},
		{"packed too many", encodeLine(nil, walk(100, 1)), 99},
		{"packed cut", encodeLine(nil, walk(100, 1))[:50], 100},
		{"packed no width", []byte{encPacked, 0, 2}, 1},
		{"packed too wide", []byte{encPacked, 0, 2, 65, 0xff}, 1},
		{"packed cut base", []byte{encPacked, 0, 0x80}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := decodeLine(nil, tt.data, tt.n); err == nil {
				t.Errorf("decoded %v, want an error", got)
			}

		})
	}
}

// FuzzLine: any values round-trip bit-exactly, whatever their encoding
// (whole, decimals in runs or packed, bit-exact floats), and any bytes
// decode or fail without a panic.
func FuzzLine(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(3), uint8(0))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(9), uint8(2))
	f.Add([]byte{encPacked, 2, 4, 3, 0xff, 0x0f}, uint8(4), uint8(3))
	f.Fuzz(func(t *testing.T, raw []byte, n, digits uint8) {
		decodeLine(nil, raw, int(n))
		// Steps drawn from the bytes, as whole numbers of 10^-digits
		// (beyond maxDecimals they are fractions storage keeps
		// bit-exact), with a fraction of other digits now and then.
		scale := math.Pow(10, float64(digits%12))
		vs := make([]float64, 0, len(raw))
		k := 0.0
		for _, b := range raw {
			k += float64(int8(b))
			v := math.Round(k) / scale
			if b == 0xff {
				v = 1.0 / 3
			}
			vs = append(vs, v)
		}
		data := encodeLine(nil, vs)
		got, err := decodeLine(nil, data, len(vs))
		if err != nil || !sameBits(got, vs) {
			t.Fatalf("round trip of %v (encoding %d): got %v, %v", vs, data[0], got, err)
		}
	})
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
