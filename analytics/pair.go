package analytics

import (
	"cmp"
	"math"
	"slices"

	"github.com/replaylab/replaylab/store"
)

// t975 holds the 0.975 quantile of Student's t distribution for 1 to 30
// degrees of freedom (t975[df-1]), to ten significant digits.
var t975 = [...]float64{
	12.70620474, 4.302652730, 3.182446305, 2.776445105, 2.570581836,
	2.446911851, 2.364624252, 2.306004135, 2.262157163, 2.228138852,
	2.200985160, 2.178812830, 2.160368656, 2.144786688, 2.131449546,
	2.119905299, 2.109815578, 2.100922040, 2.093024054, 2.085963447,
	2.079613845, 2.073873068, 2.068657610, 2.063898562, 2.059538553,
	2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
}

// tQuantile95 returns the critical value of a two-sided 95% Student t
// interval with df ≥ 1 degrees of freedom: from the table up to 30, and
// beyond from the Cornish–Fisher expansion of t around the normal
// quantile, whose four terms are already within 1e-6 of the exact value
// at 30 and closer the larger df.
func tQuantile95(df int) float64 {
	if df <= len(t975) {
		return t975[df-1]
	}
	z, n := z95, float64(df)
	z2 := z * z
	g1 := z * (z2 + 1) / 4
	g2 := z * ((5*z2+16)*z2 + 3) / 96
	g3 := z * (((3*z2+19)*z2+17)*z2 - 15) / 384
	g4 := z * ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) / 92160
	return z + g1/n + g2/(n*n) + g3/(n*n*n) + g4/(n*n*n*n)
}

// Pair is how one bot version did against another, from its own side: a
// cell of a head-to-head matrix.
type Pair struct {
	Meetings            int
	Wins, Draws, Losses int
	// WinShare is (Wins + Draws/2) / Meetings, the share of the points a
	// win-draw-loss score gives; 0 when they never met.
	WinShare float64
	// MeanDiff is the mean of this bot's score minus the other's; 0 when
	// they never met.
	MeanDiff float64
	// DiffCI is the Student t 95% interval of MeanDiff. With fewer than
	// two meetings there is no interval and HasCI is false.
	DiffCI Interval
	HasCI  bool
}

// Meetings turns a pair record into its two sides: A against B and B
// against A.
func Meetings(r store.PairRecord) (ab, ba Pair) {
	ab = Pair{Meetings: r.Meetings, Wins: r.AWins, Draws: r.Draws, Losses: r.BWins}
	if r.Meetings == 0 {
		return ab, ab
	}
	n := float64(r.Meetings)
	ab.WinShare = (float64(r.AWins) + float64(r.Draws)/2) / n
	ab.MeanDiff = r.DiffSum / n
	if r.Meetings >= 2 {
		// The sums come from SQL, added in any order; rounding can leave a
		// variance of a hair below 0 where every difference is equal.
		variance := max(0, (r.DiffSqSum-r.DiffSum*r.DiffSum/n)/(n-1))
		half := tQuantile95(r.Meetings-1) * math.Sqrt(variance/n)
		ab.DiffCI, ab.HasCI = Interval{ab.MeanDiff - half, ab.MeanDiff + half}, true
	}
	// 0 - x, not -x: a level record must read 0 from both sides, not -0.
	ba = Pair{Meetings: ab.Meetings, Wins: ab.Losses, Draws: ab.Draws, Losses: ab.Wins,
		WinShare: 1 - ab.WinShare, MeanDiff: 0 - ab.MeanDiff, DiffCI: Interval{0 - ab.DiffCI.High, 0 - ab.DiffCI.Low}, HasCI: ab.HasCI}
	return ab, ba
}

// Matrix is the head-to-head board of a game under one ruleset as a
// square of cells: Cells[i][j] is how Bots[i] did against Bots[j]. A
// pair that never met, and the diagonal, have no meetings.
type Matrix struct {
	Game, Ruleset string
	Bots          []store.BotVersion // most meetings first, until ByRating
	TotalBots     int                // versions that met another, of which Bots are the first
	Cells         [][]Pair
	// Ratings are the Bots' ratings, set by ByRating; NaN for a version
	// the fit has not rated.
	Ratings []float64
}

// ByRating orders the board's versions by the fit's ratings, the best
// first, as the leaderboard lists them; versions without a rating follow
// in their order (most meetings first). The board keeps its versions:
// the fit only orders them.
func (m Matrix) ByRating(fit []store.BotRating) Matrix {
	rating := make(map[[2]string]float64, len(fit))
	for _, r := range fit {
		rating[[2]string{r.Name, r.Version}] = r.Rating
	}
	ratings := make([]float64, len(m.Bots))
	order := make([]int, len(m.Bots))
	for i, b := range m.Bots {
		order[i] = i
		r, ok := rating[[2]string{b.Name, b.Version}]
		if !ok {
			r = math.NaN()
		}
		ratings[i] = r
	}
	slices.SortStableFunc(order, func(i, j int) int {
		ri, rj := ratings[i], ratings[j]
		switch {
		case math.IsNaN(ri) || math.IsNaN(rj):
			return cmp.Compare(b2i(math.IsNaN(ri)), b2i(math.IsNaN(rj)))
		default:
			return cmp.Compare(rj, ri)
		}
	})
	out := Matrix{Game: m.Game, Ruleset: m.Ruleset, TotalBots: m.TotalBots,
		Bots: make([]store.BotVersion, len(order)), Cells: make([][]Pair, len(order)), Ratings: make([]float64, len(order))}
	for i, oi := range order {
		out.Bots[i], out.Ratings[i] = m.Bots[oi], ratings[oi]
		out.Cells[i] = make([]Pair, len(order))
		for j, oj := range order {
			out.Cells[i][j] = m.Cells[oi][oj]
		}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// NewMatrix lays out a head-to-head board.
func NewMatrix(h store.HeadToHead) Matrix {
	m := Matrix{Game: h.Game, Ruleset: h.Ruleset, Bots: h.Bots, TotalBots: h.TotalBots, Cells: make([][]Pair, len(h.Bots))}
	index := make(map[int64]int, len(h.Bots))
	for i, b := range h.Bots {
		index[b.ID] = i
		m.Cells[i] = make([]Pair, len(h.Bots))
	}
	for _, r := range h.Pairs {
		a, okA := index[r.A.ID]
		b, okB := index[r.B.ID]
		if okA && okB {
			m.Cells[a][b], m.Cells[b][a] = Meetings(r)
		}
	}
	return m
}
