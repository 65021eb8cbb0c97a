package rng

import (
	"math"
	"math/big"
	"sync"
)

// Reference implementations with math/big, far more precise than float64:
// rounded once, their results are the correctly rounded values. They are
// slow and exist only for the tests, which use them to generate and check
// tables.go (TestTables) and to measure the true error of the float64
// functions (TestAccuracyReference).

// refPrec is the working precision of the references, in bits.
const refPrec = 320

func newBig() *big.Float { return new(big.Float).SetPrec(refPrec) }

func bigOf(x float64) *big.Float { return newBig().SetFloat64(x) }

func bigInt(n int64) *big.Float { return newBig().SetInt64(n) }

// negligible reports whether |term| is below 2^-(p+16) |first|, where a
// series whose terms keep shrinking can stop.
func negligible(term, first *big.Float, p uint) bool {
	return term.Sign() == 0 || term.MantExp(nil) < first.MantExp(nil)-int(p)-16
}

// refAtanInv returns atan(1/n) = Σ (-1)^k / ((2k+1) n^(2k+1)) at precision p.
func refAtanInv(n int64, p uint) *big.Float {
	sum := new(big.Float).SetPrec(p)
	pow := new(big.Float).SetPrec(p).SetInt64(n)
	pow.Quo(new(big.Float).SetPrec(p).SetInt64(1), pow)
	nn := new(big.Float).SetPrec(p).SetInt64(n * n)
	for k := int64(0); pow.MantExp(nil) > -int(p)-16; k++ {
		term := new(big.Float).SetPrec(p).Quo(pow, new(big.Float).SetPrec(p).SetInt64(2*k+1))
		if k%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		pow.Quo(pow, nn)
	}
	return sum
}

var (
	piOnce sync.Once
	piBig  *big.Float // π to refPiPrec bits
	ln2Big *big.Float // ln 2 to refPrec+64 bits
)

// refPiPrec covers the reduction of the largest float64 (2^1024) modulo π/2
// with refPrec bits left over.
const refPiPrec = 1024 + refPrec + 128

func refConstants() {
	piOnce.Do(func() {
		// Machin: π = 16 atan(1/5) - 4 atan(1/239).
		p := uint(refPiPrec + 32)
		a := refAtanInv(5, p)
		a.Mul(a, new(big.Float).SetInt64(16))
		b := refAtanInv(239, p)
		b.Mul(b, new(big.Float).SetInt64(4))
		piBig = new(big.Float).SetPrec(refPiPrec).Sub(a, b)

		// ln 2 = 2 atanh(1/3) = 2 Σ 1/((2k+1) 3^(2k+1)).
		q := uint(refPrec + 64)
		sum := new(big.Float).SetPrec(q)
		pow := new(big.Float).SetPrec(q).Quo(new(big.Float).SetInt64(1), new(big.Float).SetInt64(3))
		for k := int64(0); pow.MantExp(nil) > -int(q)-16; k++ {
			sum.Add(sum, new(big.Float).SetPrec(q).Quo(pow, new(big.Float).SetInt64(2*k+1)))
			pow.Quo(pow, new(big.Float).SetInt64(9))
		}
		ln2Big = sum.Mul(sum, new(big.Float).SetInt64(2))
	})
}

// refPi returns π at refPrec bits.
func refPi() *big.Float { refConstants(); return newBig().Set(piBig) }

// refLn2 returns ln 2 at refPrec bits.
func refLn2() *big.Float { refConstants(); return newBig().Set(ln2Big) }

// refExp returns e**x for |x| < 2^20.
func refExp(x *big.Float) *big.Float {
	refConstants()
	p := uint(refPrec + 64)
	q := new(big.Float).SetPrec(p).Quo(x, ln2Big)
	kf, _ := q.Float64()
	k := math.Round(kf)
	r := new(big.Float).SetPrec(p).Mul(new(big.Float).SetFloat64(k), ln2Big)
	r.Sub(x, r)
	// e**r = (e**(r/2^16))^(2^16): the series converges fast for r/2^16.
	r.SetMantExp(r, -16)
	sum := new(big.Float).SetPrec(p).SetInt64(1)
	term := new(big.Float).SetPrec(p).SetInt64(1)
	for i := int64(1); ; i++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(i))
		if term.Sign() == 0 || term.MantExp(nil) < -int(p)-16 {
			break
		}
		sum.Add(sum, term)
	}
	for range 16 {
		sum.Mul(sum, sum)
	}
	sum.SetMantExp(sum, int(k))
	return newBig().Set(sum)
}

// refLog returns ln x for x > 0.
func refLog(x *big.Float) *big.Float {
	refConstants()
	p := uint(refPrec + 64)
	m := new(big.Float).SetPrec(p)
	e := x.MantExp(m) // x = m * 2^e, m in [0.5, 1)
	if m.Cmp(big.NewFloat(0.75)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	// ln m = 2 atanh s = 2 Σ s^(2k+1)/(2k+1), s = (m-1)/(m+1), |s| <= 1/5.
	one := new(big.Float).SetInt64(1)
	s := new(big.Float).SetPrec(p).Sub(m, one)
	s.Quo(s, new(big.Float).SetPrec(p).Add(m, one))
	s2 := new(big.Float).SetPrec(p).Mul(s, s)
	sum := new(big.Float).SetPrec(p)
	pow := new(big.Float).SetPrec(p).Set(s)
	for k := int64(0); !negligible(pow, s, p); k++ {
		sum.Add(sum, new(big.Float).SetPrec(p).Quo(pow, new(big.Float).SetInt64(2*k+1)))
		pow.Mul(pow, s2)
	}
	sum.SetMantExp(sum, 1)
	sum.Add(sum, new(big.Float).SetPrec(p).Mul(new(big.Float).SetInt64(int64(e)), ln2Big))
	return newBig().Set(sum)
}

// refAtan returns atan x.
func refAtan(x *big.Float) *big.Float {
	p := uint(refPrec + 64)
	one := new(big.Float).SetInt64(1)
	a := new(big.Float).SetPrec(p).Abs(x)
	inv := a.Cmp(one) > 0
	if inv {
		a.Quo(one, a)
	}
	// atan a = 2 atan(a/(1+sqrt(1+a^2))), three times: |a| <= tan(π/32).
	for range 3 {
		t := new(big.Float).SetPrec(p).Mul(a, a)
		t.Add(t, one)
		t.Sqrt(t)
		t.Add(t, one)
		a.Quo(a, t)
	}
	a2 := new(big.Float).SetPrec(p).Mul(a, a)
	sum := new(big.Float).SetPrec(p)
	pow := new(big.Float).SetPrec(p).Set(a)
	first := new(big.Float).Set(a)
	for k := int64(0); !negligible(pow, first, p); k++ {
		term := new(big.Float).SetPrec(p).Quo(pow, new(big.Float).SetInt64(2*k+1))
		if k%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		pow.Mul(pow, a2)
	}
	sum.SetMantExp(sum, 3)
	if inv {
		sum.Sub(new(big.Float).SetPrec(p).SetMantExp(refPi(), -1), sum)
	}
	if x.Sign() < 0 {
		sum.Neg(sum)
	}
	return newBig().Set(sum)
}

// refSinCos returns sin x and cos x for finite x, reducing x modulo π/2 with
// π to refPiPrec bits.
func refSinCos(x float64) (sin, cos *big.Float) {
	refConstants()
	hp := new(big.Float).SetPrec(refPiPrec).SetMantExp(piBig, -1)
	ax := new(big.Float).SetPrec(refPiPrec).SetFloat64(math.Abs(x))
	q := new(big.Float).SetPrec(refPiPrec).Quo(ax, hp)
	q.Add(q, big.NewFloat(0.5))
	n, _ := q.Int(nil)
	r := new(big.Float).SetPrec(refPiPrec).SetInt(n)
	r.Mul(r, hp)
	r.Sub(ax, r)
	r.SetPrec(refPrec + 64)

	p := uint(refPrec + 64)
	one := new(big.Float).SetInt64(1)
	r2 := new(big.Float).SetPrec(p).Mul(r, r)
	s := new(big.Float).SetPrec(p)
	c := new(big.Float).SetPrec(p)
	ts := new(big.Float).SetPrec(p).Set(r)      // r^(2k+1)/(2k+1)!
	tc := new(big.Float).SetPrec(p).SetInt64(1) // r^(2k)/(2k)!
	first := new(big.Float).Set(r)
	for k := int64(0); !negligible(ts, first, p) || !negligible(tc, one, p); k++ {
		if k%2 == 0 {
			s.Add(s, ts)
			c.Add(c, tc)
		} else {
			s.Sub(s, ts)
			c.Sub(c, tc)
		}
		ts.Mul(ts, r2)
		ts.Quo(ts, new(big.Float).SetInt64((2*k+2)*(2*k+3)))
		tc.Mul(tc, r2)
		tc.Quo(tc, new(big.Float).SetInt64((2*k+1)*(2*k+2)))
	}
	switch new(big.Int).And(n, big.NewInt(3)).Int64() {
	case 1:
		s, c = c, s.Neg(s)
	case 2:
		s, c = s.Neg(s), c.Neg(c)
	case 3:
		s, c = c.Neg(c), s
	}
	if x < 0 {
		s.Neg(s)
	}
	return newBig().Set(s), newBig().Set(c)
}

// ulpErr returns |got - want| in units of the last place of want's binade
// (2^-1074 for subnormals): 0.5 means correctly rounded in the worst case.
func ulpErr(got float64, want *big.Float) float64 {
	if math.IsNaN(got) {
		return math.Inf(1)
	}
	if w := nearest(want); want.Sign() == 0 || math.IsInf(w, 0) {
		if got == w {
			return 0 // exact zero, or overflow to the right infinity
		}
		return math.Inf(1)
	}
	ue := max(want.MantExp(nil)-53, -1074)
	d := newBig().Sub(bigOf(got), want)
	d.SetMantExp(d, -ue)
	f, _ := d.Float64()
	return math.Abs(f)
}
