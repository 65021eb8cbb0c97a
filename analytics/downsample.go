package analytics

import "math"

// Downsample bounds a line for drawing: a line of at most maxPoints values
// comes back as it is; a longer one is cut into maxPoints/2 buckets of
// consecutive turns, each kept as its lowest and its highest value, in turn
// order, with their real turns in Turns. Keeping both extremes, where a mean
// or a stride would smooth them away, keeps every spike of a long match on
// the chart, and a bucket is far narrower than a pixel at any useful bound.
//
// A value that is NaN (no row that turn) is never a bucket's extreme, so a
// bucket with any value yields no NaN; a bucket with none yields one NaN at
// its first turn, which the chart draws as a gap (one for a run of such
// buckets). maxPoints below 2 counts as 2.
func Downsample(l Line, maxPoints int) Line {
	maxPoints = max(maxPoints, 2)
	n := len(l.Values)
	if n <= maxPoints || l.Turns != nil {
		return l
	}
	buckets := maxPoints / 2
	out := Line{Seat: l.Seat, Unit: l.Unit, Turns: make([]int, 0, 2*buckets), Values: make([]float64, 0, 2*buckets)}
	keep := func(turn int) {
		out.Turns = append(out.Turns, turn)
		out.Values = append(out.Values, l.Values[turn])
	}
	for b := range buckets {
		// Bucket b is turns lo..hi-1; the buckets cover 0..n-1 exactly
		// and differ in length by at most one turn.
		lo, hi := b*n/buckets, (b+1)*n/buckets
		lowest, highest := -1, -1
		for t := lo; t < hi; t++ {
			v := l.Values[t]
			if math.IsNaN(v) {
				continue
			}
			if lowest < 0 || v < l.Values[lowest] {
				lowest = t
			}
			if highest < 0 || v > l.Values[highest] {
				highest = t
			}
		}
		switch {
		case lowest < 0:
			if k := len(out.Values); k == 0 || !math.IsNaN(out.Values[k-1]) {
				keep(lo)
			}
		case lowest == highest:
			keep(lowest)
		default:
			keep(min(lowest, highest))
			keep(max(lowest, highest))
		}
	}
	return out
}
