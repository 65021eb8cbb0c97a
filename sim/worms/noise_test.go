package worms

import (
	"math"
	"testing"
)

// TestNoiseVectors checks the engine's own unit-test values (seed 42) and
// the two tilts the rules file derives, bit for bit.
func TestNoiseVectors(t *testing.T) {
	for _, c := range []struct {
		x, y float64
		seed int32
		want float64
	}{
		{1.0, 1.0, 42, 0.06214340506192554},
		{64.3, 64.3, 42, 0.4928681547832553},
		{254.9, 212.21, 42, 0.2528798486304122},
		{-51.4, 128.9, 42, 0.7977717117332975},
		{2.0, 0.0, 0, 0.499999999805048},
		{2.0, 0.0, 42, 0.06214340506192522},
	} {
		if got := noise(c.x, c.y, c.seed); math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("noise(%v, %v, %d) = %v, want %v", c.x, c.y, c.seed, got, c.want)
		}
	}
}

// TestNoiseExtremeSeeds: seeds near ±2³¹ saturate the engine's int
// conversion; the result must stay finite and deterministic.
func TestNoiseExtremeSeeds(t *testing.T) {
	for _, seed := range []int32{math.MaxInt32, math.MinInt32, -1} {
		a, b := noise(9.6, 4.8, seed), noise(9.6, 4.8, seed)
		if math.IsNaN(a) || math.IsInf(a, 0) || a != b {
			t.Errorf("seed %d: noise %v, again %v", seed, a, b)
		}
	}
}

// TestXorWowVectors checks the first 16 nextBoolean values of Kotlin's
// Random(seed) for the rules file's seeds.
func TestXorWowVectors(t *testing.T) {
	for _, c := range []struct {
		seed int32
		want string
	}{
		{0, "1011100001001010"},
		{42, "0011001100110101"},
		{-7, "0111110111001101"},
	} {
		r := newXorWow(c.seed)
		got := make([]byte, 16)
		for i := range got {
			got[i] = '0'
			if r.nextBoolean() {
				got[i] = '1'
			}
		}
		if string(got) != c.want {
			t.Errorf("seed %d: got %s, want %s", c.seed, got, c.want)
		}
	}
}
