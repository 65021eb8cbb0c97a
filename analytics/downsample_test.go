package analytics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDownsampleSmall(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name      string
		values    []float64
		maxPoints int
		turns     []int
		want      []float64 // NaN compares equal to NaN here
	}{
		// 10 turns in 2 buckets: 0..4 and 5..9.
		{"min before max", []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3}, 4, []int{1, 4, 5, 6}, []float64{1, 5, 9, 2}},
		// 7 turns in 3 buckets of 2, 2 and 3 turns: 0..1, 2..3, 4..6.
		{"uneven buckets", []float64{5, 5, 0, 7, 2, 2, 8}, 6, []int{0, 2, 3, 4, 6}, []float64{5, 0, 7, 2, 8}},
		{"NaN never an extreme", []float64{nan, 4, nan, 2, 6, nan}, 2, []int{3, 4}, []float64{2, 6}},
		// 10 turns in 4 buckets: 0..1, 2..4, 5..6, 7..9.
		{"empty buckets are one gap", []float64{1, 2, nan, nan, nan, nan, nan, nan, 3, 3}, 8, []int{0, 1, 2, 8}, []float64{1, 2, nan, 3}},
		{"bound below 2", []float64{1, 2, 3}, 0, []int{0, 2}, []float64{1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Downsample(Line{Seat: 1, Unit: 2, Values: tt.values}, tt.maxPoints)
			same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
			if got.Seat != 1 || got.Unit != 2 || !slices.Equal(got.Turns, tt.turns) || !slices.EqualFunc(got.Values, tt.want, same) {
				t.Errorf("got seat %d unit %d turns %v values %v; want 1, 2, %v, %v", got.Seat, got.Unit, got.Turns, got.Values, tt.turns, tt.want)
			}
		})
	}
}

func TestDownsampleShortUntouched(t *testing.T) {
	l := Line{Values: []float64{1, math.NaN(), 3}}
	for _, maxPoints := range []int{3, 4, 2000} {
		if got := Downsample(l, maxPoints); got.Turns != nil || &got.Values[0] != &l.Values[0] {
			t.Errorf("Downsample(3 values, %d): got turns %v, want the line as it is", maxPoints, got.Turns)
		}
	}
}

// TestDownsampleLong checks the properties on random lines: the bound, turns
// in order and each the real turn of its value, and every bucket's extremes
// kept.
func TestDownsampleLong(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, tc := range []struct{ n, maxPoints int }{{5000, 2000}, {100_001, 2000}, {4001, 7}, {2001, 2000}} {
		vs := make([]float64, tc.n)
		for i := range vs {
			switch rng.IntN(20) {
			case 0:
				vs[i] = math.NaN()
			default:
				vs[i] = math.Round(rng.NormFloat64() * 100)
			}
		}
		got := Downsample(Line{Values: vs}, tc.maxPoints)
		if len(got.Values) > tc.maxPoints || len(got.Turns) != len(got.Values) {
			t.Fatalf("n %d: got %d values, %d turns; want at most %d, as many turns", tc.n, len(got.Values), len(got.Turns), tc.maxPoints)
		}
		for i, turn := range got.Turns {
			if i > 0 && turn <= got.Turns[i-1] {
				t.Fatalf("n %d: turns out of order at %d: %v", tc.n, i, got.Turns[i-1:i+1])
			}
			if v := got.Values[i]; v != vs[turn] && !(math.IsNaN(v) && math.IsNaN(vs[turn])) {
				t.Fatalf("n %d: value at turn %d: got %v, want %v", tc.n, turn, v, vs[turn])
			}
		}
		kept := map[int]bool{}
		for _, turn := range got.Turns {
			kept[turn] = true
		}
		buckets := tc.maxPoints / 2
		for b := range buckets {
			lo, hi := b*tc.n/buckets, (b+1)*tc.n/buckets
			seen := map[float64]bool{}
			lowest, highest := math.Inf(1), math.Inf(-1)
			for turn := lo; turn < hi; turn++ {
				if v := vs[turn]; !math.IsNaN(v) {
					lowest, highest = min(lowest, v), max(highest, v)
				}
				if kept[turn] {
					seen[vs[turn]] = true
				}
			}
			if !math.IsInf(lowest, 1) && (!seen[lowest] || !seen[highest]) {
				t.Fatalf("n %d: bucket %d..%d: extremes %v and %v, kept %v", tc.n, lo, hi-1, lowest, highest, seen)
			}
		}
	}
}
