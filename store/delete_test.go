package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// contentQueries read every table a match adds to or counts into, with
// bots by name and matches by id instead of their numbers: a database
// that deleted matches and one that imported only the others number them
// differently. pair_records puts the lesser name and version first, as
// the lower bot id comes first in the table, flipping its counts with it.
var contentQueries = []struct{ name, query string }{
	{"replays", `SELECT id, game, ruleset, seed, config, encoded FROM replays ORDER BY id`},
	{"matches", `SELECT id, game, ruleset, turns, winner, reason, engine_version FROM matches ORDER BY id`},
	{"bots", `SELECT game, name, version FROM bots ORDER BY game, name, version`},
	{"match_players", `
		SELECT m.id, p.seat, b.name, b.version, p.score, p.rank, p.outcome, p.team, p.fingerprint
		FROM match_players p JOIN matches m ON m.seq = p.match_seq JOIN bots b ON b.id = p.bot_id
		ORDER BY m.id, p.seat`},
	{"match_entries", `
		SELECT m.id, b.name, b.version, e.seat, e.seats, e.team, e.score, e.rank, e.outcome
		FROM match_entries e JOIN matches m ON m.seq = e.match_seq JOIN bots b ON b.id = e.bot_id
		ORDER BY m.id, b.name, b.version`},
	{"match_lines", `SELECT m.id, l.data FROM match_lines l JOIN matches m ON m.seq = l.match_seq ORDER BY 1`},
	{"match_events", `SELECT m.id, e.data FROM match_events e JOIN matches m ON m.seq = e.match_seq ORDER BY 1`},
	{"bot_output", `SELECT m.id, o.turn, o.seat, o.stream, o.text FROM bot_output o JOIN matches m ON m.seq = o.match_seq ORDER BY 1, 2, 3, 4`},
	{"bot_records", `
		SELECT b.game, r.ruleset, b.name, b.version, r.matches, r.seats, r.wins, r.draws, r.losses, r.score_sum
		FROM bot_records r JOIN bots b ON b.id = r.bot_id ORDER BY 1, 2, 3, 4`},
	{"seat_trouble", `
		SELECT m.id, t.seat, b.name, b.version, t.crash_turn, t.timeouts, t.first_timeout, t.invalid, t.first_invalid, t.oversize, t.first_oversize
		FROM seat_trouble t JOIN matches m ON m.seq = t.match_seq JOIN bots b ON b.id = t.bot_id
		ORDER BY m.id, t.seat`},
	{"bot_trouble", `
		SELECT b.game, t.ruleset, b.name, b.version, t.seats, t.crashed, t.timed_out, t.timeouts, t.invalid_seats, t.invalid, t.oversized, t.oversize
		FROM bot_trouble t JOIN bots b ON b.id = t.bot_id ORDER BY 1, 2, 3, 4`},
	{"bot_matches", `SELECT game, name, matches FROM bot_matches ORDER BY game, name`},
	{"game_matches", `SELECT game, ruleset, matches FROM game_matches ORDER BY game, ruleset`},
	{"pair_records", `
		SELECT game, ruleset, a1, a2, b1, b2, meetings, CASE WHEN ab = 1 THEN a_wins ELSE b_wins END, draws,
			CASE WHEN ab = 1 THEN b_wins ELSE a_wins END, CASE WHEN ab = 1 THEN diff_sum ELSE -diff_sum END, diff_sq_sum
		FROM (SELECT p.*, a.name AS a1, a.version AS a2, b.name AS b1, b.version AS b2, 1 AS ab
			FROM pair_records p JOIN bots a ON a.id = p.bot_a JOIN bots b ON b.id = p.bot_b
			WHERE (a.name, a.version) < (b.name, b.version)
			UNION ALL
			SELECT p.*, b.name, b.version, a.name, a.version, 0
			FROM pair_records p JOIN bots a ON a.id = p.bot_a JOIN bots b ON b.id = p.bot_b
			WHERE (a.name, a.version) > (b.name, b.version)) AS u
		ORDER BY 1, 2, 3, 4, 5, 6`},
}

// ratingInputs returns what a rating fit reads of every game and ruleset
// (Placings), each match named by its id.
func ratingInputs(t *testing.T, db *DB) []string {
	t.Helper()
	ctx := context.Background()
	counts, err := db.RulesetCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range counts {
		err := db.Placings(ctx, c.Game, c.Ruleset, func(m MatchPlacings) error {
			var id string
			if err := db.read.QueryRow(`SELECT id FROM matches WHERE seq = ?`, m.Seq).Scan(&id); err != nil {
				return err
			}
			for _, p := range m.Seats {
				out = append(out, fmt.Sprintf("%s/%s %s seat %d %s@%s rank %d team %d",
					c.Game, c.Ruleset, id[:MinPrefix], p.Seat, p.Name, p.Version, p.Rank, p.Team))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// withOutput gives rec a piece of bot output of each seat, so deleting it
// must delete those too.
func withOutput(rec *Record) *Record {
	for seat := range rec.Players {
		rec.Output = append(rec.Output, BotOutput{Turn: rec.Turns, Seat: seat, Stream: Stderr, Text: "bye from " + rec.ID[:4]})
	}
	return rec
}

// TestDeleteEqualsFreshImport deletes matches in rounds, by full ids and
// prefixes, several at a time, and checks after each that every table
// (aggregates and rating inputs included) holds what a fresh database
// importing only the remaining matches holds. The last round deletes
// every match of one game and ruleset, whose rating fit must go too; a
// ruleset that lost some matches keeps its fit without its state.
func TestDeleteEqualsFreshImport(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		r := rand.New(rand.NewPCG(22, 7))
		var recs []*Record
		for n := range 60 {
			rec := randomRecord(t, r, n+1)
			if n%3 == 0 {
				withOutput(rec)
			}
			if n == 1 { // a bot of one match, which its delete must remove
				rec.Players[0] = Player{Name: "solo", Version: "1"}
			}
			mustIngest(t, db, rec)
			recs = append(recs, rec)
		}
		for _, c := range mustRulesetCounts(t, db) {
			if err := db.SaveRatings(ctx, &FittedRatings{Game: c.Game, Ruleset: c.Ruleset, Matches: c.Matches, LastSeq: c.LastSeq,
				FittedAt: time.UnixMilli(1), Problem: "a fit to be dropped with the ruleset's last match", State: []byte{1}}); err != nil {
				t.Fatal(err)
			}
		}
		ofRuleset := func(game, ruleset string) []string {
			var ids []string
			for _, rec := range recs {
				if rec.Game == game && rec.Ruleset == ruleset {
					ids = append(ids, rec.ID)
				}
			}
			return ids
		}
		rounds := [][]string{
			{recs[0].ID, recs[5].ID[:MinPrefix], strings.ToUpper(recs[9].ID[:20])},
			{recs[1].ID},
			{recs[2].ID, recs[3].ID, recs[4].ID, recs[6].ID, recs[7].ID, recs[8].ID, recs[10].ID, recs[11].ID},
			nil, // every snake/final match left
		}
		lost := map[string]bool{} // game/ruleset → some match deleted
		for i, ids := range rounds {
			if ids == nil {
				ids = ofRuleset("snake", "final")
			}
			deleted, err := db.DeleteMatches(ctx, ids)
			if err != nil || len(deleted) != len(ids) {
				t.Fatalf("round %d: DeleteMatches(%d ids): got %d deleted, %v", i, len(ids), len(deleted), err)
			}
			for _, d := range deleted {
				lost[d.Game+"/"+d.Ruleset] = true
			}
			var left []*Record
			for _, rec := range recs {
				if !slices.ContainsFunc(deleted, func(d DeletedMatch) bool { return d.ID == rec.ID }) {
					left = append(left, rec)
				}
			}
			recs = left
			fresh := open(t)
			if n, err := fresh.IngestMany(ctx, recs); err != nil || n != len(recs) {
				t.Fatalf("fresh import: got %d, %v; want %d", n, err, len(recs))
			}
			for _, q := range contentQueries {
				if got, want := queryRows(t, db, q.query), queryRows(t, fresh, q.query); !reflect.DeepEqual(got, want) {
					t.Errorf("round %d: %s after delete:\n got %v\nwant %v (a fresh import of the rest)", i, q.name, got, want)
				}
			}
			if got, want := ratingInputs(t, db), ratingInputs(t, fresh); !slices.Equal(got, want) {
				t.Errorf("round %d: rating inputs after delete:\n got %v\nwant %v (a fresh import of the rest)", i, got, want)
			}
			checkAggregates(t, db)
			checkPairs(t, db)
		}
		fits := queryRows(t, db, `SELECT game, ruleset FROM rating_fits ORDER BY 1, 2`)
		if want := queryRows(t, db, `SELECT game, ruleset FROM game_matches ORDER BY 1, 2`); !reflect.DeepEqual(fits, want) {
			t.Errorf("rating fits after deleting every snake/final match: got %v, want those of the rulesets with matches, %v", fits, want)
		}
		for _, f := range queryRows(t, db, `SELECT game || '/' || ruleset, state IS NULL FROM rating_fits`) {
			if cleared := f[1] != int64(0) && f[1] != false; cleared != lost[f[0].(string)] {
				t.Errorf("rating fit of %s: got its state cleared %v, want %v (some of its matches deleted)", f[0], cleared, lost[f[0].(string)])
			}
		}
	})
}

func mustRulesetCounts(t *testing.T, db *DB) []RulesetCount {
	t.Helper()
	cs, err := db.RulesetCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestDeleteMatchesRefuses checks that ids naming no match, or several,
// delete nothing, and that the error names every such id.
func TestDeleteMatchesRefuses(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		for n := 1; n <= 40; n++ {
			mustIngest(t, db, makeRecord(t, recordSpec{id: testID(n), turns: 1, winner: 0}))
		}
		// Two of the 40 ids that share their first hex digit: a one-digit
		// prefix padded to MinPrefix names neither, a shared prefix both.
		unknown := strings.Repeat("f", 63) + "0"
		tests := []struct {
			name     string
			ids      []string
			kind     error
			mentions []string
		}{
			{"unknown", []string{unknown}, ErrNotFound, []string{unknown}},
			{"unknown prefix", []string{"00000000"}, ErrNotFound, []string{"00000000"}},
			{"known and unknown", []string{testID(1), unknown, "0000000000"}, ErrNotFound, []string{unknown, "0000000000"}},
			{"not hex", []string{testID(2), "match-one"}, ErrInvalid, []string{`"match-one"`}},
			{"too short", []string{"abc"}, ErrInvalid, []string{`"abc"`}},
		}
		before := queryRows(t, db, contentQueries[1].query)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				deleted, err := db.DeleteMatches(context.Background(), tt.ids)
				if !errors.Is(err, tt.kind) || deleted != nil {
					t.Fatalf("got %v, %v; want nothing deleted and an error of kind %v", deleted, err, tt.kind)
				}
				for _, m := range tt.mentions {
					if !strings.Contains(err.Error(), m) {
						t.Errorf("error %q does not name %s", err, m)
					}
				}
				if got := queryRows(t, db, contentQueries[1].query); !reflect.DeepEqual(got, before) {
					t.Errorf("matches changed: %d stored, want %d", len(got), len(before))
				}
			})
		}
	})
}

// TestDeleteWhileUploading deletes a match again and again while it is
// uploaded again and again, its output with it: whichever wins, the
// database holds the match whole (its output included) or not at all,
// and the aggregates equal a recount.
func TestDeleteWhileUploading(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		rec := withOutput(makeRecord(t, recordSpec{id: testID(1), turns: 12, units: 2, winner: 1}))
		other := makeRecord(t, recordSpec{id: testID(2), turns: 3, winner: 0})
		mustIngest(t, db, other)
		const rounds = 60
		var wg sync.WaitGroup
		errs := make(chan error, 2*rounds)
		wg.Go(func() {
			for range rounds {
				if _, _, err := db.Upload(ctx, rec); err != nil {
					errs <- fmt.Errorf("upload: %w", err)
				}
			}
		})
		wg.Go(func() {
			for range rounds {
				if _, err := db.DeleteMatches(ctx, []string{rec.ID}); err != nil && !errors.Is(err, ErrNotFound) {
					errs <- fmt.Errorf("delete: %w", err)
				}
			}
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		checkAggregates(t, db)
		checkPairs(t, db)
		stored, err := db.HasMatch(ctx, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool][]int{false: {0, 0, 0, 0, 0, 0}, true: {1, 1, len(rec.Players), 1, 1, len(rec.Output)}}[stored]
		var got []int
		for _, table := range []string{"replays", "matches", "match_players", "match_lines", "match_events", "bot_output"} {
			var n int
			q := `SELECT count(*) FROM ` + table + ` WHERE match_seq = (SELECT seq FROM matches WHERE id = ?)`
			if table == "replays" || table == "matches" {
				q = `SELECT count(*) FROM ` + table + ` WHERE id = ?`
			}
			if err := db.read.QueryRow(q, rec.ID).Scan(&n); err != nil {
				t.Fatal(err)
			}
			got = append(got, n)
		}
		if !slices.Equal(got, want) {
			t.Errorf("rows of the match (stored: %v) in replays, matches, match_players, match_lines, match_events, bot_output: got %v, want %v", stored, got, want)
		}
	})
}

// TestUploadAttachesOutput uploads a match's bot output after the match,
// and again: the first attaches it, the second changes nothing. Output
// that does not fit the stored match is refused, and nothing is stored.
func TestUploadAttachesOutput(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		plain := makeRecord(t, recordSpec{id: testID(1), turns: 5, winner: 0})
		mustIngest(t, db, plain)
		piece := func(turn, seat int, text string) BotOutput {
			return BotOutput{Turn: turn, Seat: seat, Stream: Stdout, Text: text}
		}
		with := func(turns int, out ...BotOutput) *Record {
			rec := makeRecord(t, recordSpec{id: testID(1), turns: turns, winner: 0})
			rec.Output = out
			return rec
		}
		stored := func() []string {
			var out []string
			for _, r := range queryRows(t, db, contentQueries[7].query) {
				out = append(out, strings.TrimSpace(fmt.Sprintln(r[1:]...)))
			}
			return out
		}
		tests := []struct {
			name    string
			rec     *Record
			want    OutputFate
			wantErr error
			output  []string
		}{
			{"no output", plain, NoOutput, nil, nil},
			{"output past the stored match's end", with(9, piece(8, 0, "late")), NoOutput, ErrInvalid, nil},
			{"attached", with(5, piece(0, 1, "hello"), piece(5, 0, "bye")), OutputStored, nil, []string{"0 1 stdout hello", "5 0 stdout bye"}},
			{"again", with(5, piece(0, 1, "hello"), piece(5, 0, "bye")), OutputKept, nil, []string{"0 1 stdout hello", "5 0 stdout bye"}},
			{"other output", with(5, piece(2, 0, "other")), OutputKept, nil, []string{"0 1 stdout hello", "5 0 stdout bye"}},
			{"none again", plain, NoOutput, nil, []string{"0 1 stdout hello", "5 0 stdout bye"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				created, fate, err := db.Upload(ctx, tt.rec)
				if created || fate != tt.want || !errors.Is(err, tt.wantErr) {
					t.Errorf("Upload: got created %v, output %v, %v; want false, %v, %v", created, fate, err, tt.want, tt.wantErr)
				}
				if got := stored(); !slices.Equal(got, tt.output) {
					t.Errorf("stored output: got %q, want %q", got, tt.output)
				}
			})
		}
		created, fate, err := db.Upload(ctx, withOutput(makeRecord(t, recordSpec{id: testID(2), turns: 2, winner: 1})))
		if !created || fate != OutputStored || err != nil {
			t.Errorf("Upload of a new match with output: got created %v, output %v, %v; want true, %v, nil", created, fate, err, OutputStored)
		}
		checkAggregates(t, db)
	})
}
