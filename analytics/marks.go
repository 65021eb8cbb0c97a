package analytics

import (
	"cmp"
	"maps"
	"slices"
)

// MarkKinds picks the kinds of event worth marking on a match's per-turn
// charts from the number of events of each kind, so that together they
// are at most limit events. It needs the counts only, not the events: a
// long match has millions of those, the charts a few hundred marks.
//
// An event kind that happens on more than a tenth of the turns (toad
// spawns, a worm's every move) is the match's weather, not a moment to look
// at: dozens of pins hide the line and each other, so such kinds are left
// out, except that a kind seen at most ten times is always a candidate,
// whatever the match length. If more than limit events remain, the most
// frequent kinds are dropped first, so the rare ones (a death, a win, a
// crash) stay.
func MarkKinds(counts map[string]int, turns, limit int) []string {
	frequent := max(10, turns/10)
	kinds := slices.Collect(maps.Keys(counts))
	kinds = slices.DeleteFunc(kinds, func(k string) bool { return counts[k] > frequent })
	// Rarest first; ties by name so the choice does not depend on map order.
	slices.SortFunc(kinds, func(a, b string) int { return cmp.Or(cmp.Compare(counts[a], counts[b]), cmp.Compare(a, b)) })
	total := 0
	for i, k := range kinds {
		if total+counts[k] > limit {
			return kinds[:i]
		}
		total += counts[k]
	}
	return kinds
}
