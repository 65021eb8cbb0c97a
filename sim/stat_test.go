package sim_test

import (
	"math"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

func TestAppendStat(t *testing.T) {
	var dst []sim.Stat
	dst, v := sim.AppendStat(dst, 3, 1, sim.NoUnit, true)
	v[0], v[2] = 7, 9
	dst, v = sim.AppendStat(dst, 3, 1, 0, false)
	v[1] = 4
	want := []sim.Stat{{Seat: 1, Unit: sim.NoUnit, Alive: true, Values: []float64{7, 0, 9}}, {Seat: 1, Unit: 0, Values: []float64{0, 4, 0}}}
	if !slices.EqualFunc(dst, want, func(a, b sim.Stat) bool {
		return a.Seat == b.Seat && a.Unit == b.Unit && a.Alive == b.Alive && slices.Equal(a.Values, b.Values)
	}) {
		t.Errorf("got %+v, want %+v", dst, want)
	}
	// The next turn reuses the rows and their values, zeroed.
	allocs := testing.AllocsPerRun(100, func() {
		dst = dst[:0]
		dst, v = sim.AppendStat(dst, 3, 1, sim.NoUnit, true)
		if v[0] != 0 || v[2] != 0 {
			t.Fatalf("reused values not zeroed: %v", v)
		}
		dst, _ = sim.AppendStat(dst, 3, 1, 0, false)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per turn, want 0", allocs)
	}
}

func TestApplies(t *testing.T) {
	g := &sim.Game{Metrics: []sim.MetricDef{{Name: "hp", PerUnit: true}, {Name: "score"}}}
	for _, tt := range []struct {
		metric, unit int
		want         bool
	}{{0, sim.NoUnit, true}, {1, sim.NoUnit, true}, {0, 2, true}, {1, 2, false}} {
		if got := g.Applies(tt.metric, tt.unit); got != tt.want {
			t.Errorf("Applies(%d, %d): got %v, want %v", tt.metric, tt.unit, got, tt.want)
		}
	}
}

func TestMetricRound(t *testing.T) {
	tests := []struct {
		resolution, v, want float64
	}{
		{0, 99.96000000000001, 99.96000000000001},
		{0.01, 99.96000000000001, 99.96},
		{0.01, 434.3003876985633, 434.3},
		{0.01, 0.005, 0.01},
		{0.01, -0.005, -0.01},
		{0.001, 2252.3708639668944, 2252.371},
		{0.01, -0.001, 0}, // +0, not -0
		{0.1, 1e300, 1e300},
	}
	for _, tt := range tests {
		md := sim.MetricDef{Resolution: tt.resolution}
		if got := md.Round(tt.v); math.Float64bits(got) != math.Float64bits(tt.want) {
			t.Errorf("Round(%v) at %v: got %v, want %v", tt.v, tt.resolution, got, tt.want)
		}
	}
	if got := (&sim.MetricDef{Resolution: 0.01}).Round(math.NaN()); !math.IsNaN(got) {
		t.Errorf("Round(NaN): got %v, want NaN", got)
	}
}
