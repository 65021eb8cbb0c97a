package analytics

import (
	"cmp"
	"maps"
	"slices"

	"github.com/replaylab/replaylab/store"
)

// Marks picks the events of a match worth marking on its per-turn charts,
// in turn order, at most limit of them.
//
// An event kind that happens on more than a tenth of the turns (toad
// spawns, a worm's every move) is the match's weather, not a moment to look
// at: dozens of pins hide the line and each other, so such kinds are left
// out, except that a kind seen at most ten times is always kept, whatever
// the match length. If more than limit events remain, the most frequent
// kinds are dropped first, so the rare ones (a death, a win, a crash) stay.
func Marks(events []store.TurnEvent, turns, limit int) []store.TurnEvent {
	count := map[string]int{}
	for _, e := range events {
		count[e.Kind]++
	}
	frequent := max(10, turns/10)
	kinds := slices.Collect(maps.Keys(count))
	kinds = slices.DeleteFunc(kinds, func(k string) bool { return count[k] > frequent })
	// Rarest first; ties by name so the choice does not depend on map order.
	slices.SortFunc(kinds, func(a, b string) int { return cmp.Or(cmp.Compare(count[a], count[b]), cmp.Compare(a, b)) })
	keep := map[string]bool{}
	total := 0
	for _, k := range kinds {
		if total+count[k] > limit {
			break
		}
		keep[k] = true
		total += count[k]
	}
	marks := make([]store.TurnEvent, 0, total)
	for _, e := range events {
		if keep[e.Kind] {
			marks = append(marks, e)
		}
	}
	return marks
}
