package analytics

import (
	"math"
	"reflect"
	"testing"

	"github.com/replaylab/replaylab/store"
)

// TestTQuantile95 checks the table and the expansion beyond it against
// published 0.975 quantiles of Student's t.
func TestTQuantile95(t *testing.T) {
	tests := []struct {
		df   int
		want float64
	}{
		{1, 12.706205}, {2, 4.302653}, {10, 2.228139}, {30, 2.042272},
		{31, 2.039513}, {40, 2.021075}, {60, 2.000298}, {120, 1.979930}, {1_000_000, 1.959966},
	}
	for _, tt := range tests {
		if got := tQuantile95(tt.df); math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("tQuantile95(%d): got %.7f, want %.6f", tt.df, got, tt.want)
		}
	}
}

func TestMeetings(t *testing.T) {
	tests := []struct {
		name   string
		r      store.PairRecord
		ab, ba Pair
	}{
		{
			// Differences 1, 2, 3, 4: mean 2.5, variance (30 − 100/4)/3 = 5/3,
			// standard error √(5/3)/2 = 0.645497, t(3) = 3.182446, half-width
			// 2.054260.
			name: "four meetings",
			r:    store.PairRecord{Meetings: 4, AWins: 2, Draws: 1, BWins: 1, DiffSum: 10, DiffSqSum: 30},
			ab:   Pair{Meetings: 4, Wins: 2, Draws: 1, Losses: 1, WinShare: 0.625, MeanDiff: 2.5, DiffCI: Interval{0.445740, 4.554260}, HasCI: true},
			ba:   Pair{Meetings: 4, Wins: 1, Draws: 1, Losses: 2, WinShare: 0.375, MeanDiff: -2.5, DiffCI: Interval{-4.554260, -0.445740}, HasCI: true},
		},
		{
			// Differences 0 and 10: mean 5, variance 50, standard error 5,
			// t(1) = 12.706205, half-width 63.531024.
			name: "two meetings",
			r:    store.PairRecord{Meetings: 2, AWins: 1, BWins: 1, DiffSum: 10, DiffSqSum: 100},
			ab:   Pair{Meetings: 2, Wins: 1, Losses: 1, WinShare: 0.5, MeanDiff: 5, DiffCI: Interval{-58.531024, 68.531024}, HasCI: true},
			ba:   Pair{Meetings: 2, Wins: 1, Losses: 1, WinShare: 0.5, MeanDiff: -5, DiffCI: Interval{-68.531024, 58.531024}, HasCI: true},
		},
		{
			name: "equal differences",
			r:    store.PairRecord{Meetings: 3, Draws: 3, DiffSum: 6, DiffSqSum: 12},
			ab:   Pair{Meetings: 3, Draws: 3, WinShare: 0.5, MeanDiff: 2, DiffCI: Interval{2, 2}, HasCI: true},
			ba:   Pair{Meetings: 3, Draws: 3, WinShare: 0.5, MeanDiff: -2, DiffCI: Interval{-2, -2}, HasCI: true},
		},
		{
			name: "one meeting has no interval",
			r:    store.PairRecord{Meetings: 1, AWins: 1, DiffSum: 3, DiffSqSum: 9},
			ab:   Pair{Meetings: 1, Wins: 1, WinShare: 1, MeanDiff: 3},
			ba:   Pair{Meetings: 1, Losses: 1, WinShare: 0, MeanDiff: -3},
		},
		{
			name: "level",
			r:    store.PairRecord{Meetings: 2, Draws: 2},
			ab:   Pair{Meetings: 2, Draws: 2, WinShare: 0.5, HasCI: true},
			ba:   Pair{Meetings: 2, Draws: 2, WinShare: 0.5, HasCI: true},
		},
		{name: "no meeting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ab, ba := Meetings(tt.r)
			for _, c := range []struct {
				side      string
				got, want Pair
			}{{"A against B", ab, tt.ab}, {"B against A", ba, tt.ba}} {
				if !samePair(c.got, c.want) {
					t.Errorf("%s: got %+v, want %+v", c.side, c.got, c.want)
				}
			}
		})
	}
}

// samePair compares pairs to six decimals, the precision of the worked
// examples.
func samePair(a, b Pair) bool {
	// A zero must not be -0, which pages would show as "-0".
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-6 && math.Signbit(x) == math.Signbit(y) }
	return a.Meetings == b.Meetings && a.Wins == b.Wins && a.Draws == b.Draws && a.Losses == b.Losses &&
		a.HasCI == b.HasCI && near(a.WinShare, b.WinShare) && near(a.MeanDiff, b.MeanDiff) &&
		near(a.DiffCI.Low, b.DiffCI.Low) && near(a.DiffCI.High, b.DiffCI.High)
}

func TestNewMatrix(t *testing.T) {
	x, y, z := store.BotVersion{ID: 7, Name: "x"}, store.BotVersion{ID: 3, Name: "y"}, store.BotVersion{ID: 9, Name: "z"}
	r := store.PairRecord{A: y, B: x, Meetings: 1, AWins: 1, DiffSum: 2, DiffSqSum: 4}
	m := NewMatrix(store.HeadToHead{Game: "snake", Ruleset: "base", Bots: []store.BotVersion{x, y, z}, TotalBots: 5,
		Pairs: []store.PairRecord{r}})
	yx, xy := Meetings(r)
	want := Matrix{Game: "snake", Ruleset: "base", Bots: []store.BotVersion{x, y, z}, TotalBots: 5,
		Cells: [][]Pair{{{}, xy, {}}, {yx, {}, {}}, {{}, {}, {}}}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("NewMatrix:\ngot  %+v\nwant %+v", m, want)
	}
}
