package toad

import (
	"testing"

	"github.com/replaylab/replaylab/internal/viewdoc"
	"github.com/replaylab/replaylab/sim"
)

// TestViewDoc holds viewDoc to real views: the A* bot's wins and the
// random bot's deaths (the dead toad's X), with and without strict_hp.
func TestViewDoc(t *testing.T) {
	var plays []viewdoc.Play
	for seed := range uint64(3) {
		for _, bot := range []string{"astar", "random"} {
			plays = append(plays,
				viewdoc.Play{Setup: sim.Setup{Seed: seed, Players: 1}, Bots: []string{bot}},
				viewdoc.Play{Setup: sim.Setup{Seed: seed, Players: 1, Config: []byte(`{"strict_hp":true}`)}, Bots: []string{bot}})
		}
	}
	viewdoc.Check(t, Game, plays...)
}
