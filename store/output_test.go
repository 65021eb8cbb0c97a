package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
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
			{2, []BotOutput{{2, 0, Stdout, "debug: 7\n", nil, 0}, {2, 1, Stderr, "thinking <b>hard</b>\n", nil, 0}}},
			{5, []BotOutput{{5, 0, Stderr, "last answer\nbye\n", nil, 0}}},
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
			{"times past the end", BotOutput{Seat: 0, Stream: Times, Times: make([]time.Duration, 6)}, "for 6 turns, the match has 5"},
			{"a negative time", BotOutput{Seat: 0, Stream: Times, Times: []time.Duration{-1}}, "turn 1 is -1ns"},
			{"times at a turn", BotOutput{Turn: 2, Seat: 0, Stream: Times}, "want turn 0"},
			{"a negative limit", BotOutput{Seat: 0, Stream: Times, Limit: -time.Second}, "turn limit of Seat 1 is -1s"},
			{"times in output", BotOutput{Turn: 2, Seat: 0, Stream: Stdout, Text: "x", Times: []time.Duration{1}}, "times in a stdout piece"},
			{"debug at turn 0", BotOutput{Seat: 0, Stream: Debug, Text: `[{"mark":[1,2]}]`}, "debug drawing of Seat 1 at turn 0"},
			{"debug not normalised", BotOutput{Turn: 1, Seat: 0, Stream: Debug, Text: `[{"mark":[1, 2]}]`}, "not as the recorder writes them"},
			{"debug malformed", BotOutput{Turn: 1, Seat: 0, Stream: Debug, Text: `[{"mark":[1]}]`}, "mark has 1 numbers"},
			{"debug not an array", BotOutput{Turn: 1, Seat: 0, Stream: Debug, Text: `"x"`}, "want an array of shapes"},
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

// TestBotTimes: a seat's answer times are stored with the match, packed
// to the microsecond, attached with output to a match stored without,
// and deleted with the match.
func TestBotTimes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		times := BotOutput{Seat: 1, Stream: Times, Times: []time.Duration{1500 * time.Microsecond, 0, time.Second}, Limit: 2 * time.Second}
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 5, winner: 0})
		rec.Output = []BotOutput{{Turn: 2, Seat: 0, Stream: Stdout, Text: "debug\n"}, times}
		mustIngest(t, db, rec)
		got, err := db.BotTimes(ctx, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := []BotOutput{times}; !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v, want %+v", got, want)
		}
		if got, err := db.BotTimesTo(ctx, rec.ID, 2); err != nil || len(got) != 1 || !slices.Equal(got[0].Times, times.Times[:2]) {
			t.Errorf("times to turn 2: got %+v, %v, want the first two", got, err)
		}
		if out, err := db.BotOutputAt(ctx, rec.ID, 0); err != nil || len(out) != 0 {
			t.Errorf("turn 0's output: got %+v, %v, want none: the times are not output", out, err)
		}

		// A match stored without them gets them with its output.
		rec2 := makeRecord(t, recordSpec{id: testID(2), turns: 5, winner: 0})
		mustIngest(t, db, rec2)
		rec2.Output = []BotOutput{times}
		if _, fate, err := db.Upload(ctx, rec2); err != nil || fate != OutputStored {
			t.Fatalf("upload again with times: got %v, %v, want them stored", fate, err)
		}
		if got, err := db.BotTimes(ctx, rec2.ID); err != nil || len(got) != 1 {
			t.Errorf("attached times: got %+v, %v, want one seat's", got, err)
		}

		if _, err := db.DeleteMatches(ctx, []string{rec.ID}); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.write.QueryRowContext(ctx, `SELECT count(*) FROM bot_times`).Scan(&n); err != nil || n != 1 {
			t.Errorf("after deleting one of two matches with times: %d rows (%v), want 1", n, err)
		}
		if _, err := db.BotTimes(ctx, rec.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted match: got %v, want ErrNotFound", err)
		}
	})
}

// TestResponseTimes: a bot version's median and 99th percentile answer
// times over its newest timed seats, turns not timed left out; a version
// without times is not listed.
func TestResponseTimes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		ms := func(n ...int) []time.Duration {
			out := make([]time.Duration, len(n))
			for i, v := range n {
				out[i] = time.Duration(v) * time.Millisecond
			}
			return out
		}
		for i, ts := range [][]time.Duration{ms(1, 2, 3, 0, 5), ms(10, 20, 30, 40, 50)} {
			rec := makeRecord(t, recordSpec{id: testID(i + 1), turns: 5, winner: 0})
			rec.Output = []BotOutput{{Seat: 0, Stream: Times, Times: ts}}
			mustIngest(t, db, rec)
		}
		got, err := db.ResponseTimes(ctx, "worms", "alpha")
		if err != nil {
			t.Fatal(err)
		}
		// The 9 timed turns sorted: 1 2 3 5 10 20 30 40 50 ms.
		want := []VersionTimes{{Version: "1", Seats: 2, Turns: 9, P50: 10 * time.Millisecond, P99: 50 * time.Millisecond}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("alpha: got %+v, want %+v", got, want)
		}
		if got, err := db.ResponseTimes(ctx, "worms", "beta"); err != nil || len(got) != 0 {
			t.Errorf("beta, never timed: got %+v, %v, want none", got, err)
		}
	})
}

// TestBotDebug: a seat's debug drawings are stored with the match per
// turn, attached with output to a match stored without, bounded per
// seat, and deleted with the match.
func TestBotDebug(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		draw := []BotOutput{
			{Turn: 2, Seat: 1, Stream: Debug, Text: `[{"mark":[1,2]}]`},
			{Turn: 2, Seat: 0, Stream: Debug, Text: `[{"circle":[3,4,1.5],"color":"#00ff00"}]`},
			{Turn: 3, Seat: 1, Stream: Debug, Text: `[{"text":"x","at":[0,0]}]`},
		}
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 5, winner: 0})
		rec.Output = append([]BotOutput{{Turn: 2, Seat: 0, Stream: Stdout, Text: "hi\n"}}, draw...)
		mustIngest(t, db, rec)
		got, err := db.BotDebugAt(ctx, rec.ID, 2)
		if want := []BotOutput{draw[1], draw[0]}; err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("turn 2: got %+v, %v, want %+v", got, err, want)
		}
		if got, err := db.BotDebugAt(ctx, rec.ID, 4); err != nil || len(got) != 0 {
			t.Errorf("turn 4: got %+v, %v, want none", got, err)
		}
		if seats, err := db.BotDebugSeats(ctx, rec.ID); err != nil || !slices.Equal(seats, []int{0, 1}) {
			t.Errorf("seats: got %v, %v, want [0 1]", seats, err)
		}
		if out, err := db.BotOutputAt(ctx, rec.ID, 2); err != nil || len(out) != 1 {
			t.Errorf("turn 2's output: got %+v, %v, want the stdout piece alone", out, err)
		}

		// A match stored without them gets them with its output.
		rec2 := makeRecord(t, recordSpec{id: testID(2), turns: 5, winner: 0})
		mustIngest(t, db, rec2)
		if seats, err := db.BotDebugSeats(ctx, rec2.ID); err != nil || len(seats) != 0 {
			t.Errorf("a match without drawings: got seats %v, %v, want none", seats, err)
		}
		rec2.Output = draw[2:]
		if _, fate, err := db.Upload(ctx, rec2); err != nil || fate != OutputStored {
			t.Fatalf("upload again with drawings: got %v, %v, want them stored", fate, err)
		}
		if got, err := db.BotDebugAt(ctx, rec2.ID, 3); err != nil || len(got) != 1 {
			t.Errorf("attached drawings: got %+v, %v, want one seat's", got, err)
		}

		// Over the bound of a seat's match: refused whole.
		rec3 := makeRecord(t, recordSpec{id: testID(3), turns: 500, winner: 0})
		shapes := make([]string, 0, replay.MaxDebugShapes)
		for i := range replay.MaxDebugShapes {
			shapes = append(shapes, fmt.Sprintf(`{"line":[%d,1000.25,1000.25,1000.25]}`, i))
		}
		for turn := 1; turn <= 500; turn++ {
			rec3.Output = append(rec3.Output, BotOutput{Turn: turn, Seat: 0, Stream: Debug, Text: "[" + strings.Join(shapes, ",") + "]"})
		}
		if _, err := db.Ingest(ctx, rec3); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "debug drawings of Seat 1 over 1024 KiB") {
			t.Errorf("over a seat's bound: got %v, want ErrInvalid naming it", err)
		}

		if _, err := db.DeleteMatches(ctx, []string{rec.ID}); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.write.QueryRowContext(ctx, `SELECT count(*) FROM bot_debug`).Scan(&n); err != nil || n != 1 {
			t.Errorf("after deleting one of two matches with drawings: %d rows (%v), want 1", n, err)
		}
		if _, err := db.BotDebugAt(ctx, rec.ID, 2); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted match: got %v, want ErrNotFound", err)
		}
	})
}
