package analytics

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Placing is one seat of a match as FitRatings sees it.
type Placing struct {
	// Player identifies a bot version; the caller picks the key (for
	// example "name@version") and keeps one game and ruleset per fit.
	Player string
	Rank   int // 1 = best; equal ranks tie
}

// Rating is one player's strength on the Elo-like scale of FitRatings.
type Rating struct {
	Player  string
	Rating  float64
	CI      Interval // 95%
	Matches int      // matches the player took a seat in
}

// Difference is the rating of one player minus another's, with its 95%
// interval.
type Difference struct {
	Diff float64
	CI   Interval
}

// RatingFit is the outcome of FitRatings: the ratings, best first, and
// what Difference needs to compare two of them.
type RatingFit struct {
	Ratings []Rating
	index   map[string]int // Player → row of theta and cov
	theta   []float64      // log-strengths, centred on their mean
	cov     [][]float64    // covariance of theta
}

// RatingPrior is the prior weight callers should pass to FitRatings: one
// virtual draw of every player against a fixed reference player. It keeps
// an unbeaten or winless player finite and is worth about a normal prior
// with a standard deviation of 350 rating points, so a few real matches
// outweigh it.
const RatingPrior = 1.0

// Rating scale: a difference of eloScale·ln(10) ≈ 400 points means odds of
// 10 to 1, and the mean rating of a fit is eloMean.
const (
	eloScale = 400 / math.Ln10
	eloMean  = 1500
)

// Limits of FitRatings. Seats keep a match's work small; players bound
// the information matrix, which has one row per player.
const (
	maxSeats   = 32
	maxPlayers = 1000
	// The MM iteration stops when no log-strength moves by more than
	// fitTolerance (0.00000004 rating points) in an iteration.
	fitTolerance = 1e-10
	maxFitSteps  = 100000
)

// Errors of FitRatings and Difference.
var (
	ErrInvalidMatch  = errors.New("invalid match")
	ErrTooMany       = errors.New("too many players to rate")
	ErrUnbounded     = errors.New("ratings have no finite maximum-likelihood fit")
	ErrNoConvergence = errors.New("rating fit did not converge")
	ErrUnknownPlayer = errors.New("player not rated")
	ErrSamePlayer    = errors.New("a player compared with itself")
)

// FitRatings fits a Plackett–Luce model to matches by maximum likelihood:
// every player i has a strength γi, and a match's placing is the outcome
// of choosing the winner among all seats with probability γi/Σγ, then the
// runner-up among the rest, and so on. For two seats this is the
// Bradley–Terry model behind Elo. The fit uses the MM algorithm of Hunter
// (2004, "MM algorithms for generalized Bradley–Terry models"), which
// raises the likelihood at every step.
//
// Tied placings are "a draw is half a win": for two seats the tie scores
// half a win and half a loss, as in Elo. For a tied group of any size the
// likelihood is Efron's (1977) approximation to averaging it over every
// order of the tied players, the standard treatment of ties in Cox's
// partial likelihood, which is this model's likelihood; it is exact for
// two seats and costs O(seats) per match. Davidson's extension was not
// chosen: its draw parameter is poorly determined when draws are rare, and
// its multi-seat form sums over every subset of the remaining seats.
//
// prior is the number of virtual draws of every player against a
// reference of strength 1 (pass RatingPrior). With prior 0 the fit is the
// plain maximum-likelihood estimate, which exists only when every player
// both placed above and below the rest through some chain of matches;
// otherwise the error wraps ErrUnbounded.
//
// Ratings are 1500 + 400·log10(γi/g), where g is the geometric mean of all
// strengths: the mean rating is 1500 and a 400-point gap means 10-to-1
// odds in a two-seat match. Intervals come from the inverse of the
// observed information (minus the Hessian of the log-likelihood in log
// strengths at the fit), for the rating relative to the mean. The result
// depends only on the multiset of matches: they are put in a canonical
// order first, so the same matches in any order give the same bits.
// No matches give an empty fit.
func FitRatings(matches [][]Placing, prior float64) (*RatingFit, error) {
	if !(prior >= 0) || math.IsInf(prior, 0) {
		return nil, fmt.Errorf("fit ratings: prior %v is not a finite non-negative number", prior)
	}
	t, err := tabulate(matches)
	if err != nil {
		return nil, fmt.Errorf("fit ratings: %w", err)
	}
	if len(t.players) == 0 {
		return t.ratings(nil, nil), nil
	}
	if prior == 0 {
		if err := t.bounded(); err != nil {
			return nil, fmt.Errorf("fit ratings: %w", err)
		}
	}
	gamma, err := t.fit(prior)
	if err != nil {
		return nil, fmt.Errorf("fit ratings: %w", err)
	}
	cov, err := t.covariance(gamma, prior)
	if err != nil {
		return nil, fmt.Errorf("fit ratings: %w", err)
	}
	return t.ratings(gamma, cov), nil
}

// Difference returns the rating of player a minus that of player b, with
// the 95% interval from the covariance of the two ratings.
func (f *RatingFit) Difference(a, b string) (Difference, error) {
	i, ok := f.index[a]
	if !ok {
		return Difference{}, fmt.Errorf("rating difference: %w: %q", ErrUnknownPlayer, a)
	}
	j, ok := f.index[b]
	if !ok {
		return Difference{}, fmt.Errorf("rating difference: %w: %q", ErrUnknownPlayer, b)
	}
	if i == j {
		return Difference{}, fmt.Errorf("rating difference: %w: %q", ErrSamePlayer, a)
	}
	d := eloScale * (f.theta[i] - f.theta[j])
	v := f.cov[i][i] + f.cov[j][j] - 2*f.cov[i][j]
	return Difference{Diff: d, CI: around(d, eloScale*math.Sqrt(max(0, v)))}, nil
}

// around is the 95% interval of a normal estimate x with standard error se.
func around(x, se float64) Interval {
	return Interval{x - z95*se, x + z95*se}
}

// outcome is one distinct placing of a match and how often it occurred.
type outcome struct {
	seats []int // player indices, best first; a tied group by index
	ends  []int // seats[ends[g-1]:ends[g]] is the g-th tied group
	count float64
}

// table is the matches of a fit reduced to distinct outcomes.
type table struct {
	players  []string // sorted
	matches  []int    // per player
	outcomes []outcome
	wins     []float64 // per player: the numerator of the MM update
}

// tabulate checks matches, indexes the players in sorted order and merges
// equal outcomes, in an order that does not depend on the order of
// matches.
func tabulate(matches [][]Placing) (*table, error) {
	seen := map[string]bool{}
	for i, m := range matches {
		if len(m) < 2 || len(m) > maxSeats {
			return nil, fmt.Errorf("match %d: %w: %d seats, want 2 to %d", i, ErrInvalidMatch, len(m), maxSeats)
		}
		for s, p := range m {
			if p.Player == "" {
				return nil, fmt.Errorf("match %d: %w: seat %d has no player", i, ErrInvalidMatch, s)
			}
			if p.Rank < 1 {
				return nil, fmt.Errorf("match %d: %w: seat %d has rank %d, want 1 or more", i, ErrInvalidMatch, s, p.Rank)
			}
			seen[p.Player] = true
		}
	}
	if len(seen) > maxPlayers {
		return nil, fmt.Errorf("%w: %d, at most %d", ErrTooMany, len(seen), maxPlayers)
	}
	t := &table{}
	for p := range seen {
		t.players = append(t.players, p)
	}
	slices.Sort(t.players)
	index := make(map[string]int, len(t.players))
	for i, p := range t.players {
		index[p] = i
	}
	t.matches = make([]int, len(t.players))
	type seat struct{ player, rank int }
	all := make([]outcome, 0, len(matches))
	for _, m := range matches {
		ss := make([]seat, len(m))
		for s, p := range m {
			ss[s] = seat{index[p.Player], p.Rank}
		}
		slices.SortFunc(ss, func(a, b seat) int {
			return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.player, b.player))
		})
		o := outcome{seats: make([]int, len(ss)), count: 1}
		for s, st := range ss {
			o.seats[s] = st.player
			if s > 0 && st.rank != ss[s-1].rank {
				o.ends = append(o.ends, s)
			}
			if !slices.Contains(o.seats[:s], st.player) {
				t.matches[st.player]++
			}
		}
		o.ends = append(o.ends, len(ss))
		all = append(all, o)
	}
	slices.SortFunc(all, func(a, b outcome) int {
		return cmp.Or(slices.Compare(a.seats, b.seats), slices.Compare(a.ends, b.ends))
	})
	for _, o := range all {
		if n := len(t.outcomes); n > 0 && slices.Equal(t.outcomes[n-1].seats, o.seats) && slices.Equal(t.outcomes[n-1].ends, o.ends) {
			t.outcomes[n-1].count++
			continue
		}
		t.outcomes = append(t.outcomes, o)
	}
	t.wins = make([]float64, len(t.players))
	for _, o := range t.outcomes {
		o.groups(func(members []int, later bool) {
			m := float64(len(members))
			for _, p := range members {
				t.wins[p] += o.count * float64(stages(len(members), later)) / m
			}
		})
	}
	return t, nil
}

// groups calls fn for every tied group of o, best first; later says
// whether other seats placed below the group.
func (o outcome) groups(fn func(members []int, later bool)) {
	start := 0
	for _, end := range o.ends {
		fn(o.seats[start:end], end < len(o.seats))
		start = end
	}
}

// stages is how many choices a tied group of m seats makes: one per seat,
// but the last seat of a match has no one left to beat.
func stages(m int, later bool) int {
	if later {
		return m
	}
	return m - 1
}

// Efron's approximation: at the l-th choice within a tied group of m, each
// of its seats is still in the running with weight (m-l)/m.
func share(l, m int) float64 {
	return float64(m-l) / float64(m)
}

// bounded reports, wrapping ErrUnbounded, a player whose maximum-likelihood
// strength would be 0 or infinite: Hunter's condition is that the graph of
// "placed above or tied with" is strongly connected.
func (t *table) bounded() error {
	n := len(t.players)
	above := make([][]bool, n)
	for i := range above {
		above[i] = make([]bool, n)
	}
	for _, o := range t.outcomes {
		start := 0
		for _, end := range o.ends {
			for _, a := range o.seats[start:end] {
				for _, b := range o.seats[start:] {
					above[a][b] = true
				}
			}
			start = end
		}
	}
	reach := func(edge func(a, b int) bool) []bool {
		seen := make([]bool, n)
		seen[0] = true
		queue := []int{0}
		for len(queue) > 0 {
			a := queue[0]
			queue = queue[1:]
			for b := range n {
				if !seen[b] && edge(a, b) {
					seen[b] = true
					queue = append(queue, b)
				}
			}
		}
		return seen
	}
	down := reach(func(a, b int) bool { return above[a][b] })
	up := reach(func(a, b int) bool { return above[b][a] })
	for i := range n {
		if !down[i] {
			return fmt.Errorf("%w: %s never placed below %s or anyone it beat", ErrUnbounded, t.players[i], t.players[0])
		}
		if !up[i] {
			return fmt.Errorf("%w: %s never placed above %s or anyone who beat it", ErrUnbounded, t.players[i], t.players[0])
		}
	}
	return nil
}

// fit runs the MM iteration from equal strengths and returns the strengths.
func (t *table) fit(prior float64) ([]float64, error) {
	n := len(t.players)
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	denom := make([]float64, n)
	next := make([]float64, n)
	for range maxFitSteps {
		clear(denom)
		for _, o := range t.outcomes {
			t.addDenominators(o, gamma, denom)
		}
		for i := range next {
			next[i] = (t.wins[i] + prior/2) / (denom[i] + prior/(gamma[i]+1))
		}
		if prior == 0 {
			// Without the reference only ratios matter: keep the
			// geometric mean at 1 so nothing drifts.
			var mean float64
			for _, g := range next {
				mean += math.Log(g)
			}
			mean /= float64(n)
			for i := range next {
				next[i] /= math.Exp(mean)
			}
		}
		var moved float64
		for i := range next {
			moved = max(moved, math.Abs(math.Log(next[i]/gamma[i])))
		}
		gamma, next = next, gamma
		if moved <= fitTolerance {
			return gamma, nil
		}
	}
	return nil, fmt.Errorf("%w in %d steps", ErrNoConvergence, maxFitSteps)
}

// addDenominators adds to denom[i], for each player i of o, the sum over
// the choices i was in the running for of its weight over the total
// strength in the running: the denominator of Hunter's MM update.
func (t *table) addDenominators(o outcome, gamma, denom []float64) {
	var rest float64 // strength of the seats below the current group
	for _, p := range o.seats {
		rest += gamma[p]
	}
	var before float64 // Σ 1/total over the choices of earlier groups
	o.groups(func(members []int, later bool) {
		var group float64
		for _, p := range members {
			group += gamma[p]
		}
		rest -= group
		m := len(members)
		var own, all float64
		for l := range stages(m, later) {
			total := rest + share(l, m)*group
			own += share(l, m) / total
			all += 1 / total
		}
		for _, p := range members {
			denom[p] += o.count * (before + own)
		}
		before += all
	})
}

// covariance returns the covariance of the log-strengths relative to their
// mean: the inverse of the observed information, with player 0 held fixed
// when there is no prior (the likelihood only sees ratios), then centred.
func (t *table) covariance(gamma []float64, prior float64) ([][]float64, error) {
	n := len(t.players)
	info := make([][]float64, n)
	for i := range info {
		info[i] = make([]float64, n)
		q := gamma[i] / (gamma[i] + 1)
		info[i][i] = prior * q * (1 - q)
	}
	p := make([]float64, maxSeats)
	for _, o := range t.outcomes {
		start := 0
		o.groups(func(members []int, later bool) {
			m := len(members)
			running := o.seats[start:]
			for l := range stages(m, later) {
				var total float64
				for s, pl := range running {
					p[s] = gamma[pl]
					if s < m {
						p[s] *= share(l, m)
					}
					total += p[s]
				}
				for s := range running {
					p[s] /= total
				}
				for s, a := range running {
					info[a][a] += o.count * p[s]
					for u, b := range running {
						info[a][b] -= o.count * p[s] * p[u]
					}
				}
			}
			start += m
		})
	}
	free := 0
	if prior == 0 {
		free = 1
	}
	sub := make([][]float64, n-free)
	for i := range sub {
		sub[i] = info[i+free][free:]
	}
	inv, err := invertSPD(sub)
	if err != nil {
		return nil, err
	}
	cov := make([][]float64, n)
	for i := range cov {
		cov[i] = make([]float64, n)
		if i >= free {
			copy(cov[i][free:], inv[i-free])
		}
	}
	return centre(cov), nil
}

// centre returns C·cov·C for the centring matrix C = I - 11ᵀ/n: the
// covariance of each value minus the mean of all.
func centre(cov [][]float64) [][]float64 {
	n := len(cov)
	row := make([]float64, n)
	var all float64
	for i := range cov {
		for j := range cov[i] {
			row[i] += cov[i][j]
		}
		row[i] /= float64(n)
		all += row[i]
	}
	all /= float64(n)
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, n)
		for j := range out[i] {
			// cov is symmetric, so the mean of column j is row[j].
			out[i][j] = cov[i][j] - row[i] - row[j] + all
		}
	}
	return out
}

// invertSPD inverts a symmetric positive definite matrix by its Cholesky
// factor a = L·Lᵀ.
func invertSPD(a [][]float64) ([][]float64, error) {
	n := len(a)
	l := make([][]float64, n)
	for i := range l {
		l[i] = make([]float64, n)
		for j := 0; j <= i; j++ {
			s := a[i][j]
			for k := range j {
				s -= l[i][k] * l[j][k]
			}
			if i == j {
				if !(s > 0) {
					return nil, fmt.Errorf("information matrix is singular at player row %d", i)
				}
				l[i][i] = math.Sqrt(s)
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	inv := make([][]float64, n)
	for i := range inv {
		inv[i] = make([]float64, n)
	}
	x := make([]float64, n)
	for c := range n {
		// Solve L·y = e_c, then Lᵀ·x = y.
		for i := range n {
			s := 0.0
			if i == c {
				s = 1
			}
			for k := range i {
				s -= l[i][k] * x[k]
			}
			x[i] = s / l[i][i]
		}
		for i := n - 1; i >= 0; i-- {
			s := x[i]
			for k := i + 1; k < n; k++ {
				s -= l[k][i] * x[k]
			}
			x[i] = s / l[i][i]
		}
		for i := range n {
			inv[i][c] = x[i]
		}
	}
	return inv, nil
}

// ratings puts the fitted strengths on the rating scale, best first.
func (t *table) ratings(gamma []float64, cov [][]float64) *RatingFit {
	n := len(t.players)
	f := &RatingFit{Ratings: make([]Rating, n), index: make(map[string]int, n), theta: make([]float64, n), cov: cov}
	var mean float64
	for i, g := range gamma {
		f.theta[i] = math.Log(g)
		mean += f.theta[i]
	}
	if n > 0 {
		mean /= float64(n)
	}
	for i, p := range t.players {
		f.theta[i] -= mean
		f.index[p] = i
		r := eloMean + eloScale*f.theta[i]
		f.Ratings[i] = Rating{Player: p, Rating: r, CI: around(r, eloScale*math.Sqrt(max(0, cov[i][i]))), Matches: t.matches[i]}
	}
	slices.SortStableFunc(f.Ratings, func(a, b Rating) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.Player, b.Player))
	})
	return f
}
