package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// entriesQuery picks each bot version's best seat of every match from
// match_players alone, as schema.sql defines an entry: a win beats a draw
// beats a loss, then the better rank, the higher score, the lower seat.
const entriesQuery = `
	SELECT * FROM (
	    SELECT mp.*, count(*) OVER same AS seats, row_number() OVER (same ORDER BY
	        CASE mp.outcome WHEN 'win' THEN 2 WHEN 'draw' THEN 1 ELSE 0 END DESC,
	        mp.rank, mp.score DESC, mp.seat) AS pick
	    FROM match_players mp
	    WINDOW same AS (PARTITION BY mp.match_seq, mp.bot_id)) AS ranked
	WHERE pick = 1`

// recountTrouble counts every bot version's trouble under each ruleset
// from the trouble of its seats.
const recountTrouble = `
	SELECT mp.bot_id, m.ruleset, count(*) FILTER (WHERE s.crash_turn > 0) AS crashed,
		count(*) FILTER (WHERE s.timeouts > 0) AS timed_out, count(*) FILTER (WHERE s.invalid > 0) AS invalid_seats,
		count(*) FILTER (WHERE s.oversize > 0) AS oversized,
		CAST(sum(s.timeouts) AS BIGINT) AS timeouts, CAST(sum(s.invalid) AS BIGINT) AS invalid,
		CAST(sum(s.oversize) AS BIGINT) AS oversize
	FROM seat_trouble s JOIN match_players mp ON mp.match_seq = s.match_seq AND mp.seat = s.seat
	JOIN matches m ON m.seq = s.match_seq
	GROUP BY mp.bot_id, m.ruleset`

// recountBots counts every bot version's record from the seats of every
// match: one match per version, at its best seat, and its trouble. The
// aggregates must always equal it.
const recountBots = `
	SELECT b.game, m.ruleset, b.name, b.version, count(*), CAST(sum(e.seats) AS BIGINT),
		count(*) FILTER (WHERE e.outcome = 'win'),
		count(*) FILTER (WHERE e.outcome = 'draw'),
		count(*) FILTER (WHERE e.outcome = 'loss'),
		avg(e.score),
		coalesce(max(t.crashed), 0), coalesce(max(t.timed_out), 0), coalesce(max(t.invalid_seats), 0),
		coalesce(max(t.oversized), 0), coalesce(max(t.timeouts), 0), coalesce(max(t.invalid), 0), coalesce(max(t.oversize), 0)
	FROM bots b
	JOIN (` + entriesQuery + `) e ON e.bot_id = b.id
	JOIN matches m ON m.seq = e.match_seq
	LEFT JOIN (` + recountTrouble + `) t ON t.bot_id = b.id AND t.ruleset = m.ruleset
	GROUP BY b.id, m.ruleset
	ORDER BY b.game, m.ruleset, b.name, b.version`

// queryRows returns every row of a query, each column as read into an any.
func queryRows(t *testing.T, db *DB, query string) [][]any {
	t.Helper()
	rows, err := db.read.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	all := [][]any{}
	for rows.Next() {
		row := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range row {
			ptrs[i] = &row[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		all = append(all, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return all
}

// checkAggregates fails unless every answer read from the aggregates
// equals the same answer counted from the matches.
func checkAggregates(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	bots, err := db.Bots(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []BotSummary{}
	for _, r := range queryRows(t, db, recountBots) {
		want = append(want, BotSummary{Game: r[0].(string), Ruleset: r[1].(string), Name: r[2].(string), Version: r[3].(string),
			Matches: int(r[4].(int64)), Seats: int(r[5].(int64)), Wins: int(r[6].(int64)), Draws: int(r[7].(int64)),
			Losses: int(r[8].(int64)), MeanScore: r[9].(float64),
			Trouble: BotTrouble{Crashed: int(r[10].(int64)), TimedOut: int(r[11].(int64)), InvalidSeats: int(r[12].(int64)),
				Oversized: int(r[13].(int64)), Timeouts: int(r[14].(int64)), Invalid: int(r[15].(int64)), Oversize: int(r[16].(int64))}})
	}
	if !reflect.DeepEqual(bots, want) {
		t.Errorf("Bots:\n got %+v\nwant %+v (recounted)", bots, want)
	}
	// The stored entries are ingest's (Entries, in Go); the recount's are
	// SQL's: they must pick the same seats.
	const entryCols = `SELECT match_seq, bot_id, seat, seats, team, score, rank, outcome FROM `
	if got, want := queryRows(t, db, entryCols+`match_entries ORDER BY match_seq, bot_id`),
		queryRows(t, db, entryCols+`(`+entriesQuery+`) AS e ORDER BY match_seq, bot_id`); !reflect.DeepEqual(got, want) {
		t.Errorf("match_entries: got %v, want %v (recounted)", got, want)
	}
	for _, q := range []struct{ name, got, want string }{
		{"bot_matches",
			`SELECT game, name, matches FROM bot_matches ORDER BY game, name`,
			`SELECT b.game, b.name, count(DISTINCT mp.match_seq) FROM match_players mp JOIN bots b ON b.id = mp.bot_id
				GROUP BY b.game, b.name ORDER BY b.game, b.name`},
		{"game_matches",
			`SELECT game, ruleset, matches FROM game_matches ORDER BY game, ruleset`,
			`SELECT game, ruleset, count(*) FROM matches GROUP BY game, ruleset ORDER BY game, ruleset`},
	} {
		if got, want := queryRows(t, db, q.got), queryRows(t, db, q.want); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v (recounted)", q.name, got, want)
		}
	}
	var stored int
	if err := db.read.QueryRow(`SELECT count(*) FROM matches`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if n, err := db.CountMatches(ctx); n != stored || err != nil {
		t.Errorf("CountMatches: got %d, %v; want %d, nil", n, err, stored)
	}
	for _, r := range queryRows(t, db, `SELECT DISTINCT game, ruleset FROM matches`) {
		game, ruleset := r[0].(string), r[1].(string)
		for _, f := range []MatchFilter{{Game: game}, {Game: game, Ruleset: ruleset}, {Ruleset: ruleset}} {
			_, total, err := db.Matches(ctx, f)
			var want int
			if err := db.read.QueryRow(`SELECT count(*) FROM matches WHERE ?1 IN ('', game) AND ?2 IN ('', ruleset)`,
				f.Game, f.Ruleset).Scan(&want); err != nil {
				t.Fatal(err)
			}
			if total != want || err != nil {
				t.Errorf("Matches(%+v): got total %d, %v; want %d", f, total, err, want)
			}
		}
	}
	for _, r := range queryRows(t, db, `SELECT DISTINCT game, name FROM bots`) {
		game, name := r[0].(string), r[1].(string)
		got, gotTotal, err := db.BotMatches(ctx, game, name, 7)
		if err != nil {
			t.Fatal(err)
		}
		want, wantTotal, err := db.Matches(ctx, MatchFilter{Game: game, Bot: name, Limit: 7})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || gotTotal != wantTotal {
			t.Errorf("BotMatches(%s, %s): got %d matches of %d, want %d of %d (%v, %v)",
				game, name, len(got), gotTotal, len(want), wantTotal, matchIDs(got), matchIDs(want))
		}
	}
}

func matchIDs(ms []MatchSummary) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID[:MinPrefix]
	}
	return ids
}

// randomRecord returns a match of 2 to 5 seats between a few bots in two
// versions (so bots sit in several seats and meet their other version),
// half of them in two teams (seats of one version in both, too), under one
// of two games and two rulesets, with random outcomes and scores in
// eighths, which add up exactly in floating point.
func randomRecord(t *testing.T, r *rand.Rand, n int) *Record {
	t.Helper()
	s := recordSpec{
		id:      testID(n),
		game:    []string{"worms", "snake"}[r.IntN(2)],
		ruleset: []string{"base", "final"}[r.IntN(2)],
		turns:   1,
		winner:  -1,
	}
	teams := r.IntN(2) == 0 // then seats play in teams of up to two
	for range 2 + r.IntN(4) {
		s.players = append(s.players, Player{Name: []string{"ant", "bee", "cat"}[r.IntN(3)], Version: []string{"1", "2"}[r.IntN(2)]})
		outcome := []sim.Outcome{sim.Win, sim.Draw, sim.Loss}[r.IntN(3)]
		pr := sim.PlayerResult{Rank: 1 + r.IntN(len(s.players)), Score: float64(r.IntN(800)-100) / 8, Outcome: outcome}
		if teams {
			pr.Team = 1 + r.IntN(2)
		}
		s.results = append(s.results, pr)
	}
	rec := makeRecord(t, s)
	// Now and then a seat crashes, times out or is rejected, so the
	// trouble counts come and go with the matches too.
	for seat := range s.players {
		if r.IntN(3) == 0 {
			kind := []string{sim.EventCrash, sim.EventTimeout, sim.EventInvalid, sim.EventOversize}[r.IntN(4)]
			rec.Events = append(rec.Events, TurnEvent{Turn: 1, Event: sim.Event{Seat: seat, Unit: sim.NoUnit, Kind: kind, Target: -1}})
		}
	}
	return rec
}

// TestAggregatesEqualRecount ingests random matches and deletes random
// ones, both as a replay's cascade and as matches alone, and checks every
// aggregate against a recount after each round.
func TestAggregatesEqualRecount(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		r := rand.New(rand.NewPCG(13, 6))
		var stored []string
		n := 0
		for round := range 6 {
			for range 25 {
				n++
				rec := randomRecord(t, r, n)
				mustIngest(t, db, rec)
				stored = append(stored, rec.ID)
			}
			for range 10 {
				i := r.IntN(len(stored))
				// Half the deletes go through the replay, as a user removing
				// an upload would; the others keep the replay, as upgrade 2 did.
				table := []string{"replays", "matches"}[r.IntN(2)]
				if _, err := db.write.Exec("DELETE FROM "+table+" WHERE id = ?", stored[i]); err != nil {
					t.Fatal(err)
				}
				stored = slices.Delete(stored, i, i+1)
			}
			t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) { checkAggregates(t, db) })
		}
		if _, err := db.write.Exec("DELETE FROM replays"); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"bot_records", "bot_matches", "game_matches", "match_entries", "seat_trouble", "bot_trouble"} {
			if got := queryRows(t, db, "SELECT * FROM "+table); len(got) != 0 {
				t.Errorf("%s after deleting every match: got %v, want no rows", table, got)
			}
		}
	})
}

// TestOpenUpgradesVersion3 opens a database of schema version 3 holding
// matches: the upgrade fills the aggregates from them, and later matches
// keep them right.
func TestOpenUpgradesVersion3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	makeV1DB(t, path)
	rawExec(t, path, upgrades[0], upgrades[1], "PRAGMA user_version = 3", fmt.Sprintf("PRAGMA application_id = %d", applicationID), `
		INSERT INTO replays VALUES ('`+testID(1)+`', 'worms', 'base', 1, '{}', x'00', 0);
		INSERT INTO replays VALUES ('`+testID(2)+`', 'worms', 'final', 2, '{}', x'00', 0);
		INSERT INTO replays VALUES ('`+testID(3)+`', 'snake', 'base', 3, '{}', x'00', 0);
		INSERT INTO matches VALUES (1, '`+testID(1)+`', 'worms', 'base', 1, 0, 'won', 'old', 1, 0);
		INSERT INTO matches VALUES (2, '`+testID(2)+`', 'worms', 'final', 1, NULL, 'draw', 'old', 1, 0);
		INSERT INTO matches VALUES (3, '`+testID(3)+`', 'snake', 'base', 1, 2, 'won', 'old', 1, 0);
		INSERT INTO bots VALUES (1, 'worms', 'ant', '1'), (2, 'worms', 'ant', '2'), (3, 'snake', 'ant', '1'), (4, 'snake', 'bee', '1');
		INSERT INTO match_players VALUES (1, 0, 1, 4, 1, 'win'), (1, 1, 2, 2, 2, 'loss');
		INSERT INTO match_players VALUES (2, 0, 1, 3, 1, 'draw'), (2, 1, 1, 3, 1, 'draw');
		INSERT INTO match_players VALUES (3, 0, 3, 1, 2, 'loss'), (3, 1, 4, 0, 3, 'loss'), (3, 2, 3, 6, 1, 'win');`)
	db := openUpgraded(t, path)
	ctx := context.Background()
	got, err := db.Bots(ctx, "")
	// A version in two seats of a match played it once, at its best seat.
	want := []BotSummary{
		{Game: "snake", Ruleset: "base", Name: "ant", Version: "1", Matches: 1, Seats: 2, Wins: 1, MeanScore: 6},
		{Game: "snake", Ruleset: "base", Name: "bee", Version: "1", Matches: 1, Seats: 1, Losses: 1, MeanScore: 0},
		{Game: "worms", Ruleset: "base", Name: "ant", Version: "1", Matches: 1, Seats: 1, Wins: 1, MeanScore: 4},
		{Game: "worms", Ruleset: "base", Name: "ant", Version: "2", Matches: 1, Seats: 1, Losses: 1, MeanScore: 2},
		{Game: "worms", Ruleset: "final", Name: "ant", Version: "1", Matches: 1, Seats: 2, Draws: 1, MeanScore: 3},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Bots after the upgrade:\n got %+v, %v\nwant %+v", got, err, want)
	}
	if _, total, err := db.BotMatches(ctx, "worms", "ant", 15); total != 2 || err != nil {
		t.Errorf("BotMatches(worms, ant): got %d matches, %v; want 2", total, err)
	}
	checkAggregates(t, db)
	mustIngest(t, db, makeRecord(t, recordSpec{id: testID(4), game: "snake", turns: 1, winner: 0,
		players: []Player{{"ant", "1"}, {"bee", "1"}}}))
	checkAggregates(t, db)
}

func TestBotMatches(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		// alpha plays in versions 1 and 2, against itself in match 3; beta
		// plays every match; gamma only snake.
		specs := []recordSpec{
			{players: []Player{{"alpha", "1"}, {"beta", "1"}}, winner: 0},
			{players: []Player{{"beta", "1"}, {"alpha", "2"}}, winner: 0},
			{players: []Player{{"alpha", "1"}, {"alpha", "2"}, {"beta", "1"}}, winner: 2},
			{players: []Player{{"beta", "1"}, {"beta", "2"}}, winner: -1},
			{game: "snake", players: []Player{{"alpha", "1"}, {"gamma", "1"}}, winner: 1},
		}
		for i, s := range specs {
			s.id, s.turns = testID(i+1), 1
			mustIngest(t, db, makeRecord(t, s))
		}
		tests := []struct {
			game, name string
			limit      int
			want       []int
			total      int
		}{
			{"worms", "alpha", 15, []int{3, 2, 1}, 3},
			{"worms", "alpha", 2, []int{3, 2}, 3},
			{"worms", "beta", 3, []int{4, 3, 2}, 4},
			{"snake", "alpha", 15, []int{5}, 1},
			{"snake", "beta", 15, []int{}, 0},
			{"chess", "alpha", 15, []int{}, 0},
		}
		for _, tt := range tests {
			t.Run(tt.game+"/"+tt.name, func(t *testing.T) {
				ms, total, err := db.BotMatches(context.Background(), tt.game, tt.name, tt.limit)
				got := testNumbers(ms, len(specs))
				if err != nil || !slices.Equal(got, tt.want) || total != tt.total {
					t.Errorf("got %v of %d, %v; want %v of %d", got, total, err, tt.want, tt.total)
				}
			})
		}
		for _, limit := range []int{0, -1, MaxLimit + 1} {
			if _, _, err := db.BotMatches(context.Background(), "worms", "alpha", limit); !errors.Is(err, ErrInvalid) {
				t.Errorf("BotMatches with limit %d: got %v, want an invalid-input error", limit, err)
			}
		}
	})
}

// TestOpenUpgradesVersion10 opens a database of schema version 10, which
// counted seats: the upgrade gives FoodFight's four-seat (TEAM) matches
// their teams, and recounts every aggregate per bot version and without
// meetings of team-mates.
func TestOpenUpgradesVersion10(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v10.db")
	makeV1DB(t, path)
	rawExec(t, path, upgrades[:9]...)
	rawExec(t, path, "PRAGMA user_version = 10", fmt.Sprintf("PRAGMA application_id = %d", applicationID), `
		INSERT INTO replays VALUES ('`+testID(1)+`', 'foodfight', 'base', 1, '{}', x'00', 0);
		INSERT INTO replays VALUES ('`+testID(2)+`', 'snake', 'base', 2, '{}', x'00', 0);
		INSERT INTO matches VALUES (1, '`+testID(1)+`', 'foodfight', 'base', 1, 0, 'won', 'old', 1, 0);
		INSERT INTO matches VALUES (2, '`+testID(2)+`', 'snake', 'base', 1, 1, 'won', 'old', 1, 0);
		INSERT INTO bots VALUES (1, 'foodfight', 'thrower', '1'), (2, 'foodfight', 'dummy', '1'), (3, 'foodfight', 'random', '1'),
			(4, 'snake', 'greedy', '1'), (5, 'snake', 'random', '1');
		INSERT INTO match_players VALUES (1, 0, 1, 30, 1, 'win'), (1, 1, 2, 30, 1, 'win'), (1, 2, 3, 10, 2, 'loss'), (1, 3, 3, 10, 2, 'loss');
		INSERT INTO match_players VALUES (2, 0, 4, 2, 3, 'loss'), (2, 1, 4, 9, 1, 'win'), (2, 2, 5, 5, 2, 'loss');`)
	db := openUpgraded(t, path)
	checkAggregates(t, db)
	checkPairs(t, db)
	if got := queryRows(t, db, `SELECT match_seq, seat, team FROM match_players ORDER BY match_seq, seat`); fmt.Sprint(got) !=
		"[[1 0 0] [1 1 0] [1 2 2] [1 3 2] [2 0 0] [2 1 1] [2 2 2]]" {
		t.Errorf("teams after the upgrade: got %v", got)
	}
	got, err := db.Bots(context.Background(), "")
	want := []BotSummary{
		{Game: "foodfight", Ruleset: "base", Name: "dummy", Version: "1", Matches: 1, Seats: 1, Wins: 1, MeanScore: 30},
		{Game: "foodfight", Ruleset: "base", Name: "random", Version: "1", Matches: 1, Seats: 2, Losses: 1, MeanScore: 10},
		{Game: "foodfight", Ruleset: "base", Name: "thrower", Version: "1", Matches: 1, Seats: 1, Wins: 1, MeanScore: 30},
		{Game: "snake", Ruleset: "base", Name: "greedy", Version: "1", Matches: 1, Seats: 2, Wins: 1, MeanScore: 9},
		{Game: "snake", Ruleset: "base", Name: "random", Version: "1", Matches: 1, Seats: 1, Losses: 1, MeanScore: 5},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Bots after the upgrade:\n got %+v, %v\nwant %+v", got, err, want)
	}
	// thrower-random, dummy-random and greedy-random; thrower and dummy
	// were team-mates.
	if n := len(storedPairs(t, db)); n != 3 {
		t.Errorf("pair records after the upgrade: got %d, want 3", n)
	}
}
