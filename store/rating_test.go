package store

import (
	"cmp"
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// ingestSpecs stores a synthetic match for each spec, numbering their ids
// from first.
func ingestSpecs(t *testing.T, db *DB, first int, specs ...recordSpec) {
	t.Helper()
	for i, s := range specs {
		s.id = testID(first + i)
		if _, err := db.Ingest(context.Background(), makeRecord(t, s)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPlacings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		ab := []Player{{"a", "1"}, {"b", "1"}}
		ingestSpecs(t, db, 1,
			recordSpec{players: ab, winner: 1},
			recordSpec{players: ab, winner: 0, ruleset: "final"},
			recordSpec{players: []Player{{"c", "2"}, {"a", "1"}, {"b", "1"}}, winner: -1},
			recordSpec{players: ab, winner: 0, game: "snake"},
		)
		type seat struct {
			seq           int64
			name, version string
			seat, rank    int
		}
		var got []seat
		ids := map[string]int64{}
		err := db.Placings(ctx, "worms", "base", func(m MatchPlacings) error {
			for _, p := range m.Seats {
				got = append(got, seat{m.Seq, p.Name, p.Version, p.Seat, p.Rank})
				if id, ok := ids[p.Name]; ok && id != p.BotID {
					t.Errorf("%s: got bot ids %d and %d, want one", p.Name, id, p.BotID)
				}
				ids[p.Name] = p.BotID
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []seat{
			{1, "a", "1", 0, 2}, {1, "b", "1", 1, 1},
			{3, "c", "2", 0, 1}, {3, "a", "1", 1, 1}, {3, "b", "1", 2, 1},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
		var after []int64
		if err := db.PlacingsAfter(ctx, "worms", "base", 1, func(m MatchPlacings) error { after = append(after, m.Seq); return nil }); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(after, []int64{3}) {
			t.Errorf("after seq 1: got matches %v, want [3]", after)
		}
		stop := errors.New("stop")
		calls := 0
		if err := db.Placings(ctx, "worms", "base", func(MatchPlacings) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
			t.Errorf("got error %v after %d calls, want %v after 1", err, calls, stop)
		}

		counts, err := db.RulesetCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantCounts := []RulesetCount{{"snake", "base", 1, 4}, {"worms", "base", 2, 3}, {"worms", "final", 1, 2}}
		if !reflect.DeepEqual(counts, wantCounts) {
			t.Errorf("counts: got %v, want %v", counts, wantCounts)
		}
	})
}

// TestRulesetCountsPlan checks that the ruleset counts, which every
// refit pass reads, come from the kept counts and one search of
// matches_by_ruleset for each ruleset's last seq: no scan of the matches.
func TestRulesetCountsPlan(t *testing.T) {
	plan := queryPlan(t, openTest(t), rulesetCountsQuery)
	if !strings.Contains(plan, "SEARCH m USING COVERING INDEX matches_by_ruleset (game=? AND ruleset=?)") || strings.Contains(plan, "SCAN m") {
		t.Errorf("got plan %q, want a search of matches_by_ruleset and no scan of the matches", plan)
	}
}

// TestPlacingsUsesIndex checks the plan of the placings query: no scan of
// all matches and no sort, whatever the size of the database.
func TestPlacingsUsesIndex(t *testing.T) {
	db := openTest(t)
	plan := queryPlan(t, db, placingsQuery, "worms", "base", 0)
	if !strings.HasPrefix(plan, "SEARCH m USING COVERING INDEX matches_by_ruleset (game=? AND ruleset=? AND rowid>?)") {
		t.Errorf("got plan %q, want a search of matches_by_ruleset first", plan)
	}
	if strings.Contains(plan, "SCAN") || strings.Contains(plan, "USE TEMP B-TREE") {
		t.Errorf("got plan %q, want no scan and no temporary b-tree", plan)
	}
}

// wormsBotIDs returns the ids of the bots of the worms/base matches of db, by
// name.
func wormsBotIDs(t *testing.T, db *DB) map[string]int64 {
	t.Helper()
	ids := map[string]int64{}
	if err := db.Placings(context.Background(), "worms", "base", func(m MatchPlacings) error {
		for _, p := range m.Seats {
			ids[p.Name] = p.BotID
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestSaveRatings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		ab := []Player{{"a", "1"}, {"b", "1"}}
		ingestSpecs(t, db, 1, recordSpec{players: ab, winner: 0}, recordSpec{players: ab, winner: 0, ruleset: "final"})
		ids := wormsBotIDs(t, db)
		at := time.UnixMilli(1_700_000_000_123).UTC()
		fit := func(ruleset string, shift float64) *FittedRatings {
			return &FittedRatings{Game: "worms", Ruleset: ruleset, Matches: 1, LastSeq: 1, FittedAt: at,
				Latest:  []Rated{{ids["b"], 1400 + shift, 1200, 1600, 1}, {ids["a"], 1600 + shift, 1400, 1800, 1}},
				History: []RatedAt{{1, Rated{ids["a"], 1600 + shift, 1400, 1800, 1}}, {1, Rated{ids["b"], 1400 + shift, 1200, 1600, 1}}}}
		}
		for _, f := range []*FittedRatings{fit("base", 0), fit("final", 5), fit("base", 10)} {
			if err := db.SaveRatings(ctx, f); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.SaveRatings(ctx, &FittedRatings{Game: "snake", Ruleset: "base", FittedAt: at, Problem: "not enough matches"}); err != nil {
			t.Fatal(err)
		}
		got, err := db.Ratings(ctx, "", "")
		if err != nil {
			t.Fatal(err)
		}
		rated := func(ruleset string, shift float64) RatingBoard {
			return RatingBoard{Game: "worms", Ruleset: ruleset, Matches: 1, FittedAt: at, Ratings: []BotRating{
				{"a", "1", 1600 + shift, 1400, 1800, 1}, {"b", "1", 1400 + shift, 1200, 1600, 1}}}
		}
		want := []RatingBoard{
			{Game: "snake", Ruleset: "base", FittedAt: at, Problem: "not enough matches"},
			rated("base", 10), // the second save replaced the first
			rated("final", 5),
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v,\nwant %+v", got, want)
		}
		if got, err := db.Ratings(ctx, "worms", "final"); err != nil || !reflect.DeepEqual(got, want[2:]) {
			t.Errorf("worms/final: got %+v, %v; want %+v", got, err, want[2:])
		}
		history, err := db.RatingHistory(ctx, "worms", "a")
		if err != nil {
			t.Fatal(err)
		}
		wantHistory := []RatingPoint{{"base", 1, BotRating{"a", "1", 1610, 1400, 1800, 1}}, {"final", 1, BotRating{"a", "1", 1605, 1400, 1800, 1}}}
		if !reflect.DeepEqual(history, wantHistory) {
			t.Errorf("history: got %+v, want %+v", history, wantHistory)
		}

		// A fit of one more match keeps the history up to HistoryAfter.
		more := fit("base", 20)
		more.Matches, more.LastSeq, more.HistoryAfter = 2, 3, 1
		more.History = []RatedAt{{2, Rated{ids["a"], 1620, 1400, 1800, 2}}}
		if err := db.SaveRatings(ctx, more); err != nil {
			t.Fatal(err)
		}
		if history, err = db.RatingHistory(ctx, "worms", "a"); err != nil {
			t.Fatal(err)
		}
		wantHistory = []RatingPoint{{"base", 1, BotRating{"a", "1", 1610, 1400, 1800, 1}}, {"base", 2, BotRating{"a", "1", 1620, 1400, 1800, 2}},
			{"final", 1, BotRating{"a", "1", 1605, 1400, 1800, 1}}}
		if !reflect.DeepEqual(history, wantHistory) {
			t.Errorf("history after HistoryAfter 1: got %+v, want %+v", history, wantHistory)
		}
		counts, err := db.FittedCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantCounts := []RulesetCount{{"snake", "base", 0, 0}, {"worms", "base", 2, 3}, {"worms", "final", 1, 1}}
		if !reflect.DeepEqual(counts, wantCounts) {
			t.Errorf("fitted counts: got %v, want %v", counts, wantCounts)
		}
	})
}

// TestSavedRatings reads back what SaveRatings wrote, history included,
// and the fit's state, through two saves and a failed one, and reports a ruleset never fitted
// as not found.
func TestSavedRatings(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		ingestSpecs(t, db, 1, recordSpec{players: []Player{{"a", "1"}, {"b", "1"}}, winner: 0})
		ids := wormsBotIDs(t, db)
		a, b := ids["a"], ids["b"]
		at := time.UnixMilli(1_700_000_000_123).UTC()
		first := &FittedRatings{Game: "worms", Ruleset: "base", Matches: 1, LastSeq: 1, FittedAt: at,
			Latest:  []Rated{{a, 1600, 1400, 1800, 1}, {b, 1400, 1200, 1600, 1}},
			History: []RatedAt{{1, Rated{b, 1400, 1200, 1600, 1}}, {1, Rated{a, 1600, 1400, 1800, 1}}}, State: []byte{1, 2, 3}}
		second := &FittedRatings{Game: "worms", Ruleset: "base", Matches: 2, LastSeq: 7, FittedAt: at.Add(time.Second),
			Latest:       []Rated{{a, 1650, 1450, 1850, 2}, {b, 1350, 1150, 1550, 2}},
			HistoryAfter: 1, History: []RatedAt{{2, Rated{a, 1650, 1450, 1850, 2}}, {2, Rated{b, 1350, 1150, 1550, 2}}},
			State: []byte{9, 0, 8}}
		for _, f := range []*FittedRatings{first, second} {
			if err := db.SaveRatings(ctx, f); err != nil {
				t.Fatal(err)
			}
		}
		got, err := db.SavedRatings(ctx, "worms", "base")
		if err != nil {
			t.Fatal(err)
		}
		want := &FittedRatings{Game: "worms", Ruleset: "base", Matches: 2, LastSeq: 7, FittedAt: at.Add(time.Second),
			Latest: []Rated{{a, 1650, 1450, 1850, 2}, {b, 1350, 1150, 1550, 2}},
			History: []RatedAt{{1, Rated{a, 1600, 1400, 1800, 1}}, {1, Rated{b, 1400, 1200, 1600, 1}},
				{2, Rated{a, 1650, 1450, 1850, 2}}, {2, Rated{b, 1350, 1150, 1550, 2}}},
			State: []byte{9, 0, 8}}
		if a > b {
			slices.SortFunc(want.Latest, func(x, y Rated) int { return cmp.Compare(x.BotID, y.BotID) })
			slices.SortFunc(want.History, func(x, y RatedAt) int { return cmp.Or(cmp.Compare(x.Upto, y.Upto), cmp.Compare(x.BotID, y.BotID)) })
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v,\nwant %+v", got, want)
		}
		// A save that fails after it has replaced the ratings and part
		// of the history, as one whose server dies mid-save, leaves the
		// saved fit as it was: two servers take over each other's fits.
		broken := &FittedRatings{Game: "worms", Ruleset: "base", Matches: 3, LastSeq: 8, FittedAt: at.Add(2 * time.Second),
			Latest: []Rated{{a, 1700, 1500, 1900, 3}, {b, 1300, 1100, 1500, 3}},
			// The second point breaks the history's check (upto >= 1).
			History: []RatedAt{{3, Rated{a, 1700, 1500, 1900, 3}}, {0, Rated{b, 1300, 1100, 1500, 3}}}, State: []byte{7}}
		if err := db.SaveRatings(ctx, broken); err == nil {
			t.Fatal("a save with a point after 0 matches: got no error")
		}
		if got, err = db.SavedRatings(ctx, "worms", "base"); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("after a failed save: got %+v, %v,\nwant %+v", got, err, want)
		}
		if _, err := db.SavedRatings(ctx, "worms", "final"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a ruleset never fitted: got error %v, want ErrNotFound", err)
		}
	})
}
