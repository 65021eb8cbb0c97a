package rng

import "math"

// Exp returns e**x.
//
// Special cases are as for math.Exp: Exp(+Inf) = +Inf, Exp(-Inf) = 0,
// Exp(NaN) = NaN, and results too large or too small overflow to +Inf or
// underflow to 0. Subnormal results are rounded once, at their own precision.
//
// The error is below 0.52 ulp for every x, subnormal results included, and
// the result is the same on every platform.
//
// Method: x = (64k + j) ln2/64 + r with |r| <= ln2/128, so that
// e**x = 2^k * 2^(j/64) * e**r. The table expTab holds 2^(j/64) as hi+lo with
// 106 bits; e**r - 1 is the Taylor polynomial of degree 6, whose truncation
// error r^7/7! < 2^-64 is far below an ulp. Everything except the final
// addition carries at most ~2^-60 relative error, so the result is within
// 0.5 ulp plus a small fraction.
func Exp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > expOverflow:
		return math.Inf(1)
	case x < expUnderflow:
		return 0
	}
	fn := math.Floor(float64(x*invLn2x64) + 0.5)
	n := int(fn)
	// Cody–Waite: fn*ln2x64Hi is exact (|n| < 2^17 and ln2x64Hi has 36
	// bits) and x - fn*ln2x64Hi is exact by Sterbenz's lemma.
	r := (x - float64(fn*ln2x64Hi)) - float64(fn*ln2x64Lo)
	p := float64(r*(1.0/720)) + 1.0/120
	p = float64(r*p) + 1.0/24
	p = float64(r*p) + 1.0/6
	p = float64(r*p) + 0.5
	p = float64(float64(r*r)*p) + r // e**r - 1
	j := n & 63
	k := n >> 6
	th, tl := expTab[2*j], expTab[2*j+1]
	// 2^(j/64)*(1+p) = th + (th*p + tl); the dropped tl*p is below 2^-60.
	tail := float64(th*p) + tl
	if k < -1021 {
		return expSubnormal(th, tail, k)
	}
	y := th + tail
	if k > 1023 {
		// Only reachable just below the overflow threshold with k == 1024.
		return float64(float64(y*2) * pow2(k-1))
	}
	return float64(y * pow2(k))
}

// expSubnormal returns (hi+lo) * 2^k for k < -1021, where the result may be
// subnormal. Scaling the already rounded hi+lo would round a second time at
// the subnormal precision (up to 1 ulp error); instead the sum is scaled by
// 2^(k+1022) first (exactly) and rounded once at 2^-52, which becomes the
// subnormal quantum 2^-1074 after the final, exact, multiplication by
// 2^-1022.
func expSubnormal(hi, lo float64, k int) float64 {
	s := pow2(k + 1022) // k >= -1077 here, so s >= 2^-55 is normal
	dh := float64(hi * s)
	dl := float64(lo * s)
	d := dh + dl
	if d < 1 {
		// 1 + (dh+dl) rounds at 2^-52: the one rounding we want.
		h := 1 + dh
		e := (1 - h) + dh // exact: 1 >= dh
		d = (h + (e + dl)) - 1
	}
	return float64(d * 0x1p-1022)
}

// pow2 returns 2^k for -1022 <= k <= 1023, built from its bits.
func pow2(k int) float64 {
	return math.Float64frombits(uint64(k+1023) << 52)
}

const (
	// expOverflow is just above ln(MaxFloat64) = 709.782712893383973...:
	// larger arguments overflow. Between ln(MaxFloat64) and expOverflow
	// the general path rounds to +Inf by itself.
	expOverflow = 709.79
	// expUnderflow is below ln(2^-1075) = -745.1332191019411...: smaller
	// arguments round to 0; the general path rounds those above it.
	expUnderflow = -746.0
)
