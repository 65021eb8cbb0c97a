package web

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// chartOption is the part of a line chart's option the tests check, as
// the page's JSON block carries it.
type chartOption struct {
	Legend struct {
		Type     string          `json:"type"`
		Top      string          `json:"top"`
		Selected map[string]bool `json:"selected"`
		Data     []struct {
			Name      string `json:"name"`
			TextStyle *struct {
				FontWeight string `json:"fontWeight"`
			} `json:"textStyle"`
		} `json:"data"`
	} `json:"legend"`
	Grid []struct {
		Top string `json:"top"`
	} `json:"grid"`
	YAxis []struct {
		MinInterval float64 `json:"minInterval"`
	} `json:"yAxis"`
	DataZoom []struct {
		Type string `json:"type"`
	} `json:"dataZoom"`
	Series []struct {
		Name      string `json:"name"`
		LineStyle struct {
			Color string  `json:"color"`
			Width float64 `json:"width"`
			Type  string  `json:"type"`
		} `json:"lineStyle"`
		ItemStyle struct {
			Color string `json:"color"`
		} `json:"itemStyle"`
		MarkPoint *struct {
			Label struct {
				Show bool `json:"show"`
			} `json:"label"`
		} `json:"markPoint"`
	} `json:"series"`
}

// drawLineChart builds a chart with lineChart and decodes its option.
func drawLineChart(t *testing.T, m store.MatchSummary, md sim.MetricDef, lines []analytics.Line, marks []store.TurnEvent) (chartOption, int) {
	t.Helper()
	c, hidden := lineChart(m, md, lines, marks)
	o := decodeOption(t, c)
	if len(o.YAxis) != 1 {
		t.Fatalf("got %d y axes, want 1", len(o.YAxis))
	}
	if len(o.Series) != len(lines) {
		t.Fatalf("got %d series, want %d", len(o.Series), len(lines))
	}
	return o, hidden
}

// decodeOption decodes the option of a chart as its page carries it.
func decodeOption(t *testing.T, c *charts.Line) chartOption {
	t.Helper()
	b, err := json.Marshal(c.JSON())
	if err != nil {
		t.Fatalf("encode option: %v", err)
	}
	var o chartOption
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatalf("decode option %s: %v", b, err)
	}
	return o
}

func TestLineChartSeats(t *testing.T) {
	nan := math.NaN()
	m := store.MatchSummary{ID: "abcdef0123", Game: "worms", Turns: 3, Winner: 1, Players: []store.PlayerSummary{
		{Seat: 0, Name: "alpha", Outcome: sim.Loss}, {Seat: 1, Name: "beta", Version: "v2", Outcome: sim.Win}, {Seat: 2, Name: "gamma", Outcome: sim.Loss},
	}}
	tests := []struct {
		name        string
		md          sim.MetricDef
		lines       []analytics.Line
		wantNames   []string
		wantHidden  []string // the names of the lines that start switched off
		wantDashes  []string
		minInterval float64
	}{
		{
			name: "players, a count",
			md:   sim.MetricDef{Name: "kills", Label: "Kills", Kind: sim.Counter, Integer: true},
			lines: []analytics.Line{
				{Seat: 0, Unit: sim.NoUnit, Values: []float64{0, 1, 1, 2}},
				{Seat: 1, Unit: sim.NoUnit, Values: []float64{0, 0, 2, 3}},
				{Seat: 2, Unit: sim.NoUnit, Values: []float64{0, 0, nan, 0}},
			},
			wantNames:   []string{"Seat 1 · alpha", "Seat 2 · beta v2", "Seat 3 · gamma"},
			wantHidden:  []string{"Seat 3 · gamma"},
			wantDashes:  []string{"solid", "solid", "solid"},
			minInterval: 1,
		},
		{
			name: "units, a gauge",
			md:   sim.MetricDef{Name: "energy", Label: "Energy", PerUnit: true},
			lines: []analytics.Line{
				{Seat: 0, Unit: 1, Values: []float64{0.5, 1, 1, 2}},
				{Seat: 0, Unit: 2, Values: []float64{0, 0, 0, 0}},
				{Seat: 1, Unit: 2, Values: []float64{1, 2, 3, 4}},
			},
			// Worms' worms by the engine's ids: a seat's tens, then the worm.
			wantNames:  []string{"Seat 1 · alpha · worm 12", "Seat 1 · alpha · worm 13", "Seat 2 · beta v2 · worm 23"},
			wantHidden: []string{"Seat 1 · alpha · worm 13"},
			wantDashes: []string{"solid", "dashed", "solid"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, hidden := drawLineChart(t, m, tt.md, tt.lines, nil)
			legend := o.Legend
			if legend.Type != "plain" {
				t.Errorf("got legend type %q, want plain (every seat shown, no paging)", legend.Type)
			}
			if got := o.YAxis[0].MinInterval; got != tt.minInterval {
				t.Errorf("got y axis minInterval %v, want %v", got, tt.minInterval)
			}
			for _, z := range o.DataZoom {
				if z.Type == "inside" {
					t.Errorf("got an inside dataZoom, which takes the wheel and swipes from the page")
				}
			}
			if hidden != len(tt.wantHidden) {
				t.Errorf("got %d hidden lines, want %d", hidden, len(tt.wantHidden))
			}
			if len(legend.Selected) != len(tt.wantHidden) {
				t.Errorf("got legend selection %v, want only %q off", legend.Selected, tt.wantHidden)
			}
			for _, name := range tt.wantHidden {
				if on, ok := legend.Selected[name]; !ok || on {
					t.Errorf("got %q selected %v (set %v), want off", name, on, ok)
				}
			}
			if len(legend.Data) != len(tt.lines) {
				t.Fatalf("got %d legend entries, want %d", len(legend.Data), len(tt.lines))
			}
			for i, s := range o.Series {
				l := tt.lines[i]
				if s.Name != tt.wantNames[i] || legend.Data[i].Name != tt.wantNames[i] {
					t.Errorf("series %d: got name %q, legend %q, want %q", i, s.Name, legend.Data[i].Name, tt.wantNames[i])
				}
				want := seatColors[l.Seat]
				if s.LineStyle.Color != want || s.ItemStyle.Color != want {
					t.Errorf("series %d: got colours %q, %q, want seat %d's %q", i, s.LineStyle.Color, s.ItemStyle.Color, l.Seat, want)
				}
				if s.LineStyle.Type != tt.wantDashes[i] {
					t.Errorf("series %d: got line type %q, want %q", i, s.LineStyle.Type, tt.wantDashes[i])
				}
				winner := l.Seat == m.Winner
				if bold := legend.Data[i].TextStyle != nil && legend.Data[i].TextStyle.FontWeight == "bold"; bold != winner {
					t.Errorf("series %d: got bold legend %v, want %v (winner is seat %d)", i, bold, winner, m.Winner)
				}
				for j, o2 := range o.Series {
					if tt.lines[j].Seat != m.Winner && winner && s.LineStyle.Width <= o2.LineStyle.Width {
						t.Errorf("series %d (winner): got width %v, not above series %d's %v", i, s.LineStyle.Width, j, o2.LineStyle.Width)
					}
				}
			}
		})
	}
}

// TestLineChartTeamWinners draws every seat of a winning team as a
// winner: bold in the legend and thicker than the losers.
func TestLineChartTeamWinners(t *testing.T) {
	m := store.MatchSummary{ID: "abcdef0123", Game: "foodfight", Turns: 2, Winner: 0, Players: []store.PlayerSummary{
		{Seat: 0, Name: "a", Outcome: sim.Win}, {Seat: 1, Name: "b", Outcome: sim.Win, Team: 0},
		{Seat: 2, Name: "c", Outcome: sim.Loss, Team: 2}, {Seat: 3, Name: "d", Outcome: sim.Loss, Team: 2},
	}}
	var lines []analytics.Line
	for seat := range 4 {
		lines = append(lines, analytics.Line{Seat: seat, Unit: sim.NoUnit, Values: []float64{0, 1, 2}})
	}
	o, _ := drawLineChart(t, m, sim.MetricDef{Name: "score", Label: "Score"}, lines, nil)
	for i, s := range o.Series {
		won := i < 2
		if bold := o.Legend.Data[i].TextStyle != nil && o.Legend.Data[i].TextStyle.FontWeight == "bold"; bold != won {
			t.Errorf("seat index %d: got bold legend %v, want %v", i, bold, won)
		}
		if thick := s.LineStyle.Width > o.Series[3].LineStyle.Width; i < 3 && thick != won {
			t.Errorf("seat index %d: got width %v against a loser's %v, want thicker %v", i, s.LineStyle.Width, o.Series[3].LineStyle.Width, won)
		}
	}
}

// TestLineChartMarks checks that event marks carry no text: their kinds
// are in the tooltip, so close events never print over each other.
func TestLineChartMarks(t *testing.T) {
	m := store.MatchSummary{ID: "abcdef0123", Game: "toad", Turns: 3, Winner: -1, Players: []store.PlayerSummary{{Seat: 0, Name: "a"}}}
	lines := []analytics.Line{{Seat: 0, Unit: sim.NoUnit, Values: []float64{1, 2, 3, 4}}}
	marks := []store.TurnEvent{
		{Turn: 1, Event: sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: "death"}},
		{Turn: 2, Event: sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: "kill"}},
	}
	o, _ := drawLineChart(t, m, sim.MetricDef{Name: "score", Label: "Score"}, lines, marks)
	mp := o.Series[0].MarkPoint
	if mp == nil {
		t.Fatal("got no mark points, want the two events")
	}
	if mp.Label.Show {
		t.Errorf("got mark labels shown, want them in the tooltip only")
	}
}

// TestPlanCharts checks which metrics a match page leaves undrawn: those
// whose lines are all zero (or missing), and those whose lines are the
// same as an earlier metric's.
func TestPlanCharts(t *testing.T) {
	nan := math.NaN()
	g := &sim.Game{Metrics: []sim.MetricDef{{Label: "HP"}, {Label: "Zero"}, {Label: "Score"}, {Label: "Gone"}, {Label: "Other"}, {Label: "Unit HP"}}}
	line := func(unit int, vs ...float64) analytics.Line { return analytics.Line{Seat: 0, Unit: unit, Values: vs} }
	lines := [][]analytics.Line{
		{line(sim.NoUnit, 3, 2, nan)},
		{line(sim.NoUnit, 0, 0, 0)},
		{line(sim.NoUnit, 3, 2, nan)},
		{line(sim.NoUnit, 0, nan, nan)},
		{line(sim.NoUnit, 3, 2, 1)},
		{line(0, 3, 2, nan)}, // a unit's line is not its player's
	}
	want := []string{"", "all zero", "same as HP", "all zero", "", ""}
	for i, p := range planCharts(g, lines) {
		if p.Skip != want[i] {
			t.Errorf("metric %s: got skip %q, want %q", g.Metrics[i].Label, p.Skip, want[i])
		}
	}
}

// TestStepData checks that a step line keeps the points where its value
// changes, and its last, and that a line changing at most turns keeps its
// plain values.
func TestStepData(t *testing.T) {
	nan := math.NaN()
	for _, tt := range []struct {
		name   string
		values []float64
		from   int
		want   string
	}{
		{"rare changes", []float64{1, 1, 1, 1, 2, 2, 2, 2}, 0, "[[[0,1],[4,2],[7,2]]]"},
		{"missing turns", []float64{nan, nan, nan, 5, 5, 5, 5, 5}, 0, "[[[0,null],[3,5],[7,5]]]"},
		{"from a turn", []float64{1, 1, 1, 1}, 10, "[[[10,1],[13,1]]]"},
		{"every turn", []float64{1, 2, 3, 4}, 0, "[[1,2,3,4]]"},
	} {
		l := analytics.Line{Values: tt.values}
		if got := string(stepData([]analytics.Line{l}, tt.from, 100)); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestFlagLines checks the spans of turns a yes-or-no line lists, and
// that past maxSpans it counts the rest.
func TestFlagLines(t *testing.T) {
	m := store.MatchSummary{ID: "ab", Turns: 7}
	l := analytics.Line{Values: []float64{0, 1, 1, 0, 1, math.NaN(), 1, 1}}
	got := flagLines(m, []analytics.Line{l})[0]
	want := []turnSpan{{1, 2}, {4, 4}, {6, 7}}
	if got.Held != 5 || !slices.Equal(got.Spans, want) || got.More != 0 {
		t.Errorf("got %d turns held in %v and %d more, want 5 in %v", got.Held, got.Spans, got.More, want)
	}
	many := make([]float64, 4*maxSpans)
	for i := range many {
		many[i] = float64(i % 2)
	}
	got = flagLines(m, []analytics.Line{{Values: many}})[0]
	if len(got.Spans) != maxSpans || got.More != maxSpans {
		t.Errorf("alternating line: got %d spans and %d more, want %d and %d", len(got.Spans), got.More, maxSpans, maxSpans)
	}
}
