package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/sim"
)

func TestMatch(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		before := time.Now().Truncate(time.Millisecond)
		won := makeRecord(t, recordSpec{id: testID(1), turns: 20, winner: 0})
		drawn := makeRecord(t, recordSpec{id: testID(2), turns: 7, winner: -1})
		mustIngest(t, db, won)
		mustIngest(t, db, drawn)
		after := time.Now()

		tests := []struct {
			rec     *Record
			winner  int
			players []PlayerSummary
		}{
			{won, 0, []PlayerSummary{
				{Seat: 0, Name: "alpha", Version: "1", Score: 0, Rank: 1, Outcome: sim.Win},
				{Seat: 1, Name: "beta", Version: "2", Score: 10, Rank: 2, Outcome: sim.Loss, Team: 1},
			}},
			{drawn, -1, []PlayerSummary{
				{Seat: 0, Name: "alpha", Version: "1", Score: 0, Rank: 1, Outcome: sim.Draw},
				{Seat: 1, Name: "beta", Version: "2", Score: 10, Rank: 1, Outcome: sim.Draw, Team: 1},
			}},
		}
		for _, tt := range tests {
			got, err := db.Match(ctx, tt.rec.ID)
			if err != nil {
				t.Fatalf("Match(%s): %v", tt.rec.ID, err)
			}
			if got.CreatedAt.Before(before) || got.CreatedAt.After(after) {
				t.Errorf("CreatedAt: got %v, want between %v and %v", got.CreatedAt, before, after)
			}
			if got.Seq < 1 {
				t.Errorf("Seq: got %d, want the match's number, 1 or more", got.Seq)
			}
			got.CreatedAt, got.Seq = time.Time{}, 0
			want := MatchSummary{
				ID:            tt.rec.ID,
				Game:          "worms",
				Ruleset:       "base",
				Seed:          1<<63 + 42,
				Config:        json.RawMessage(`{"map":"small"}`),
				Turns:         tt.rec.Turns,
				Winner:        tt.winner,
				Reason:        "test over",
				EngineVersion: "replaylab@test",
				RegenTime:     1500 * time.Microsecond,
				Players:       tt.players,
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Match(%s):\n got %+v\nwant %+v", tt.rec.ID, got, want)
			}
		}
	})
}

func TestMatchPrefix(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		idA := "abcdef01" + strings.Repeat("0", 56)
		idB := "abcdef01" + strings.Repeat("1", 56)
		idC := "abcdef02" + strings.Repeat("2", 56)
		for _, id := range []string{idA, idB, idC} {
			mustIngest(t, db, makeRecord(t, recordSpec{id: id, turns: 2, winner: 0}))
		}
		tests := []struct {
			name, id string
			want     string
			wantErr  error
		}{
			{"full id", idA, idA, nil},
			{"unique 8-digit prefix", "abcdef02", idC, nil},
			{"upper case", "ABCDEF02", idC, nil},
			{"longer prefix", "abcdef011", idB, nil},
			{"ambiguous", "abcdef01", "", ErrAmbiguous},
			{"not found", "12345678", "", ErrNotFound},
			{"full id not found", strings.Repeat("9", 64), "", ErrNotFound},
			{"too short", "abcdef0", "", ErrInvalid},
			{"too long", idA + "0", "", ErrInvalid},
			{"not hex", "abcdefgh", "", ErrInvalid},
			{"LIKE wildcard", "abcdef0%", "", ErrInvalid},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := db.Match(ctx, tt.id)
				if tt.wantErr != nil {
					if !errors.Is(err, tt.wantErr) {
						t.Errorf("Match(%q): got %v, want %v", tt.id, err, tt.wantErr)
					}
					return
				}
				if err != nil || got.ID != tt.want {
					t.Errorf("Match(%q): got %q, %v; want %q, nil", tt.id, got.ID, err, tt.want)
				}
			})
		}
	})
}

// ingestLeague stores four matches (ids testID(1..4), ingested in that
// order) for the filter and leaderboard tests:
//
//	1 worms  alpha/1 beta/2   alpha wins
//	2 worms  alpha/2 beta/2   beta wins
//	3 snake  alpha/1 gamma/1  draw
//	4 worms  beta/2  alpha/1  beta wins
func ingestLeague(t *testing.T, db *DB) {
	t.Helper()
	specs := []recordSpec{
		{game: "worms", players: []Player{{"alpha", "1"}, {"beta", "2"}}, winner: 0},
		{game: "worms", players: []Player{{"alpha", "2"}, {"beta", "2"}}, winner: 1},
		{game: "snake", players: []Player{{"alpha", "1"}, {"gamma", "1"}}, winner: -1},
		{game: "worms", players: []Player{{"beta", "2"}, {"alpha", "1"}}, winner: 0},
	}
	for i, s := range specs {
		s.id, s.turns = testID(i+1), 4
		mustIngest(t, db, makeRecord(t, s))
	}
}

func TestMatchesFilter(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		ingestLeague(t, db)
		tests := []struct {
			name  string
			f     MatchFilter
			want  []int // testID numbers, newest first
			total int
		}{
			{"everything", MatchFilter{}, []int{4, 3, 2, 1}, 4},
			{"game", MatchFilter{Game: "worms"}, []int{4, 2, 1}, 3},
			{"other game", MatchFilter{Game: "snake"}, []int{3}, 1},
			{"unknown game", MatchFilter{Game: "chess"}, nil, 0},
			{"bot", MatchFilter{Bot: "alpha"}, []int{4, 3, 2, 1}, 4},
			{"bot version", MatchFilter{Bot: "alpha", Version: "1"}, []int{4, 3, 1}, 3},
			{"bot wins", MatchFilter{Bot: "alpha", Outcome: sim.Win}, []int{1}, 1},
			{"bot losses", MatchFilter{Bot: "alpha", Outcome: sim.Loss}, []int{4, 2}, 2},
			{"bot draws", MatchFilter{Bot: "alpha", Outcome: sim.Draw}, []int{3}, 1},
			{"bot not in game", MatchFilter{Game: "worms", Bot: "gamma"}, nil, 0},
			{"everything at once", MatchFilter{Game: "worms", Bot: "beta", Version: "2", Outcome: sim.Win}, []int{4, 2}, 2},
			{"first page", MatchFilter{Limit: 2}, []int{4, 3}, 4},
			{"second page", MatchFilter{Limit: 2, Offset: 2}, []int{2, 1}, 4},
			{"last partial page", MatchFilter{Limit: 3, Offset: 3}, []int{1}, 4},
			{"past the end", MatchFilter{Offset: 10}, nil, 4},
			{"limit above the maximum", MatchFilter{Limit: MaxLimit + 1}, []int{4, 3, 2, 1}, 4},
			{"filtered page", MatchFilter{Bot: "alpha", Limit: 1, Offset: 1}, []int{3}, 4},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ms, total, err := db.Matches(ctx, tt.f)
				if err != nil {
					t.Fatalf("Matches(%+v): %v", tt.f, err)
				}
				var got []int
				for _, m := range ms {
					for n := 1; n <= 4; n++ {
						if m.ID == testID(n) {
							got = append(got, n)
						}
					}
					if len(m.Players) != 2 {
						t.Errorf("match %s: got %d players, want 2", m.ID, len(m.Players))
					}
				}
				if !reflect.DeepEqual(got, tt.want) || total != tt.total {
					t.Errorf("Matches(%+v): got %v of %d, want %v of %d", tt.f, got, total, tt.want, tt.total)
				}
			})
		}
	})
}

func TestMatchesRejectsFilter(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		tests := []struct {
			name string
			f    MatchFilter
		}{
			{"outcome without bot", MatchFilter{Outcome: sim.Win}},
			{"rank without bot", MatchFilter{Rank: 1}},
			{"negative rank", MatchFilter{Bot: "alpha", Rank: -1}},
			{"version without bot", MatchFilter{Version: "1"}},
			{"unknown outcome", MatchFilter{Bot: "alpha", Outcome: "victory"}},
			{"negative limit", MatchFilter{Limit: -1}},
			{"negative offset", MatchFilter{Offset: -1}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if _, _, err := db.Matches(context.Background(), tt.f); !errors.Is(err, ErrInvalid) {
					t.Errorf("Matches(%+v): got %v, want ErrInvalid", tt.f, err)
				}
			})
		}
	})
}

func TestBots(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ingestLeague(t, db)
		// makeRecord scores seat 0 with 0 and seat 1 with 10.
		alpha1 := BotSummary{Game: "worms", Ruleset: "base", Name: "alpha", Version: "1", Matches: 2, Seats: 2, Wins: 1, Losses: 1, MeanScore: 5}
		alpha2 := BotSummary{Game: "worms", Ruleset: "base", Name: "alpha", Version: "2", Matches: 1, Seats: 1, Losses: 1, MeanScore: 0}
		beta2 := BotSummary{Game: "worms", Ruleset: "base", Name: "beta", Version: "2", Matches: 3, Seats: 3, Wins: 2, Losses: 1, MeanScore: 20.0 / 3}
		snakeAlpha := BotSummary{Game: "snake", Ruleset: "base", Name: "alpha", Version: "1", Matches: 1, Seats: 1, Draws: 1, MeanScore: 0}
		snakeGamma := BotSummary{Game: "snake", Ruleset: "base", Name: "gamma", Version: "1", Matches: 1, Seats: 1, Draws: 1, MeanScore: 10}
		tests := []struct {
			game string
			want []BotSummary
		}{
			{"worms", []BotSummary{alpha1, alpha2, beta2}},
			{"snake", []BotSummary{snakeAlpha, snakeGamma}},
			{"", []BotSummary{snakeAlpha, snakeGamma, alpha1, alpha2, beta2}},
			{"chess", []BotSummary{}},
		}
		for _, tt := range tests {
			got, err := db.Bots(context.Background(), tt.game)
			if err != nil {
				t.Fatalf("Bots(%q): %v", tt.game, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Bots(%q):\n got %+v\nwant %+v", tt.game, got, tt.want)
			}
		}
	})
}

// TestSelfPlayCountsOnce: a version in both seats played one match, with
// its best seat's result, over two seats.
func TestSelfPlayCountsOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(1), turns: 3, winner: 1,
			players: []Player{{"greedy", "1"}, {"greedy", "1"}}}))
		got, err := db.Bots(context.Background(), "worms")
		want := []BotSummary{{Game: "worms", Ruleset: "base", Name: "greedy", Version: "1", Matches: 1, Seats: 2, Wins: 1, MeanScore: 10}}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Bots: got %+v, %v; want %+v", got, err, want)
		}
	})
}

func TestGamesCountReplay(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		ingestLeague(t, db)

		games, err := db.Games(ctx)
		if want := []GameCount{{"snake", 1}, {"worms", 3}}; err != nil || !reflect.DeepEqual(games, want) {
			t.Errorf("Games: got %v, %v; want %v", games, err, want)
		}
		if n, err := db.CountMatches(ctx); n != 4 || err != nil {
			t.Errorf("CountMatches: got %d, %v; want 4", n, err)
		}
		got, err := db.Replay(ctx, testID(3))
		if want := "RPL\x01 encoded " + testID(3); err != nil || string(got) != want {
			t.Errorf("Replay: got %q, %v; want %q", got, err, want)
		}
		if _, err := db.Replay(ctx, testID(99)); !errors.Is(err, ErrNotFound) {
			t.Errorf("Replay of a missing id: got %v, want ErrNotFound", err)
		}
	})
}

func TestEmptyDatabase(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		ms, total, err := db.Matches(ctx, MatchFilter{})
		if err != nil || len(ms) != 0 || total != 0 {
			t.Errorf("Matches: got %v, %d, %v; want none", ms, total, err)
		}
		if gs, err := db.Games(ctx); err != nil || len(gs) != 0 {
			t.Errorf("Games: got %v, %v; want none", gs, err)
		}
		if n, err := db.CountMatches(ctx); n != 0 || err != nil {
			t.Errorf("CountMatches: got %d, %v; want 0", n, err)
		}
	})
}

// ingestMultiSeat stores multi-seat matches in which a bot sits in more
// than one seat or shares a team's win:
//
//	1: 5-seat snake, greedy in seats 0 (rank 4, loss) and 3 (rank 1, win)
//	2: 5-seat snake, greedy in seat 1 only (rank 2, loss)
//	3: 4-seat foodfight TEAM, seats 0 and 2 a team sharing the win, greedy
//	   in both seats of the other
func ingestMultiSeat(t *testing.T, db *DB) {
	t.Helper()
	res := func(rank int, o sim.Outcome) sim.PlayerResult {
		return sim.PlayerResult{Rank: rank, Score: float64(10 - rank), Outcome: o}
	}
	teamRes := func(rank int, o sim.Outcome, team int) sim.PlayerResult {
		r := res(rank, o)
		r.Team = team
		return r
	}
	specs := []recordSpec{
		{game: "snake", winner: 3,
			players: []Player{{"greedy", "1"}, {"random", "1"}, {"astar", "1"}, {"greedy", "1"}, {"random", "1"}},
			results: []sim.PlayerResult{res(4, sim.Loss), res(2, sim.Loss), res(3, sim.Loss), res(1, sim.Win), res(5, sim.Loss)}},
		{game: "snake", winner: 0,
			players: []Player{{"astar", "1"}, {"greedy", "1"}, {"random", "1"}, {"random", "1"}, {"random", "1"}},
			results: []sim.PlayerResult{res(1, sim.Win), res(2, sim.Loss), res(3, sim.Loss), res(4, sim.Loss), res(5, sim.Loss)}},
		{game: "foodfight", winner: 0,
			players: []Player{{"hunter", "1"}, {"greedy", "1"}, {"astar", "1"}, {"greedy", "1"}},
			results: []sim.PlayerResult{teamRes(1, sim.Win, 1), teamRes(2, sim.Loss, 2), teamRes(1, sim.Win, 1), teamRes(2, sim.Loss, 2)}},
	}
	for i, s := range specs {
		s.id, s.turns = testID(i+1), 4
		mustIngest(t, db, makeRecord(t, s))
	}
}

func TestMatchesFilterMultiSeat(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ingestMultiSeat(t, db)
		tests := []struct {
			name string
			f    MatchFilter
			want []int // testID numbers, newest first
		}{
			{"wins use the bot's best seat", MatchFilter{Bot: "greedy", Outcome: sim.Win}, []int{1}},
			{"a loss is a match no seat of the bot did better in", MatchFilter{Bot: "greedy", Outcome: sim.Loss}, []int{3, 2}},
			{"a shared team win is a win for each seat", MatchFilter{Bot: "astar", Game: "foodfight", Outcome: sim.Win}, []int{3}},
			{"teammates' win", MatchFilter{Bot: "hunter", Outcome: sim.Win}, []int{3}},
			{"no draws", MatchFilter{Bot: "greedy", Outcome: sim.Draw}, nil},
			{"rank 1", MatchFilter{Bot: "greedy", Rank: 1}, []int{1}},
			{"rank 2", MatchFilter{Bot: "greedy", Rank: 2}, []int{3, 2}},
			{"rank of a worse seat", MatchFilter{Bot: "greedy", Rank: 4}, nil},
			{"rank in one game", MatchFilter{Game: "snake", Bot: "astar", Rank: 3}, []int{1}},
			{"rank and outcome", MatchFilter{Bot: "astar", Rank: 1, Outcome: sim.Win}, []int{3, 2}},
			{"rank with an outcome it cannot have", MatchFilter{Bot: "astar", Rank: 1, Outcome: sim.Loss}, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ms, total, err := db.Matches(context.Background(), tt.f)
				if err != nil {
					t.Fatalf("Matches(%+v): %v", tt.f, err)
				}
				got := testNumbers(ms, 3)
				if !reflect.DeepEqual(got, tt.want) || total != len(tt.want) {
					t.Errorf("Matches(%+v): got %v of %d, want %v", tt.f, got, total, tt.want)
				}
			})
		}
	})
}

// testNumbers returns the testID numbers, up to n, of ms in order.
func testNumbers(ms []MatchSummary, n int) []int {
	var got []int
	for _, m := range ms {
		for i := 1; i <= n; i++ {
			if m.ID == testID(i) {
				got = append(got, i)
			}
		}
	}
	return got
}

func TestMatchesFilterRuleset(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		for i, ruleset := range []string{"base", "final", "final"} {
			mustIngest(t, db, makeRecord(t, recordSpec{id: testID(i + 1), ruleset: ruleset, turns: 2, winner: 0}))
		}
		tests := []struct {
			f    MatchFilter
			want []int
		}{
			{MatchFilter{Ruleset: "base"}, []int{1}},
			{MatchFilter{Game: "worms", Ruleset: "final"}, []int{3, 2}},
			{MatchFilter{Ruleset: "final", Bot: "alpha", Outcome: sim.Win}, []int{3, 2}},
			{MatchFilter{Ruleset: "final", Bot: "beta", Outcome: sim.Win}, nil},
			{MatchFilter{Ruleset: "classic"}, nil},
		}
		for _, tt := range tests {
			ms, _, err := db.Matches(context.Background(), tt.f)
			if got := testNumbers(ms, 3); err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Matches(%+v): got %v, %v; want %v", tt.f, got, err, tt.want)
			}
		}
	})
}

func TestBotsPerRuleset(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		specs := []recordSpec{
			{ruleset: "base", winner: 0},
			{ruleset: "final", winner: 1},
			{ruleset: "final", winner: -1},
		}
		for i, s := range specs {
			s.id, s.turns = testID(i+1), 2
			mustIngest(t, db, makeRecord(t, s))
		}
		got, err := db.Bots(context.Background(), "worms")
		want := []BotSummary{
			{Game: "worms", Ruleset: "base", Name: "alpha", Version: "1", Matches: 1, Seats: 1, Wins: 1, MeanScore: 0},
			{Game: "worms", Ruleset: "base", Name: "beta", Version: "2", Matches: 1, Seats: 1, Losses: 1, MeanScore: 10},
			{Game: "worms", Ruleset: "final", Name: "alpha", Version: "1", Matches: 2, Seats: 2, Draws: 1, Losses: 1, MeanScore: 0},
			{Game: "worms", Ruleset: "final", Name: "beta", Version: "2", Matches: 2, Seats: 2, Wins: 1, Draws: 1, MeanScore: 10},
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Bots:\n got %+v, %v\nwant %+v", got, err, want)
		}
	})
}
