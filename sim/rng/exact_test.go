package rng

import (
	"math"
	"testing"
)

// sinCosEdges are arguments where the reduction or the kernels change
// branch: zeros, the tiny-argument cut, multiples of π/4 and π/2 and their
// neighbours, the Cody–Waite limit 2^20, huge and special values.
func sinCosEdges() []float64 {
	xs := []float64{0, math.Copysign(0, -1), 5e-324, 0x1p-1022, 0x1p-27, math.Nextafter(0x1p-27, 0),
		0x1p20, math.Nextafter(0x1p20, 0), 1e22, 1e300, math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN()}
	for k := -64; k <= 64; k++ {
		for _, base := range []float64{math.Pi / 4, math.Pi / 2} {
			x := float64(float64(k) * base)
			xs = append(xs, x, math.Nextafter(x, math.Inf(1)), math.Nextafter(x, math.Inf(-1)))
		}
	}
	n := len(xs)
	for _, x := range xs[:n] {
		xs = append(xs, -x)
	}
	return xs
}

// checkSinCos fails unless SinCos(x) is Sin(x), Cos(x) bit for bit.
func checkSinCos(t *testing.T, x float64) {
	t.Helper()
	s, c := SinCos(x)
	if !sameFloat(s, Sin(x)) || !sameFloat(c, Cos(x)) {
		t.Fatalf("SinCos(%v) = %v, %v; Sin, Cos = %v, %v", x, s, c, Sin(x), Cos(x))
	}
}

// TestSinCos compares SinCos with Sin and Cos on the edges, on 2^21 angles
// of the range the simulators use and on 2^21 random bit patterns (every
// exponent), 2^14 each with -short.
func TestSinCos(t *testing.T) {
	for _, x := range sinCosEdges() {
		checkSinCos(t, x)
	}
	n := 1 << 21
	if testing.Short() {
		n = 1 << 14
	}
	r := New(77)
	for range n {
		checkSinCos(t, float64(r.Float64()*24*math.Pi)-8*math.Pi)
		checkSinCos(t, math.Float64frombits(r.Uint64()))
	}
}

// FuzzSinCos: SinCos is Sin and Cos bit for bit for any argument.
func FuzzSinCos(f *testing.F) {
	for _, x := range sinCosEdges() {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		checkSinCos(t, math.Float64frombits(bits))
	})
}

// checkTwoSquare fails unless twoSquare(a) is twoProd(a, a) bit for bit.
func checkTwoSquare(t *testing.T, a float64) {
	t.Helper()
	p, e := twoSquare(a)
	wp, we := twoProd(a, a)
	if !sameFloat(p, wp) || !sameFloat(e, we) {
		t.Fatalf("twoSquare(%v) = %v, %v; twoProd = %v, %v", a, p, e, wp, we)
	}
}

// TestTwoSquare compares twoSquare with twoProd on the squares Log and
// the trigonometric kernels take (|a| < 1) and on random bit patterns,
// 2^21 each (2^14 with -short), and on edges.
func TestTwoSquare(t *testing.T) {
	for _, a := range sinCosEdges() {
		checkTwoSquare(t, a)
	}
	n := 1 << 21
	if testing.Short() {
		n = 1 << 14
	}
	r := New(78)
	for range n {
		checkTwoSquare(t, float64(2*r.Float64())-1)
		checkTwoSquare(t, math.Float64frombits(r.Uint64()))
	}
}

// FuzzTwoSquare: twoSquare is twoProd(a, a) bit for bit.
func FuzzTwoSquare(f *testing.F) {
	f.Add(uint64(0x3fb999999999999a))
	f.Fuzz(func(t *testing.T, bits uint64) {
		checkTwoSquare(t, math.Float64frombits(bits))
	})
}
