package analytics

import (
	"reflect"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

func TestMarks(t *testing.T) {
	ev := func(turn int, kind string) store.TurnEvent {
		return store.TurnEvent{Turn: turn, Event: sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: kind, Target: -1}}
	}
	// 200 turns: a spawn every turn (weather), 15 eats (under a tenth of
	// the turns: kept), one death.
	var events []store.TurnEvent
	for turn := 1; turn <= 200; turn++ {
		events = append(events, ev(turn, "spawn"))
		if turn%13 == 0 {
			events = append(events, ev(turn, "eat"))
		}
	}
	events = append(events, ev(200, "death"))
	kinds := func(es []store.TurnEvent) map[string]int {
		m := map[string]int{}
		for _, e := range es {
			m[e.Kind]++
		}
		return m
	}
	tests := []struct {
		name  string
		limit int
		want  map[string]int
	}{
		{"weather left out", 100, map[string]int{"eat": 15, "death": 1}},
		{"limit drops the most frequent kind first", 10, map[string]int{"death": 1}},
		{"nothing fits", 0, map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Marks(events, 200, tt.limit)
			if k := kinds(got); !reflect.DeepEqual(k, tt.want) {
				t.Errorf("got kinds %v, want %v", k, tt.want)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Turn < got[i-1].Turn {
					t.Fatalf("marks out of turn order at %d", i)
				}
			}
		})
	}
	// In a short match a kind seen at most ten times is kept even if it
	// happens every turn.
	short := []store.TurnEvent{ev(1, "spawn"), ev(2, "spawn"), ev(3, "spawn")}
	if got := Marks(short, 3, 100); len(got) != 3 {
		t.Errorf("short match: got %d marks, want 3", len(got))
	}
}
