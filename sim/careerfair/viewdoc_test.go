package careerfair

import (
	"testing"

	"github.com/replaylab/replaylab/internal/viewdoc"
	"github.com/replaylab/replaylab/sim"
)

// TestViewDoc holds viewDoc to whole matches of both rulesets on the
// default board, where the team bots walk, queue and are served.
func TestViewDoc(t *testing.T) {
	viewdoc.Check(t, Game,
		viewdoc.Play{Setup: sim.Setup{Ruleset: rulesetAWAP, Seed: 1, Players: 2}, Bots: []string{"replace", "greedy"}},
		viewdoc.Play{Setup: sim.Setup{Ruleset: rulesetRunner, Seed: 1, Players: 1}, Bots: []string{"greedy"}})
}
