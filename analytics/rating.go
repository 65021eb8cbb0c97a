package analytics

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Placing is one player's part in a match as FitRatings sees it.
type Placing struct {
	// Player identifies a bot version; the caller picks the key (for
	// example "name@version") and keeps one game and ruleset per fit.
	Player string
	Rank   int // 1 = best; equal ranks tie
	// Team groups the placings of a match that played together: those
	// with the same non-zero Team are one team, which must share one
	// rank. 0 is a player alone.
	Team int
}

// Rating is one player's strength on the Elo-like scale of FitRatings.
type Rating struct {
	Player  string
	Rating  float64
	CI      Interval // 95%
	Matches int      // matches the player took part in
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
	// Matches is how many stored matches the fit covered, for saying what
	// it was fitted over (RatingBasis); set by the caller that read them.
	Matches int
	index   map[string]int // Player → row of theta and cov
	theta   []float64      // log-strengths, centred on their mean
	cov     [][]float64    // covariance of theta
	// Of a fit by FitFrom, what Update needs: the log-strengths the fit
	// found, before centring (the prior is not indifferent to a shift),
	// the observed information there, prior included, and the prior.
	raw   []float64
	info  [][]float64
	prior float64
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
	// The fit stops when no log-strength moves by more than fitTolerance
	// (0.00000002 rating points) in a step.
	fitTolerance = 1e-10
	maxFitSteps  = 1000
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
// never lowers the likelihood, sped up by taking Newton's step instead
// whenever that does not lower it either.
//
// Teams follow Huang, Weng and Lin (2006, "Generalized Bradley–Terry
// models and multi-class probability estimates", JMLR 7): a team's
// strength is the sum of its members' strengths, so a team of A and B
// beats a team of C and D with probability (γA+γB)/(γA+γB+γC+γD), and the
// placing of several teams is chosen team by team as above. A team-mate
// who adds nothing to the team's results is fitted a strength near 0
// instead of sharing the credit of the member who won, and team-mates
// never compete with each other. Their MM update, a member's share
// γi/Γ of each choice its team won over the same denominator, is the one
// used here; with teams of one everything reduces to the model above.
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
	var in RatingInput
	for i, m := range matches {
		if err := in.Add(m); err != nil {
			return nil, fmt.Errorf("fit ratings: match %d: %w", i, err)
		}
	}
	return in.Fit(prior)
}

// Fit is FitRatings over the matches added so far. Fitting does not
// change the input: more matches may be added and fitted again.
func (in *RatingInput) Fit(prior float64) (*RatingFit, error) {
	return in.FitFrom(prior, nil)
}

// FitFrom is Fit started from the ratings of an earlier fit instead of
// equal strengths (from nil is Fit): a player from did not rate starts at
// the mean. It stops at the same tolerance, so it gives Fit's ratings
// within that tolerance (not to the bit); after a few more matches than
// from covered it needs a step or two instead of a dozen.
func (in *RatingInput) FitFrom(prior float64, from *RatingFit) (*RatingFit, error) {
	if !(prior >= 0) || math.IsInf(prior, 0) {
		return nil, fmt.Errorf("fit ratings: prior %v is not a finite non-negative number", prior)
	}
	t := in.table()
	if len(t.players) == 0 {
		return t.ratings(nil, nil), nil
	}
	if prior == 0 {
		if err := t.bounded(); err != nil {
			return nil, fmt.Errorf("fit ratings: %w", err)
		}
	}
	theta, info, err := t.fit(prior, t.start(from, prior))
	if err != nil {
		return nil, fmt.Errorf("fit ratings: %w", err)
	}
	cov, err := covariance(info, prior)
	if err != nil {
		return nil, fmt.Errorf("fit ratings: %w", err)
	}
	f := t.ratings(theta, cov)
	f.raw, f.info, f.prior = theta, info, prior
	return f, nil
}

// Update returns f moved to take in the matches of more, played after the
// ones f was fitted over, without going over those again: it maximises
// the likelihood of more times the quadratic that matches f's
// log-likelihood, prior included, at f's maximum (its observed
// information), by Newton's method. That is exact for the matches of
// more and leaves an error of third order in the moves of the ratings on
// the older ones: well under a rating point when more is a small part of
// a player's matches, and it grows as more does, so callers fit afresh
// every so often. f must come from Fit or FitFrom, and every player of
// more must be one f rated; the error wraps ErrUnknownPlayer otherwise.
// The result has Matches 0 and cannot be updated in turn: update f again
// with all the matches since.
func (f *RatingFit) Update(more *RatingInput) (*RatingFit, error) {
	if f.info == nil {
		return nil, errors.New("update ratings: the fit has no information to update from")
	}
	u, err := f.recent(more)
	if err != nil {
		return nil, fmt.Errorf("update ratings: %w", err)
	}
	free := pinned(f.prior)
	theta := slices.Clone(f.raw)
	for range maxFitSteps {
		credit, denom := u.scores(theta)
		info := u.total(theta, f)
		grad := make([]float64, len(theta)-free)
		for i := range grad {
			p := i + free
			grad[i] = credit[p] - math.Exp(theta[p])*denom[p]
			for j, x := range f.info[p] {
				grad[i] -= x * (theta[j] - f.raw[j])
			}
		}
		l, err := cholesky(sub(info, free))
		if err != nil {
			return nil, fmt.Errorf("update ratings: %w", err)
		}
		var moved float64
		for i, d := range solve(l, grad) {
			theta[i+free] += d
			moved = max(moved, math.Abs(d))
		}
		if moved <= fitTolerance {
			cov, err := covariance(u.total(theta, f), f.prior)
			if err != nil {
				return nil, fmt.Errorf("update ratings: %w", err)
			}
			return u.ratings(theta, cov), nil
		}
	}
	return nil, fmt.Errorf("update ratings: %w in %d steps", ErrNoConvergence, maxFitSteps)
}

// recent returns the matches of more as a table of f's players, in f's
// rows, with the matches of each player f counted added in.
func (f *RatingFit) recent(more *RatingInput) (*table, error) {
	t := more.table()
	u := &table{players: make([]string, len(f.raw)), matches: make([]int, len(f.raw)), outcomes: make([]outcome, len(t.outcomes))}
	for p, i := range f.index {
		u.players[i] = p
	}
	for _, r := range f.Ratings {
		u.matches[f.index[r.Player]] = r.Matches
	}
	row := make([]int, len(t.players))
	for i, p := range t.players {
		j, ok := f.index[p]
		if !ok {
			return nil, fmt.Errorf("%w: %q", ErrUnknownPlayer, p)
		}
		row[i] = j
		u.matches[j] += t.matches[i]
	}
	for k, o := range t.outcomes {
		r := outcome{units: make([][]int, len(o.units)), ends: o.ends, count: o.count}
		for x, unit := range o.units {
			r.units[x] = make([]int, len(unit))
			for y, p := range unit {
				r.units[x][y] = row[p]
			}
		}
		u.outcomes[k] = r
	}
	return u, nil
}

// total returns the information in θ of the matches of u, without a
// prior, plus f's information at its fit: the curvature Update climbs.
func (u *table) total(theta []float64, f *RatingFit) [][]float64 {
	info := u.information(theta, 0)
	for i, row := range f.info {
		for j, x := range row {
			info[i][j] += x
		}
	}
	return info
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
	units [][]int // the teams, best first, each its player indices in order; a tied group in order
	ends  []int   // units[ends[g-1]:ends[g]] is the g-th tied group
	count float64
}

// table is the matches of a fit reduced to distinct outcomes.
type table struct {
	players  []string // sorted
	matches  []int    // per player
	outcomes []outcome
}

// RatingInput gathers matches for FitRatings one at a time. It keeps
// each distinct placing once, with how often it occurred, so its memory
// grows with the distinct outcomes rather than the matches, and fitting
// the matches added so far costs the same after a thousand matches as
// after a million: a rating history fits successive prefixes of one run
// of matches this way. The zero value is an empty input.
type RatingInput struct {
	ids      map[string]int // Player → id, in order of first appearance
	players  []string       // by id
	outcomes map[string]*outcome
	n        int    // matches added
	key      []byte // scratch for Add
	seats    []seat // scratch for Add
}

// seat is one placing of a match being added: its player's id, rank and
// team (the placing's own index for a player alone).
type seat struct{ player, rank, team int }

// Add adds one match. A match is 2 to 32 placings of at least two teams
// (a player alone is a team), each with a player and a rank of 1 or more,
// and every member of a team with the same rank; the error wraps
// ErrInvalidMatch otherwise, or ErrTooMany when the match brings the
// players past 1000, and the input is left as it was.
func (in *RatingInput) Add(m []Placing) error {
	if len(m) < 2 || len(m) > maxSeats {
		return fmt.Errorf("%w: %d seats, want 2 to %d", ErrInvalidMatch, len(m), maxSeats)
	}
	fresh, teams := 0, 0
	for s, p := range m {
		if p.Player == "" {
			return fmt.Errorf("%w: seat %d has no player", ErrInvalidMatch, s)
		}
		if p.Rank < 1 {
			return fmt.Errorf("%w: seat %d has rank %d, want 1 or more", ErrInvalidMatch, s, p.Rank)
		}
		if _, ok := in.ids[p.Player]; !ok && !slices.ContainsFunc(m[:s], func(q Placing) bool { return q.Player == p.Player }) {
			fresh++
		}
		mate := slices.IndexFunc(m[:s], func(q Placing) bool { return p.Team != 0 && q.Team == p.Team })
		if mate < 0 {
			teams++
		} else if m[mate].Rank != p.Rank {
			return fmt.Errorf("%w: seats %d and %d are one team with ranks %d and %d", ErrInvalidMatch, mate, s, m[mate].Rank, p.Rank)
		}
	}
	if teams < 2 {
		return fmt.Errorf("%w: one team, want two or more", ErrInvalidMatch)
	}
	if n := len(in.players) + fresh; n > maxPlayers {
		return fmt.Errorf("%w: %d, at most %d", ErrTooMany, n, maxPlayers)
	}
	if in.ids == nil {
		in.ids = map[string]int{}
		in.outcomes = map[string]*outcome{}
	}
	in.seats = in.seats[:0]
	for s, p := range m {
		id, ok := in.ids[p.Player]
		if !ok {
			id = len(in.players)
			in.ids[p.Player] = id
			in.players = append(in.players, p.Player)
		}
		team := s
		if p.Team != 0 {
			team = slices.IndexFunc(m, func(q Placing) bool { return q.Team == p.Team })
		}
		in.seats = append(in.seats, seat{id, p.Rank, team})
	}
	ss := in.seats
	// Members of a team by player, teams by their first member: the
	// order depends on the players only, not on the seats.
	slices.SortFunc(ss, func(a, b seat) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.team, b.team), cmp.Compare(a.player, b.player))
	})
	var units [][]seat
	for s := range ss {
		if s == 0 || ss[s].team != ss[s-1].team {
			units = append(units, nil)
		}
		units[len(units)-1] = append(units[len(units)-1], ss[s])
	}
	slices.SortStableFunc(units, func(a, b []seat) int {
		return cmp.Or(cmp.Compare(a[0].rank, b[0].rank), cmp.Compare(a[0].player, b[0].player))
	})
	// The key is the teams best first, each its players followed by 0
	// and then whether the next team ties with it: equal keys are equal
	// outcomes.
	key := in.key[:0]
	for u, unit := range units {
		for _, st := range unit {
			key = binary.AppendUvarint(key, uint64(st.player)+1)
		}
		tie := byte(0)
		if u+1 < len(units) && units[u+1][0].rank == unit[0].rank {
			tie = 1
		}
		key = append(key, 0, tie)
	}
	in.key = key
	in.n++
	if o, ok := in.outcomes[string(key)]; ok {
		o.count++
		return nil
	}
	o := &outcome{units: make([][]int, len(units)), count: 1}
	for u, unit := range units {
		o.units[u] = make([]int, len(unit))
		for i, st := range unit {
			o.units[u][i] = st.player
		}
		if u > 0 && unit[0].rank != units[u-1][0].rank {
			o.ends = append(o.ends, u)
		}
	}
	o.ends = append(o.ends, len(units))
	in.outcomes[string(key)] = o
	return nil
}

// Len returns the number of matches added.
func (in *RatingInput) Len() int { return in.n }

// distinct returns the number of distinct placings added, which a walk
// over the matches costs.
func (in *RatingInput) distinct() int { return len(in.outcomes) }

// table indexes the players of in in sorted order and lists its outcomes
// in a canonical order, so that the table does not depend on the order
// the matches were added in.
func (in *RatingInput) table() *table {
	t := &table{players: slices.Clone(in.players)}
	slices.Sort(t.players)
	index := make([]int, len(in.players)) // id → row
	for id, p := range in.players {
		index[id], _ = slices.BinarySearch(t.players, p)
	}
	t.matches = make([]int, len(t.players))
	t.outcomes = make([]outcome, 0, len(in.outcomes))
	for _, o := range in.outcomes {
		r := outcome{units: make([][]int, len(o.units)), ends: o.ends, count: o.count}
		var seen []int
		for u, unit := range o.units {
			r.units[u] = make([]int, len(unit))
			for i, id := range unit {
				p := index[id]
				r.units[u][i] = p
				if !slices.Contains(seen, p) {
					seen = append(seen, p)
					t.matches[p] += int(o.count)
				}
			}
			slices.Sort(r.units[u])
		}
		start := 0
		for _, end := range r.ends {
			slices.SortFunc(r.units[start:end], slices.Compare)
			start = end
		}
		t.outcomes = append(t.outcomes, r)
	}
	slices.SortFunc(t.outcomes, func(a, b outcome) int {
		return cmp.Or(slices.CompareFunc(a.units, b.units, slices.Compare[[]int]), slices.Compare(a.ends, b.ends))
	})
	return t
}

// groups calls fn for every tied group of o, best first, with the index
// of its first team; later says whether other teams placed below it.
func (o outcome) groups(fn func(start int, members [][]int, later bool)) {
	start := 0
	for _, end := range o.ends {
		fn(start, o.units[start:end], end < len(o.units))
		start = end
	}
}

// strengths returns the strength of each team of o, the sum of its
// members' strengths, in s, which holds maxSeats: the walks over every
// outcome reuse one.
func (o outcome) strengths(gamma, s []float64) []float64 {
	s = s[:len(o.units)]
	clear(s)
	for u, unit := range o.units {
		for _, p := range unit {
			s[u] += gamma[p]
		}
	}
	return s
}

// newSeats returns a scratch slice of one number per seat of a match.
func newSeats() []float64 { return make([]float64, maxSeats) }

// teamScores returns, for each team of o, the choices it won (its tied
// group's choices shared among the group's teams) and its denominator:
// the sum over the choices it was in the running for of its weight over
// the total strength in the running. The gradient of the log-likelihood
// in the team's log-strength is won - strength·denominator. won and
// denom hold maxSeats, as strengths' s.
func (o outcome) teamScores(str, won, denom []float64) ([]float64, []float64) {
	won, denom = won[:len(o.units)], denom[:len(o.units)]
	var rest float64 // strength of the teams below the current group
	for _, x := range str {
		rest += x
	}
	var before float64 // Σ 1/total over the choices of earlier groups
	o.groups(func(start int, members [][]int, later bool) {
		m := len(members)
		var group float64
		for u := range members {
			group += str[start+u]
		}
		rest -= group
		var own, all float64
		for l := range stages(m, later) {
			total := rest + share(l, m)*group
			own += share(l, m) / total
			all += 1 / total
		}
		for u := range members {
			won[start+u] = float64(stages(m, later)) / float64(m)
			denom[start+u] = before + own
		}
		before += all
	})
	return won, denom
}

// scores returns, for each player, the choices its teams won, each
// shared among the team's members in proportion to their strengths (the
// numerator of the MM update, and the first half of the gradient), and
// the sum over the choices its teams were in the running for of the
// team's weight over the total strength in the running (the denominator
// of the MM update), in one pass over the outcomes.
func (t *table) scores(theta []float64) (credit, denom []float64) {
	gamma := exps(theta)
	credit, denom = make([]float64, len(theta)), make([]float64, len(theta))
	s, w, ds := newSeats(), newSeats(), newSeats()
	for _, o := range t.outcomes {
		str := o.strengths(gamma, s)
		won, d := o.teamScores(str, w, ds)
		for u, unit := range o.units {
			for _, p := range unit {
				credit[p] += o.count * won[u] * gamma[p] / str[u]
				denom[p] += o.count * d[u]
			}
		}
	}
	return credit, denom
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
// "placed above or tied with" is strongly connected. A team places each
// member above or level with every member of the teams it placed above or
// tied with.
func (t *table) bounded() error {
	n := len(t.players)
	above := make([][]bool, n)
	for i := range above {
		above[i] = make([]bool, n)
	}
	for _, o := range t.outcomes {
		o.groups(func(start int, members [][]int, _ bool) {
			for _, unit := range members {
				for _, a := range unit {
					for _, other := range o.units[start:] {
						for _, b := range other {
							above[a][b] = true
						}
					}
				}
			}
		})
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
			return fmt.Errorf("%w: %s never placed below %s, even through a chain of matches", ErrUnbounded, t.players[i], t.players[0])
		}
		if !up[i] {
			return fmt.Errorf("%w: %s never placed above %s, even through a chain of matches", ErrUnbounded, t.players[i], t.players[0])
		}
	}
	return nil
}

// start returns the log-strengths a fit starts from: from's where it
// rated the player, else 0, with the pinned player at 0.
func (t *table) start(from *RatingFit, prior float64) []float64 {
	theta := make([]float64, len(t.players))
	if from == nil {
		return theta
	}
	for i, p := range t.players {
		if j, ok := from.index[p]; ok {
			theta[i] = from.theta[j]
		}
	}
	if pinned(prior) == 1 {
		shift := theta[0]
		for i := range theta {
			theta[i] -= shift
		}
	}
	return theta
}

// fit maximises the log-likelihood from theta, which it takes over, and
// returns the log-strengths θ = log γ with the observed information at
// them. Each step
// tries Newton's step, which needs few steps near the maximum, and falls
// back to Hunter's MM step, which never lowers the likelihood, when
// Newton's would: MM alone crawls when a player nearly always wins. Without
// a prior only differences of θ matter, so player 0 stays at 0.
func (t *table) fit(prior float64, theta []float64) ([]float64, [][]float64, error) {
	ll := t.logLikelihood(theta, prior)
	for range maxFitSteps {
		credit, denom := t.scores(theta)
		next := t.newton(theta, credit, denom, t.information(theta, prior), prior)
		nextLL := math.Inf(-1)
		if next != nil {
			nextLL = t.logLikelihood(next, prior)
		}
		if nextLL < ll {
			next = t.mm(theta, credit, denom, prior)
			nextLL = t.logLikelihood(next, prior)
		}
		var moved float64
		for i := range next {
			moved = max(moved, math.Abs(next[i]-theta[i]))
		}
		theta, ll = next, nextLL
		if moved <= fitTolerance {
			return theta, t.information(theta, prior), nil
		}
	}
	return nil, nil, fmt.Errorf("%w in %d steps", ErrNoConvergence, maxFitSteps)
}

// mm returns Hunter's MM update of θ: γi becomes its credit over the
// denominator, each with the prior's virtual draw.
func (t *table) mm(theta, credit, denom []float64, prior float64) []float64 {
	next := make([]float64, len(theta))
	for i, th := range theta {
		next[i] = math.Log(credit[i]+prior/2) - math.Log(denom[i]+prior/(math.Exp(th)+1))
	}
	if pinned(prior) == 1 {
		shift := next[0]
		for i := range next {
			next[i] -= shift
		}
	}
	return next
}

// pinned is how many leading players fit holds fixed: without a prior the
// likelihood only sees differences, so the first player anchors the rest.
func pinned(prior float64) int {
	if prior == 0 {
		return 1
	}
	return 0
}

// newton returns θ plus Newton's step, or nil when the information is not
// positive definite. The gradient in θi is the credit minus its
// expectation: credit[i] + prior/2 - γi·(denom[i] + prior/(γi+1)).
func (t *table) newton(theta, credit, denom []float64, info [][]float64, prior float64) []float64 {
	free := pinned(prior)
	l, err := cholesky(sub(info, free))
	if err != nil {
		return nil
	}
	grad := make([]float64, len(theta)-free)
	for i := range grad {
		g := math.Exp(theta[i+free])
		grad[i] = credit[i+free] + prior/2 - g*(denom[i+free]+prior/(g+1))
	}
	step := solve(l, grad)
	next := slices.Clone(theta)
	for i, d := range step {
		next[i+free] += d
	}
	return next
}

// logLikelihood is the log-likelihood of θ, with the prior's virtual draws.
func (t *table) logLikelihood(theta []float64, prior float64) float64 {
	gamma := exps(theta)
	var ll float64
	buf := newSeats()
	for _, o := range t.outcomes {
		str := o.strengths(gamma, buf)
		var rest float64
		for _, x := range str {
			rest += x
		}
		var m float64
		o.groups(func(start int, members [][]int, later bool) {
			var group float64
			for u := range members {
				x := str[start+u]
				group += x
				m += float64(stages(len(members), later)) / float64(len(members)) * logStrength(theta, members[u], x)
			}
			rest -= group
			for l := range stages(len(members), later) {
				m -= math.Log(rest + share(l, len(members))*group)
			}
		})
		ll += o.count * m
	}
	for _, th := range theta {
		// A draw with the reference: log(γ^½ / (γ+1)), kept finite for
		// large θ.
		ll += prior * (th/2 - max(th, 0) - math.Log1p(math.Exp(-math.Abs(th))))
	}
	return ll
}

// logStrength is the log of a team's strength x: a player alone's θ
// itself, so that a team of one loses no precision to exp and log.
func logStrength(theta []float64, unit []int, x float64) float64 {
	if len(unit) == 1 {
		return theta[unit[0]]
	}
	return math.Log(x)
}

// exps returns e^θ for each θ: the strengths.
func exps(theta []float64) []float64 {
	gamma := make([]float64, len(theta))
	for i, th := range theta {
		gamma[i] = math.Exp(th)
	}
	return gamma
}

// information returns the observed information in θ, minus the Hessian of
// the log-likelihood. In the teams' log-strengths φ each choice among
// teams with probabilities p adds diag(p) - p·pᵀ; a member's share of its
// team, w = γi/Γ, carries it to θ (∂φ/∂θi = wi), and the curvature of φ
// itself, diag(w) - w·wᵀ within a team, adds minus the team's gradient
// times it. Each virtual draw adds q(1-q) with q = γ/(γ+1).
func (t *table) information(theta []float64, prior float64) [][]float64 {
	n := len(t.players)
	gamma := exps(theta)
	info := make([][]float64, n)
	for i := range info {
		info[i] = make([]float64, n)
		q := gamma[i] / (gamma[i] + 1)
		info[i][i] = prior * q * (1 - q)
	}
	p, buf, w, d := newSeats(), newSeats(), newSeats(), newSeats()
	for _, o := range t.outcomes {
		str := o.strengths(gamma, buf)
		// add adds x·wi·wj for every member i of team a and j of team b.
		add := func(a, b int, x float64) {
			for _, i := range o.units[a] {
				for _, j := range o.units[b] {
					info[i][j] += x * gamma[i] / str[a] * gamma[j] / str[b]
				}
			}
		}
		o.groups(func(start int, members [][]int, later bool) {
			m := len(members)
			running := len(o.units) - start
			for l := range stages(m, later) {
				var total float64
				for s := range running {
					p[s] = str[start+s]
					if s < m {
						p[s] *= share(l, m)
					}
					total += p[s]
				}
				for s := range running {
					p[s] /= total
				}
				for s := range running {
					add(start+s, start+s, o.count*p[s])
					for u := range running {
						add(start+s, start+u, -o.count*p[s]*p[u])
					}
				}
			}
		})
		won, denom := o.teamScores(str, w, d)
		for u, unit := range o.units {
			if len(unit) == 1 {
				continue // a team of one has no curvature of its own
			}
			g := o.count * (won[u] - str[u]*denom[u])
			for _, i := range unit {
				wi := gamma[i] / str[u]
				info[i][i] -= g * wi
				for _, j := range unit {
					info[i][j] += g * wi * gamma[j] / str[u]
				}
			}
		}
	}
	// The sums above round i,j and j,i apart. Cholesky reads the lower
	// triangle only; the upper one is made its mirror, so that the
	// lower triangle is all a saved fit needs (encodeState) to give the
	// same updates, to the bit, as the fit it was saved from.
	for i := range info {
		for j := range i {
			info[j][i] = info[i][j]
		}
	}
	return info
}

// sub returns a without its first free rows and columns.
func sub(a [][]float64, free int) [][]float64 {
	s := make([][]float64, len(a)-free)
	for i := range s {
		s[i] = a[i+free][free:]
	}
	return s
}

// covariance returns the covariance of the log-strengths relative to their
// mean: the inverse of the information (with the pinned player fixed),
// then centred.
func covariance(info [][]float64, prior float64) ([][]float64, error) {
	free := pinned(prior)
	l, err := cholesky(sub(info, free))
	if err != nil {
		return nil, err
	}
	n := len(info)
	cov := make([][]float64, n)
	for i := range cov {
		cov[i] = make([]float64, n)
	}
	e := make([]float64, n-free)
	for c := range e {
		clear(e)
		e[c] = 1
		for i, x := range solve(l, e) {
			cov[i+free][c+free] = x
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

// cholesky returns the lower triangular L with a = L·Lᵀ, or an error when
// a is not positive definite.
func cholesky(a [][]float64) ([][]float64, error) {
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
	return l, nil
}

// solve returns x with L·Lᵀ·x = b.
func solve(l [][]float64, b []float64) []float64 {
	n := len(l)
	x := make([]float64, n)
	for i := range n {
		s := b[i]
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
	return x
}

// ratings puts the fitted log-strengths on the rating scale, best first.
func (t *table) ratings(theta []float64, cov [][]float64) *RatingFit {
	n := len(t.players)
	f := &RatingFit{Ratings: make([]Rating, n), index: make(map[string]int, n), theta: make([]float64, n), cov: cov}
	var mean float64
	for _, th := range theta {
		mean += th
	}
	if n > 0 {
		mean /= float64(n)
	}
	for i, p := range t.players {
		f.theta[i] = theta[i] - mean
		f.index[p] = i
		r := eloMean + eloScale*f.theta[i]
		f.Ratings[i] = Rating{Player: p, Rating: r, CI: around(r, eloScale*math.Sqrt(max(0, cov[i][i]))), Matches: t.matches[i]}
	}
	slices.SortStableFunc(f.Ratings, func(a, b Rating) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.Player, b.Player))
	})
	return f
}
