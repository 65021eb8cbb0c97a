package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// TestEventPositions: an event's position counts within its turn, in the
// order the game emitted the turn's events, so the key stays small
// however long the match; events handed over out of turn order still get
// one position each.
func TestEventPositions(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	rec := makeRecord(t, recordSpec{id: testID(1), turns: 30, winner: 0})
	rec.Events = append(rec.Events, TurnEvent{Turn: 3, Event: sim.Event{Seat: 1, Unit: sim.NoUnit, Kind: "late", Target: -1}})
	mustIngest(t, db, rec)
	want := map[int]int{} // events per turn
	for _, e := range rec.Events {
		want[e.Turn]++
	}
	evs, err := db.matchEvents(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int][]int{} // positions per turn
	for _, e := range evs {
		got[e.Turn] = append(got[e.Turn], e.pos)
	}
	for turn, pos := range got {
		if n := len(pos); n != want[turn] || pos[0] != 0 || pos[n-1] != n-1 {
			t.Errorf("turn %d: %d events at positions %v, want %d at 0 to %d", turn, n, pos, want[turn], want[turn]-1)
		}
	}
	page, err := db.Events(ctx, rec.ID, EventQuery{From: 3, To: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := page.Events[len(page.Events)-1].Kind; got != "late" {
		t.Errorf("turn 3 ends with a %q event, want the one emitted last, %q", got, "late")
	}
}

func TestEvents(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 30, winner: 0})
		mustIngest(t, db, rec)
		inRange := func(from, to int) []TurnEvent {
			out := []TurnEvent{}
			for _, e := range rec.Events {
				if e.Turn >= from && e.Turn <= to {
					out = append(out, e)
				}
			}
			return out
		}
		tests := []struct {
			name     string
			from, to int
			want     []TurnEvent
		}{
			{"whole match", 0, 30, rec.Events},
			{"one turn, in emitted order", 3, 3, inRange(3, 3)},
			{"a range", 5, 13, inRange(5, 13)},
			{"a quiet range", 1, 2, []TurnEvent{}},
			{"past the end", 31, 90, []TurnEvent{}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				page, err := db.Events(ctx, rec.ID, EventQuery{From: tt.from, To: tt.to})
				got := page.Events
				if err != nil || !reflect.DeepEqual(got, tt.want) || page.Next != "" {
					t.Errorf("Events(%d, %d): got %+v, %v; want %+v", tt.from, tt.to, got, err, tt.want)
				}
			})
		}
		if len(inRange(3, 3)) != 4 {
			t.Fatalf("makeRecord: want 4 events in turn 3, got %d", len(inRange(3, 3)))
		}
		for _, q := range []EventQuery{
			{From: 5, To: 4},
			{To: 30, Limit: -1},
			{To: 30, Limit: MaxEventLimit + 1},
			{To: 30, After: "x"},
			{To: 30, After: "3"},
			{To: 30, After: "-1.4"},
		} {
			if _, err := db.Events(ctx, rec.ID, q); !errors.Is(err, ErrInvalid) {
				t.Errorf("Events(%+v): got %v, want ErrInvalid", q, err)
			}
		}
		if _, err := db.Events(ctx, testID(2), EventQuery{To: 10}); !errors.Is(err, ErrNotFound) {
			t.Errorf("Events of a missing match: got %v, want ErrNotFound", err)
		}
	})
}

// TestEventsPages walks a turn range page by page, with several page sizes,
// and checks that the pages put together are the range, in order, with no
// page over its limit.
func TestEventsPages(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 40, winner: 0})
		mustIngest(t, db, rec)
		var want []TurnEvent
		for _, e := range rec.Events {
			if e.Turn >= 4 && e.Turn <= 33 {
				want = append(want, e)
			}
		}
		for _, limit := range []int{1, 3, len(want) - 1, len(want), len(want) + 1} {
			t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
				var got []TurnEvent
				q := EventQuery{From: 4, To: 33, Limit: limit}
				for pages := 1; ; pages++ {
					page, err := db.Events(ctx, rec.ID, q)
					if err != nil {
						t.Fatal(err)
					}
					if len(page.Events) > limit {
						t.Fatalf("page %d: got %d events, want at most %d", pages, len(page.Events), limit)
					}
					got = append(got, page.Events...)
					if page.Next == "" {
						break
					}
					if pages > len(want) {
						t.Fatalf("still more after %d pages", pages)
					}
					q.After = page.Next
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("got %d events, want %d: %+v", len(got), len(want), got)
				}
			})
		}
	})
}

func TestEventCountsAndKinds(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 30, winner: 0})
		mustIngest(t, db, rec)
		want := map[string]int{}
		for _, e := range rec.Events {
			want[e.Kind]++
		}
		got, err := db.EventCounts(ctx, rec.ID)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("EventCounts: got %v, %v; want %v", got, err, want)
		}
		if _, err := db.EventCounts(ctx, testID(2)); !errors.Is(err, ErrNotFound) {
			t.Errorf("EventCounts of a missing match: got %v, want ErrNotFound", err)
		}
		var kinds []string
		for k := range want {
			kinds = append(kinds, k)
		}
		kinds = kinds[:1]
		var of []TurnEvent
		for _, e := range rec.Events {
			if e.Kind == kinds[0] {
				of = append(of, e)
			}
		}
		for _, limit := range []int{0, 1, len(of), len(of) + 5} {
			evs, err := db.EventsOfKinds(ctx, rec.ID, kinds, limit)
			if w := of[:min(limit, len(of))]; err != nil || len(evs) != len(w) || (len(w) > 0 && !reflect.DeepEqual(evs, w)) {
				t.Errorf("EventsOfKinds(%v, %d): got %+v, %v; want %+v", kinds, limit, evs, err, w)
			}
		}
	})
}

// TestEventsOfDeletedMatch reads a match's events, which keeps them
// decoded, then deletes the match: its events are not found any more.
func TestEventsOfDeletedMatch(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	rec := makeRecord(t, recordSpec{id: testID(1), turns: 30, winner: 0})
	mustIngest(t, db, rec)
	if page, err := db.Events(ctx, rec.ID, EventQuery{From: 0, To: 30}); err != nil || len(page.Events) != len(rec.Events) {
		t.Fatalf("Events: got %d events, %v; want %d", len(page.Events), err, len(rec.Events))
	}
	if _, err := db.DeleteMatches(ctx, []string{rec.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Events(ctx, rec.ID, EventQuery{From: 0, To: 30}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Events of the deleted match: got %v, want ErrNotFound", err)
	}
	if _, err := db.EventCounts(ctx, rec.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("EventCounts of the deleted match: got %v, want ErrNotFound", err)
	}
}
