package rng

import "math"

// Atan2 returns the arctangent of y/x, using the signs of the two to
// determine the quadrant of the return value.
//
// Special cases are as for math.Atan2, in this order:
//
//	Atan2(y, NaN) = NaN
//	Atan2(NaN, x) = NaN
//	Atan2(+0, x>=0) = +0
//	Atan2(-0, x>=0) = -0
//	Atan2(+0, x<=-0) = +π
//	Atan2(-0, x<=-0) = -π
//	Atan2(y>0, 0) = +π/2
//	Atan2(y<0, 0) = -π/2
//	Atan2(+Inf, +Inf) = +π/4
//	Atan2(-Inf, +Inf) = -π/4
//	Atan2(+Inf, -Inf) = 3π/4
//	Atan2(-Inf, -Inf) = -3π/4
//	Atan2(y, +Inf) = 0
//	Atan2(y>0, -Inf) = +π
//	Atan2(y<0, -Inf) = -π
//	Atan2(+Inf, x) = +π/2
//	Atan2(-Inf, x) = -π/2
//
// Unlike math.Atan2 it does not round y/x before taking the arctangent: the
// quotient is carried as a double-double, so the error stays below 0.51 ulp
// for all finite arguments.
func Atan2(y, x float64) float64 {
	switch {
	case x != x || y != y:
		return math.NaN()
	case y == 0:
		if math.Signbit(x) {
			return math.Copysign(math.Pi, y)
		}
		return y
	case x == 0:
		return math.Copysign(math.Pi/2, y)
	case math.IsInf(x, 0):
		switch {
		case !math.IsInf(y, 0) && x > 0:
			return math.Copysign(0, y)
		case !math.IsInf(y, 0):
			return math.Copysign(math.Pi, y)
		case x > 0:
			return math.Copysign(math.Pi/4, y)
		default:
			return math.Copysign(3*math.Pi/4, y)
		}
	case math.IsInf(y, 0):
		return math.Copysign(math.Pi/2, y)
	}

	ax, ay := math.Abs(x), math.Abs(y)
	_, ex := math.Frexp(ax)
	_, ey := math.Frexp(ay)
	var hi, lo float64
	switch {
	case ey-ex > 60: // atan q = π/2 - 1/q with 1/q < 2^-59: rounds like π/2
		hi, lo = pio2Hi, pio2Lo
	case ex-ey > 60: // atan q = q - q^3/3 with q < 2^-59: rounds like q
		hi = ay / ax
	default:
		// Scale both by 2^-ex (exact: the smaller stays above 2^-62), so
		// that the exact remainder of the division cannot overflow.
		ax, ay = math.Ldexp(ax, -ex), math.Ldexp(ay, -ex)
		qh := ay / ax
		p, pe := twoProd(qh, ax)
		ql := ((ay - p) - pe) / ax // ay - p is exact by Sterbenz's lemma
		hi, lo = atanDD(qh, ql)
	}
	if x < 0 { // π - atan(|y/x|)
		s, e := twoSum(piHi, -hi)
		hi = s + (e + (piLo - lo))
	}
	return math.Copysign(hi, y)
}

// atanDD returns atan(qh+ql) as hi+lo, with hi the rounded result, for
// finite qh > 0 and |ql| <= ulp(qh).
//
// Method: atan q = atan c + atan t with t = (q-c)/(1+q*c), for a table point
// c near q chosen so that |t| <= 2^-7 (plus rounding):
//   - q <= 1: c = j/64. For small j, t is as large as atan c, so its
//     rounding would show: t is computed as an exact double-double.
//   - 1 < q <= 128: c ≈ 64/j. atan c >= π/4 here, so the few-ulp error of a
//     plainly computed t is below 2^-60 of the result.
//   - q > 128: atan q = π/2 + atan t with t = -1/q.
//
// atan t is the Taylor series t - t^3/3 + ... + t^9/9; the first omitted
// term t^11/11 is below 2^-80.
func atanDD(qh, ql float64) (hi, lo float64) {
	var ch, cl, th, tl float64 // atan c as ch+cl, t as th+tl
	switch {
	case qh > 128:
		ch, cl = pio2Hi, pio2Lo
		th = -1 / qh
	case qh > 1:
		j := int(float64(64/qh) + 0.5) // 1 .. 64
		c := atanBigC[j]
		ch, cl = atanBigHi[j], atanBigLo[j]
		th = ((qh - c) + ql) / (float64(qh*c) + 1) // qh - c exact by Sterbenz
	default:
		j := int(float64(qh*64) + 0.5) // 0 .. 64
		if j == 0 {
			th, tl = qh, ql
			break
		}
		c := float64(j) / 64
		ch, cl = atanSmallHi[j], atanSmallLo[j]
		nh, nl := twoSum(qh-c, ql) // qh - c exact by Sterbenz's lemma
		ph, pl := twoProd(qh, c)
		dh, dl := fastTwoSum(1, ph) // 1 + q*c
		dl += pl + float64(ql*c)
		th = nh / dh
		p, pe := twoProd(th, dh)
		tl = (((nh - p) - pe) + nl - float64(th*dl)) / dh
	}
	z := float64(th * th)
	a := float64(z*(1.0/9)) - 1.0/7
	a = float64(z*a) + 1.0/5
	a = float64(z*a) - 1.0/3
	s, e := fastTwoSum(ch, th) // |ch| >= |th| whenever ch != 0
	lo = (cl + tl) + float64(float64(z*th)*a) + e
	return fastTwoSum(s, lo)
}
