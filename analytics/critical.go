package analytics

import (
	"cmp"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// outcomeOrder orders outcomes from worst to best for a seat.
var outcomeOrder = map[sim.Outcome]int{sim.Loss: 1, sim.Draw: 2, sim.Win: 3}

// CompareResults says how a fork's result for a seat compares with the
// recorded one: +1 when the fork does better (a better outcome, or the
// same outcome at a better rank), -1 when it does worse, 0 when the
// outcome and rank are the same, whatever the score: a critical sweep
// looks for the turns that change how the match ended for the seat.
func CompareResults(recorded, fork sim.PlayerResult) int {
	if c := cmp.Compare(outcomeOrder[fork.Outcome], outcomeOrder[recorded.Outcome]); c != 0 {
		return c
	}
	return cmp.Compare(recorded.Rank, fork.Rank) // rank 1 is the best
}

// SweptTurn is what a critical sweep found at one turn: Forks of the Of
// forks the sweep plays there were played (fewer when a sweep was cut
// short in the middle of the turn), Better and Worse of them change the
// seat's outcome or rank one way or the other.
type SweptTurn struct {
	Turn                     int
	Forks, Of, Better, Worse int
}

// Changes is how many forks of the turn change the seat's outcome or rank.
func (t SweptTurn) Changes() int { return t.Better + t.Worse }

// SweptTurns counts the forks of a sweep turn by turn against the seat's
// recorded result, in turn order; forks must come in turn order. Turns
// with no fork played are not in it: unswept is not unchanged.
func SweptTurns(recorded sim.PlayerResult, forks []store.ForkResult) []SweptTurn {
	var turns []SweptTurn
	for _, f := range forks {
		if n := len(turns); n == 0 || turns[n-1].Turn != f.Turn {
			turns = append(turns, SweptTurn{Turn: f.Turn, Of: f.TurnForks})
		}
		t := &turns[len(turns)-1]
		t.Forks++
		switch CompareResults(recorded, f.Result) {
		case 1:
			t.Better++
		case -1:
			t.Worse++
		}
	}
	return turns
}
