package rng

import "math"

// Pow returns x**y.
//
// Special cases are as for math.Pow, in this order:
//
//	Pow(x, ±0) = 1 for any x
//	Pow(1, y) = 1 for any y
//	Pow(x, 1) = x for any x
//	Pow(NaN, y) = NaN
//	Pow(x, NaN) = NaN
//	Pow(±0, y) = ±Inf for y an odd integer < 0
//	Pow(±0, -Inf) = +Inf
//	Pow(±0, +Inf) = +0
//	Pow(±0, y) = +Inf for finite y < 0 and not an odd integer
//	Pow(±0, y) = ±0 for y an odd integer > 0
//	Pow(±0, y) = +0 for finite y > 0 and not an odd integer
//	Pow(-1, ±Inf) = 1
//	Pow(x, +Inf) = +Inf for |x| > 1
//	Pow(x, -Inf) = +0 for |x| > 1
//	Pow(x, +Inf) = +0 for |x| < 1
//	Pow(x, -Inf) = +Inf for |x| < 1
//	Pow(+Inf, y) = +Inf for y > 0
//	Pow(+Inf, y) = +0 for y < 0
//	Pow(-Inf, y) = Pow(-0, -y)
//	Pow(x, y) = NaN for finite x < 0 and finite non-integer y
//
// Otherwise it is Exp(y*Log(|x|)), negated for x < 0 and odd integer y, but
// evaluated with a double-double logarithm and product so that the rounding
// of y*log|x| (up to 745 units) does not show: the error is below 0.6 ulp
// for all arguments (math.Pow's grows to thousands of ulps for x near 1 and
// huge y), and exactly representable results such as Pow(3, 20) come out
// exact. The result is the same on every platform.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y == 1:
		return x
	case x != x || y != y:
		return math.NaN()
	case x == 0:
		switch {
		case y < 0 && isOddInt(y):
			return math.Copysign(math.Inf(1), x)
		case y < 0:
			return math.Inf(1)
		case isOddInt(y):
			return x
		default:
			return 0
		}
	case math.IsInf(y, 0):
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == (y > 0):
			return 0
		default:
			return math.Inf(1)
		}
	case math.IsInf(x, 0):
		if x < 0 {
			return Pow(1/x, -y) // Pow(-0, -y)
		}
		if y < 0 {
			return 0
		}
		return math.Inf(1)
	}

	neg := false
	if x < 0 {
		if y != math.Trunc(y) {
			return math.NaN()
		}
		neg = isOddInt(y)
		x = -x
	}
	lh, ll := logDD(x)
	var r float64
	switch z := float64(y * lh); {
	case z > expOverflow:
		r = math.Inf(1)
	case z < expUnderflow:
		r = 0
	default:
		// |y| < 2^63 here (|lh| >= 2^-53 as x != 1), so twoProd cannot
		// overflow; its tail only underflows when |y*lh| is so small that
		// the result rounds to 1 anyway.
		ph, pl := twoProd(y, lh)
		r = expDD(ph, pl+float64(y*ll))
	}
	if neg {
		return -r
	}
	return r
}

// isOddInt reports whether y is an odd integer. Floats of 2^53 and more are
// all even.
func isOddInt(y float64) bool {
	if math.Abs(y) >= 1<<53 {
		return false
	}
	yi := int64(y)
	return float64(yi) == y && yi&1 == 1
}
