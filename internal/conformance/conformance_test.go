package conformance_test

import (
	"testing"

	"github.com/replaylab/replaylab/internal/conformance"
	"github.com/replaylab/replaylab/sim/games"
)

// TestGames runs the suite over every registered game: a new game is under
// test as soon as it is in the registry.
func TestGames(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			t.Parallel()
			conformance.Check(t, g)
		})
	}
}
