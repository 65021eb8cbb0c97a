package tournament

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/snake"
)

// TestPlan checks on worked examples that every lineup plays
// every seed in every rotation: each bot sits in each seat on each seed as
// often as it has lineups.
func TestPlan(t *testing.T) {
	tests := []struct {
		name          string
		format        string
		bots, seats   int
		wantLineups   [][]int
		wantPerSeat   []int // per entrant: matches in each seat on each seed
		wantMatchesOf []int // per entrant: matches in all
	}{
		{"pairs", RoundRobin, 3, 2, [][]int{{0, 1}, {0, 2}, {1, 2}}, []int{2, 2, 2}, []int{8, 8, 8}},
		{"triples", RoundRobin, 4, 3, [][]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}, []int{3, 3, 3, 3}, []int{18, 18, 18, 18}},
		{"gauntlet pairs", Gauntlet, 4, 2, [][]int{{0, 1}, {0, 2}, {0, 3}}, []int{3, 1, 1, 1}, []int{12, 4, 4, 4}},
		{"gauntlet triples", Gauntlet, 4, 3, [][]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}}, []int{3, 2, 2, 2}, []int{18, 12, 12, 12}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Spec{Game: snake.Game, Config: json.RawMessage("{}"), Format: tt.format, Seeds: 2, SeedFrom: 5, Seats: tt.seats}
			for i := range tt.bots {
				s.Entrants = append(s.Entrants, Entrant{Spec: "builtin:random", Player: replay.Player{Name: "random", Version: strconv.Itoa(i)}})
			}
			tour, err := New(s)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(tour.Lineups); got != fmt.Sprint(tt.wantLineups) {
				t.Errorf("got lineups %s, want %s", got, fmt.Sprint(tt.wantLineups))
			}
			type at struct {
				seed          uint64
				entrant, seat int
			}
			count := map[at]int{}
			matchesOf := make([]int, tt.bots)
			keys := map[playedKey]bool{}
			for _, fx := range tour.Fixtures {
				keys[tour.keyOf(fx)] = true
				for s, e := range tour.Seated(fx) {
					count[at{fx.Seed, e, s}]++
					matchesOf[e]++
				}
			}
			if len(keys) != len(tour.Fixtures) {
				t.Errorf("got %d distinct matches among %d fixtures, want no repeats", len(keys), len(tour.Fixtures))
			}
			for seed := uint64(5); seed <= 6; seed++ {
				for e := range tt.bots {
					for s := range tt.seats {
						if got := count[at{seed, e, s}]; got != tt.wantPerSeat[e] {
							t.Errorf("seed %d, bot %d, seat %d: got %d matches, want %d", seed, e, s, got, tt.wantPerSeat[e])
						}
					}
				}
			}
			if fmt.Sprint(matchesOf) != fmt.Sprint(tt.wantMatchesOf) {
				t.Errorf("got matches per bot %v, want %v", matchesOf, tt.wantMatchesOf)
			}
		})
	}
}
