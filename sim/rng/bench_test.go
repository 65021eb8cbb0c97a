package rng

import (
	"math"
	"testing"
)

var (
	sinkU uint64
	sinkI int
	sinkF float64
)

func BenchmarkUint64(b *testing.B) {
	r := New(1)
	for b.Loop() {
		sinkU = r.Uint64()
	}
}

func BenchmarkIntN(b *testing.B) {
	r := New(1)
	for b.Loop() {
		sinkI = r.IntN(1000003)
	}
}

func BenchmarkFloat64(b *testing.B) {
	r := New(1)
	for b.Loop() {
		sinkF = r.Float64()
	}
}

func BenchmarkNormFloat64(b *testing.B) {
	r := New(1)
	for b.Loop() {
		sinkF = r.NormFloat64()
	}
}

func BenchmarkPerm10(b *testing.B) {
	r := New(1)
	for b.Loop() {
		sinkI = r.Perm(10)[0]
	}
}

// benchArgs returns 1024 arguments of mf's accuracy sweep, so that the
// benchmarks see the spread of the tested range rather than one value.
func benchArgs(name string) (xs, ys []float64) {
	for _, mf := range mathFuncs {
		if mf.name != name {
			continue
		}
		r := New(4000 + mf.key)
		for range 1024 {
			x, y := mf.sweep(r)
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	return xs, ys
}

// benchMath benchmarks ours against the math package on the same arguments.
func benchMath(b *testing.B, name string, ours, std func(x, y float64) float64) {
	xs, ys := benchArgs(name)
	for _, bb := range []struct {
		name string
		f    func(x, y float64) float64
	}{{"rng", ours}, {"math", std}} {
		b.Run(bb.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				sinkF = bb.f(xs[i&1023], ys[i&1023])
				i++
			}
		})
	}
}

func BenchmarkExp(b *testing.B) {
	benchMath(b, "Exp", func(x, _ float64) float64 { return Exp(x) }, func(x, _ float64) float64 { return math.Exp(x) })
}

func BenchmarkLog(b *testing.B) {
	benchMath(b, "Log", func(x, _ float64) float64 { return Log(x) }, func(x, _ float64) float64 { return math.Log(x) })
}

func BenchmarkSin(b *testing.B) {
	benchMath(b, "Sin", func(x, _ float64) float64 { return Sin(x) }, func(x, _ float64) float64 { return math.Sin(x) })
}

func BenchmarkCos(b *testing.B) {
	benchMath(b, "Cos", func(x, _ float64) float64 { return Cos(x) }, func(x, _ float64) float64 { return math.Cos(x) })
}

func BenchmarkAtan2(b *testing.B) { benchMath(b, "Atan2", Atan2, math.Atan2) }
