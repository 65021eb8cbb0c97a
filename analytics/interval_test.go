package analytics

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	// 5 of 10 is the usual textbook example ([0.2366, 0.7634]); the others
	// were computed independently of this code from the closed form.
	tests := []struct {
		k, n      int
		low, high float64
	}{
		{0, 0, 0, 1},
		{0, 10, 0, 0.2775327},
		{10, 10, 0.7224673, 1},
		{5, 10, 0.2365931, 0.7634069},
		{3, 3, 0.4385030, 1},
		{81, 263, 0.2552885, 0.3662096},
	}
	for _, tt := range tests {
		got := Wilson(tt.k, tt.n)
		if math.Abs(got.Low-tt.low) > 1e-6 || math.Abs(got.High-tt.high) > 1e-6 {
			t.Errorf("Wilson(%d, %d): got [%.7f, %.7f], want [%.7f, %.7f]", tt.k, tt.n, got.Low, got.High, tt.low, tt.high)
		}
	}
}
