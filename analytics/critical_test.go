package analytics

import (
	"reflect"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

func TestCompareResults(t *testing.T) {
	r := func(o sim.Outcome, rank int, score float64) sim.PlayerResult {
		return sim.PlayerResult{Outcome: o, Rank: rank, Score: score}
	}
	tests := []struct {
		name           string
		recorded, fork sim.PlayerResult
		want           int
	}{
		{"a loss saved", r(sim.Loss, 1, 0), r(sim.Win, 1, 5), 1},
		{"a win lost", r(sim.Win, 1, 5), r(sim.Loss, 1, 0), -1},
		{"a draw won", r(sim.Draw, 1, 3), r(sim.Win, 1, 3), 1},
		{"a better place in a loss", r(sim.Loss, 4, 10), r(sim.Loss, 2, 8), 1},
		{"a worse place in a loss", r(sim.Loss, 2, 10), r(sim.Loss, 3, 12), -1},
		{"another score only", r(sim.Loss, 3, 261), r(sim.Loss, 3, 300), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CompareResults(tt.recorded, tt.fork); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func TestSweptTurns(t *testing.T) {
	fork := func(turn, of int, o sim.Outcome, rank int) store.ForkResult {
		return store.ForkResult{Turn: turn, TurnForks: of, Result: sim.PlayerResult{Outcome: o, Rank: rank}}
	}
	recorded := sim.PlayerResult{Outcome: sim.Loss, Rank: 2}
	forks := []store.ForkResult{
		fork(1, 3, sim.Win, 1), fork(1, 3, sim.Loss, 2), fork(1, 3, sim.Loss, 3),
		fork(4, 2, sim.Loss, 2), fork(4, 2, sim.Loss, 2),
		fork(9, 4, sim.Draw, 1), // a turn half played
	}
	want := []SweptTurn{
		{Turn: 1, Forks: 3, Of: 3, Better: 1, Worse: 1},
		{Turn: 4, Forks: 2, Of: 2},
		{Turn: 9, Forks: 1, Of: 4, Better: 1},
	}
	if got := SweptTurns(recorded, forks); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
