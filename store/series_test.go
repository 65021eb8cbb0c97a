package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

func TestSeries(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		const turns, seats, units = 130, 2, 2
		rec := makeRecord(t, recordSpec{id: testID(1), turns: turns, units: units, winner: 0})
		mustIngest(t, db, rec)

		// wantLines is metric m's lines: one per seat and unit it applies to.
		wantLines := func(m int) []Line {
			ls := []Line{}
			for seat := range seats {
				for unit := sim.NoUnit; unit < units; unit++ {
					if unit != sim.NoUnit && m >= synthPerUnit {
						continue
					}
					l := Line{Metric: m, Seat: seat, Unit: unit}
					for turn := 0; turn <= turns; turn++ {
						l.Values = append(l.Values, valueAt(m, turn, seat, unit))
					}
					ls = append(ls, l)
				}
			}
			return ls
		}
		for m := Alive; m < synthMetrics; m++ {
			got, err := db.Series(ctx, rec.ID, m)
			if err != nil {
				t.Fatalf("Series(%d): %v", m, err)
			}
			if want := wantLines(m); len(got) != 1 || !reflect.DeepEqual(got[0], want) {
				t.Errorf("Series(%d): got %+v, want %+v", m, got, want)
			}
		}
		got, err := db.Series(ctx, rec.ID, 3, Alive, 42, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := [][]Line{wantLines(3), wantLines(Alive), {}, wantLines(0)}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Series of four metrics: got %d sets, want the lines of each, none for 42", len(got))
		}
	})
}

func TestSeriesErrors(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 3, winner: 0})
		mustIngest(t, db, rec)
		if _, err := db.Series(ctx, rec.ID); !errors.Is(err, ErrInvalid) {
			t.Errorf("Series of no metric: got %v, want ErrInvalid", err)
		}
		if _, err := db.Series(ctx, testID(5), 0); !errors.Is(err, ErrNotFound) {
			t.Errorf("Series of a missing match: got %v, want ErrNotFound", err)
		}
	})
}

// wantStats is every row of a synthetic match in export order: turn, seat,
// unit.
func wantStats(turns, seats, units int) []TurnStat {
	var want []TurnStat
	for turn := 0; turn <= turns; turn++ {
		for seat := range seats {
			for unit := sim.NoUnit; unit < units; unit++ {
				want = append(want, statAt(turn, seat, unit))
			}
		}
	}
	return want
}

func TestStatsAt(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 70, units: 2, winner: 0})
		mustIngest(t, db, rec)
		all := wantStats(70, 2, 2)
		for _, turn := range []int{0, 64, 70} {
			got, err := db.StatsAt(ctx, rec.ID, turn)
			if err != nil {
				t.Fatalf("StatsAt(%d): %v", turn, err)
			}
			if want := all[turn*6 : turn*6+6]; !reflect.DeepEqual(got, want) {
				t.Errorf("StatsAt(%d):\n got %+v\nwant %+v", turn, got, want)
			}
		}
		for _, tt := range []struct {
			id   string
			turn int
		}{{rec.ID, 71}, {rec.ID, -1}, {testID(2), 0}} {
			if _, err := db.StatsAt(ctx, tt.id, tt.turn); !errors.Is(err, ErrNotFound) {
				t.Errorf("StatsAt(%.8s, %d): got %v, want ErrNotFound", tt.id, tt.turn, err)
			}
		}
	})
}

func TestTurnStatsRoundTrip(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		four := []Player{{"a", "1"}, {"b", "1"}, {"c", "1"}, {"d", "1"}}
		tests := []struct {
			name  string
			spec  recordSpec
			check func(*Record)
		}{
			{"units", recordSpec{id: testID(1), turns: 70, units: 3, winner: 0}, func(*Record) {}},
			{"many lines", recordSpec{id: testID(1), turns: 31, units: 7, players: four, winner: 0}, func(*Record) {}},
			{"one turn", recordSpec{id: testID(1), turns: 0, winner: 0}, func(*Record) {}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				db := open(t)
				rec := makeRecord(t, tt.spec)
				tt.check(rec)
				mustIngest(t, db, rec)
				var got []TurnStat
				err := db.TurnStats(context.Background(), rec.ID, func(s TurnStat) error {
					got = append(got, s)
					return nil
				})
				if err != nil {
					t.Fatalf("TurnStats: %v", err)
				}
				want := wantStats(tt.spec.turns, len(rec.Players), tt.spec.units)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("TurnStats: got %d rows, want %d; first got %+v, want %+v", len(got), len(want), got[0], want[0])
				}
			})
		}
	})
}

func TestTurnStatsStopsAtCallbackError(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 10, winner: 0})
		mustIngest(t, db, rec)
		stop := errors.New("stop")
		n := 0
		err := db.TurnStats(context.Background(), rec.ID, func(TurnStat) error {
			n++
			if n == 5 {
				return stop
			}
			return nil
		})
		if err != stop || n != 5 {
			t.Errorf("TurnStats: got %v after %d rows, want the callback's error after 5", err, n)
		}
		err = db.TurnStats(context.Background(), testID(2), func(TurnStat) error { return nil })
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("TurnStats of a missing match: got %v, want ErrNotFound", err)
		}
	})
}

func TestMatchCacheEvictsOldest(t *testing.T) {
	var c matchCache[[]*statRow]
	for i := range matchCacheSize + 1 {
		c.put(testID(i), []*statRow{{n: i}})
	}
	if _, ok := c.get(testID(0)); ok {
		t.Errorf("the oldest entry is still cached after %d more", matchCacheSize)
	}
	for i := 1; i <= matchCacheSize; i++ {
		if rows, ok := c.get(testID(i)); !ok || rows[0].n != i {
			t.Errorf("entry %d: got %v, %v; want its rows", i, rows, ok)
		}
	}
}
