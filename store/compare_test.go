package store

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

func TestRecentMatches(t *testing.T) {
	db := openTest(t)
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
}

func TestNewestVersion(t *testing.T) {
	db := openTest(t)
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
}

func TestSeatLines(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	const turns = 40
	for i := 1; i <= 2; i++ {
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(i), turns: turns, units: 2, winner: 0}))
	}
	seats := []MatchSeat{{testID(2), 1}, {testID(1), 0}, {testID(3), 0}}
	type got struct{ i, metric, seat int }
	var gotLines []got
	err := db.SeatLines(ctx, seats, func(i int, l Line) error {
		gotLines = append(gotLines, got{i, l.Metric, l.Seat})
		if l.Unit != sim.NoUnit || len(l.Values) != turns+1 {
			t.Errorf("seat %d, metric %d: got unit %d and %d values, want %d and %d", i, l.Metric, l.Unit, len(l.Values), sim.NoUnit, turns+1)
			return nil
		}
		for turn, v := range l.Values {
			if want := valueAt(l.Metric, turn, l.Seat, sim.NoUnit); v != want {
				t.Errorf("seat %d, metric %d, turn %d: got %v, want %v", i, l.Metric, turn, v, want)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []got
	for i, s := range seats[:2] { // the third match is not stored
		for m := range synthMetrics {
			want = append(want, got{i, m, s.Seat})
		}
	}
	if !slices.Equal(gotLines, want) {
		t.Errorf("got lines %v, want %v", gotLines, want)
	}

	stop := errors.New("stop")
	calls := 0
	err = db.SeatLines(ctx, seats, func(int, Line) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("an error from fn: got %v after %d calls, want it after 1", err, calls)
	}
}
