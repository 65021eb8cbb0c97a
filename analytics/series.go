package analytics

import (
	"cmp"
	"math"
	"slices"

	"github.com/replaylab/replaylab/store"
)

// Line is one player's, or one unit's, value of a metric at every turn.
type Line struct {
	Seat int
	Unit int // sim.NoUnit for the player as a whole
	// Values[t] is the value after turn t, for t in 0..turns; NaN where
	// the match reported no row (a unit that did not exist at that turn).
	// In a line from Downsample, Values[i] is the value after Turns[i].
	Values []float64
	// Turns is nil but in lines from Downsample: the turns of Values, in
	// increasing order.
	Turns []int
}

// Lines groups the points of one metric into one Line per seat and unit,
// ordered by seat then unit. Points may come in any order; points outside
// turns 0..turns are ignored. Indexing by turn rather than appending keeps
// every line aligned with the turn axis even when a unit has gaps.
func Lines(points []store.Point, turns int) []Line {
	type key struct{ seat, unit int }
	index := map[key]int{}
	var lines []Line
	for _, p := range points {
		if p.Turn < 0 || p.Turn > turns {
			continue
		}
		k := key{p.Seat, p.Unit}
		i, ok := index[k]
		if !ok {
			i = len(lines)
			index[k] = i
			vs := make([]float64, turns+1)
			for t := range vs {
				vs[t] = math.NaN()
			}
			lines = append(lines, Line{Seat: p.Seat, Unit: p.Unit, Values: vs})
		}
		lines[i].Values[p.Turn] = p.Value
	}
	slices.SortFunc(lines, func(a, b Line) int {
		return cmp.Or(cmp.Compare(a.Seat, b.Seat), cmp.Compare(a.Unit, b.Unit))
	})
	return lines
}
