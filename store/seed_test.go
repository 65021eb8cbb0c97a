package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMatchesOnSeed(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		// Matches that differ from the one looked up in one field each, and
		// two that match it with the seats swapped.
		type variant struct {
			ruleset, config string
			seed            uint64
			players         []Player
		}
		ab, ba := []Player{{"a", "1"}, {"b", "1"}}, []Player{{"b", "1"}, {"a", "1"}}
		variants := []variant{
			{"base", `{"map":"small"}`, 7, ab},
			{"final", `{"map":"small"}`, 7, ab},
			{"base", `{"map":"large"}`, 7, ab},
			{"base", `{"map":"small"}`, 8, ab},
			{"base", `{"map":"small"}`, 7, ba},
		}
		for i, v := range variants {
			rec := makeRecord(t, recordSpec{id: testID(i), ruleset: v.ruleset, turns: 3, players: v.players, winner: 0})
			rec.Seed, rec.Config = v.seed, json.RawMessage(v.config)
			mustIngest(t, db, rec)
		}
		ms, err := db.MatchesOnSeed(ctx, "worms", "base", json.RawMessage(`{"map":"small"}`), 7)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ms {
			var lineup []string
			for _, p := range m.Players {
				lineup = append(lineup, p.Name+"@"+p.Version+":"+string(p.Outcome))
			}
			got = append(got, m.ID[:8]+" "+strings.Join(lineup, ","))
		}
		want := []string{testID(0)[:8] + " a@1:win,b@1:loss", testID(4)[:8] + " b@1:win,a@1:loss"}
		if !slices.Equal(got, want) {
			t.Errorf("got matches %q, want %q", got, want)
		}

		none, err := db.MatchesOnSeed(ctx, "snake", "base", json.RawMessage(`{"map":"small"}`), 7)
		if err != nil || len(none) != 0 {
			t.Errorf("another game: got %d matches (%v), want none", len(none), err)
		}
	})
}

// TestMatchesOnSeedUsesIndex checks that the lookup is a search of the
// replays_by_seed index, not a scan of every replay, in a fresh database
// and in one brought up from version 2.
func TestMatchesOnSeedUsesIndex(t *testing.T) {
	upgraded := filepath.Join(t.TempDir(), "v2.db")
	makeV1DB(t, upgraded)
	rawExec(t, upgraded, upgrades[0], "PRAGMA user_version = 2", fmt.Sprintf("PRAGMA application_id = %d", applicationID))
	tests := []struct {
		name string
		db   *DB
	}{
		{"fresh", openTest(t)},
		{"upgraded", openUpgraded(t, upgraded)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if plan := queryPlan(t, tt.db, matchSelect+onSeed, "worms", "base", 7, "{}"); !strings.Contains(plan, "USING INDEX replays_by_seed") || strings.Contains(plan, "SCAN") {
				t.Errorf("got query plan %q, want a search of replays_by_seed and no scan", plan)
			}
		})
	}
}

// queryPlan returns the steps of SQLite's plan for a query, joined by "; ".
func queryPlan(t *testing.T, db *DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.read.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "; ")
}
