package rng

import "math"

// Log returns the natural logarithm of x.
//
// Special cases are as for math.Log: Log(+Inf) = +Inf, Log(0) = -Inf,
// Log(x < 0) = NaN, Log(NaN) = NaN, and Log(1) = +0.
//
// The error is below 0.51 ulp for every positive x, subnormals included, and
// the result is the same on every platform.
//
// Method: x = 2^k * m with m in [0.75, 1.5), so that x near 1 always has
// k = 0 and no cancellation against k*ln2. The top 7 mantissa bits select a
// table entry with a 24-bit invc ≈ 1/m and log(1/invc) as hi+lo, so that
// log(x) = k*ln2 + log(1/invc) + log1p(r) with r = m*invc - 1, |r| < 2^-7.
// r is computed exactly as a double-double (m split into halves whose
// products with invc are exact), and log1p(r) is its Taylor series to r^9,
// whose truncation error |r|^10/10 < 2^-73 is far below an ulp. The leading
// terms are added without rounding, so only the final sum rounds.
func Log(x float64) float64 {
	switch {
	case x != x || x == math.Inf(1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	k := 0
	if x < 0x1p-1022 { // subnormal: scale into the normal range (exact)
		x = float64(x * 0x1p54)
		k = -54
	}
	return logNormal(x, k)
}

// logNormal is Log(x * 2^k) for a positive, finite, normal x: Log after
// its special cases, for callers whose argument is known to be one
// (NormFloat64's s is at least 2^-104).
func logNormal(x float64, k int) float64 {
	b := math.Float64bits(x)
	k += int(b>>52) - 1023
	j := int(b>>45) & 127
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52) // in [1, 2)
	if j >= 64 {
		m = float64(m * 0.5) // in [0.75, 1), exact
		k++
	}
	invc := logInvC[j]
	mh, ml := split(m)
	// mh*invc and ml*invc are exact (26 x 24 bits) and mh*invc - 1 is exact
	// by Sterbenz's lemma, so r = rh+rl is m*invc - 1 without error.
	rh, rl := twoSum(float64(mh*invc)-1, float64(ml*invc))

	fk := float64(k)
	// k*ln2Hi and logCHi lie on the grid of 2^-42 and sum below 2^10, so
	// their sum is exact.
	t := float64(fk*ln2Hi) + logCHi[j]
	s1, e1 := fastTwoSum(t, rh) // |t| >= |rh| whenever t != 0
	qh, qe := twoSquare(rh)     // rh^2 exactly
	s2, e2 := fastTwoSum(s1, float64(-0.5*qh))

	// r^3 * (1/3 - r/4 + r^2/5 - ... + r^6/9): Taylor coefficients of log1p.
	p := float64(rh*(1.0/9)) - 1.0/8
	p = float64(rh*p) + 1.0/7
	p = float64(rh*p) - 1.0/6
	p = float64(rh*p) + 1.0/5
	p = float64(rh*p) - 1.0/4
	p = float64(rh*p) + 1.0/3
	lo := float64(fk*ln2Lo) + logCLo[j]
	lo += rl - float64(0.5*qe) - float64(rh*rl) // the r^2/2 tail and the rl terms of log1p(rh+rl)
	lo += float64(rh * rh * rh * p)
	lo += e1 + e2
	return s2 + lo
}
