package store

import (
	"encoding/binary"
	"math"
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := decodeLine(nil, tt.data, tt.n); err == nil {
				t.Errorf("decoded %v, want an error", got)
			}

		})
	}
}

// FuzzLine: any values round-trip bit-exactly, and any bytes decode or
// fail without a panic.
func FuzzLine(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(3))
	f.Fuzz(func(t *testing.T, raw []byte, n uint8) {
		decodeLine(nil, raw, int(n))
		vs := make([]float64, 0, len(raw))
		for _, b := range raw { // small whole numbers, with a fraction now and then
			v := float64(int8(b) / 16)
			if b == 0xff {
				v = 0.5
			}
			vs = append(vs, v)
		}
		data := encodeLine(nil, vs)
		got, err := decodeLine(nil, data, len(vs))
		if err != nil || !sameBits(got, vs) {
			t.Fatalf("round trip of %v: got %v, %v", vs, got, err)
		}

	})
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
