package analytics

import (
	"errors"
	"math"
	"testing"
)

func TestSignTest(t *testing.T) {
	// Small cases by hand from binomial coefficients over 2^n: 9-1 is
	// 2·(1+10)/1024, 8-2 is 2·(1+10+45)/1024, 0-6 is 2·1/64. The two large
	// ones were summed exactly with Python's math.comb and fractions.
	tests := []struct {
		wins, losses int
		want         float64
	}{
		{9, 1, 22.0 / 1024},
		{1, 9, 22.0 / 1024},
		{8, 2, 112.0 / 1024},
		{0, 6, 2.0 / 64},
		{5, 5, 1},
		{1, 0, 1},
		{550, 450, 0.0017305360849763176},
		{5200, 4800, 6.593515598672442e-05},
	}
	for _, tt := range tests {
		got, err := SignTest(tt.wins, tt.losses)
		if err != nil {
			t.Errorf("SignTest(%d, %d): %v", tt.wins, tt.losses, err)
			continue
		}
		if math.Abs(got-tt.want) > 1e-9*tt.want {
			t.Errorf("SignTest(%d, %d): got %.12g, want %.12g", tt.wins, tt.losses, got, tt.want)
		}
	}
	if _, err := SignTest(0, 0); !errors.Is(err, ErrNoPairs) {
		t.Errorf("SignTest(0, 0): got error %v, want %v", err, ErrNoPairs)
	}
	if _, err := SignTest(-1, 3); err == nil {
		t.Error("SignTest(-1, 3): got no error, want one")
	}
	// Far too many pairs for 2^-n, yet an even split is p = 1.
	if got, err := SignTest(5_000_000, 5_000_000); err != nil || got != 1 {
		t.Errorf("SignTest(5e6, 5e6): got %v, %v, want 1", got, err)
	}
}

func TestPairsNeeded(t *testing.T) {
	// n = ((1.959964/2 + 0.841621·√(q(1-q))) / (q-½))² decisive pairs:
	// q = 0.6 gives (1.392291/0.1)² = 193.85 → 194; q = 2/3 gives
	// (1.376723/0.166667)² = 68.23 → 69. For q = 1 it gives 3.84 → 4, but
	// 4-0 (p = 1/8) and 5-0 (1/16) fail the exact test and 6-0 (1/32)
	// passes, so 6.
	tests := []struct {
		wins, losses, ties int
		want               int
	}{
		{6, 4, 0, 194 - 10},
		{4, 6, 0, 194 - 10},
		{6, 4, 10, 388 - 20}, // half the pairs even: twice as many
		{2, 1, 0, 69 - 3},
		{1, 0, 0, 6 - 1},
		{9, 1, 0, 0}, // p = 0.021 already
	}
	for _, tt := range tests {
		got, err := PairsNeeded(tt.wins, tt.losses, tt.ties)
		if err != nil || got != tt.want {
			t.Errorf("PairsNeeded(%d, %d, %d): got %d, %v, want %d", tt.wins, tt.losses, tt.ties, got, err, tt.want)
		}
	}
	bad := []struct {
		wins, losses, ties int
		want               error
	}{
		{0, 0, 0, ErrNoPairs},
		{5, 5, 2, ErrNoDifference},
		{0, 0, 3, ErrNoDifference},
		{500_001, 500_000, 0, ErrNoDifference}, // needs ~8·10^12
	}
	for _, tt := range bad {
		if _, err := PairsNeeded(tt.wins, tt.losses, tt.ties); !errors.Is(err, tt.want) {
			t.Errorf("PairsNeeded(%d, %d, %d): got error %v, want %v", tt.wins, tt.losses, tt.ties, err, tt.want)
		}
	}
}
