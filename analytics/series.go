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

// Lines turns a metric's stored lines into lines of turns 0..turns,
// ordered by seat then unit: a stored line longer than that is cut, a
// shorter one padded with NaN (no value at that turn), so every line stays
// aligned with the turn axis.
func Lines(stored []store.Line, turns int) []Line {
	lines := make([]Line, len(stored))
	for i, l := range stored {
		vs := make([]float64, turns+1)
		n := copy(vs, l.Values)
		for t := n; t < len(vs); t++ {
			vs[t] = math.NaN()
		}
		lines[i] = Line{Seat: l.Seat, Unit: l.Unit, Values: vs}
	}
	slices.SortFunc(lines, func(a, b Line) int {
		return cmp.Or(cmp.Compare(a.Seat, b.Seat), cmp.Compare(a.Unit, b.Unit))
	})
	return lines
}
