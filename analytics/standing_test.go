package analytics

import (
	"slices"
	"testing"

	"github.com/replaylab/replaylab/store"
)

func TestStandings(t *testing.T) {
	bots := []store.BotSummary{
		{Name: "lucky", Version: "1", Matches: 2, Wins: 2},
		{Name: "steady", Version: "1", Matches: 100, Wins: 60, Losses: 40},
		{Name: "never", Version: "1", Matches: 0},
		{Name: "weak", Version: "2", Matches: 50, Wins: 5, Losses: 45},
	}
	got := Standings(bots)
	order := []string{"steady", "lucky", "weak", "never"}
	for i, name := range order {
		if got[i].Name != name {
			t.Fatalf("rank %d: got %s, want %s (order %v)", i, got[i].Name, name, order)
		}
	}
	if s := got[0]; s.WinRate != 0.6 || s.WinCI.Low >= 0.6 || s.WinCI.High <= 0.6 {
		t.Errorf("steady: got rate %v in %v, want 0.6 inside its interval", s.WinRate, s.WinCI)
	}
	if s := got[3]; s.WinRate != 0 || s.WinCI != (Interval{0, 1}) {
		t.Errorf("never: got rate %v in %v, want 0 in [0, 1]", s.WinRate, s.WinCI)
	}
}

func TestBoards(t *testing.T) {
	// Worms base and final records of one bot version must stay apart:
	// added together, "tactical" would lead with 9 wins of 14.
	bots := []store.BotSummary{
		{Game: "worms", Ruleset: "final", Name: "tactical", Version: "1", Matches: 10, Wins: 8, Losses: 2},
		{Game: "snake", Ruleset: "codenjoy", Name: "greedy", Version: "1", Matches: 3, Wins: 1, Losses: 2},
		{Game: "worms", Ruleset: "base", Name: "tactical", Version: "1", Matches: 4, Wins: 1, Losses: 3},
		{Game: "worms", Ruleset: "base", Name: "random", Version: "1", Matches: 4, Wins: 3, Losses: 1},
		{Game: "worms", Ruleset: "final", Name: "random", Version: "1", Matches: 10, Wins: 2, Losses: 8},
	}
	type line struct {
		name       string
		wins, lost int
	}
	tests := []struct {
		game, ruleset string
		want          []line // in rank order
	}{
		{"snake", "codenjoy", []line{{"greedy", 1, 2}}},
		{"worms", "base", []line{{"random", 3, 1}, {"tactical", 1, 3}}},
		{"worms", "final", []line{{"tactical", 8, 2}, {"random", 2, 8}}},
	}
	got := Boards(bots)
	if len(got) != len(tests) {
		t.Fatalf("got %d boards, want %d: %+v", len(got), len(tests), got)
	}
	for i, tt := range tests {
		b := got[i]
		if b.Game != tt.game || b.Ruleset != tt.ruleset {
			t.Errorf("board %d: got %s/%s, want %s/%s", i, b.Game, b.Ruleset, tt.game, tt.ruleset)
			continue
		}
		var lines []line
		for _, s := range b.Standings {
			if s.Game != b.Game || s.Ruleset != b.Ruleset {
				t.Errorf("board %s/%s holds a record of %s/%s", b.Game, b.Ruleset, s.Game, s.Ruleset)
			}
			lines = append(lines, line{s.Name, s.Wins, s.Losses})
		}
		if !slices.Equal(lines, tt.want) {
			t.Errorf("board %s/%s: got %v, want %v", b.Game, b.Ruleset, lines, tt.want)
		}
	}
	if got := Boards(nil); len(got) != 0 {
		t.Errorf("Boards(nil): got %+v, want none", got)
	}
}

func TestWithRatings(t *testing.T) {
	bots := []store.BotSummary{
		{Game: "worms", Ruleset: "base", Name: "a", Version: "1", Matches: 10, Wins: 9, Losses: 1},
		{Game: "worms", Ruleset: "base", Name: "b", Version: "1", Matches: 10, Wins: 5, Losses: 5},
		{Game: "worms", Ruleset: "base", Name: "c", Version: "1", Matches: 10, Wins: 1, Losses: 9},
		{Game: "worms", Ruleset: "base", Name: "new", Version: "1", Matches: 1, Wins: 1},
		{Game: "worms", Ruleset: "final", Name: "a", Version: "1", Matches: 3, Wins: 3},
		{Game: "toad", Ruleset: "classic", Name: "a", Version: "1", Matches: 3, Wins: 3},
	}
	fits := []store.RatingBoard{
		{Game: "toad", Ruleset: "classic", Problem: "not enough matches"},
		// Ratings can disagree with win rates: b beat stronger opposition.
		{Game: "worms", Ruleset: "base", Matches: 15, Ratings: []store.BotRating{
			{Name: "b", Version: "1", Rating: 1600, Low: 1500, High: 1700},
			{Name: "a", Version: "1", Rating: 1550, Low: 1450, High: 1650},
			{Name: "c", Version: "1", Rating: 1350, Low: 1250, High: 1450},
		}},
	}
	boards := Boards(bots)
	WithRatings(boards, fits)
	tests := []struct {
		ruleset string
		fitted  bool
		order   []string
		rated   []bool
	}{
		{"classic", true, []string{"a"}, []bool{false}},
		{"base", true, []string{"b", "a", "c", "new"}, []bool{true, true, true, false}},
		{"final", false, []string{"a"}, []bool{false}},
	}
	for i, tt := range tests {
		b := boards[i]
		if b.Ruleset != tt.ruleset || (b.Fit != nil) != tt.fitted {
			t.Errorf("board %d: got %s with fit %v, want %s fitted %v", i, b.Ruleset, b.Fit, tt.ruleset, tt.fitted)
		}
		for j, s := range b.Standings {
			if s.Name != tt.order[j] || s.Rated != tt.rated[j] {
				t.Errorf("%s rank %d: got %s rated %v, want %s rated %v", tt.ruleset, j, s.Name, s.Rated, tt.order[j], tt.rated[j])
			}
		}
	}
	if s := boards[1].Standings[0]; s.Rating != 1600 || s.RatingCI != (Interval{1500, 1700}) {
		t.Errorf("b: got %v in %v, want 1600 in [1500, 1700]", s.Rating, s.RatingCI)
	}
}
