package store

import (
	"context"
	"testing"
	"time"
)

// TestDataVersionChanges checks that every change to what pages derive
// from the stored matches and fits moves the data version, and that
// reads leave it be.
func TestDataVersionChanges(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		ab := []Player{{"a", "1"}, {"b", "1"}}
		version := func(t *testing.T) int64 {
			t.Helper()
			v, err := db.DataVersion(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		exec := func(query string, args ...any) func(t *testing.T) {
			return func(t *testing.T) {
				t.Helper()
				if _, err := db.write.ExecContext(ctx, query, args...); err != nil {
					t.Fatal(err)
				}
			}
		}
		save := func(problem string) func(t *testing.T) {
			return func(t *testing.T) {
				t.Helper()
				if err := db.SaveRatings(ctx, &FittedRatings{Game: "worms", Ruleset: "base", FittedAt: time.Now(), Problem: problem}); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, tc := range []struct {
			name   string
			change func(t *testing.T)
			moves  bool
		}{
			{"ingest a match", func(t *testing.T) { ingestSpecs(t, db, 1, recordSpec{players: ab, winner: 0}) }, true},
			{"ingest a second match", func(t *testing.T) { ingestSpecs(t, db, 2, recordSpec{players: ab, winner: 1}) }, true},
			{"read the leaderboards", func(t *testing.T) {
				if _, err := db.Bots(ctx, ""); err != nil {
					t.Fatal(err)
				}
			}, false},
			{"save a first fit", save(""), true},
			{"save a refit", save("not enough matches"), true},
			{"delete a fit", exec(`DELETE FROM rating_fits`), true},
			{"delete one seat of a match", exec(`DELETE FROM match_players WHERE match_seq = (SELECT min(seq) FROM matches) AND seat = 1`), true},
			{"delete the newest match", exec(`DELETE FROM matches WHERE seq = (SELECT max(seq) FROM matches)`), true},
			{"delete a replay and so its match", exec(`DELETE FROM replays`), true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := version(t)
				tc.change(t)
				if got := version(t); (got != before) != tc.moves || got < before {
					t.Errorf("data version: got %d after %d, want it to move: %v, and never back", got, before, tc.moves)
				}
			})
		}
	})
}
