package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// pairKey names a pair record.
type pairKey struct {
	game, ruleset string
	a, b          int64
}

// pairCounts is a pair record's numbers.
type pairCounts struct {
	meetings, aWins, draws, bWins int
	diffSum, diffSqSum            float64
}

// storedPairs reads pair_records whole.
func storedPairs(t *testing.T, db *DB) map[pairKey]pairCounts {
	t.Helper()
	rows, err := db.read.Query(`SELECT game, ruleset, bot_a, bot_b, meetings, a_wins, draws, b_wins, diff_sum, diff_sq_sum FROM pair_records`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[pairKey]pairCounts{}
	for rows.Next() {
		var k pairKey
		var c pairCounts
		if err := rows.Scan(&k.game, &k.ruleset, &k.a, &k.b, &c.meetings, &c.aWins, &c.draws, &c.bWins, &c.diffSum, &c.diffSqSum); err != nil {
			t.Fatal(err)
		}
		got[k] = c
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// recountPairs counts the pairs again from the seats of every match (each
// version at its best seat, entriesQuery), in Go, the way the schema
// defines a meeting.
func recountPairs(t *testing.T, db *DB) map[pairKey]pairCounts {
	t.Helper()
	rows, err := db.read.Query(`SELECT m.seq, m.game, m.ruleset, e.bot_id, e.rank, e.score, e.team
		FROM (` + entriesQuery + `) e JOIN matches m ON m.seq = e.match_seq ORDER BY m.seq, e.seat`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type seat struct {
		bot   int64
		rank  int
		score float64
		team  int
	}
	type match struct {
		game, ruleset string
		seats         []seat
	}
	matches := map[int64]*match{}
	for rows.Next() {
		var seq int64
		var g, r string
		var s seat
		if err := rows.Scan(&seq, &g, &r, &s.bot, &s.rank, &s.score, &s.team); err != nil {
			t.Fatal(err)
		}
		if matches[seq] == nil {
			matches[seq] = &match{game: g, ruleset: r}
		}
		matches[seq].seats = append(matches[seq].seats, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[pairKey]pairCounts{}
	for _, m := range matches {
		for i, s := range m.seats {
			for _, o := range m.seats[i+1:] {
				if s.bot == o.bot || s.team == o.team {
					continue
				}
				x, y := s, o
				if x.bot > y.bot {
					x, y = o, s
				}
				k := pairKey{m.game, m.ruleset, x.bot, y.bot}
				c := want[k]
				c.meetings++
				switch {
				case x.rank < y.rank:
					c.aWins++
				case x.rank == y.rank:
					c.draws++
				default:
					c.bWins++
				}
				d := x.score - y.score
				c.diffSum += d
				c.diffSqSum += d * d
				want[k] = c
			}
		}
	}
	return want
}

// checkPairs compares pair_records with a recount; sums of scores may
// differ in their last bits, being added in another order.
func checkPairs(t *testing.T, db *DB) {
	t.Helper()
	got, want := storedPairs(t, db), recountPairs(t, db)
	if len(got) != len(want) {
		t.Errorf("got %d pair records, want %d", len(got), len(want))
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*max(1, math.Abs(y)) }
	for k, w := range want {
		g, ok := got[k]
		if !ok || g.meetings != w.meetings || g.aWins != w.aWins || g.draws != w.draws || g.bWins != w.bWins ||
			!near(g.diffSum, w.diffSum) || !near(g.diffSqSum, w.diffSqSum) {
			t.Errorf("pair %v: got %+v (stored %v), want %+v", k, g, ok, w)
		}
	}
}

// seatResult is a seat's result with the outcome its rank implies.
func seatResult(rank int, score float64) sim.PlayerResult {
	o := sim.Loss
	if rank == 1 {
		o = sim.Win
	}
	return sim.PlayerResult{Rank: rank, Score: score, Outcome: o}
}

// randomMatch is a synthetic match of 1 to 5 seats drawn from a few bot
// versions, with random ranks (ties included) and scores, a third of them
// in teams.
func randomMatch(t *testing.T, r *rand.Rand, n int) *Record {
	t.Helper()
	bots := []Player{{"alpha", "1"}, {"alpha", "2"}, {"beta", "1"}, {"gamma", "1"}}
	s := recordSpec{id: testID(n), game: "snake", ruleset: []string{"base", "final"}[r.IntN(2)], winner: -1}
	teams := r.IntN(3) == 0
	for range 1 + r.IntN(5) {
		s.players = append(s.players, bots[r.IntN(len(bots))])
		res := seatResult(1+r.IntN(3), float64(r.IntN(40))/4-3)
		if teams {
			res.Team = 1 + r.IntN(2)
		}
		s.results = append(s.results, res)
	}
	return makeRecord(t, s)
}

func TestPairRecordsFollowInsertsAndDeletes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		r := rand.New(rand.NewPCG(13, 2))
		var stored []string
		for n := range 60 {
			rec := randomMatch(t, r, n)
			mustIngest(t, db, rec)
			stored = append(stored, rec.ID)
		}
		checkPairs(t, db)
		if len(storedPairs(t, db)) == 0 {
			t.Fatal("no pair records after 60 random matches")
		}
		// Delete a third of the matches directly and a third through their
		// replays, whose delete cascades to the match and its players.
		r.Shuffle(len(stored), func(i, j int) { stored[i], stored[j] = stored[j], stored[i] })
		for i, id := range stored[:40] {
			table := "matches"
			if i%2 == 1 {
				table = "replays"
			}
			if _, err := db.write.Exec("DELETE FROM "+table+" WHERE id = ?", id); err != nil {
				t.Fatalf("delete from %s: %v", table, err)
			}
			if i%10 == 9 {
				checkPairs(t, db)
			}
		}
		for n := 100; n < 120; n++ {
			mustIngest(t, db, randomMatch(t, r, n))
		}
		checkPairs(t, db)
		if _, err := db.write.Exec("DELETE FROM replays"); err != nil {
			t.Fatal(err)
		}
		if got := storedPairs(t, db); len(got) != 0 {
			t.Errorf("after deleting every match: got %d pair records, want none", len(got))
		}
	})
}

func TestPairRecordsHandWorked(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		x, y, z := Player{"x", "1"}, Player{"y", "1"}, Player{"z", "1"}
		specs := []recordSpec{
			// Four seats, x in two of them: x plays at its best seat, the
			// first. Meetings: x-y (x wins by 3), x-z (x by 9), y-z (y by 6).
			{game: "snake", players: []Player{x, y, x, z},
				results: []sim.PlayerResult{seatResult(1, 10), seatResult(2, 7), seatResult(3, 4), seatResult(4, 1)}},
			// x and y share first place: a draw, level on score.
			{game: "snake", players: []Player{x, y},
				results: []sim.PlayerResult{seatResult(1, 5), seatResult(1, 5)}},
			// x against itself: no meeting at all.
			{game: "snake", players: []Player{x, x},
				results: []sim.PlayerResult{seatResult(1, 5), seatResult(2, 1)}},
			// Another ruleset is another board.
			{game: "snake", ruleset: "final", players: []Player{z, y},
				results: []sim.PlayerResult{seatResult(1, 2.5), seatResult(2, 0)}},
		}
		for i, s := range specs {
			s.id, s.winner = testID(i+1), -1
			mustIngest(t, db, makeRecord(t, s))
		}
		ctx := context.Background()
		h, err := db.HeadToHead(ctx, "snake", "base", 40)
		if err != nil {
			t.Fatal(err)
		}
		// Bots get ids in the order they first play: x, y, z.
		ids := map[string]int64{}
		for _, b := range h.Bots {
			ids[b.Name] = b.ID
		}
		bv := func(name string) BotVersion { return BotVersion{ids[name], name, "1"} }
		want := HeadToHead{Game: "snake", Ruleset: "base", TotalBots: 3,
			// Meetings: x 2+1 = 3, y 2+1 = 3, z 2.
			Bots: []BotVersion{bv("x"), bv("y"), bv("z")},
			Pairs: []PairRecord{
				{A: bv("x"), B: bv("y"), Meetings: 2, AWins: 1, Draws: 1, DiffSum: 3, DiffSqSum: 9},
				{A: bv("x"), B: bv("z"), Meetings: 1, AWins: 1, DiffSum: 9, DiffSqSum: 81},
				{A: bv("y"), B: bv("z"), Meetings: 1, AWins: 1, DiffSum: 6, DiffSqSum: 36},
			},
		}
		if !reflect.DeepEqual(h, want) {
			t.Errorf("HeadToHead(snake, base):\ngot  %+v\nwant %+v", h, want)
		}
		h, err = db.HeadToHead(ctx, "snake", "final", 40)
		wantFinal := []PairRecord{{A: bv("y"), B: bv("z"), Meetings: 1, BWins: 1, DiffSum: -2.5, DiffSqSum: 6.25}}
		if err != nil || !reflect.DeepEqual(h.Pairs, wantFinal) {
			t.Errorf("HeadToHead(snake, final): got %+v, %v; want pairs %+v", h.Pairs, err, wantFinal)
		}
		h, err = db.HeadToHead(ctx, "snake", "base", 2)
		if err != nil || len(h.Bots) != 2 || h.TotalBots != 3 || len(h.Pairs) != 1 || h.Pairs[0].B.Name != "y" {
			t.Errorf("HeadToHead of at most 2 bots: got %+v, %v; want x and y of 3, and their pair", h, err)
		}
		h, err = db.HeadToHead(ctx, "worms", "base", 40)
		if err != nil || len(h.Bots) != 0 || len(h.Pairs) != 0 {
			t.Errorf("HeadToHead of a board with no meetings: got %+v, %v; want it empty", h, err)
		}
		if _, err := db.HeadToHead(ctx, "snake", "base", 0); !errors.Is(err, ErrInvalid) {
			t.Errorf("HeadToHead of 0 bots: got %v, want ErrInvalid", err)
		}
	})
}

// TestEntryDeleteAndUpdate deletes a bot's entry and seat on their own,
// which un-meets the entries still stored, and updates seats and entries,
// which the schema refuses: the records count entries as they were
// inserted.
func TestEntryDeleteAndUpdate(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		x, y, z := Player{"x", "1"}, Player{"y", "1"}, Player{"z", "1"}
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(1), game: "snake", winner: 0, players: []Player{x, y, z},
			results: []sim.PlayerResult{seatResult(1, 9), seatResult(2, 4), seatResult(3, 1)}}))
		for _, stmt := range []string{"DELETE FROM match_entries WHERE seat = 0", "DELETE FROM match_players WHERE seat = 0"} {
			if _, err := db.write.Exec(stmt); err != nil {
				t.Fatalf("%s: %v", stmt, err)
			}
		}
		checkPairs(t, db)
		checkAggregates(t, db)
		if got := storedPairs(t, db); len(got) != 1 {
			t.Errorf("after deleting x's seat: got %d pair records, want 1 (y-z)", len(got))
		}
		for _, stmt := range []string{
			"UPDATE match_players SET rank = 3 WHERE seat = 1",
			"UPDATE match_players SET outcome = 'win' WHERE seat = 2",
			"UPDATE match_entries SET team = 1 WHERE seat = 2",
		} {
			if _, err := db.write.Exec(stmt); err == nil {
				t.Errorf("%s: got no error, want the trigger to refuse it", stmt)
			}
		}
		checkPairs(t, db)
	})
}

// TestTeamMatesNeverMeet: in a FoodFight TEAM match, the pair_records hold
// the four meetings across the teams and none within them, and a bot in
// both seats of the losing team meets each winner once.
func TestTeamMatesNeverMeet(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		thrower, dummy, random := Player{"thrower", "1"}, Player{"dummy", "1"}, Player{"random", "1"}
		team := func(rank, team int, score float64) sim.PlayerResult {
			r := seatResult(rank, score)
			r.Team = team
			return r
		}
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(1), game: "foodfight", winner: 0,
			players: []Player{thrower, dummy, random, random},
			results: []sim.PlayerResult{team(1, 1, 30), team(1, 1, 30), team(2, 2, 10), team(2, 2, 10)}}))
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(2), game: "foodfight", winner: 0,
			players: []Player{thrower, random, dummy, thrower},
			results: []sim.PlayerResult{team(1, 1, 20), team(1, 1, 20), team(2, 2, 5), team(2, 2, 5)}}))
		checkPairs(t, db)
		checkAggregates(t, db)
		h, err := db.HeadToHead(context.Background(), "foodfight", "base", 10)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, p := range h.Pairs {
			got[p.A.Name+"-"+p.B.Name] = fmt.Sprintf("%d: %d-%d-%d", p.Meetings, p.AWins, p.Draws, p.BWins)
		}
		// Match 1: thrower and dummy each beat random. Match 2: thrower sits
		// in both teams and plays at its winning seat, with random: both beat
		// dummy. Thrower and dummy were team-mates once and never met.
		want := map[string]string{"thrower-random": "1: 1-0-0", "dummy-random": "2: 1-0-1", "thrower-dummy": "1: 1-0-0"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("pairs: got %v, want %v", got, want)
		}
	})
}

// TestOpenUpgradesFillsPairs opens a database of schema version 3 holding
// matches: the upgrade fills pair_records from them.
func TestOpenUpgradesFillsPairs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	makeV1DB(t, path)
	rawExec(t, path, upgrades[0], upgrades[1], "PRAGMA user_version = 3", fmt.Sprintf("PRAGMA application_id = %d", applicationID))
	var stmts []string
	for seq, players := range [][]int{{1, 2}, {1, 2, 1, 3}, {2, 2}, {3, 1}} {
		id := testID(seq)
		stmts = append(stmts, fmt.Sprintf(`
			INSERT INTO replays VALUES ('%s', 'snake', 'base', 1, '{}', x'00', 0);
			INSERT INTO matches VALUES (%d, '%s', 'snake', 'base', 1, NULL, 'over', 'old', 1, 0);`, id, seq+1, id))
		for seat, bot := range players {
			stmts = append(stmts, fmt.Sprintf(`INSERT OR IGNORE INTO bots VALUES (%d, 'snake', 'bot%d', '1');
				INSERT INTO match_players VALUES (%d, %d, %d, %d, %d, 'loss');`, bot, bot, seq+1, seat, bot, 3*seat-bot, 1+(seat*bot)%3))
		}
	}
	rawExec(t, path, stmts...)
	db := openUpgraded(t, path)
	checkPairs(t, db)
	if n := len(storedPairs(t, db)); n != 3 {
		t.Errorf("after the upgrade: got %d pair records, want 3 (bots 1-2, 1-3, 2-3)", n)
	}
}

func TestMatchesFilterVs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		league, multi := open(t), open(t)
		ingestLeague(t, league)
		ingestMultiSeat(t, multi)
		tests := []struct {
			name string
			db   *DB
			f    MatchFilter
			want []int // testID numbers, newest first
		}{
			{"every version", league, MatchFilter{Bot: "alpha", Vs: "beta"}, []int{4, 2, 1}},
			{"the bot's version", league, MatchFilter{Bot: "alpha", Version: "1", Vs: "beta"}, []int{4, 1}},
			{"the vs bot's version", league, MatchFilter{Bot: "alpha", Vs: "beta", VsVersion: "2"}, []int{4, 2, 1}},
			{"a version that never played", league, MatchFilter{Bot: "alpha", Vs: "beta", VsVersion: "1"}, nil},
			{"one game", league, MatchFilter{Game: "snake", Bot: "alpha", Vs: "gamma"}, []int{3}},
			{"with the bot's result", league, MatchFilter{Bot: "alpha", Vs: "beta", Outcome: sim.Win}, []int{1}},
			{"a version in two seats never meets itself", multi, MatchFilter{Bot: "greedy", Vs: "greedy"}, nil},
			{"team-mates never meet", multi, MatchFilter{Game: "foodfight", Bot: "hunter", Vs: "astar"}, nil},
			{"opponents of a team meet", multi, MatchFilter{Game: "foodfight", Bot: "hunter", Vs: "greedy"}, []int{3}},
			{"one seat is no meeting", multi, MatchFilter{Bot: "hunter", Vs: "hunter"}, nil},
			{"multi-seat", multi, MatchFilter{Game: "snake", Bot: "random", Vs: "astar"}, []int{2, 1}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ms, total, err := tt.db.Matches(context.Background(), tt.f)
				if err != nil {
					t.Fatalf("Matches(%+v): %v", tt.f, err)
				}
				got := testNumbers(ms, 4)
				if !reflect.DeepEqual(got, tt.want) || total != len(tt.want) {
					t.Errorf("Matches(%+v): got %v of %d, want %v", tt.f, got, total, tt.want)
				}
			})
		}
		for _, f := range []MatchFilter{{Vs: "beta"}, {Bot: "alpha", VsVersion: "1"}} {
			if _, _, err := league.Matches(context.Background(), f); !errors.Is(err, ErrInvalid) {
				t.Errorf("Matches(%+v): got %v, want ErrInvalid", f, err)
			}
		}
	})
}
