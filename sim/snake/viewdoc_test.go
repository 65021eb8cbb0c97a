package snake

import (
	"testing"

	"github.com/replaylab/replaylab/internal/viewdoc"
	"github.com/replaylab/replaylab/sim"
)

// TestViewDoc holds viewDoc and its legend to the boards of whole matches
// of both rulesets, greedy and random snakes together so that every kind
// of part shows: dead heads, fury, flight, sleeping snakes in their pens.
func TestViewDoc(t *testing.T) {
	var plays []viewdoc.Play
	for _, rs := range Game.Rulesets {
		for seed := range uint64(2) {
			plays = append(plays,
				viewdoc.Play{Setup: sim.Setup{Ruleset: rs, Seed: seed, Players: 5}, Bots: []string{"greedy", "random"}},
				viewdoc.Play{Setup: sim.Setup{Ruleset: rs, Seed: seed, Players: 2}, Bots: []string{"random", "greedy"}})
		}
	}
	viewdoc.Check(t, Game, plays...)
}
