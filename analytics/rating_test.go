package analytics

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// duel is a two-seat match that a wins, or a draw.
func duel(a, b string, draw bool) []Placing {
	if draw {
		return []Placing{{Player: a, Rank: 1}, {Player: b, Rank: 1}}
	}
	return []Placing{{Player: a, Rank: 1}, {Player: b, Rank: 2}}
}

// repeat returns n copies of m.
func repeat(n int, m []Placing) [][]Placing {
	ms := make([][]Placing, n)
	for i := range ms {
		ms[i] = m
	}
	return ms
}

// fitOrFail fits matches and fails the test on an error or a NaN.
func fitOrFail(t *testing.T, matches [][]Placing, prior float64) *RatingFit {
	t.Helper()
	f, err := FitRatings(matches, prior)
	if err != nil {
		t.Fatalf("FitRatings: %v", err)
	}
	for _, r := range f.Ratings {
		for _, v := range []float64{r.Rating, r.CI.Low, r.CI.High} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: got rating %v in %v, want finite numbers", r.Player, r.Rating, r.CI)
			}
		}
	}
	return f
}

// rated returns the rating of player p in f.
func rated(t *testing.T, f *RatingFit, p string) Rating {
	t.Helper()
	for _, r := range f.Ratings {
		if r.Player == p {
			return r
		}
	}
	t.Fatalf("no rating for %s in %v", p, f.Ratings)
	return Rating{}
}

// near fails unless got is within tol of want.
func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s: got %.6f, want %.6f", what, got, want)
	}
}

// TestFitRatingsWorked checks fits without a prior against maximum-
// likelihood estimates worked out by hand; k = 400/ln 10 turns natural
// log-strengths into rating points.
func TestFitRatingsWorked(t *testing.T) {
	k := 400 / math.Ln10
	t.Run("two players 3-1", func(t *testing.T) {
		// Bradley–Terry with 3 wins of 4: the MLE is p = 3/4, so
		// γA/γB = 3 and the gap is 400·log10 3 ≈ 190.85, split evenly
		// around 1500. The information in θA-θB is n·p(1-p) = 3/4, so
		// Var(θA-θB) = 4/3 and Var(θA - mean) = Var((θA-θB)/2) = 1/3.
		ms := append(repeat(3, duel("a", "b", false)), duel("b", "a", false))
		f := fitOrFail(t, ms, 0)
		a, b := rated(t, f, "a"), rated(t, f, "b")
		near(t, "a", a.Rating, 1500+200*math.Log10(3), 1e-6)
		near(t, "b", b.Rating, 1500-200*math.Log10(3), 1e-6)
		near(t, "a interval", a.CI.High-a.Rating, z95*k*math.Sqrt(1.0/3), 1e-6)
		d, err := f.Difference("a", "b")
		if err != nil {
			t.Fatal(err)
		}
		near(t, "a-b", d.Diff, 400*math.Log10(3), 1e-6)
		near(t, "a-b interval", d.CI.High-d.Diff, z95*k*math.Sqrt(4.0/3), 1e-6)
		if a.Matches != 4 || b.Matches != 4 {
			t.Errorf("matches: got %d and %d, want 4 and 4", a.Matches, b.Matches)
		}
	})
	t.Run("a draw is half a win", func(t *testing.T) {
		// One win and one draw is 1.5 of 2: p = 3/4 again, the same gap
		// as 3-1, from half the matches: information 2·(3/4)(1/4) = 3/8,
		// so Var(θA-θB) = 8/3.
		f := fitOrFail(t, [][]Placing{duel("a", "b", false), duel("b", "a", true)}, 0)
		d, err := f.Difference("a", "b")
		if err != nil {
			t.Fatal(err)
		}
		near(t, "a-b", d.Diff, 400*math.Log10(3), 1e-6)
		near(t, "a-b interval", d.CI.High-d.Diff, z95*k*math.Sqrt(8.0/3), 1e-6)
	})
	t.Run("three players round robin", func(t *testing.T) {
		// A-B 2-1, B-C 2-1, A-C 4-1. With γ = (4, 2, 1) every pair's
		// model probability (2/3, 2/3, 4/5) equals its observed share,
		// so the score equations hold: that is the MLE. log γ has mean
		// ln 2, so the ratings are 1500 ± 400·log10 2.
		// Information: pair weights n·p(1-p) = 2/3, 2/3, 4/5. Holding C
		// fixed, [[22/15, -2/3], [-2/3, 4/3]] has inverse
		// [[15/17, 15/34], [15/34, 33/34]], so Var(θA-θC) = 15/17 and,
		// with c = (2/3, -1/3, -1/3), Var(θA - mean) = cᵀΣc = 93/306.
		var ms [][]Placing
		ms = append(ms, repeat(2, duel("a", "b", false))...)
		ms = append(ms, duel("b", "a", false))
		ms = append(ms, repeat(2, duel("b", "c", false))...)
		ms = append(ms, duel("c", "b", false))
		ms = append(ms, repeat(4, duel("a", "c", false))...)
		ms = append(ms, duel("c", "a", false))
		f := fitOrFail(t, ms, 0)
		for _, w := range []struct {
			p    string
			want float64
		}{{"a", 1500 + 400*math.Log10(2)}, {"b", 1500}, {"c", 1500 - 400*math.Log10(2)}} {
			near(t, w.p, rated(t, f, w.p).Rating, w.want, 1e-6)
		}
		if got := []string{f.Ratings[0].Player, f.Ratings[1].Player, f.Ratings[2].Player}; !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
			t.Errorf("order: got %v, want [a b c]", got)
		}
		a := rated(t, f, "a")
		near(t, "a interval", a.CI.High-a.Rating, z95*k*math.Sqrt(93.0/306), 1e-6)
		d, err := f.Difference("a", "c")
		if err != nil {
			t.Fatal(err)
		}
		near(t, "a-c interval", d.CI.High-d.Diff, z95*k*math.Sqrt(15.0/17), 1e-6)
	})
	t.Run("three seats by placement", func(t *testing.T) {
		// A>B>C, A>C>B, B>A>C, C>A>B. B and C are symmetric, so take
		// γB = γC = 1 and γA = x. Plackett–Luce log-likelihood:
		// 2[log x - log(x+2)] + 2[-log(x+2) + log x - log(x+1)] + const
		// = 4 log x - 4 log(x+2) - 2 log(x+1); setting its derivative
		// 4/x - 4/(x+2) - 2/(x+1) to 0 gives x² - 2x - 4 = 0, x = 1+√5.
		x := 1 + math.Sqrt(5)
		ms := [][]Placing{
			{{Player: "a", Rank: 1}, {Player: "b", Rank: 2}, {Player: "c", Rank: 3}},
			{{Player: "c", Rank: 2}, {Player: "a", Rank: 1}, {Player: "b", Rank: 3}},
			{{Player: "b", Rank: 1}, {Player: "a", Rank: 2}, {Player: "c", Rank: 3}},
			{{Player: "a", Rank: 2}, {Player: "b", Rank: 3}, {Player: "c", Rank: 1}},
		}
		f := fitOrFail(t, ms, 0)
		near(t, "a", rated(t, f, "a").Rating, 1500+2*400*math.Log10(x)/3, 1e-6)
		near(t, "b", rated(t, f, "b").Rating, 1500-400*math.Log10(x)/3, 1e-6)
		near(t, "c", rated(t, f, "c").Rating, 1500-400*math.Log10(x)/3, 1e-6)
	})
}

// TestFitRatingsCitations checks the published Bradley–Terry fit of
// Stigler's (1994) citations among four statistics journals (Agresti 2002,
// p. 448): a journal cited by another beats it. The abilities and standard
// errors are those printed by R's BradleyTerry2 in its test
// tests/BTabilities.Rout.save: with sum-to-zero contrasts (our centring)
// and relative to Biometrika (our Difference).
func TestFitRatingsCitations(t *testing.T) {
	journals := []string{"Biometrika", "Comm Statist", "JASA", "JRSS-B"}
	// cited[i][j] is how often journal j cited journal i.
	cited := [][]int{
		{714, 730, 498, 221},
		{33, 425, 68, 17},
		{320, 813, 1072, 142},
		{284, 276, 325, 188},
	}
	var ms [][]Placing
	for i, row := range cited {
		for j, n := range row {
			if i != j {
				ms = append(ms, repeat(n, duel(journals[i], journals[j], false))...)
			}
		}
	}
	f := fitOrFail(t, ms, 0)
	k := 400 / math.Ln10
	centred := []struct{ ability, se float64 }{
		{0.7899221, 0.04333047}, {-2.1591504, 0.07257974}, {0.3103523, 0.04164102}, {1.0588761, 0.05304699},
	}
	vsBiometrika := []struct{ ability, se float64 }{
		{0, 0}, {-2.9490725, 0.10254534}, {-0.4795698, 0.06058873}, {0.2689541, 0.07082997},
	}
	for i, j := range journals {
		r := rated(t, f, j)
		near(t, j+" ability", (r.Rating-1500)/k, centred[i].ability, 1e-6)
		near(t, j+" s.e.", (r.CI.High-r.Rating)/z95/k, centred[i].se, 1e-7)
		if i == 0 {
			continue
		}
		d, err := f.Difference(j, journals[0])
		if err != nil {
			t.Fatal(err)
		}
		near(t, j+" - Biometrika", d.Diff/k, vsBiometrika[i].ability, 1e-6)
		near(t, j+" - Biometrika s.e.", (d.CI.High-d.Diff)/z95/k, vsBiometrika[i].se, 1e-7)
	}
}

// TestFitFromCitations fits the citations of TestFitRatingsCitations,
// in a random order, after a part of them and again after all of them
// from the first fit: the ratings and intervals are the cold fit's within
// the tolerance, with a prior and without, also when the first part
// lacks a journal.
func TestFitFromCitations(t *testing.T) {
	journals := []string{"Biometrika", "Comm Statist", "JASA", "JRSS-B"}
	cited := [][]int{{714, 730, 498, 221}, {33, 425, 68, 17}, {320, 813, 1072, 142}, {284, 276, 325, 188}}
	var ms [][]Placing
	for i, row := range cited {
		for j, n := range row {
			if i != j {
				ms = append(ms, repeat(n, duel(journals[i], journals[j], false))...)
			}
		}
	}
	rand.New(rand.NewPCG(3, 5)).Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	without := slices.IndexFunc(ms, func(m []Placing) bool { return m[0].Player == "Comm Statist" || m[1].Player == "Comm Statist" })
	for _, prior := range []float64{0, RatingPrior} {
		for _, first := range []int{len(ms) / 2, len(ms) - 1, without} {
			var in RatingInput
			for _, m := range ms[:first] {
				if err := in.Add(m); err != nil {
					t.Fatal(err)
				}
			}
			from, err := in.Fit(RatingPrior) // from prior 0, a prefix may be unbounded
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms[first:] {
				if err := in.Add(m); err != nil {
					t.Fatal(err)
				}
			}
			got, err := in.FitFrom(prior, from)
			if err != nil {
				t.Fatal(err)
			}
			want := fitOrFail(t, ms, prior)
			for i, w := range want.Ratings {
				g := got.Ratings[i]
				if g.Player != w.Player || math.Abs(g.Rating-w.Rating) > 1e-6 || math.Abs(g.CI.Low-w.CI.Low) > 1e-6 ||
					math.Abs(g.CI.High-w.CI.High) > 1e-6 || g.Matches != w.Matches {
					t.Errorf("prior %v, from %d matches: got %+v, want %+v", prior, first, g, w)
				}
			}
			d, err := got.Difference("JASA", "Biometrika")
			if err != nil {
				t.Fatal(err)
			}
			wd, _ := want.Difference("JASA", "Biometrika")
			if math.Abs(d.Diff-wd.Diff) > 1e-6 || math.Abs(d.CI.Low-wd.CI.Low) > 1e-6 {
				t.Errorf("prior %v, from %d matches: got difference %+v, want %+v", prior, first, d, wd)
			}
		}
	}
}

// TestFitRatingsPrior checks the prior against a fit solved by hand, and
// that it keeps unbeaten players finite.
func TestFitRatingsPrior(t *testing.T) {
	t.Run("two players 3-1", func(t *testing.T) {
		// With one virtual draw each against a reference of strength 1,
		// the log-likelihood is unchanged by (γA, γB) → (1/γB, 1/γA), so
		// at its maximum θB = -θA = -θ. Its derivative in θ is
		// 2 - 4·tanh θ (the matches) - tanh(θ/2) (the two virtual draws);
		// the root is found here by bisection. The information has
		// w = 4p(1-p) off the diagonal, p = γA/(γA+γB) = 1/(1+e^(-2θ)),
		// and w + s on it, s = σ(θ)σ(-θ) from each virtual draw; (1, -1) is
		// an eigenvector with eigenvalue 2w + s, so Var(θA-θB) = 2/(2w+s).
		lo, hi := 0.0, 2.0
		for range 200 {
			mid := (lo + hi) / 2
			if 2-4*math.Tanh(mid)-math.Tanh(mid/2) > 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		ms := append(repeat(3, duel("a", "b", false)), duel("b", "a", false))
		f := fitOrFail(t, ms, RatingPrior)
		d, err := f.Difference("a", "b")
		if err != nil {
			t.Fatal(err)
		}
		near(t, "a-b", d.Diff, 2*lo*400/math.Ln10, 1e-6)
		p := 1 / (1 + math.Exp(-2*lo))
		w, s := 4*p*(1-p), 1/(2+2*math.Cosh(lo))
		near(t, "a-b interval", d.CI.High-d.Diff, z95*400/math.Ln10*math.Sqrt(2/(2*w+s)), 1e-6)
		if d.Diff >= 400*math.Log10(3) {
			t.Errorf("a-b: got %v, want less than the %v without a prior", d.Diff, 400*math.Log10(3))
		}
	})
	t.Run("unbeaten", func(t *testing.T) {
		ms := append(repeat(10, duel("a", "b", false)), duel("b", "c", false), duel("c", "b", false))
		f := fitOrFail(t, ms, RatingPrior)
		a, b := rated(t, f, "a"), rated(t, f, "b")
		if !(a.Rating > b.Rating) || a.CI.High-a.CI.Low > 2000 {
			t.Errorf("a: got %v in %v over b %v, want a finite rating above b", a.Rating, a.CI, b.Rating)
		}
		if _, err := FitRatings(ms, 0); !errors.Is(err, ErrUnbounded) {
			t.Errorf("no prior: got error %v, want %v", err, ErrUnbounded)
		}
	})
}

// TestFitRatingsTies checks a tie in a three-seat match: the tied players
// are equal, above the player they both beat.
func TestFitRatingsTies(t *testing.T) {
	ms := [][]Placing{
		{{Player: "a", Rank: 1}, {Player: "b", Rank: 1}, {Player: "c", Rank: 2}},
		{{Player: "c", Rank: 1}, {Player: "a", Rank: 2}, {Player: "b", Rank: 2}},
		{{Player: "c", Rank: 1}, {Player: "b", Rank: 2}, {Player: "a", Rank: 2}},
		{{Player: "b", Rank: 1}, {Player: "a", Rank: 1}, {Player: "c", Rank: 1}},
		{{Player: "a", Rank: 1}, {Player: "b", Rank: 2}, {Player: "c", Rank: 3}},
		{{Player: "b", Rank: 1}, {Player: "a", Rank: 2}, {Player: "c", Rank: 3}},
	}
	f := fitOrFail(t, ms, 0)
	a, b, c := rated(t, f, "a"), rated(t, f, "b"), rated(t, f, "c")
	near(t, "a-b", a.Rating-b.Rating, 0, 1e-9)
	if !(a.Rating > c.Rating) {
		t.Errorf("got a %v, c %v, want a above c", a.Rating, c.Rating)
	}
	near(t, "mean", (a.Rating+b.Rating+c.Rating)/3, 1500, 1e-9)
}

// randomMatches plays n matches of two to four seats among players of
// increasing strength, with ties.
func randomMatches(r *rand.Rand, n int, players []string) [][]Placing {
	ms := make([][]Placing, n)
	for i := range ms {
		seats := 2 + r.IntN(3)
		m := make([]Placing, seats)
		for s := range m {
			p := r.IntN(len(players))
			m[s] = Placing{players[p], 1 + r.IntN(seats) - min(p, 1), 0}
			m[s].Rank = max(1, m[s].Rank)
		}
		ms[i] = m
	}
	return ms
}

func TestFitRatingsOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ms := randomMatches(r, 500, []string{"e", "d", "c", "b", "a"})
	want := fitOrFail(t, ms, RatingPrior)
	for range 3 {
		shuffled := make([][]Placing, len(ms))
		for i, j := range r.Perm(len(ms)) {
			m := append([]Placing(nil), ms[j]...)
			r.Shuffle(len(m), func(a, b int) { m[a], m[b] = m[b], m[a] })
			shuffled[i] = m
		}
		got := fitOrFail(t, shuffled, RatingPrior)
		if !reflect.DeepEqual(got.Ratings, want.Ratings) {
			t.Fatalf("shuffled: got %v, want %v", got.Ratings, want.Ratings)
		}
	}
}

// TestFitRatingsRecovers plays two-seat matches from known strengths and
// checks each fitted gap is within three standard errors (1.5 times the
// 95% half-width) of the true one, which chance misses 0.3% of the time.
func TestFitRatingsRecovers(t *testing.T) {
	truth := map[string]float64{"a": 1700, "b": 1550, "c": 1500, "d": 1250}
	names := []string{"a", "b", "c", "d"}
	r := rand.New(rand.NewPCG(3, 4))
	var ms [][]Placing
	for range 4000 {
		i, j := r.IntN(4), r.IntN(4)
		if i == j {
			continue
		}
		p := 1 / (1 + math.Pow(10, (truth[names[j]]-truth[names[i]])/400))
		ms = append(ms, duel(names[i], names[j], false))
		if r.Float64() >= p {
			ms[len(ms)-1] = duel(names[j], names[i], false)
		}
	}
	f := fitOrFail(t, ms, RatingPrior)
	for _, a := range names {
		for _, b := range names {
			if a >= b {
				continue
			}
			d, err := f.Difference(a, b)
			if err != nil {
				t.Fatal(err)
			}
			half := (d.CI.High - d.CI.Low) / 2
			if want := truth[a] - truth[b]; math.Abs(d.Diff-want) > 1.5*half {
				t.Errorf("%s-%s: got %.1f in %v, want within 1.5 half-widths of %.0f", a, b, d.Diff, d.CI, want)
			}
			if half > 50 {
				t.Errorf("%s-%s: got an interval ±%.1f, want under ±50 from ~500 matches a pair", a, b, half)
			}
		}
	}
}

func TestFitRatingsDegenerate(t *testing.T) {
	t.Run("no matches", func(t *testing.T) {
		f := fitOrFail(t, nil, RatingPrior)
		if len(f.Ratings) != 0 {
			t.Errorf("got %v, want no ratings", f.Ratings)
		}
		if _, err := f.Difference("a", "b"); !errors.Is(err, ErrUnknownPlayer) {
			t.Errorf("difference: got error %v, want %v", err, ErrUnknownPlayer)
		}
	})
	t.Run("a single match", func(t *testing.T) {
		f := fitOrFail(t, [][]Placing{duel("a", "b", false)}, RatingPrior)
		if a, b := rated(t, f, "a"), rated(t, f, "b"); !(a.Rating > b.Rating) || !(a.CI.Low < b.Rating) {
			t.Errorf("got a %v in %v, b %v, want a above b with overlapping intervals", a.Rating, a.CI, b.Rating)
		}
	})
	t.Run("one player only", func(t *testing.T) {
		f := fitOrFail(t, [][]Placing{duel("a", "a", false), duel("a", "a", true)}, RatingPrior)
		want := []Rating{{Player: "a", Rating: 1500, CI: Interval{1500, 1500}, Matches: 2}}
		if !reflect.DeepEqual(f.Ratings, want) {
			t.Errorf("got %v, want %v", f.Ratings, want)
		}
	})
	t.Run("a player compared with itself", func(t *testing.T) {
		f := fitOrFail(t, [][]Placing{duel("a", "b", false)}, RatingPrior)
		if _, err := f.Difference("a", "a"); !errors.Is(err, ErrSamePlayer) {
			t.Errorf("got error %v, want %v", err, ErrSamePlayer)
		}
	})
	bad := []struct {
		name    string
		matches [][]Placing
		prior   float64
		want    error
	}{
		{"one seat", [][]Placing{{{Player: "a", Rank: 1}}}, RatingPrior, ErrInvalidMatch},
		{"rank 0", [][]Placing{{{Player: "a", Rank: 1}, {Player: "b", Rank: 0}}}, RatingPrior, ErrInvalidMatch},
		{"no player", [][]Placing{{{Player: "a", Rank: 1}, {Player: "", Rank: 2}}}, RatingPrior, ErrInvalidMatch},
		{"too many seats", [][]Placing{make([]Placing, maxSeats+1)}, RatingPrior, ErrInvalidMatch},
		{"one match without prior", [][]Placing{duel("a", "b", false)}, 0, ErrUnbounded},
		{"disconnected without prior", [][]Placing{duel("a", "b", false), duel("b", "a", false), duel("c", "d", true)}, 0, ErrUnbounded},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := FitRatings(tt.matches, tt.prior); !errors.Is(err, tt.want) {
				t.Errorf("got error %v, want %v", err, tt.want)
			}
		})
	}
	for _, prior := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := FitRatings([][]Placing{duel("a", "b", false)}, prior); err == nil {
			t.Errorf("prior %v: got no error, want one", prior)
		}
	}
}

// placeLuce draws a Plackett–Luce placing of players with log-strengths
// theta: sorting by θ plus Gumbel noise draws the winner with probability
// γi/Σγ, then the runner-up among the rest, and so on. Neighbours tie with
// probability 1/20.
func placeLuce(r *rand.Rand, players []string, theta []float64) []Placing {
	type draw struct {
		i   int
		key float64
	}
	ds := make([]draw, len(players))
	for i := range ds {
		ds[i] = draw{i, theta[i] - math.Log(-math.Log(1-r.Float64()))}
	}
	slices.SortFunc(ds, func(a, b draw) int { return cmp.Compare(b.key, a.key) })
	m := make([]Placing, len(ds))
	for s, d := range ds {
		m[s] = Placing{players[d.i], s + 1, 0}
		if s > 0 && r.IntN(20) == 0 {
			m[s].Rank = m[s-1].Rank
		}
	}
	return m
}

// BenchmarkFitRatings fits 100 000 matches of 20 bots 100 points apart in
// strength, two and four seats a match.
func BenchmarkFitRatings(b *testing.B) {
	players := make([]string, 20)
	theta := make([]float64, len(players))
	for i := range players {
		players[i] = fmt.Sprintf("bot%02d@1", i)
		theta[i] = float64(i) * 100 * math.Ln10 / 400
	}
	for _, seats := range []int{2, 4} {
		r := rand.New(rand.NewPCG(5, uint64(seats)))
		ms := make([][]Placing, 100_000)
		for i := range ms {
			pick := r.Perm(len(players))[:seats]
			ps, ts := make([]string, seats), make([]float64, seats)
			for s, p := range pick {
				ps[s], ts[s] = players[p], theta[p]
			}
			ms[i] = placeLuce(r, ps, ts)
		}
		b.Run(fmt.Sprintf("%d seats", seats), func(b *testing.B) {
			for b.Loop() {
				if _, err := FitRatings(ms, RatingPrior); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Two bots, 3 wins to 1: without a prior the fit is exactly Bradley–Terry,
// 400·log10(3) ≈ 191 points apart around 1500, each ±197 (see
// TestFitRatingsWorked).
func ExampleFitRatings() {
	matches := [][]Placing{
		{{Player: "greedy@2", Rank: 1}, {Player: "greedy@1", Rank: 2}},
		{{Player: "greedy@2", Rank: 1}, {Player: "greedy@1", Rank: 2}},
		{{Player: "greedy@1", Rank: 1}, {Player: "greedy@2", Rank: 2}},
		{{Player: "greedy@1", Rank: 2}, {Player: "greedy@2", Rank: 1}},
	}
	fit, err := FitRatings(matches, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range fit.Ratings {
		fmt.Printf("%s %.0f [%.0f, %.0f] in %d matches\n", r.Player, r.Rating, r.CI.Low, r.CI.High, r.Matches)
	}
	// Output:
	// greedy@2 1595 [1399, 1792] in 4 matches
	// greedy@1 1405 [1208, 1601] in 4 matches
}

// FuzzFitRatings decodes bytes into small valid matches and checks the fit
// gives finite numbers, or without a prior may report ErrUnbounded.
func FuzzFitRatings(f *testing.F) {
	f.Add([]byte{2, 0, 1, 1, 2}, false)
	f.Add([]byte{3, 0, 1, 0, 1, 0, 1, 2, 1, 1, 2, 2}, true)
	f.Add([]byte{2, 0, 1, 0, 1, 2, 1, 1, 0, 2}, false)
	f.Fuzz(func(t *testing.T, data []byte, prior bool) {
		var ms [][]Placing
		for len(data) > 0 && len(ms) < 64 {
			seats := 2 + int(data[0]%4)
			data = data[1:]
			var m []Placing
			for ; seats > 0 && len(data) >= 2; seats-- {
				m = append(m, Placing{string(rune('a' + data[0]%5)), 1 + int(data[1]%4), 0})
				data = data[2:]
			}
			if len(m) >= 2 {
				ms = append(ms, m)
			}
		}
		p := 0.0
		if prior {
			p = RatingPrior
		}
		fit, err := FitRatings(ms, p)
		if !prior && errors.Is(err, ErrUnbounded) {
			return
		}
		if err != nil {
			t.Fatalf("%v: %v", ms, err)
		}
		for _, r := range fit.Ratings {
			for _, v := range []float64{r.Rating, r.CI.Low, r.CI.High} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%s: got rating %v in %v from %v, want finite numbers", r.Player, r.Rating, r.CI, ms)
				}
			}
		}
	})
}

// TestRatingInputPrefixes adds matches one at a time and checks that the
// fit after each prefix is bit for bit FitRatings of that prefix, and that
// a refused match leaves the input as it was.
func TestRatingInputPrefixes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ms := randomMatches(r, 60, []string{"d", "c", "b", "a"})
	var in RatingInput
	for i, m := range ms {
		if err := in.Add(m); err != nil {
			t.Fatalf("match %d: %v", i, err)
		}
		if err := in.Add([]Placing{{Player: "a", Rank: 1}}); !errors.Is(err, ErrInvalidMatch) {
			t.Fatalf("one seat: got error %v, want %v", err, ErrInvalidMatch)
		}
		if got, want := in.Len(), i+1; got != want {
			t.Fatalf("got Len %d, want %d", got, want)
		}
		if i%7 != 0 && i != len(ms)-1 {
			continue
		}
		got, err := in.Fit(RatingPrior)
		if err != nil {
			t.Fatal(err)
		}
		want := fitOrFail(t, ms[:i+1], RatingPrior)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("prefix of %d: got %v, want %v", i+1, got.Ratings, want.Ratings)
		}
	}
}

func TestRatingInputTooMany(t *testing.T) {
	var in RatingInput
	for i := range maxPlayers / 2 {
		if err := in.Add(duel(fmt.Sprint("a", i), fmt.Sprint("b", i), false)); err != nil {
			t.Fatal(err)
		}
	}
	if err := in.Add(duel("x", "y", false)); !errors.Is(err, ErrTooMany) {
		t.Fatalf("got error %v, want %v", err, ErrTooMany)
	}
	if got, want := in.Len(), maxPlayers/2; got != want {
		t.Errorf("got Len %d, want %d", got, want)
	}
}

// BenchmarkRatingInput measures the fitting side of a background refit of
// a million two-seat matches among 20 bot versions: adding every match
// and fitting after historyPoints prefixes and at the end.
func BenchmarkRatingInput(b *testing.B) {
	const n, bots = 1_000_000, 20
	players := make([]string, bots)
	for i := range players {
		players[i] = RatingKey(fmt.Sprint("bot", i), "v1")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		var in RatingInput
		m := make([]Placing, 2)
		for i := 1; i <= n; i++ {
			a, c := r.IntN(bots), r.IntN(bots)
			m[0], m[1] = Placing{players[a], 1, 0}, Placing{players[c], 1 + r.IntN(2), 0}
			if err := in.Add(m); err != nil {
				b.Fatal(err)
			}
			if i%(n/historyPoints) == 0 {
				if _, err := in.Fit(RatingPrior); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// teamMatch is a match of two teams that the first wins: each team its
// players, which share a team number.
func teamMatch(winners, losers []string) []Placing {
	var m []Placing
	for _, p := range winners {
		m = append(m, Placing{Player: p, Rank: 1, Team: 1})
	}
	for _, p := range losers {
		m = append(m, Placing{Player: p, Rank: 2, Team: 2})
	}
	return m
}

// TestFitRatingsTeamsWorked checks team fits without a prior against
// maximum-likelihood estimates worked out by hand. With a and c level in
// their duels (one win each), the likelihood's duel factor γaγc/(γa+γc)²
// is largest at γa = γc = 1; the team of a and b beats c alone with
// probability s/(s+1), s = γa+γb, and k wins of n make s/(s+1) = k/n.
func TestFitRatingsTeamsWorked(t *testing.T) {
	const k = 400 / math.Ln10
	level := [][]Placing{duel("a", "c", false), duel("c", "a", false)}
	tests := []struct {
		name      string
		wins, of  int
		a, b, c   float64 // the log-strengths by hand, before centring
		wantOrder []string
	}{
		// 2 of 3: s = 2, so γb = 1: b is as strong as a and c.
		{"b adds as much as a", 2, 3, 0, 0, 0, nil},
		// 3 of 4: s = 3, so γb = 2.
		{"b adds twice as much", 3, 4, 0, math.Ln2, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := slices.Clone(level)
			for i := range tt.of {
				if i < tt.wins {
					ms = append(ms, teamMatch([]string{"a", "b"}, []string{"c"}))
				} else {
					ms = append(ms, teamMatch([]string{"c"}, []string{"a", "b"}))
				}
			}
			f := fitOrFail(t, ms, 0)
			mean := (tt.a + tt.b + tt.c) / 3
			near(t, "a", rated(t, f, "a").Rating, 1500+k*(tt.a-mean), 1e-6)
			near(t, "b", rated(t, f, "b").Rating, 1500+k*(tt.b-mean), 1e-6)
			near(t, "c", rated(t, f, "c").Rating, 1500+k*(tt.c-mean), 1e-6)
			if m := rated(t, f, "b").Matches; m != tt.of {
				t.Errorf("b: got %d matches, want %d", m, tt.of)
			}
		})
	}
}

// TestFitRatingsTeamsSymmetric: four players in every split into two
// teams of two, each side winning once, are level; so are two players who
// only ever play together.
func TestFitRatingsTeamsSymmetric(t *testing.T) {
	var ms [][]Placing
	for _, split := range [][2][]string{{{"a", "b"}, {"c", "d"}}, {{"a", "c"}, {"b", "d"}}, {{"a", "d"}, {"b", "c"}}} {
		ms = append(ms, teamMatch(split[0], split[1]), teamMatch(split[1], split[0]))
	}
	f := fitOrFail(t, ms, RatingPrior)
	for _, p := range []string{"a", "b", "c", "d"} {
		near(t, p, rated(t, f, p).Rating, 1500, 1e-6)
	}
	f = fitOrFail(t, append(repeat(3, teamMatch([]string{"x", "y"}, []string{"z"})), teamMatch([]string{"z"}, []string{"y", "x"})), RatingPrior)
	near(t, "x minus y", rated(t, f, "x").Rating-rated(t, f, "y").Rating, 0.0, 1e-6)
}

// TestFitRatingsDummyTeamMate builds the case of the issue: a strong bot
// s carries a team-mate d that never acts (d's team wins with s, and d
// loses every match of its own), while m, a middle bot, wins most of its
// own matches against a weak w. Counting d's team wins as d's own wins
// over the losers (every seat a player alone, team-mates tied, as before
// teams) rates d above m; the team model credits s and rates d below m.
func TestFitRatingsDummyTeamMate(t *testing.T) {
	var ms [][]Placing
	ms = append(ms, repeat(4, teamMatch([]string{"s", "d"}, []string{"m", "w"}))...)
	ms = append(ms, repeat(3, duel("m", "w", false))...)
	ms = append(ms, duel("w", "m", false), duel("w", "d", false), duel("m", "d", false))
	ms = append(ms, repeat(3, duel("s", "m", false))...)
	ms = append(ms, duel("m", "s", false))
	f := fitOrFail(t, ms, RatingPrior)
	if d, m := rated(t, f, "d").Rating, rated(t, f, "m").Rating; d >= m {
		t.Errorf("teams: got d %.0f at or above m %.0f, want below", d, m)
	}
	// The same matches with every seat alone: the old reading.
	alone := make([][]Placing, len(ms))
	for i, m := range ms {
		alone[i] = make([]Placing, len(m))
		for s, p := range m {
			alone[i][s] = Placing{Player: p.Player, Rank: p.Rank}
		}
	}
	f = fitOrFail(t, alone, RatingPrior)
	if d, m := rated(t, f, "d").Rating, rated(t, f, "m").Rating; d <= m {
		t.Errorf("seats alone: got d %.0f at or below m %.0f, want above (the case is no test otherwise)", d, m)
	}
}

func TestRatingInputTeamErrors(t *testing.T) {
	for _, m := range [][]Placing{
		{{Player: "a", Rank: 1, Team: 1}, {Player: "b", Rank: 1, Team: 1}},
		{{Player: "a", Rank: 1, Team: 1}, {Player: "b", Rank: 2, Team: 1}, {Player: "c", Rank: 3}},
	} {
		var in RatingInput
		if err := in.Add(m); !errors.Is(err, ErrInvalidMatch) || in.Len() != 0 {
			t.Errorf("Add(%v): got %v, want ErrInvalidMatch", m, err)
		}
	}
}

// BenchmarkFitFrom measures what a new match costs the ratings of a
// ruleset of 20,000 matches of 2 to 4 seats among 40 players, nearly
// all of them distinct outcomes: the fit from the one before it, and
// (cold) the fit from equal strengths that every new match used to pay.
func BenchmarkFitFrom(b *testing.B) {
	players := make([]string, 40)
	for i := range players {
		players[i] = fmt.Sprint("p", i)
	}
	ms := randomMatches(rand.New(rand.NewPCG(8, 9)), 20_001, players)
	var in RatingInput
	for _, m := range ms[:len(ms)-1] {
		if err := in.Add(m); err != nil {
			b.Fatal(err)
		}
	}
	before, err := in.Fit(RatingPrior)
	if err != nil {
		b.Fatal(err)
	}
	if err := in.Add(ms[len(ms)-1]); err != nil {
		b.Fatal(err)
	}
	b.Run("warm", func(b *testing.B) {
		for b.Loop() {
			if _, err := in.FitFrom(RatingPrior, before); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			if _, err := in.Fit(RatingPrior); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestUpdate updates a fit of 2000 matches with 1 to 64 more: the
// ratings are within updateSlack of a full fit, the intervals within
// updateCISlack and the match counts exact; an update with a player the
// fit did not rate fails with ErrUnknownPlayer.
func TestUpdate(t *testing.T) {
	ms := placings(randomSeats(rand.New(rand.NewPCG(71, 72)), 3000))[:2064]
	const n = 2000
	var in RatingInput
	for _, m := range ms[:n] {
		if err := in.Add(m); err != nil {
			t.Fatal(err)
		}
	}
	base, err := in.Fit(RatingPrior)
	if err != nil {
		t.Fatal(err)
	}
	for _, more := range []int{1, 8, 64} {
		var recent RatingInput
		for _, m := range ms[n : n+more] {
			if err := recent.Add(m); err != nil {
				t.Fatal(err)
			}
		}
		want, err := FitRatings(ms[:n+more], RatingPrior)
		if err != nil {
			t.Fatal(err)
		}
		got, err := base.Update(&recent)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range want.Ratings {
			g := got.Ratings[i]
			if g.Player != w.Player || math.Abs(g.Rating-w.Rating) > updateSlack || g.Matches != w.Matches ||
				math.Abs(g.CI.Low-w.CI.Low) > updateCISlack || math.Abs(g.CI.High-w.CI.High) > updateCISlack {
				t.Errorf("%d more: rating %d: got %+v, want %+v", more, i, g, w)
			}
		}
	}
	var stranger RatingInput
	if err := stranger.Add([]Placing{{Player: "new", Rank: 1}, {Player: ms[0][0].Player, Rank: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := base.Update(&stranger); !errors.Is(err, ErrUnknownPlayer) {
		t.Errorf("an update with a new player: got error %v, want ErrUnknownPlayer", err)
	}
}
