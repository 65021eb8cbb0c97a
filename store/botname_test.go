package store

import (
	"context"
	"slices"
	"testing"
)

// TestBotNameCase filters matches by bot names typed in another case: one
// stored name equal ignoring case is the bot meant; two such names (Alpha
// and alpha) leave the name as typed, which then names only its own bot.
func TestBotNameCase(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		for i, p := range [][2]string{{"Greedy", "Alpha"}, {"Greedy", "alpha"}, {"Ünïcode", "Greedy"}} {
			mustIngest(t, db, makeRecord(t, recordSpec{id: testID(i + 1), turns: 3, winner: 0,
				players: []Player{{Name: p[0], Version: "1"}, {Name: p[1], Version: "1"}}}))
		}
		for _, tt := range []struct {
			bot, vs     string
			wantBot     string
			wantMatches int
		}{
			{bot: "greedy", wantBot: "Greedy", wantMatches: 3},
			{bot: "GREEDY", vs: "üNÏCODE", wantBot: "Greedy", wantMatches: 1},
			{bot: "alpha", wantBot: "alpha", wantMatches: 1},
			{bot: "Alpha", wantBot: "Alpha", wantMatches: 1},
			{bot: "ALPHA", wantBot: "ALPHA", wantMatches: 0}, // two bots: neither is meant
			{bot: "nobody", wantBot: "nobody", wantMatches: 0},
		} {
			for _, game := range []string{"", "worms"} {
				l, err := db.MatchList(ctx, MatchFilter{Game: game, Bot: tt.bot, Vs: tt.vs})
				if err != nil {
					t.Fatal(err)
				}
				if l.Bot != tt.wantBot || len(l.Matches) != tt.wantMatches {
					t.Errorf("game %q bot %q vs %q: got bot %q, %d matches; want %q, %d", game, tt.bot, tt.vs, l.Bot, len(l.Matches), tt.wantBot, tt.wantMatches)
				}
			}
		}
		names, err := db.BotNames(ctx, "worms", 10)
		if want := []string{"Alpha", "Greedy", "alpha", "Ünïcode"}; err != nil || !slices.Equal(names, want) {
			t.Errorf("BotNames: got %q, %v; want %q", names, err, want)
		}
		if names, err := db.BotNames(ctx, "snake", 10); err != nil || len(names) != 0 {
			t.Errorf("BotNames of a game without bots: got %q, %v; want none", names, err)
		}
	})
}
