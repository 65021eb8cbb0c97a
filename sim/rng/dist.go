package rng

import "math"

// NormFloat64 returns a standard normal variate (mean 0, standard deviation
// 1).
//
// It uses the Marsaglia polar method: it draws u = 2*Float64()-1 and then
// v = 2*Float64()-1, repeats the pair while s = u*u+v*v is not in (0, 1)
// (about 21% of pairs), and returns u*Sqrt(-2*Log(s)/s). The second variate
// the method offers, v*Sqrt(-2*Log(s)/s), is discarded, so a call's result
// depends only on the stream position and Rand needs no hidden state.
func (r *Rand) NormFloat64() float64 {
	for {
		// unit(r.Uint64()) is r.Float64(), written out so that the
		// generator is inlined here.
		u := float64(2*unit(r.Uint64())) - 1
		v := float64(2*unit(r.Uint64())) - 1
		s := float64(u*u) + float64(v*v)
		if s < 1 && s != 0 {
			// s is a sum of squares of multiples of 2^-52, so at least
			// 2^-104 and normal: Log's special cases cannot arise.
			return float64(u * math.Sqrt(-2*logNormal(s, 0)/s))
		}
	}
}

// LogNormal returns a log-normal variate whose logarithm has mean mu and
// standard deviation sigma: Exp(mu + sigma*NormFloat64()), one NormFloat64
// draw. Its median is Exp(mu), so LogNormal(Log(m), s/m) is the "m ± s" of
// FoodFight (rules/foodfight.md A.3).
func (r *Rand) LogNormal(mu, sigma float64) float64 {
	return Exp(float64(sigma*r.NormFloat64()) + mu)
}

// Shuffle pseudo-randomizes the order of n elements with the Fisher–Yates
// algorithm: for i from n-1 down to 1 it draws j = IntN(i+1) and calls
// swap(i, j) (also when j == i), so it makes exactly n-1 draws, none for
// n <= 1. It panics if n < 0.
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	if n < 0 {
		panic("rng: Shuffle of a negative count")
	}
	for i := n - 1; i > 0; i-- {
		swap(i, r.IntN(i+1))
	}
}

// Perm returns a pseudo-random permutation of the integers [0, n): the
// identity slice shuffled by Shuffle, so it makes the same n-1 draws. It
// panics if n < 0.
func (r *Rand) Perm(n int) []int {
	if n < 0 {
		panic("rng: Perm of a negative count")
	}
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}
