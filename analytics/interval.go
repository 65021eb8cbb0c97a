package analytics

import "math"

// z95 is the standard normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// Interval is a confidence interval [Low, High].
type Interval struct {
	Low, High float64
}

// Wilson returns the Wilson score 95% interval for a proportion of k
// successes in n trials. Unlike the textbook p ± z·sqrt(p(1-p)/n) it stays
// inside [0, 1] and does not collapse to a point at 0 or n successes, which
// matters for bots with few matches: 3 wins of 3 is [0.44, 1], not [1, 1].
// With no trials nothing is known and the interval is [0, 1].
func Wilson(k, n int) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z95 * z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	iv := Interval{max(0, centre-half), min(1, centre+half)}
	// At 0 or n successes the exact bound is 0 or 1; rounding would leave
	// 0.9999999999999999.
	if k == 0 {
		iv.Low = 0
	}
	if k == n {
		iv.High = 1
	}
	return iv
}
