package analytics

import (
	"math"
	"testing"

	"github.com/replaylab/replaylab/store"
)

func TestLines(t *testing.T) {
	// Out of order, a line that stops short, a line past the end.
	stored := []store.Line{
		{Seat: 1, Unit: -1, Values: []float64{10, 11, 12}},
		{Seat: 0, Unit: 0, Values: []float64{4, 5}},
		{Seat: 0, Unit: -1, Values: []float64{0, 1, 2, 99}},
	}
	nan := math.NaN()
	want := []Line{
		{Seat: 0, Unit: -1, Values: []float64{0, 1, 2}},
		{Seat: 0, Unit: 0, Values: []float64{4, 5, nan}},
		{Seat: 1, Unit: -1, Values: []float64{10, 11, 12}},
	}
	got := Lines(stored, 2)
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Seat != w.Seat || g.Unit != w.Unit || len(g.Values) != len(w.Values) {
			t.Fatalf("line %d: got %+v, want %+v", i, g, w)
		}
		for turn := range w.Values {
			if gv, wv := g.Values[turn], w.Values[turn]; gv != wv && !(math.IsNaN(gv) && math.IsNaN(wv)) {
				t.Errorf("line %d turn %d: got %v, want %v", i, turn, gv, wv)
			}
		}
	}
	if got := Lines(nil, 5); len(got) != 0 {
		t.Errorf("Lines(nil): got %v, want none", got)
	}
}
