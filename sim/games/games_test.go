package games_test

import (
	"slices"
	"testing"

	"github.com/replaylab/replaylab/sim/games"
)

// TestRevisions checks every game's rules revisions: each names one of the
// game's rulesets and counts from 1, as replay headers do.
func TestRevisions(t *testing.T) {
	for _, g := range games.All() {
		for rs, rev := range g.Revisions {
			if !slices.Contains(g.Rulesets, rs) {
				t.Errorf("%s: revision of unknown ruleset %q", g.Name, rs)
			}
			if rev < 1 {
				t.Errorf("%s/%s: revision %d, want at least 1", g.Name, rs, rev)
			}
		}
	}
}

// TestViewDocs checks that every game explains its bot view, which each
// game's own TestViewDoc holds to real views: a new game cannot leave bot
// authors without it.
func TestViewDocs(t *testing.T) {
	for _, g := range games.All() {
		if len(g.View.Fields) == 0 {
			t.Errorf("%s: no view fields documented (sim.Game.View; see internal/viewdoc)", g.Name)
		}
	}
}
