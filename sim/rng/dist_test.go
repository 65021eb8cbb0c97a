package rng

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// The tests below use fixed seeds, so they are deterministic; their
// tolerances are about four standard errors, so that a generator or
// distribution bug (a bias of a few percent) fails them.

func TestNormFloat64Moments(t *testing.T) {
	const n = 100_000
	r := New(7)
	var sum, sum2, sum3, sum4 float64
	in1, in2 := 0, 0
	for range n {
		x := r.NormFloat64()
		sum += x
		sum2 += x * x
		sum3 += x * x * x
		sum4 += x * x * x * x
		if math.Abs(x) < 1 {
			in1++
		}
		if math.Abs(x) < 2 {
			in2++
		}
	}
	p1, p2 := math.Erf(1/math.Sqrt2), math.Erf(2/math.Sqrt2)
	tests := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"mean", sum / n, 0, 4 / math.Sqrt(n)},
		{"variance", sum2 / n, 1, 4 * math.Sqrt(2.0/n)},
		{"skewness", sum3 / n, 0, 4 * math.Sqrt(15.0/n)},
		{"kurtosis", sum4 / n, 3, 4 * math.Sqrt(96.0/n)},
		{"P(|x|<1)", float64(in1) / n, p1, 4 * math.Sqrt(p1*(1-p1)/n)},
		{"P(|x|<2)", float64(in2) / n, p2, 4 * math.Sqrt(p2*(1-p2)/n)},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > tt.tol {
			t.Errorf("%s = %.5f, want %.5f ± %.5f", tt.name, tt.got, tt.want, tt.tol)
		}
	}
}

func TestLogNormal(t *testing.T) {
	const n = 100_000
	r := New(8)
	var sl, sll float64
	for range n {
		l := r.LogNormal(1, 0.5)
		sl += l
		sll += math.Log(l)
	}
	// E[LogNormal(mu, sigma)] = e^(mu + sigma^2/2); its sd is that times
	// sqrt(e^(sigma^2) - 1).
	lm := math.Exp(1 + 0.125)
	lsd := lm * math.Sqrt(math.Exp(0.25)-1)
	if got, tol := sl/n, 4*lsd/math.Sqrt(n); math.Abs(got-lm) > tol {
		t.Errorf("mean of LogNormal(1, 0.5) = %.4f, want %.4f ± %.4f", got, lm, tol)
	}
	if got, tol := sll/n, 4*0.5/math.Sqrt(n); math.Abs(got-1) > tol {
		t.Errorf("mean of log LogNormal(1, 0.5) = %.4f, want 1 ± %.4f", got, tol)
	}
}

// TestDrawOrder replays the documented algorithms with a second generator:
// the streams must not depend on anything the doc comments do not say.
func TestDrawOrder(t *testing.T) {
	r, q := New(9), New(9)
	for i := range 1000 {
		var want float64
		for {
			u := float64(2*q.Float64()) - 1
			v := float64(2*q.Float64()) - 1
			s := float64(u*u) + float64(v*v)
			if s > 0 && s < 1 {
				want = float64(u * math.Sqrt(-2*Log(s)/s))
				break
			}
		}
		if got := r.NormFloat64(); got != want {
			t.Fatalf("draw %d: NormFloat64() = %v, want %v", i, got, want)
		}
		if got, want := r.LogNormal(2, 0.5), Exp(float64(0.5*q.NormFloat64())+2); got != want {
			t.Fatalf("draw %d: LogNormal(2, 0.5) = %v, want %v", i, got, want)
		}
	}
	for n := range 20 {
		got := r.Perm(n)
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		for i := n - 1; i > 0; i-- {
			j := q.IntN(i + 1)
			want[i], want[j] = want[j], want[i]
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Perm(%d) = %v, want %v", n, got, want)
		}
	}
	if r.Uint64() != q.Uint64() {
		t.Fatal("streams out of step after Perm")
	}
}

func TestPermIsPermutation(t *testing.T) {
	r := New(10)
	for n := range 100 {
		p := r.Perm(n)
		s := slices.Clone(p)
		slices.Sort(s)
		for i, v := range s {
			if v != i {
				t.Fatalf("Perm(%d) = %v is not a permutation", n, p)
			}
		}
	}
}

func TestShuffleUniform(t *testing.T) {
	const trials = 60_000
	r := New(11)
	counts := make(map[string]int)
	for range trials {
		a := []int{0, 1, 2}
		r.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
		counts[fmt.Sprint(a)]++
	}
	if len(counts) != 6 {
		t.Fatalf("Shuffle of 3 items gave %d distinct orders, want 6: %v", len(counts), counts)
	}
	// Chi-square with 5 degrees of freedom; P(X > 20.52) = 0.001.
	if x := chiSquare(counts, trials/6.0); x > 20.52 {
		t.Errorf("Shuffle orders %v: chi-square %.2f > 20.52", counts, x)
	}
}

func TestIntNUniform(t *testing.T) {
	// Chi-square critical values at P = 0.001 for k-1 degrees of freedom.
	tests := []struct {
		n, buckets int
		crit       float64
	}{
		{2, 2, 10.83},
		{7, 7, 22.46},
		{10, 10, 27.88},
		{1000003, 16, 37.70},
		{1<<62 + 1, 16, 37.70}, // Lemire rejects a quarter of the draws: exercises the retry
	}
	const draws = 160_000
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			r := New(uint64(tt.n))
			counts := make(map[string]int)
			for range draws {
				v := r.IntN(tt.n)
				if v < 0 || v >= tt.n {
					t.Fatalf("IntN(%d) = %d", tt.n, v)
				}
				// Buckets hold equally many values, give or take one.
				counts[fmt.Sprint(int(float64(v)/float64(tt.n)*float64(tt.buckets)))]++
			}
			if x := chiSquare(counts, float64(draws)/float64(tt.buckets)); x > tt.crit {
				t.Errorf("IntN(%d) buckets %v: chi-square %.2f > %.2f", tt.n, counts, x, tt.crit)
			}
		})
	}
}

func chiSquare(counts map[string]int, expected float64) float64 {
	x := 0.0
	for _, c := range counts {
		d := float64(c) - expected
		x += d * d / expected
	}
	return x
}

func TestPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func(r *Rand)
	}{
		{"IntN(0)", func(r *Rand) { r.IntN(0) }},
		{"Uint64N(0)", func(r *Rand) { r.Uint64N(0) }},
		{"Shuffle(-1)", func(r *Rand) { r.Shuffle(-1, func(i, j int) {}) }},
		{"Perm(-1)", func(r *Rand) { r.Perm(-1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", tt.name)
				}
			}()
			tt.f(New(1))
		})
	}
}

func TestShuffleSmallMakesNoDraws(t *testing.T) {
	for n := range 2 {
		r, q := New(12), New(12)
		r.Shuffle(n, func(i, j int) { t.Errorf("Shuffle(%d) called swap(%d, %d)", n, i, j) })
		if r.Uint64() != q.Uint64() {
			t.Errorf("Shuffle(%d) drew from the stream", n)
		}
	}
}
