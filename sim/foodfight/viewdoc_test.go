package foodfight

import (
	"testing"

	"github.com/replaylab/replaylab/internal/viewdoc"
	"github.com/replaylab/replaylab/sim"
)

// TestViewDoc holds viewDoc to whole matches of every match type: throwers
// against wanderers so that food is held, thrown, eaten and hits players,
// and players collide; dummies that tie, so the tie-break shows.
func TestViewDoc(t *testing.T) {
	var plays []viewdoc.Play
	for players := Game.MinPlayers; players <= Game.MaxPlayers; players++ {
		plays = append(plays, viewdoc.Play{Setup: sim.Setup{Seed: 1, Players: players}, Bots: []string{"thrower", "random", "walls"}})
	}
	plays = append(plays, viewdoc.Play{Setup: sim.Setup{Seed: 1, Players: 2}, Bots: []string{"dummy"}})
	viewdoc.Check(t, Game, plays...)
}
