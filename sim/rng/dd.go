package rng

// Error-free transformations ("double-double" arithmetic). The transcendental
// functions carry a few intermediate values as an unevaluated sum hi+lo of two
// float64s so that only the final addition rounds, which is what keeps their
// error near half an ulp. None of these may use an FMA instruction: the
// products are rounded explicitly with float64(...) so that the compiler cannot
// fuse them (the Go spec allows fusing x*y+z on arm64 and on amd64 with
// GOAMD64=v3, which changes the last bits). TestNoFusibleProducts enforces it.

// splitter is 2^27+1: multiplying by it splits a float64 into two halves of
// at most 26 significant bits each (Veltkamp's method), so that the product of
// two halves is exact.
const splitter = 1<<27 + 1

// split returns hi+lo == a with hi and lo of at most 26 significant bits.
// |a| must be below 2^995 so that splitter*a does not overflow.
func split(a float64) (hi, lo float64) {
	c := float64(splitter * a)
	hi = c - (c - a)
	lo = a - hi
	return hi, lo
}

// twoProd returns p = fl(a*b) and e with p+e == a*b exactly (Dekker's
// product), barring overflow and underflow.
func twoProd(a, b float64) (p, e float64) {
	p = float64(a * b)
	ah, al := split(a)
	bh, bl := split(b)
	e = ((float64(ah*bh) - p) + float64(ah*bl) + float64(al*bh)) + float64(al*bl)
	return p, e
}

// twoSquare is twoProd(a, a), the same operations on one split of a
// (split(a) twice gives the same halves), so the same p and e.
func twoSquare(a float64) (p, e float64) {
	p = float64(a * a)
	ah, al := split(a)
	e = ((float64(ah*ah) - p) + float64(ah*al) + float64(al*ah)) + float64(al*al)
	return p, e
}

// twoSum returns s = fl(a+b) and e with s+e == a+b exactly (Knuth's
// branch-free sum; no condition on the magnitudes).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// fastTwoSum is twoSum for |a| >= |b| (or a == 0): three operations instead
// of six (Dekker's Fast2Sum).
func fastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	e = b - (s - a)
	return s, e
}
