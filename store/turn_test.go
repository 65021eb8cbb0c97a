package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

func TestFrame(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	const turns = 130 // chunks 0..63, 64..127, 128..130
	rec := makeRecord(t, recordSpec{id: testID(1), turns: turns, winner: 0})
	mustIngest(t, db, rec)
	for _, turn := range []int{0, 1, 63, 64, 100, 127, 128, turns} {
		got, err := db.Frame(ctx, rec.ID, turn)
		if want := fmt.Sprintf(`{"turn":%d}`, turn); err != nil || string(got) != want {
			t.Errorf("Frame(%d): got %s, %v; want %s", turn, got, err, want)
		}
	}
	for _, tt := range []struct {
		id   string
		turn int
	}{
		{rec.ID, turns + 1},
		{rec.ID, -1},
		{testID(2), 0},
	} {
		if _, err := db.Frame(ctx, tt.id, tt.turn); !errors.Is(err, ErrNotFound) {
			t.Errorf("Frame(%s, %d): got %v, want ErrNotFound", tt.id, tt.turn, err)
		}
	}
}

func TestEvents(t *testing.T) {
	db := openTest(t)
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
			got, err := db.Events(ctx, rec.ID, tt.from, tt.to)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Events(%d, %d): got %+v, %v; want %+v", tt.from, tt.to, got, err, tt.want)
			}
		})
	}
	if len(inRange(3, 3)) != 4 {
		t.Fatalf("makeRecord: want 4 events in turn 3, got %d", len(inRange(3, 3)))
	}
	if _, err := db.Events(ctx, rec.ID, 5, 4); !errors.Is(err, ErrInvalid) {
		t.Errorf("Events(5, 4): got %v, want ErrInvalid", err)
	}
	if _, err := db.Events(ctx, testID(2), 0, 10); !errors.Is(err, ErrNotFound) {
		t.Errorf("Events of a missing match: got %v, want ErrNotFound", err)
	}
}
