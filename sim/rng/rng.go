// Package rng is replaylab's own seeded pseudo-random generator and
// deterministic math. Simulators draw every random number from here so that a
// seed gives the same stream on every platform and Go version: the standard
// library's generators and distributions may change between releases, and its
// transcendental functions differ in the last bits between CPUs.
//
// The distributions (NormFloat64, LogNormal, Shuffle, Perm) document the
// exact order of their draws, and the math functions (Exp, Log, Sin, Cos,
// Atan2) are written here from +, -, *, / and exactly rounded helpers such
// as math.Sqrt and math.Floor, with errors near half an ulp: each is at most
// 1 ulp from the math package where that is accurate, as the tests check
// over 200,000 arguments per function.
// Bit-identical results on amd64 (GOAMD64=v1 or v3) and arm64 depend on one
// rule: a product that feeds a sum is rounded explicitly, float64(x*y) + z,
// because the compiler may otherwise fuse it into an FMA instruction.
// TestNoFusibleProducts enforces the rule; the goldens in testdata/ lock the
// bits and must pass unchanged on every platform.
package rng

import "math/bits"

// Rand is a xoshiro256** generator. The zero value is not usable; call New.
type Rand struct{ s [4]uint64 }

// New returns a generator whose state is expanded from seed with splitmix64,
// as the xoshiro authors recommend. Every seed, including 0, is valid.
func New(seed uint64) *Rand {
	r := &Rand{}
	for i := range r.s {
		seed += 0x9e3779b97f4a7c15
		r.s[i] = mix(seed)
	}
	return r
}

// Clone returns a generator at r's position that draws on independently.
func (r *Rand) Clone() *Rand {
	c := *r
	return &c
}

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	// The state in locals, stored back whole, keeps this within the
	// compiler's inlining budget: every draw is inlined into its caller.
	s0, s1, s2, s3 := r.s[0], r.s[1], r.s[2], r.s[3]
	result := bits.RotateLeft64(s1*5, 7) * 9
	t := s1 << 17
	s2 ^= s0
	s3 ^= s1
	s1 ^= s2
	s0 ^= s3
	s2 ^= t
	r.s = [4]uint64{s0, s1, s2, bits.RotateLeft64(s3, 45)}
	return result
}

// Uint64N returns a uniform integer in [0, n) without modulo bias (Lemire's
// multiply-and-reject method). It panics if n is 0, which is a caller bug.
func (r *Rand) Uint64N(n uint64) uint64 {
	if n == 0 {
		panic("rng: Uint64N(0)")
	}
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return hi
}

// IntN returns a uniform integer in [0, n). It panics if n <= 0.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("rng: IntN of a non-positive bound")
	}
	return int(r.Uint64N(uint64(n)))
}

// IntRange returns a uniform integer in [lo, hi], both included.
func (r *Rand) IntRange(lo, hi int) int {
	return lo + r.IntN(hi-lo+1)
}

// Float64 returns a uniform float in [0, 1) with 53 random bits.
func (r *Rand) Float64() float64 { return unit(r.Uint64()) }

// unit maps 64 random bits to Float64's [0, 1): the top 53 bits, scaled
// exactly.
func unit(x uint64) float64 { return float64(x>>11) * (1.0 / (1 << 53)) }

// SubSeed derives the seed of an independent sub-stream (a seat's bot, a
// round) from a match seed and a key, so consumers of one match seed never
// share or disturb each other's draws.
func SubSeed(seed, key uint64) uint64 {
	return mix(seed ^ (key+1)*0x9e3779b97f4a7c15)
}

// mix is splitmix64's output function: it scrambles a 64-bit value so
// that nearby inputs give unrelated outputs.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
