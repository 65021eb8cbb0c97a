package store

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

func TestExportTurns(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 10, units: 2})
		mustIngest(t, db, rec)
		metrics := []sim.MetricDef{{Name: "energy"}, {Name: "hp"}}
		g := &sim.Game{Metrics: metrics, Units: sim.UnitNaming{Noun: "worm", First: 11, PerSeat: 10}}
		stats := wantStats(10, 2, 2)
		ctx := context.Background()

		var buf bytes.Buffer
		begun := 0
		if err := db.ExportTurns(ctx, rec.ID, g, "csv", &buf, func() { begun++ }); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Join(rows[0], ","), "turn,seat,unit,alive,energy,hp"; got != want {
			t.Errorf("header %q, want %q", got, want)
		}
		if got, want := len(rows)-1, len(stats); got != want || begun != 1 {
			t.Errorf("%d rows and %d begins, want %d rows and 1 begin", got, begun, want)
		}
		// People read the CSV: seats from 1, units as the game numbers them
		// (seat 0's unit 1 is 12 here, seat 1's is 22), none for a player.
		for i, s := range stats[:min(len(stats), len(rows)-1)] {
			unit := ""
			if s.Unit != sim.NoUnit {
				unit = strconv.Itoa(11 + 10*s.Seat + s.Unit)
			}
			want := []string{strconv.Itoa(s.Turn), strconv.Itoa(s.Seat + 1), unit, strconv.FormatBool(s.Alive),
				strconv.FormatFloat(s.Values[0], 'g', -1, 64), strconv.FormatFloat(s.Values[1], 'g', -1, 64)}
			if got := rows[1+i]; strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("row %d is %v, want %v", 1+i, got, want)
			}
		}

		buf.Reset()
		if err := db.ExportTurns(ctx, rec.ID, g, "jsonl", &buf, nil); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(buf.String(), "\n"); got != len(stats) || !strings.Contains(buf.String(), `"hp":`) {
			t.Errorf("jsonl: %d lines, want %d with an hp field:\n%.200s", got, len(stats), buf.String())
		}

		// Failures write nothing and never begin the answer.
		for _, tt := range []struct {
			id, format string
			want       error
		}{
			{rec.ID, "xml", ErrInvalid},
			{testID(2), "csv", ErrNotFound},
		} {
			buf.Reset()
			begun = 0
			err := db.ExportTurns(ctx, tt.id, g, tt.format, &buf, func() { begun++ })
			if !errors.Is(err, tt.want) || buf.Len() != 0 || begun != 0 {
				t.Errorf("export %s as %s: err %v, %d bytes, %d begins; want %v and nothing written", tt.id[:8], tt.format, err, buf.Len(), begun, tt.want)
			}
		}
	})
}
