package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

func TestRecentMatches(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		ingestLeague(t, db)
		for _, tc := range []struct {
			name  string
			f     MatchFilter
			limit int
			want  []string
		}{
			{"newest first, cut at the limit", MatchFilter{Game: "worms", Bot: "alpha"}, 2, []string{testID(4), testID(2)}},
			{"one version", MatchFilter{Game: "worms", Bot: "alpha", Version: "1"}, 10, []string{testID(4), testID(1)}},
			{"another game", MatchFilter{Game: "snake", Bot: "alpha"}, 10, []string{testID(3)}},
			{"another ruleset", MatchFilter{Game: "worms", Ruleset: "final", Bot: "alpha"}, 10, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ms, err := db.RecentMatches(ctx, tc.f, tc.limit)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, m := range ms {
					got = append(got, m.ID)
					if len(m.Players) != 2 {
						t.Errorf("match %s: got %d players, want 2", m.ID, len(m.Players))
					}
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("got %v, want %v", got, tc.want)
				}
			})
		}
		for _, tc := range []struct {
			name  string
			f     MatchFilter
			limit int
		}{
			{"no limit", MatchFilter{Bot: "alpha"}, 0},
			{"past the bound", MatchFilter{Bot: "alpha"}, MaxRecent + 1},
			{"a page", MatchFilter{Bot: "alpha", Offset: 2}, 10},
			{"a bad filter", MatchFilter{Version: "1"}, 10},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := db.RecentMatches(ctx, tc.f, tc.limit); !errors.Is(err, ErrInvalid) {
					t.Errorf("got error %v, want ErrInvalid", err)
				}
			})
		}
	})
}

func TestPairLineups(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		ingestLeague(t, db) // every match on one seed
		// alpha 1 in both seats of a draw: one match, both seats its own,
		// with scores that only read back whole at 17 digits.
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(5), turns: 2, players: []Player{{"alpha", "1"}, {"alpha", "1"}}, winner: -1,
			results: []sim.PlayerResult{{Rank: 1, Score: 0.1 + 0.2, Outcome: sim.Draw}, {Rank: 1, Score: -1.2345678901234567e-300, Outcome: sim.Draw}}}))
		// a and b met on seeds 1 and 2 in both pairs of seats, a played
		// seed 3 alone and then seed 4 against gamma: matches 6 to 11.
		for i, m := range []struct {
			seed    uint64
			players []Player
		}{
			{1, []Player{{"a", "1"}, {"b", "1"}}}, {1, []Player{{"b", "1"}, {"a", "1"}}},
			{2, []Player{{"a", "1"}, {"b", "1"}}}, {2, []Player{{"b", "1"}, {"a", "1"}}},
			{3, []Player{{"a", "1"}, {"gamma", "1"}}}, {4, []Player{{"gamma", "1"}, {"a", "1"}}},
		} {
			rec := makeRecord(t, recordSpec{id: testID(6 + i), turns: 2, players: m.players, winner: 0})
			rec.Seed = m.seed
			mustIngest(t, db, rec)
		}
		alpha1, alpha2, beta2 := BotVersion{Name: "alpha", Version: "1"}, BotVersion{Name: "alpha", Version: "2"}, BotVersion{Name: "beta", Version: "2"}
		a, b := BotVersion{Name: "a", Version: "1"}, BotVersion{Name: "b", Version: "1"}
		for _, tc := range []struct {
			name              string
			game, ruleset     string
			a, b              BotVersion
			limit             int
			wantA, wantB      []int // testID numbers
			searched, matches int
			complete          bool
		}{
			{"newest first, each match once", "worms", "base", alpha1, beta2, 10, []int{5, 4, 1}, []int{4, 2, 1}, 3, 3, true},
			{"two versions of one bot", "worms", "base", alpha2, alpha1, 10, []int{2}, []int{5, 4, 1}, 1, 1, true},
			{"only seeds both played", "worms", "base", a, b, 10, []int{9, 8, 7, 6}, []int{9, 8, 7, 6}, 6, 6, true},
			{"A's newest only", "worms", "base", a, b, 4, []int{9, 8}, []int{9, 8}, 4, 6, false},
			{"no pair among A's newest", "worms", "base", a, b, 2, nil, nil, 2, 6, false},
			// alpha 1's newest match, 5, has three partners: none of it is
			// kept, rather than some of its partners.
			{"partners past the limit", "worms", "base", alpha1, beta2, 2, nil, nil, 0, 3, false},
			{"another game", "snake", "base", alpha1, beta2, 10, nil, nil, 1, 1, true},
			{"another ruleset", "worms", "final", alpha1, beta2, 10, nil, nil, 0, 0, true},
			{"no such version", "worms", "base", BotVersion{Name: "alpha", Version: "9"}, beta2, 1, nil, nil, 0, 0, true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := db.PairLineups(ctx, tc.game, tc.ruleset, tc.a, tc.b, tc.limit)
				if err != nil {
					t.Fatal(err)
				}
				for _, side := range []struct {
					got  []Lineup
					want []int
				}{{got.A, tc.wantA}, {got.B, tc.wantB}} {
					var ids, want []string
					for _, l := range side.got {
						ids = append(ids, l.ID)
					}
					for _, n := range side.want {
						want = append(want, testID(n))
					}
					if !slices.Equal(ids, want) {
						t.Errorf("got %v, want %v", ids, want)
					}
				}
				if got.Searched != tc.searched || got.Matches != tc.matches || got.Complete != tc.complete {
					t.Errorf("searched %d of %d, complete %v; want %d of %d, %v", got.Searched, got.Matches, got.Complete,
						tc.searched, tc.matches, tc.complete)
				}
			})
		}
		// Match 4: beta 2 won in seat 0 with 0 points, alpha 1 lost in seat 1
		// with 10 (makeRecord scores a seat 10 times its number).
		got, err := db.PairLineups(ctx, "worms", "base", alpha2, beta2, 10)
		if err != nil {
			t.Fatal(err)
		}
		want := Lineup{ID: testID(4), Seed: 1<<63 + 42, Config: `{"map":"small"}`,
			Seats: []SeatResult{{"beta", "2", 1, 0, 0}, {"alpha", "1", 2, 10, 1}}}
		if len(got.B) != 2 || !reflect.DeepEqual(got.B[0], want) {
			t.Errorf("got %+v, want %+v first", got.B, want)
		}
		got, err = db.PairLineups(ctx, "worms", "base", alpha1, beta2, 10)
		if err != nil {
			t.Fatal(err)
		}
		want = Lineup{ID: testID(5), Seed: 1<<63 + 42, Config: `{"map":"small"}`,
			Seats: []SeatResult{{"alpha", "1", 1, 0.1 + 0.2, 0}, {"alpha", "1", 1, -1.2345678901234567e-300, 1}}}
		if len(got.A) == 0 || !reflect.DeepEqual(got.A[0], want) {
			t.Errorf("got %+v, want %+v first", got.A, want)
		}
		for _, limit := range []int{0, MaxRecent + 1} {
			if _, err := db.PairLineups(ctx, "worms", "base", alpha1, beta2, limit); !errors.Is(err, ErrInvalid) {
				t.Errorf("limit %d: got error %v, want ErrInvalid", limit, err)
			}
		}
	})
}

// tableScan finds a scan of a stored table or index in a query plan; a
// SCAN of a subquery reads the rows its LIMIT kept.
var tableScan = regexp.MustCompile(`SCAN (matches|replays|match_entries|match_players|bots)\b`)

// TestPairLineupsPlan checks that PairLineups walks A's entries in
// match_entries_by_bot, which holds their seeds and rulesets, reading no
// match, and searches B's by seed
// in match_entries_by_seed, scanning no table, in a fresh database and
// in one brought up from version 2.
func TestPairLineupsPlan(t *testing.T) {
	upgraded := filepath.Join(t.TempDir(), "v2.db")
	makeV1DB(t, upgraded)
	rawExec(t, upgraded, upgrades[0], "PRAGMA user_version = 2", fmt.Sprintf("PRAGMA application_id = %d", applicationID))
	for _, tc := range []struct {
		name string
		db   *DB
	}{
		{"fresh", openTest(t)},
		{"upgraded", openUpgraded(t, upgraded)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := queryPlan(t, tc.db, seedPartnersQuery, 1, "base", MaxRecent, 2, "base", MaxRecent+1)
			if !strings.Contains(plan, "COVERING INDEX match_entries_by_bot") || !strings.Contains(plan, "match_entries_by_seed (bot_id=? AND seed=?)") ||
				strings.Contains(plan, "replays") || strings.Contains(plan, "SEARCH m ") || tableScan.MatchString(plan) {
				t.Errorf("got query plan %q, want a walk of match_entries_by_bot, searches of match_entries_by_seed by seed, no matches or replays and no scan of a table", plan)
			}
		})
	}
}

// TestOpenUpgradesVersion19 opens a database of schema version 19, whose
// entries had no seed or ruleset, on each backend: the upgrade gives
// every entry its match's, and the comparison pairs what it paired
// before.
func TestOpenUpgradesVersion19(t *testing.T) {
	ctx := context.Background()
	a, b := BotVersion{Name: "a", Version: "1"}, BotVersion{Name: "b", Version: "1"}
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			path := be.fresh(t)
			var want PairSearch
			func() {
				db, err := Open(ctx, path)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				// a and b meet on seeds 1 and 2 and each meet gamma on
				// seed 3: five matches of each pair; a's last seed (past
				// int64's range) holds no match of b.
				for i, m := range []struct {
					seed    uint64
					players []Player
				}{
					{1, []Player{{"a", "1"}, {"b", "1"}}}, {1, []Player{{"b", "1"}, {"a", "1"}}},
					{2, []Player{{"a", "1"}, {"b", "1"}}}, {2, []Player{{"b", "1"}, {"a", "1"}}},
					{3, []Player{{"a", "1"}, {"gamma", "1"}}}, {3, []Player{{"gamma", "1"}, {"b", "1"}}},
					{1<<63 + 5, []Player{{"a", "1"}, {"gamma", "1"}}},
				} {
					rec := makeRecord(t, recordSpec{id: testID(1 + i), turns: 2, players: m.players, winner: 0})
					rec.Seed = m.seed
					mustIngest(t, db, rec)
				}
				if want, err = db.PairLineups(ctx, "worms", "base", a, b, 10); err != nil {
					t.Fatal(err)
				}
				version := `PRAGMA user_version = 19`
				if db.postgres {
					version = `UPDATE replaylab_schema SET version = 19`
				}
				for _, q := range []string{`DROP TABLE bot_debug`, `ALTER TABLE rating_fits DROP COLUMN state`, seedlessEntries[db.postgres], version} {
					if _, err := db.write.ExecContext(ctx, q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
			}()
			db := openAt(t, path)
			if !db.postgres {
				if got, want := schemaOf(t, db), schemaOf(t, openTest(t)); got != want {
					t.Errorf("schema after the upgrade:\n%s\nwant\n%s", got, want)
				}
			}
			if bad := queryRows(t, db, `SELECT e.match_seq, e.bot_id, e.seed, r.seed, e.ruleset, m.ruleset FROM match_entries e
				JOIN matches m ON m.seq = e.match_seq JOIN replays r ON r.id = m.id WHERE e.seed <> r.seed OR e.ruleset <> m.ruleset`); len(bad) > 0 {
				t.Errorf("entries whose seed or ruleset is not their match's after the upgrade (seq, bot, seed, replay's, ruleset, match's): %v", bad)
			}
			got, err := db.PairLineups(ctx, "worms", "base", a, b, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.A) != 5 || !reflect.DeepEqual(got, want) {
				t.Errorf("pairs after the upgrade: got %+v, want %+v as before it (five matches of each)", got, want)
			}
		})
	}
}

func TestNewestVersion(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		ingestLeague(t, db)
		// Under final only alpha 1 played, although 2 is newer.
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(5), ruleset: "final", turns: 2,
			players: []Player{{"alpha", "1"}, {"beta", "2"}}, winner: 0}))
		for _, tc := range []struct {
			game, ruleset, name, want string
		}{
			{"worms", "base", "alpha", "2"},
			{"worms", "final", "alpha", "1"},
			{"worms", "no such ruleset", "alpha", "2"},
			{"snake", "base", "alpha", "1"},
		} {
			got, err := db.NewestVersion(ctx, tc.game, tc.ruleset, tc.name)
			if err != nil || got != tc.want {
				t.Errorf("NewestVersion(%s, %s, %s): got %q, %v; want %q", tc.game, tc.ruleset, tc.name, got, err, tc.want)
			}
		}
		if _, err := db.NewestVersion(ctx, "snake", "base", "beta"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a bot that never played the game: got %v, want ErrNotFound", err)
		}
	})
}

func TestVersionLines(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		const turns = 40
		// alpha 1 in seat 0 of match 1, both seats of match 2, seat 1 of
		// match 3; match 4 under another ruleset, and a match of alpha 1
		// without lines, the newest.
		for i, spec := range []recordSpec{
			{players: []Player{{"alpha", "1"}, {"beta", "2"}}},
			{players: []Player{{"alpha", "1"}, {"alpha", "1"}}},
			{players: []Player{{"beta", "2"}, {"alpha", "1"}}},
			{players: []Player{{"alpha", "1"}, {"beta", "2"}}, ruleset: "final"},
		} {
			spec.id, spec.turns, spec.units = testID(i+1), turns, 2
			mustIngest(t, db, makeRecord(t, spec))
		}
		bare := makeRecord(t, recordSpec{id: testID(5), turns: turns, players: []Player{{"beta", "2"}, {"alpha", "1"}}})
		bare.Lines = nil
		mustIngest(t, db, bare)
		alpha1 := BotVersion{Name: "alpha", Version: "1"}
		type line struct{ metric, seat int }
		var want []line
		for _, seat := range []int{1, 0, 1} { // match 3, then 2
			for m := range synthMetrics {
				want = append(want, line{m, seat})
			}
		}
		var got []line
		seats, err := db.VersionLines(ctx, "worms", "base", alpha1, 3, func(l Line) error {
			got = append(got, line{l.Metric, l.Seat})
			if l.Unit != sim.NoUnit || len(l.Values) != turns+1 {
				t.Errorf("seat %d, metric %d: got unit %d and %d values, want %d and %d", l.Seat, l.Metric, l.Unit, len(l.Values), sim.NoUnit, turns+1)
				return nil
			}
			for turn, v := range l.Values {
				if want := valueAt(l.Metric, turn, l.Seat, sim.NoUnit); v != want {
					t.Errorf("seat %d, metric %d, turn %d: got %v, want %v", l.Seat, l.Metric, turn, v, want)
					break
				}
			}
			return nil
		})
		if err != nil || seats != 4 || !slices.Equal(got, want) {
			t.Errorf("got %d seats, lines %v, %v; want 4 seats (one without lines), lines %v", seats, got, err, want)
		}
		for _, tc := range []struct {
			name          string
			game, ruleset string
			v             BotVersion
			seats         int
		}{
			{"another ruleset", "worms", "final", alpha1, 1},
			{"another game", "snake", "base", alpha1, 0},
			{"no such version", "worms", "base", BotVersion{Name: "alpha", Version: "9"}, 0},
		} {
			seats, err := db.VersionLines(ctx, tc.game, tc.ruleset, tc.v, 10, func(Line) error { return nil })
			if err != nil || seats != tc.seats {
				t.Errorf("%s: got %d seats, %v; want %d", tc.name, seats, err, tc.seats)
			}
		}

		stop := errors.New("stop")
		calls := 0
		_, err = db.VersionLines(ctx, "worms", "base", alpha1, 10, func(Line) error { calls++; return stop })
		if !errors.Is(err, stop) || calls != 1 {
			t.Errorf("an error from fn: got %v after %d calls, want it after 1", err, calls)
		}
		if _, err := db.VersionLines(ctx, "worms", "base", alpha1, MaxRecent+1, func(Line) error { return nil }); !errors.Is(err, ErrInvalid) {
			t.Errorf("got error %v, want ErrInvalid", err)
		}
	})
}

func TestParseSeats(t *testing.T) {
	seats, ids, err := parseSeats("1 7 2 -0.5 0 0 9 1 3 0")
	wantSeats := []SeatResult{{Rank: 1, Score: 3}, {Rank: 2, Score: -0.5}}
	if err != nil || !reflect.DeepEqual(seats, wantSeats) || !slices.Equal(ids, []int64{9, 7}) {
		t.Errorf("got %+v, %v, %v; want %+v, [9 7], no error", seats, ids, err, wantSeats)
	}
	for _, text := range []string{"0 1 1 0", "0 1 1 x 0", "0 1 1 0 0 0 2 2 0 0", "1 1 1 0 1", "-1 1 1 0 0", "0 1 1 0"} {
		if _, _, err := parseSeats(text); err == nil {
			t.Errorf("parseSeats(%q): got no error, want one", text)
		}
	}
}
