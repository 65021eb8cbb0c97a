package analytics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/replaylab/replaylab/store"
)

// ErrNoMatches means a side of a comparison has no match to compare.
var ErrNoMatches = errors.New("no matches")

// WinRateDifference returns the win rate of A (winsA of nA matches) minus
// that of B, with Newcombe's (1998) hybrid score 95% interval, his method
// 10: each rate's Wilson interval bounds how far it may stray, and the two
// distances combine as independent errors do. Unlike the textbook
// difference ± z·√(pA(1-pA)/nA + pB(1-pB)/nB), it stays inside [-1, 1] and
// does not collapse when a bot won all or none of its matches. A side with
// no match gives an error wrapping ErrNoMatches.
func WinRateDifference(winsA, nA, winsB, nB int) (float64, Interval, error) {
	if nA <= 0 || nB <= 0 {
		return 0, Interval{}, fmt.Errorf("win-rate difference: %w", ErrNoMatches)
	}
	pA, pB := float64(winsA)/float64(nA), float64(winsB)/float64(nB)
	a, b := Wilson(winsA, nA), Wilson(winsB, nB)
	d := pA - pB
	return d, Interval{
		Low:  d - math.Hypot(pA-a.Low, b.High-pB),
		High: d + math.Hypot(a.High-pA, pB-b.Low),
	}, nil
}

// BotVersion names one version of a bot.
type BotVersion struct {
	Name, Version string
}

// SeedPair is a seed both bots played with their seats exchanged: match A is
// A's, match B the same game, ruleset, seed and config with B in the seats
// A held, and A in those B held if A's match had B in it (the head-to-head
// "same seed, seats swapped" case); every other seat holds the same bot.
// The seats the bots exchanged are the only difference between the two
// lineups, so comparing A's result in A with B's result in B, in the same
// seats, leaves the seed's luck and the seat's advantage out.
type SeedPair struct {
	Seed         uint64
	A, B         string // match ids
	Seats        []int  // A's seats in match A, B's in match B
	ARank, BRank int    // best rank over those seats
	AScore       float64
	BScore       float64
	// Better is 1 when A did better (a better rank, or the same rank and a
	// higher score), -1 when B did, 0 when they did the same.
	Better int
}

// Pairs finds the pairs among A's and B's matches, which must all be of
// one game and ruleset, in the order of aMatches. A match takes part in
// one pair at most. When both matches of a pair hold both bots, the pair
// is counted once, from the match in which A sits in the lower seat. A
// match in which A and B played on one team is no pair: exchanging their
// seats leaves the team, and so its result, as it was.
func Pairs(a, b BotVersion, aMatches, bMatches []store.Lineup) []SeedPair {
	var key []byte // one buffer for every key: a map lookup of string(key) copies nothing
	byLineup := make(map[string][]int, len(bMatches))
	for i, m := range bMatches {
		key = lineupKey(key[:0], m, func(p BotVersion) BotVersion { return p })
		byLineup[string(key)] = append(byLineup[string(key)], i)
	}
	swap := func(p BotVersion) BotVersion {
		switch p {
		case a:
			return b
		case b:
			return a
		}
		return p
	}
	used := make([]bool, len(bMatches))
	var ps []SeedPair
	for _, m := range aMatches {
		seatsA, seatsB := seatsOf(m, a), seatsOf(m, b)
		if len(seatsA) == 0 || (len(seatsB) > 0 && seatsB[0] < seatsA[0]) || teamMates(m, seatsA, seatsB) {
			continue
		}
		key = lineupKey(key[:0], m, swap)
		cands := byLineup[string(key)]
		j := slices.IndexFunc(cands, func(i int) bool { return !used[i] })
		if j < 0 {
			continue
		}
		o := bMatches[cands[j]]
		used[cands[j]] = true
		p := SeedPair{Seed: m.Seed, A: m.ID, B: o.ID, Seats: seatsA}
		p.ARank, p.AScore = best(m, seatsA)
		p.BRank, p.BScore = best(o, seatsA)
		switch {
		case p.ARank < p.BRank || (p.ARank == p.BRank && p.AScore > p.BScore):
			p.Better = 1
		case p.ARank > p.BRank || (p.ARank == p.BRank && p.AScore < p.BScore):
			p.Better = -1
		}
		ps = append(ps, p)
	}
	return ps
}

// lineupKey appends to key what identifies a match's seed, config and
// lineup, each seat's bot passed through as first. Every text is
// preceded by its length, so no two lineups share a key.
func lineupKey(key []byte, m store.Lineup, as func(BotVersion) BotVersion) []byte {
	text := func(s string) {
		key = binary.AppendUvarint(key, uint64(len(s)))
		key = append(key, s...)
	}
	key = binary.AppendUvarint(key, m.Seed)
	text(m.Config)
	for _, s := range m.Seats {
		v := as(BotVersion{s.Name, s.Version})
		text(v.Name)
		text(v.Version)
	}
	return key
}

// seatsOf returns the seats v holds in m, in increasing order.
func seatsOf(m store.Lineup, v BotVersion) []int {
	var seats []int
	for i, s := range m.Seats {
		if s.Name == v.Name && s.Version == v.Version {
			seats = append(seats, i)
		}
	}
	return seats
}

// teamMates reports whether a seat of seatsA and one of seatsB played on
// one team in m.
func teamMates(m store.Lineup, seatsA, seatsB []int) bool {
	for _, sa := range seatsA {
		for _, sb := range seatsB {
			if m.Seats[sa].Team == m.Seats[sb].Team {
				return true
			}
		}
	}
	return false
}

// best returns the best rank, and the best score at it, over the given
// seats of m.
func best(m store.Lineup, seats []int) (rank int, score float64) {
	for i, seat := range seats {
		s := m.Seats[seat]
		if i == 0 || s.Rank < rank || (s.Rank == rank && s.Score > score) {
			rank, score = s.Rank, s.Score
		}
	}
	return rank, score
}

// Tally counts the pairs in which A did better, B did better, and neither.
func Tally(ps []SeedPair) (aBetter, bBetter, even int) {
	for _, p := range ps {
		switch p.Better {
		case 1:
			aBetter++
		case -1:
			bBetter++
		default:
			even++
		}
	}
	return aBetter, bBetter, even
}

// Spread summarizes a sample of numbers as a box plot does: the lowest,
// the quartiles, the median and the highest, and its mean.
type Spread struct {
	N                        int
	Min, Q1, Median, Q3, Max float64
	Mean                     float64
}

// Summarize returns the spread of values, NaN ones left out. Quartiles
// interpolate between the two nearest order statistics (Hyndman and Fan's
// type 7, as R and NumPy compute them by default). With no value left
// the error wraps ErrNoMatches.
func Summarize(values []float64) (Spread, error) {
	vs := slices.DeleteFunc(slices.Clone(values), math.IsNaN)
	if len(vs) == 0 {
		return Spread{}, fmt.Errorf("summarize: %w", ErrNoMatches)
	}
	slices.Sort(vs)
	var sum float64
	for _, v := range vs {
		sum += v
	}
	quantile := func(q float64) float64 {
		h := q * float64(len(vs)-1)
		lo := int(h)
		if lo+1 >= len(vs) {
			return vs[lo]
		}
		return vs[lo] + (h-float64(lo))*(vs[lo+1]-vs[lo])
	}
	return Spread{N: len(vs), Min: vs[0], Q1: quantile(0.25), Median: quantile(0.5), Q3: quantile(0.75),
		Max: vs[len(vs)-1], Mean: sum / float64(len(vs))}, nil
}

// Final returns the last value of a line that is not NaN, and false when
// every value is NaN.
func Final(values []float64) (float64, bool) {
	for i := len(values) - 1; i >= 0; i-- {
		if !math.IsNaN(values[i]) {
			return values[i], true
		}
	}
	return 0, false
}

// Curve accumulates lines of one metric, turn by turn, for their mean
// and its interval. It keeps running moments (Welford's update, which
// does not lose the variance of large values to cancellation), not the
// lines, so its size is the longest line's.
type Curve struct {
	mean, m2 []float64
	n        []int
}

// Add adds a line whose value at turn t is values[t]; NaN values (no row
// that turn) are left out.
func (c *Curve) Add(values []float64) {
	for len(c.n) < len(values) {
		c.mean, c.m2, c.n = append(c.mean, 0), append(c.m2, 0), append(c.n, 0)
	}
	for t, v := range values {
		if math.IsNaN(v) {
			continue
		}
		c.n[t]++
		delta := v - c.mean[t]
		c.mean[t] += delta / float64(c.n[t])
		c.m2[t] += delta * (v - c.mean[t])
	}
}

// Band is a mean curve at some turns with its 95% band: at Turns[i] the
// mean of N[i] lines is Mean[i], and the interval of that mean is Low[i]
// to High[i].
type Band struct {
	Turns           []int
	Mean, Low, High []float64
	N               []int
}

// Band returns the mean at every turn some line has a value, with the
// normal 95% interval of the mean, mean ± z·s/√n; a turn with one line
// has no spread to measure and its interval is the mean alone. Like a
// match chart it is bounded for drawing: beyond maxPoints turns the mean
// is downsampled as Downsample does, keeping each bucket's lowest and
// highest mean, and the band at the turns kept.
func (c *Curve) Band(maxPoints int) Band {
	mean := make([]float64, len(c.n))
	for t, n := range c.n {
		mean[t] = math.NaN()
		if n > 0 {
			mean[t] = c.mean[t]
		}
	}
	d := Downsample(Line{Unit: -1, Values: mean}, maxPoints)
	turns := d.Turns
	if turns == nil {
		turns = make([]int, len(mean))
		for t := range turns {
			turns[t] = t
		}
	}
	var b Band
	for _, t := range turns {
		n := c.n[t]
		if n == 0 {
			continue
		}
		m, half := mean[t], 0.0
		if n > 1 {
			half = z95 * math.Sqrt(c.m2[t]/float64(n-1)/float64(n))
		}
		b.Turns = append(b.Turns, t)
		b.Mean = append(b.Mean, m)
		b.Low = append(b.Low, m-half)
		b.High = append(b.High, m+half)
		b.N = append(b.N, n)
	}
	return b
}
