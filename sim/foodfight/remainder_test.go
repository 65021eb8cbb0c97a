package foodfight

import (
	"math"
	"testing"

	"github.com/replaylab/replaylab/sim/rng"
)

// remainderEdges are the arguments around remainder2Pi's cases: zeros,
// ±π, ±3π and ±4π and their neighbours (the ties and the ends of the
// n = ±1 range), the headings' range ends, huge and special values.
func remainderEdges() []float64 {
	xs := []float64{0, math.Copysign(0, -1), 5e-324, twoPi, 1e300, math.Inf(1), math.NaN()}
	for _, k := range []float64{1, 2, 3, 4, 5} {
		x := float64(k * math.Pi)
		xs = append(xs, x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)))
	}
	xs = append(xs, 1.5*twoPi, math.Nextafter(1.5*twoPi, 0), math.Nextafter(1.5*twoPi, math.Inf(1)))
	n := len(xs)
	for _, x := range xs[:n] {
		xs = append(xs, -x)
	}
	return xs
}

func checkRemainder(t *testing.T, a float64) {
	t.Helper()
	got, want := remainder2Pi(a), math.Remainder(a, twoPi)
	if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
		t.Fatalf("remainder2Pi(%v) = %v, math.Remainder = %v", a, got, want)
	}
}

// TestRemainder2Pi compares remainder2Pi with math.Remainder on the edges,
// on 2^22 arguments within ±5π (every case and beyond) and on 2^20 random
// bit patterns; 2^14 each with -short.
func TestRemainder2Pi(t *testing.T) {
	for _, a := range remainderEdges() {
		checkRemainder(t, a)
	}
	n := 1 << 22
	if testing.Short() {
		n = 1 << 14
	}
	r := rng.New(25)
	for i := range n {
		checkRemainder(t, float64(r.Float64()*10*math.Pi)-5*math.Pi)
		if i%4 == 0 {
			checkRemainder(t, math.Float64frombits(r.Uint64()))
		}
	}
}

// FuzzRemainder2Pi: remainder2Pi is math.Remainder(a, twoPi) bit for bit.
func FuzzRemainder2Pi(f *testing.F) {
	for _, a := range remainderEdges() {
		f.Add(math.Float64bits(a))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		checkRemainder(t, math.Float64frombits(bits))
	})
}
