package store

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

func TestStatsAt(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	rec := makeRecord(t, recordSpec{id: testID(1), turns: 70, units: 2, winner: 0})
	mustIngest(t, db, rec)
	for _, turn := range []int{0, 64, 70} {
		got, err := db.StatsAt(ctx, rec.ID, turn)
		if err != nil {
			t.Fatalf("StatsAt(%d): %v", turn, err)
		}
		var want []TurnStat
		for seat := range 2 {
			for unit := sim.NoUnit; unit < 2; unit++ {
				want = append(want, TurnStat{Turn: turn, Stat: statAt(turn, seat, unit)})
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("StatsAt(%d):\n got %+v\nwant %+v", turn, got, want)
		}
	}
	for _, tt := range []struct {
		id   string
		turn int
	}{{rec.ID, 71}, {testID(2), 0}} {
		if _, err := db.StatsAt(ctx, tt.id, tt.turn); !errors.Is(err, ErrNotFound) {
			t.Errorf("StatsAt(%.8s, %d): got %v, want ErrNotFound", tt.id, tt.turn, err)
		}
	}
}

// TestSeriesSet checks it against Series, key by key.
func TestSeriesSet(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	rec := makeRecord(t, recordSpec{id: testID(1), turns: 90, units: 2, winner: 0})
	mustIngest(t, db, rec)
	keys := []string{"hp", "score", "x3", "alive", "collisions"}
	got, err := db.SeriesSet(ctx, rec.ID, keys)
	if err != nil {
		t.Fatalf("SeriesSet: %v", err)
	}
	byLine := func(a, b Point) int {
		if a.Seat != b.Seat {
			return a.Seat - b.Seat
		}
		if a.Unit != b.Unit {
			return a.Unit - b.Unit
		}
		return a.Turn - b.Turn
	}
	for i, key := range keys {
		want, err := db.Series(ctx, rec.ID, key)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(got[i], byLine) // SeriesSet orders by turn, Series by line
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("SeriesSet %s: got %d points, want %d equal to Series", key, len(got[i]), len(want))
		}
	}
	for _, bad := range [][]string{nil, {"hp", "mana"}, {"hp; DROP TABLE matches"}} {
		if _, err := db.SeriesSet(ctx, rec.ID, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("SeriesSet(%q): got %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := db.SeriesSet(ctx, testID(2), keys); !errors.Is(err, ErrNotFound) {
		t.Errorf("SeriesSet of a missing match: got %v, want ErrNotFound", err)
	}
}
