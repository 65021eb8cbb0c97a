package store

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestFingerprints: each version of a bot lists the fingerprints it was
// played with, once per match however many seats it held, in the order
// first stored; seats without one and other bots and games are left out.
func TestFingerprints(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		ab := []Player{{Name: "a", Version: "1"}, {Name: "b", Version: "1"}}
		aa := []Player{{Name: "a", Version: "2"}, {Name: "a", Version: "2"}}
		for i, m := range []struct {
			game    string
			players []Player
			fps     []string
		}{
			{"worms", ab, []string{"a1-old", "b1"}},
			{"worms", ab, []string{"a1-new", ""}},
			{"worms", ab, []string{"a1-old", "b1"}},
			{"worms", aa, []string{"a2", "a2"}}, // one match, two seats
			{"worms", ab, nil},                  // a replay from before fingerprints
			{"snake", ab, []string{"snake-a1", ""}},
		} {
			rec := makeRecord(t, recordSpec{id: testID(i), game: m.game, turns: 2, players: m.players, winner: 0})
			rec.Fingerprints = m.fps
			mustIngest(t, db, rec)
		}
		got, err := db.Fingerprints(ctx, "worms", "a")
		want := []BotFingerprint{{"1", "a1-old", 2}, {"1", "a1-new", 1}, {"2", "a2", 1}}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Fingerprints(worms, a): got %+v, %v; want %+v", got, err, want)
		}
		if got, err := db.Fingerprints(ctx, "worms", "nobody"); err != nil || len(got) != 0 {
			t.Errorf("Fingerprints of an unknown bot: got %+v, %v; want none", got, err)
		}

		bad := makeRecord(t, recordSpec{id: testID(9), turns: 2, players: ab, winner: 0})
		bad.Fingerprints = []string{"only one"}
		if _, err := db.Ingest(ctx, bad); err == nil || !strings.Contains(err.Error(), "2 players and 1 fingerprints") {
			t.Errorf("Ingest with a fingerprint short: got %v, want an error", err)
		}
	})
}

// TestFingerprintsUseIndex: the lookup searches the partial index of
// fingerprints, in a fresh database and in one brought up from version
// 11, whose seats all get the empty fingerprint.
func TestFingerprintsUseIndex(t *testing.T) {
	upgraded := filepath.Join(t.TempDir(), "v11.db")
	makeV1DB(t, upgraded)
	rawExec(t, upgraded, upgrades[:10]...)
	rawExec(t, upgraded, "PRAGMA user_version = 11", fmt.Sprintf("PRAGMA application_id = %d", applicationID), `
		INSERT INTO replays VALUES ('`+testID(1)+`', 'worms', 'base', 1, '{}', x'00', 0);
		INSERT INTO matches VALUES (1, '`+testID(1)+`', 'worms', 'base', 1, 0, 'won', 'old', 1, 0);
		INSERT INTO bots VALUES (1, 'worms', 'a', '1'), (2, 'worms', 'b', '1');
		INSERT INTO match_players VALUES (1, 0, 1, 3, 1, 'win', 0), (1, 1, 2, 1, 2, 'loss', 1);`)
	tests := []struct {
		name string
		db   *DB
	}{
		{"fresh", openTest(t)},
		{"upgraded", openUpgraded(t, upgraded)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := tt.db.Fingerprints(context.Background(), "worms", "a"); err != nil || len(got) != 0 {
				t.Errorf("Fingerprints: got %+v, %v; want none", got, err)
			}
			if plan := queryPlan(t, tt.db, fingerprintsQuery, "worms", "a"); !strings.Contains(plan, "COVERING INDEX match_players_fingerprints") {
				t.Errorf("got query plan %q, want a search of match_players_fingerprints", plan)
			}
		})
	}
}
