package store

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
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
		}
	})
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
