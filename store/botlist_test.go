package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// TestBotMatchListPages pages through the matches of bot filters with a
// count bound lower than what some of them select, and checks every page
// and total against a recount of the filter: the pages together list
// exactly the selected matches, newest first; a total is exact when the
// kept records or a complete read give it, and otherwise a lower bound
// that says so.
func TestBotMatchListPages(t *testing.T) {
	old := countBound
	countBound = 7
	t.Cleanup(func() { countBound = old })
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		r := rand.New(rand.NewPCG(25, 6))
		for n := range 80 {
			mustIngest(t, db, randomRecord(t, r, n+1))
		}
		for _, f := range []MatchFilter{
			{Bot: "ant"},
			{Bot: "ant", Game: "worms"},
			{Bot: "ant", Version: "2"},
			{Bot: "ant", Game: "snake", Version: "1", Outcome: sim.Win},
			{Bot: "ant", Game: "snake", Outcome: sim.Loss},
			{Bot: "bee", Ruleset: "final"},
			{Bot: "bee", Version: "1", Ruleset: "base", Outcome: sim.Draw},
			{Bot: "cat", Rank: 2},
			{Bot: "cat", Vs: "ant"},
			{Bot: "cat", Game: "worms", Vs: "bee", VsVersion: "2"},
			{Bot: "bee", Trouble: TroubleAny},
			{Bot: "dog"},
		} {
			want := recountBotFilter(t, db, f)
			var got []string
			for f.Offset = 0; ; f.Offset += 3 {
				f.Limit = 3
				l, err := db.MatchList(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case l.Exact && l.Total != len(want):
					t.Errorf("%+v: total %d, exact; want %d", f, l.Total, len(want))
				case !l.Exact && (l.Total > len(want) || l.Total < max(countBound, f.Offset+len(l.Matches)+1)):
					t.Errorf("%+v: total %d or more; want a bound from %d to %d", f, l.Total, max(countBound, f.Offset+len(l.Matches)+1), len(want))
				}
				for _, m := range l.Matches {
					got = append(got, m.ID)
				}
				if len(l.Matches) < f.Limit {
					break
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%+v: paged %d matches %v, want %d %v", f, len(got), got, len(want), want)
			}
			f.Offset = 0
			if got := pageByCursor(t, db, f); !slices.Equal(got, want) {
				t.Errorf("%+v: paged by cursor %d matches %v, want %d %v", f, len(got), got, len(want), want)
			}
		}
		// Without a bot, the cursor pages through what offsets do.
		for _, f := range []MatchFilter{{}, {Game: "worms"}, {Game: "snake", Ruleset: "final"}, {Trouble: TroubleAny}} {
			var want []string
			f.Limit = MaxLimit
			l, err := db.MatchList(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range l.Matches {
				want = append(want, m.ID)
			}
			if got := pageByCursor(t, db, f); !slices.Equal(got, want) {
				t.Errorf("%+v: paged by cursor %d matches %v, want %d %v", f, len(got), got, len(want), want)
			}
		}
		if _, err := db.MatchList(ctx, MatchFilter{Before: -1}); !errors.Is(err, ErrInvalid) {
			t.Errorf("a negative cursor: got error %v, want ErrInvalid", err)
		}
	})
}

// pageByCursor lists the matches f selects in pages of 3, each page
// after the one before's Next, and checks that every page has the first
// one's total and that Next is 0 on the last page only.
func pageByCursor(t *testing.T, db *DB, f MatchFilter) []string {
	t.Helper()
	f.Limit, f.Offset, f.Before = 3, 0, 0
	var (
		ids   []string
		first MatchList
	)
	for page := 0; ; page++ {
		l, err := db.MatchList(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if page == 0 {
			first = l
		}
		if l.Total != first.Total || l.Exact != first.Exact {
			t.Errorf("%+v: total %d (exact %v), want the first page's %d (%v)", f, l.Total, l.Exact, first.Total, first.Exact)
		}
		for _, m := range l.Matches {
			ids = append(ids, m.ID)
		}
		if l.Next == 0 {
			return ids
		}
		if len(l.Matches) != f.Limit || l.Next != l.Matches[len(l.Matches)-1].Seq {
			t.Fatalf("%+v: next %d after %d matches, want the last one's seq on a full page", f, l.Next, len(l.Matches))
		}
		f.Before = l.Next
	}
}

// recountBotFilter lists, newest first, the ids of the matches in which
// an entry of the filter's bot has the filter's version, outcome and
// rank, met its vs bot and had its trouble, by a scan of every match.
func recountBotFilter(t *testing.T, db *DB, f MatchFilter) []string {
	t.Helper()
	rows, err := db.read.Query(`
		SELECT m.id FROM matches m WHERE ?1 IN ('', m.ruleset) AND EXISTS (
			SELECT 1 FROM match_entries e JOIN bots b ON b.id = e.bot_id
			WHERE e.match_seq = m.seq AND b.name = ?2 AND ?3 IN ('', b.game) AND ?4 IN ('', b.version)
				AND ?5 IN ('', e.outcome) AND ?6 IN ('0', CAST(e.rank AS TEXT))
				AND (?7 = '' OR EXISTS (SELECT 1 FROM match_entries q JOIN bots v ON v.id = q.bot_id
					WHERE q.match_seq = e.match_seq AND q.bot_id <> e.bot_id AND q.team <> e.team
						AND v.name = ?7 AND ?8 IN ('', v.version)))
				AND (?9 = '' OR EXISTS (SELECT 1 FROM seat_trouble s WHERE s.match_seq = m.seq AND s.bot_id = e.bot_id)))
		ORDER BY m.seq DESC`,
		f.Ruleset, f.Bot, f.Game, f.Version, string(f.Outcome), strconv.Itoa(f.Rank), f.Vs, f.VsVersion, string(f.Trouble))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// entryIndexCols is what match_entries_by_bot holds on each backend
// since version 18: every column the filtered lists read of an entry.
var entryIndexCols = map[bool]string{
	false: "bot_id, match_seq, team, rank, outcome, seed, ruleset",
	true:  "(bot_id, match_seq) INCLUDE (team, rank, outcome, seed, ruleset)",
}

// entryIndex returns the columns of match_entries_by_bot in db, as
// entryIndexCols spells them.
func entryIndex(t *testing.T, db *DB) string {
	t.Helper()
	if db.postgres {
		def := queryRows(t, db, `SELECT indexdef FROM pg_indexes
			WHERE schemaname = current_schema() AND indexname = 'match_entries_by_bot'`)[0][0].(string)
		return def[strings.Index(def, "("):]
	}
	var cols []string
	for _, r := range queryRows(t, db, `SELECT name FROM pragma_index_info('match_entries_by_bot') ORDER BY seqno`) {
		cols = append(cols, r[0].(string))
	}
	return strings.Join(cols, ", ")
}

// TestOpenUpgradesVersion17 opens a database of schema version 17, whose
// match_entries_by_bot held only (bot_id, match_seq), on each backend:
// the upgrade makes the index cover the filtered lists, and they list
// what they listed before it.
func TestOpenUpgradesVersion17(t *testing.T) {
	ctx := context.Background()
	filters := []MatchFilter{
		{Bot: "ant"},
		{Bot: "ant", Game: "snake", Outcome: sim.Win},
		{Bot: "cat", Rank: 2},
		{Bot: "cat", Vs: "ant"},
		{Bot: "cat", Game: "worms", Vs: "bee", VsVersion: "2"},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			path := b.fresh(t)
			want := make([]MatchList, len(filters))
			func() {
				db, err := Open(ctx, path)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				r := rand.New(rand.NewPCG(25, 6))
				for n := range 40 {
					mustIngest(t, db, randomRecord(t, r, n+1))
				}
				for i, f := range filters {
					f.Limit = MaxLimit
					if want[i], err = db.MatchList(ctx, f); err != nil {
						t.Fatal(err)
					}
				}
				version := `PRAGMA user_version = 17`
				if db.postgres {
					version = `UPDATE replaylab_schema SET version = 17`
				}
				for _, q := range []string{`DROP TABLE bot_times`, `DROP TABLE bot_debug`, `ALTER TABLE rating_fits DROP COLUMN state`, seedlessEntries[db.postgres], `DROP INDEX match_entries_by_bot`,
					`CREATE INDEX match_entries_by_bot ON match_entries (bot_id, match_seq)`, version} {
					if _, err := db.write.ExecContext(ctx, q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
			}()
			db := openAt(t, path)
			if got := entryIndex(t, db); got != entryIndexCols[db.postgres] {
				t.Errorf("match_entries_by_bot after the upgrade: %s, want %s", got, entryIndexCols[db.postgres])
			}
			for i, f := range filters {
				f.Limit = MaxLimit
				got, err := db.MatchList(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want[i]) {
					t.Errorf("%+v after the upgrade:\n got %+v\nwant %+v", f, got, want[i])
				}
			}
		})
	}
}

// TestBotListPlanCovered checks on SQLite that the bot lists, by result,
// rank and opponent too, walk match_entries_by_bot as a covering index:
// the entries they filter are never read from the table.
func TestBotListPlanCovered(t *testing.T) {
	db := openTest(t)
	for _, f := range []MatchFilter{{Bot: "ant"}, {Bot: "ant", Outcome: sim.Win}, {Bot: "ant", Rank: 2}, {Bot: "ant", Vs: "bee"}} {
		vs := []int64{}
		if f.Vs != "" {
			vs = []int64{2, 3}
		}
		plan := queryPlan(t, db, f.entrySeqs(len(vs)), f.entryArgs(1, vs, 25)...)
		if !strings.Contains(plan, "SEARCH e USING COVERING INDEX match_entries_by_bot (bot_id=?)") {
			t.Errorf("%+v: got query plan %q, want a search of e in the covering index match_entries_by_bot", f, plan)
		}
	}
}
