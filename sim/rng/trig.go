package rng

import (
	"math"
	"math/bits"
)

// Sin returns the sine of the radian argument x.
//
// Special cases are as for math.Sin: Sin(±0) = ±0, Sin(±Inf) = NaN and
// Sin(NaN) = NaN.
//
// The error is below 0.53 ulp for every finite x, however large: arguments
// below 2^20 in magnitude are reduced modulo π/2 by a four-part Cody–Waite
// subtraction, larger ones by a Payne–Hanek multiplication with 1216 bits of
// 2/π, both accurate to well beyond double precision, so there is no range
// beyond which accuracy degrades. The result is the same on every platform.
func Sin(x float64) float64 {
	ax := math.Abs(x)
	switch {
	case ax < 0x1p-27: // sin x = x - x^3/6 rounds to x (±0 included)
		return x
	case ax == math.Inf(1) || x != x:
		return math.NaN()
	}
	n, rh, rl := reduce(ax)
	var y float64
	switch n & 3 {
	case 0:
		y = sinKernel(rh, rl)
	case 1:
		y = cosKernel(rh, rl)
	case 2:
		y = -sinKernel(rh, rl)
	default:
		y = -cosKernel(rh, rl)
	}
	if x < 0 {
		return -y
	}
	return y
}

// Cos returns the cosine of the radian argument x.
//
// Special cases are as for math.Cos: Cos(±Inf) = NaN and Cos(NaN) = NaN.
//
// The error bound and argument range are those of Sin.
func Cos(x float64) float64 {
	ax := math.Abs(x)
	switch {
	case ax < 0x1p-27: // cos x = 1 - x^2/2 rounds to 1
		return 1
	case ax == math.Inf(1) || x != x:
		return math.NaN()
	}
	n, rh, rl := reduce(ax)
	switch n & 3 {
	case 0:
		return cosKernel(rh, rl)
	case 1:
		return -sinKernel(rh, rl)
	case 2:
		return -cosKernel(rh, rl)
	default:
		return sinKernel(rh, rl)
	}
}

// SinCos returns Sin(x) and Cos(x), bit for bit, reducing x once instead
// of twice.
func SinCos(x float64) (sin, cos float64) {
	ax := math.Abs(x)
	switch {
	case ax < 0x1p-27:
		return x, 1
	case ax == math.Inf(1) || x != x:
		return math.NaN(), math.NaN()
	}
	n, rh, rl := reduce(ax)
	s, c := sinKernel(rh, rl), cosKernel(rh, rl)
	switch n & 3 {
	case 1:
		s, c = c, -s
	case 2:
		s, c = -s, -c
	case 3:
		s, c = -c, s
	}
	if x < 0 {
		s = -s
	}
	return s, c
}

// reduce returns n and r = rh+rl with ax = n*π/2 + r and |r| <= π/4 (up to
// a rounding of the quotient), for finite ax >= 0. Only n mod 4 matters.
func reduce(ax float64) (n uint64, rh, rl float64) {
	switch {
	case ax <= 0x1.921fb54442d18p-1: // π/4 rounded down: already reduced
		return 0, ax, 0
	case ax < 0x1p20:
		return reduceMedium(ax)
	default:
		return reduceLarge(ax)
	}
}

// reduceMedium is the Cody–Waite reduction for ax < 2^20. π/2 is split as
// pio2CW1+pio2CW2+pio2CW3+pio2CW4, the first three with 33 bits, so that
// fn*pio2CWi is exact for n < 2^20; the four parts carry π/2 to 2^-156, so
// r is off by less than 2^-136, far below the smallest |r| of any double
// (about 2^-61, for 6381956970095103 * 2^797). The running difference is
// kept as a double-double, so only its final tail rounds.
func reduceMedium(ax float64) (n uint64, rh, rl float64) {
	fn := math.Floor(float64(ax*twoOverPi) + 0.5)
	t := ax - float64(fn*pio2CW1) // exact by Sterbenz's lemma
	t, e1 := twoSum(t, float64(-fn*pio2CW2))
	t, e2 := twoSum(t, float64(-fn*pio2CW3))
	lo := (e1 + e2) - float64(fn*pio2CW4)
	rh, rl = twoSum(t, lo)
	return uint64(fn), rh, rl
}

// reduceLarge is the Payne–Hanek reduction for ax >= 2^20: with
// ax = m * 2^e (m a 53-bit integer), ax*2/π mod 4 only depends on the bits
// of 2/π from position e-1 on, because earlier bits contribute multiples of
// 4. A 192-bit window of those bits times m gives the quadrant and at least
// 128 correct fraction bits; the fraction times π/2 (as a double-double) is
// r.
func reduceLarge(ax float64) (n uint64, rh, rl float64) {
	b := math.Float64bits(ax)
	e := int(b>>52) - 1075
	m := b&(1<<52-1) | 1<<52
	// Bit i (i >= 1) of 2/π has weight 2^-i; keep bits s .. s+191.
	s := max(e-1, 1)
	w, off := (s-1)/64, uint((s-1)%64)
	w0 := twoOverPiBits[w]<<off | twoOverPiBits[w+1]>>(64-off)
	w1 := twoOverPiBits[w+1]<<off | twoOverPiBits[w+2]>>(64-off)
	w2 := twoOverPiBits[w+2]<<off | twoOverPiBits[w+3]>>(64-off)

	// p = m * (w0,w1,w2), a 256-bit product, little-endian words.
	var p [4]uint64
	var c uint64
	h2, l2 := bits.Mul64(m, w2)
	h1, l1 := bits.Mul64(m, w1)
	h0, l0 := bits.Mul64(m, w0)
	p[0] = l2
	p[1], c = bits.Add64(h2, l1, 0)
	p[2], c = bits.Add64(h1, l0, c)
	p[3] = h0 + c

	// ax*2/π = p * 2^-sh: the integer part starts at bit sh.
	sh := uint(s + 191 - e) // in [190, 224]
	n = (p[sh/64] >> (sh % 64)) & 1
	n |= ((p[(sh+1)/64] >> ((sh + 1) % 64)) & 1) << 1
	// Fraction bits sh-1 .. sh-128 as a 128-bit fixed-point f1:f0.
	f1, f0 := fracBits(p, sh)
	neg := false
	if f1>>63 != 0 { // fraction >= 1/2: round to the next quadrant
		n++
		neg = true
		var borrow uint64
		f0, borrow = bits.Sub64(0, f0, 0)
		f1, _ = bits.Sub64(0, f1, borrow)
	}
	// Normalize and convert to a double-double fh+fl (106 of the 128 bits).
	lz := uint(bits.LeadingZeros64(f1))
	if f1 == 0 {
		f1, f0 = f0, 0
		lz = 64 + uint(bits.LeadingZeros64(f1))
	}
	l := lz % 64
	f1, f0 = f1<<l|f0>>(64-l), f0<<l
	fh := math.Ldexp(float64(f1>>11), -53-int(lz))
	fl := math.Ldexp(float64((f1&(1<<11-1))<<42|f0>>22), -106-int(lz))
	// r = (fh+fl) * π/2.
	ph, pe := twoProd(fh, pio2Hi)
	pe += float64(fh*pio2Lo) + float64(fl*pio2Hi)
	rh, rl = fastTwoSum(ph, pe)
	if neg {
		rh, rl = -rh, -rl
	}
	return n, rh, rl
}

// fracBits returns the 128 bits of p just below bit sh (190 <= sh <= 224).
func fracBits(p [4]uint64, sh uint) (f1, f0 uint64) {
	// Shift p left by 256-sh (32..66) and take the top two words.
	k := 256 - sh
	if k >= 64 {
		p[3], p[2], p[1], p[0] = p[2], p[1], p[0], 0
		k -= 64
	}
	f1 = p[3]<<k | p[2]>>(64-k)
	f0 = p[2]<<k | p[1]>>(64-k)
	return f1, f0
}

// sinKernel returns sin(rh+rl) for |rh| <= π/4 (a little beyond is fine) and
// |rl| <= ulp(rh). It is the Taylor series to r^17; the first omitted term,
// r^19/19!, is below 2^-63 relative. The cubic term -r^3/6, up to a tenth
// of the result, is formed as a double-double from exact products (a plain
// evaluation would add up to 0.25 ulp of error); the higher terms, below
// r^5/120, need no such care. sin(rh+rl) is taken as
// sin(rh) + rl*(1 - rh^2/2), exact to 2^-100.
func sinKernel(rh, rl float64) float64 {
	zh, zl := twoSquare(rh)
	ch, cl := twoProd(zh, rh)
	cl += float64(zl * rh) // rh^3 = ch+cl to 2^-104
	th, tl := twoProd(ch, -sixthHi)
	tl += float64(cl*-sixthHi) - float64(ch*sixthLo) // -rh^3/6 = th+tl

	s := float64(zh*(1.0/355687428096000)) - 1.0/1307674368000 // 1/17!, -1/15!
	s = float64(zh*s) + 1.0/6227020800                         // 1/13!
	s = float64(zh*s) - 1.0/39916800                           // -1/11!
	s = float64(zh*s) + 1.0/362880                             // 1/9!
	s = float64(zh*s) - 1.0/5040                               // -1/7!
	s = float64(zh*s) + 1.0/120                                // 1/5!
	hi, e := fastTwoSum(rh, th)                                // |th| < |rh|
	lo := float64(float64(zh*zh)*float64(rh*s)) + tl + (rl - float64(float64(0.5*zh)*rl))
	return hi + (e + lo)
}

// cosKernel returns cos(rh+rl) under the same conditions as sinKernel. It is
// the Taylor series to r^18 (first omitted term r^20/20! < 2^-68). The two
// leading terms, 1 - r^2/2 and r^4/24, are formed from exact squares so that
// only the final sum rounds; cos(rh+rl) is taken as
// cos(rh) - rl*rh*(1 - rh^2/6), exact to 2^-100.
func cosKernel(rh, rl float64) float64 {
	zh, zl := twoSquare(rh)                                      // r^2
	qh, ql := twoSquare(zh)                                      // zh^2; r^4 = zh^2 + 2*zh*zl to 2^-104
	c := float64(zh*(1.0/6402373705728000)) - 1.0/20922789888000 // 1/18!, -1/16!
	c = float64(zh*c) + 1.0/87178291200                          // 1/14!
	c = float64(zh*c) - 1.0/479001600                            // -1/12!
	c = float64(zh*c) + 1.0/3628800                              // 1/10!
	c = float64(zh*c) - 1.0/40320                                // -1/8!
	c = float64(zh*c) + 1.0/720                                  // 1/6!; c = -(cos r - 1 + r^2/2 - r^4/24)/r^6
	hz := float64(0.5 * zh)
	w := 1 - hz
	e := (1 - w) - hz // exact: hz <= 0.31
	lo := float64(ql*(1.0/24)) + float64(zh*zl*(1.0/12)) - float64(qh*zh*c) - float64(0.5*zl) -
		float64(rl*rh*(1-float64(zh*(1.0/6))))
	return w + (e + (float64(qh*(1.0/24)) + lo))
}
