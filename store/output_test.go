package store

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestBotOutputAt(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 5, winner: 0})
		rec.Output = []BotOutput{
			{Turn: 2, Seat: 1, Stream: Stderr, Text: "thinking <b>hard</b>\n"},
			{Turn: 2, Seat: 0, Stream: Stdout, Text: "debug: 7\n"},
			{Turn: 5, Seat: 0, Stream: Stderr, Text: "last answer\nbye\n"},
		}
		mustIngest(t, db, rec)
		for _, tt := range []struct {
			turn int
			want []BotOutput
		}{
			{1, []BotOutput{}},
			{2, []BotOutput{{2, 0, Stdout, "debug: 7\n"}, {2, 1, Stderr, "thinking <b>hard</b>\n"}}},
			{5, []BotOutput{{5, 0, Stderr, "last answer\nbye\n"}}},
		} {
			got, err := db.BotOutputAt(context.Background(), rec.ID, tt.turn)
			if err != nil {
				t.Fatalf("turn %d: %v", tt.turn, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("turn %d: got %+v, want %+v", tt.turn, got, tt.want)
			}
		}
		if _, err := db.BotOutputAt(context.Background(), testID(2), 1); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown match: got %v, want ErrNotFound", err)
		}
	})
}

func TestIngestRefusesBadBotOutput(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		for _, tt := range []struct {
			name string
			out  BotOutput
			msg  string
		}{
			{"turn past the end", BotOutput{Turn: 6, Seat: 0, Stream: Stderr, Text: "x"}, "turn 6"},
			{"seat out of range", BotOutput{Turn: 1, Seat: 2, Stream: Stderr, Text: "x"}, "seat index 2"},
			{"unknown stream", BotOutput{Turn: 1, Seat: 0, Stream: "stdin", Text: "x"}, `stream "stdin"`},
			{"too long", BotOutput{Turn: 1, Seat: 0, Stream: Stdout, Text: strings.Repeat("x", MaxBotOutput+1)}, "at most"},
			{"not UTF-8", BotOutput{Turn: 1, Seat: 0, Stream: Stdout, Text: "\xff"}, "UTF-8"},
			{"two pieces", BotOutput{Turn: 2, Seat: 1, Stream: Stderr, Text: "bye"}, "Seat 2 at turn 2 has two stderr pieces"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				db := open(t)
				rec := makeRecord(t, recordSpec{id: testID(1), turns: 5, winner: 0})
				rec.Output = []BotOutput{{Turn: 2, Seat: 1, Stream: Stderr, Text: "x"}, tt.out}
				_, err := db.Ingest(context.Background(), rec)
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("got %v, want ErrInvalid naming %q", err, tt.msg)
				}
			})
		}
	})
}
