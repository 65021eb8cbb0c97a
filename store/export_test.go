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
	db := openTest(t)
	rec := makeRecord(t, recordSpec{id: testID(1), turns: 10, units: 2})
	mustIngest(t, db, rec)
	metrics := []sim.MetricDef{{Name: "energy"}, {Name: "hp"}}
	stats := wantStats(10, 2, 2)
	ctx := context.Background()

	var buf bytes.Buffer
	begun := 0
	if err := db.ExportTurns(ctx, rec.ID, metrics, "csv", &buf, func() { begun++ }); err != nil {
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
	first := stats[0]
	want := []string{strconv.Itoa(first.Turn), strconv.Itoa(first.Seat), strconv.Itoa(first.Unit), strconv.FormatBool(first.Alive),
		strconv.FormatFloat(first.Values[0], 'g', -1, 64), strconv.FormatFloat(first.Values[1], 'g', -1, 64)}
	if got := rows[1]; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("first row starts %v, want %v", got, want)
	}

	buf.Reset()
	if err := db.ExportTurns(ctx, rec.ID, metrics, "jsonl", &buf, nil); err != nil {
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
		err := db.ExportTurns(ctx, tt.id, metrics, tt.format, &buf, func() { begun++ })
		if !errors.Is(err, tt.want) || buf.Len() != 0 || begun != 0 {
			t.Errorf("export %s as %s: err %v, %d bytes, %d begins; want %v and nothing written", tt.id[:8], tt.format, err, buf.Len(), begun, tt.want)
		}
	}
}
