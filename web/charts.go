package web

import (
	"context"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// echartsHost is where go-echarts points its script tags: the vendored
// ECharts under /static, so pages never load it from the internet.
const echartsHost = "/static/vendor/echarts/"

// maxMarks bounds the events marked on one match's charts.
const maxMarks = 200

// The bounds of the numbers a match page carries, so that its size does
// not grow with the length of the match: every line gets an equal share of
// pagePoints, from minLinePoints to maxLinePoints, and a longer line is
// downsampled to its share (analytics.Downsample keeps each bucket's lowest
// and highest value, with their turns). 2000 points is more than a chart is
// wide in pixels; a page with many lines (15 snakes, 8 metrics) gets fewer
// per line.
const (
	pagePoints    = 40_000
	maxLinePoints = 2000
	minLinePoints = 100
)

// linePoints is the share of pagePoints of each of n lines.
func linePoints(n int) int {
	return min(maxLinePoints, max(minLinePoints, pagePoints/max(n, 1)))
}

// chartView is one chart of a match page. Option is go-echarts' option
// object; the page embeds it as a JSON block and charts.js hands it to
// echarts.setOption. It never goes through go-echarts' own templates,
// which paste the option into an inline script unescaped (so a bot named
// "</script><script>..." would run its code) and would need inline scripts
// allowed by the CSP. html/template JSON-encodes it with <, > and &
// escaped, so no string in it can end the block.
type chartView struct {
	ID     string
	Title  string // what the chart shows, for screen readers
	Option map[string]any
	// Data holds the numbers of every line, one array per series, as
	// JSON; charts.js puts them into the option's series. They travel
	// apart from the option because encoding/json re-scans everything a
	// Marshaler writes, which for tens of thousands of numbers costs more
	// than writing them.
	Data template.JS
	// Hidden counts the lines that are zero all match, which the chart
	// starts with switched off; its "show all" button shows them.
	Hidden int
}

// matchCharts builds one line chart per metric of the game, with one line
// per player (or per unit, for metrics reported per unit), the match's
// notable events marked on them, and the script assets the charts need.
func (s *server) matchCharts(ctx context.Context, m store.MatchSummary, g *sim.Game) ([]chartView, []string, error) {
	if g == nil || len(g.Metrics) == 0 {
		return nil, nil, nil
	}
	metrics := make([]int, len(g.Metrics))
	for i := range metrics {
		metrics[i] = i
	}
	stored, err := s.db.Series(ctx, m.ID, metrics...)
	if err != nil {
		return nil, nil, err
	}
	marks, err := s.chartMarks(ctx, m)
	if err != nil {
		return nil, nil, err
	}
	lines := make([][]analytics.Line, len(g.Metrics))
	total := 0
	for i, md := range g.Metrics {
		lines[i] = chartLines(analytics.Lines(stored[i], m.Turns), md.PerUnit)
		total += len(lines[i])
	}
	bound := linePoints(total)
	var (
		views  []chartView
		assets []string
	)
	for i, md := range g.Metrics {
		// Marks take their height from the whole line, before
		// downsampling drops the turn they sit at.
		line, hidden := lineChart(m, md, lines[i], marks)
		line.Validate() // prefixes the assets with echartsHost
		views = append(views, chartView{ID: line.ChartID, Title: md.Label + " per turn", Option: line.JSON(), Data: seriesData(lines[i], 0, bound), Hidden: hidden})
		assets = appendAssets(assets, line.JSAssets.Values)
	}
	return views, assets, nil
}

// appendAssets appends the scripts of more that assets lacks.
func appendAssets(assets, more []string) []string {
	for _, a := range more {
		if !slices.Contains(assets, a) {
			assets = append(assets, a)
		}
	}
	return assets
}

// chartMarks returns the events to mark on a match's charts, at most
// maxMarks of them, reading only the events of the kinds marked.
func (s *server) chartMarks(ctx context.Context, m store.MatchSummary) ([]store.TurnEvent, error) {
	counts, err := s.db.EventCounts(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	return s.db.EventsOfKinds(ctx, m.ID, analytics.MarkKinds(counts, m.Turns, maxMarks), maxMarks)
}

// chartLines picks the lines a metric's chart shows: units for a per-unit
// metric (players when the game reports no units), players otherwise.
func chartLines(lines []analytics.Line, perUnit bool) []analytics.Line {
	var players, units []analytics.Line
	for _, l := range lines {
		if l.Unit == sim.NoUnit {
			players = append(players, l)
		} else {
			units = append(units, l)
		}
	}
	if perUnit && len(units) > 0 {
		return units
	}
	return players
}

// zoomTool zooms into a range of turns. go-echarts sends its icon and
// title as null unless set, which hides the tool, so they are ECharts'
// own defaults here.
var zoomTool = &opts.ToolBoxFeatureDataZoom{
	Show:       opts.Bool(true),
	YAxisIndex: false, // zoom turns, not values
	Icon: map[string]string{
		"zoom": "path://M0,13.5h26.9 M13.5,26.9V0 M32.1,13.5H58V58H13.5 V32.1",
		"back": "path://M22,1.4L9.9,13.5l12.3,12.3 M10.3,13.5H54.9v44.6 H10.3v-26",
	},
	Title: map[string]string{"zoom": "Zoom to turns", "back": "Undo zoom"},
}

// legendTop is where a legend starts, under the title. Legends wrap onto
// as many rows as their names need at the chart's width, which only the
// browser knows: charts.js moves the legend below the toolbox and the
// plot (grid.top) below the legend.
const legendTop = 28

// plainLegend shows every name of a chart (data, or the series' names
// when nil), centred under the title and wrapped onto rows, never paged:
// a paging legend can hide the winner's line. Its plot is gridUnderLegend.
func plainLegend(data any, selected map[string]bool) opts.Legend {
	return opts.Legend{Show: opts.Bool(true), Type: "plain", Top: strconv.Itoa(legendTop), Left: "center", Data: data, Selected: selected}
}

// gridUnderLegend is the plot of a chart with a plainLegend, its top
// leaving room for one row of the legend (charts.js moves it down for
// more) and its bottom for what is drawn under it.
func gridUnderLegend(bottom int) opts.Grid {
	return opts.Grid{Left: "40", Right: "44", Top: "64", Bottom: strconv.Itoa(bottom), ContainLabel: opts.Bool(true)}
}

// unitDashes tells a seat's units apart on one chart: they share the
// seat's colour and differ in dash.
var unitDashes = []string{"solid", "dashed", "dotted"}

// lineChart draws one metric: a line per seat (or unit) in its seat's
// colour, the winners' (every seat of a winning team) thicker and bold in
// the legend, lines that are zero all match deselected in the legend
// (chartView.Hidden counts them), and an integer axis for a count.
func lineChart(m store.MatchSummary, md sim.MetricDef, lines []analytics.Line, marks []store.TurnEvent) (*charts.Line, int) {
	won := map[int]bool{} // every seat of the winning team
	for _, p := range m.Players {
		won[p.Seat] = m.Winner >= 0 && p.Outcome == sim.Win
	}
	names := make([]string, len(lines))
	legend := make([]map[string]any, len(lines))
	hidden := map[string]bool{}
	for i, l := range lines {
		names[i] = lineName(m, l)
		legend[i] = map[string]any{"name": names[i]}
		if won[l.Seat] {
			legend[i]["textStyle"] = map[string]any{"fontWeight": "bold"}
		}
		if allZero(l.Values) {
			hidden[names[i]] = false
		}
	}
	c := newTurnChart("chart-"+md.Name, md, 0, m.Turns, plainLegend(legend, hidden), shortID(m.ID)+"-"+md.Name)
	units := map[int]int{} // seat -> units drawn so far
	for i, l := range lines {
		width := float32(2)
		if won[l.Seat] {
			width = 3.5
		}
		color := seatColor(l.Seat)
		seriesOpts := []charts.SeriesOpts{
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Step: "end"}),
			charts.WithLineStyleOpts(opts.LineStyle{Color: color, Width: width, Type: unitDashes[units[l.Seat]%len(unitDashes)]}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
		}
		if l.Unit != sim.NoUnit {
			units[l.Seat]++
		}
		// Event marks are symbols without labels, their kinds in the
		// tooltip: labels of nearby events would print over each other.
		if pts := markPoints(l, lines, marks); len(pts) > 0 {
			seriesOpts = append(seriesOpts,
				charts.WithMarkPointNameCoordItemOpts(pts...),
				charts.WithMarkPointStyleOpts(opts.MarkPointStyle{Label: &opts.Label{Show: opts.Bool(false)}}))
		}
		if i == 0 {
			if ls := markLines(marks); len(ls) > 0 {
				seriesOpts = append(seriesOpts,
					charts.WithMarkLineNameXAxisItemOpts(ls...),
					charts.WithMarkLineStyleOpts(opts.MarkLineStyle{
						Symbol:    []string{"none", "none"},
						Label:     &opts.Label{Show: opts.Bool(false)},
						LineStyle: &opts.LineStyle{Color: gameEventColor, Type: "dashed"},
					}))
			}
		}
		c.AddSeries(names[i], nil, seriesOpts...)
	}
	return c, len(hidden)
}

// newTurnChart starts a line chart of metric md over turns first to
// last: an axis tooltip, the legend, an integer axis for a count, the
// zoom slider, and the toolbox that zooms and saves it as saveAs.png.
func newTurnChart(id string, md sim.MetricDef, first, last int, legend opts.Legend, saveAs string) *charts.Line {
	yAxis := opts.YAxis{Type: "value", Scale: opts.Bool(true)}
	if md.Integer {
		yAxis.MinInterval = 1
	}
	c := charts.NewLine()
	c.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, AssetsHost: echartsHost}),
		charts.WithTitleOpts(opts.Title{Title: md.Label, Left: "left"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(legend),
		charts.WithGridOpts(gridUnderLegend(72)),
		// A value axis: the series are [turn, value] pairs (charts.js
		// makes them), so a downsampled line keeps its points at their
		// real turns and a click converts to the turn under the pointer.
		charts.WithXAxisOpts(opts.XAxis{Name: "turn", Type: "value", Min: first, Max: last}),
		charts.WithYAxisOpts(yAxis),
		// The slider only: ECharts' "inside" zoom takes the wheel and
		// touch events over the plot, so the page would not scroll there.
		// charts.js zooms on a wheel turned with Ctrl or Shift held.
		charts.WithDataZoomOpts(opts.DataZoom{Type: "slider", XAxisIndex: 0}),
		charts.WithToolboxOpts(opts.Toolbox{Show: opts.Bool(true), Right: "8", Feature: &opts.ToolBoxFeature{
			SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png", Name: saveAs},
			DataZoom:    zoomTool,
			Restore:     &opts.ToolBoxFeatureRestore{Show: opts.Bool(true)},
		}}),
	)
	return c
}

// allZero reports whether a line is zero (or missing) at every turn.
func allZero(values []float64) bool {
	for _, v := range values {
		if v != 0 && !math.IsNaN(v) {
			return false
		}
	}
	return true
}

// seriesData writes the lines' numbers as a JSON array with one array per
// line, each line's values starting at turn from: the values of turns 0,
// 1, 2... for a line from turn 0 of at most bound values, else [turn,
// value] pairs (of the line downsampled to bound values when longer). Its
// output holds only digits, signs, points, exponents, commas, brackets and
// null, so it is safe in a JSON script block as it is.
func seriesData(lines []analytics.Line, from, bound int) template.JS {
	b := make([]byte, 0, 2+len(lines)*bound*8)
	b = append(b, '[')
	for i, l := range lines {
		if i > 0 {
			b = append(b, ',')
		}
		d := analytics.Downsample(l, bound)
		if d.Turns == nil && from == 0 {
			b = appendValues(b, d.Values)
			continue
		}
		b = append(b, '[')
		for j, v := range d.Values {
			if j > 0 {
				b = append(b, ',')
			}
			turn := j
			if d.Turns != nil {
				turn = d.Turns[j]
			}
			b = appendPair(b, float64(from+turn), v)
		}
		b = append(b, ']')
	}
	return template.JS(append(b, ']'))
}

// appendPair appends the JSON array [x, y].
func appendPair(b []byte, x, y float64) []byte {
	b = appendNumber(append(b, '['), x)
	b = appendNumber(append(b, ','), y)
	return append(b, ']')
}

// markPoints puts the events of l's player (or unit) on l, one point per
// turn with the kinds that happened then. Events of a unit go on the
// unit's line when the chart has one, else on its player's line.
func markPoints(l analytics.Line, lines []analytics.Line, marks []store.TurnEvent) []opts.MarkPointNameCoordItem {
	onLine := func(e store.TurnEvent) bool {
		if e.Seat != l.Seat {
			return false
		}
		if e.Unit == l.Unit {
			return true
		}
		if l.Unit != sim.NoUnit {
			return false
		}
		for _, o := range lines { // the unit has no line of its own
			if o.Seat == e.Seat && o.Unit == e.Unit {
				return false
			}
		}
		return true
	}
	var pts []opts.MarkPointNameCoordItem
	for _, e := range marks {
		if e.Seat < 0 || !onLine(e) || e.Turn >= len(l.Values) || math.IsNaN(l.Values[e.Turn]) {
			continue
		}
		if n := len(pts); n > 0 && pts[n-1].Coordinate[0] == e.Turn {
			if !strings.Contains(pts[n-1].Name, e.Kind) {
				pts[n-1].Name += ", " + e.Kind
			}
			continue
		}
		pts = append(pts, opts.MarkPointNameCoordItem{
			Name:       e.Kind,
			Coordinate: []any{e.Turn, l.Values[e.Turn]},
			Symbol:     "circle",
			SymbolSize: 8,
		})
	}
	return pts
}

// gameEventColor draws the events of the game itself, a grey no seat has.
const gameEventColor = "#8a8f98"

// markLines marks the events of the game itself (seat -1) as vertical
// lines across the chart.
func markLines(marks []store.TurnEvent) []opts.MarkLineNameXAxisItem {
	var ls []opts.MarkLineNameXAxisItem
	for _, e := range marks {
		if e.Seat < 0 {
			ls = append(ls, opts.MarkLineNameXAxisItem{Name: e.Kind, XAxis: e.Turn})
		}
	}
	return ls
}
