package web

import (
	"context"
	"encoding/json"
	"html/template"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// echartsHost is where go-echarts points its script tags: the vendored
// ECharts under /static, so pages never load it from the internet.
const echartsHost = "/static/vendor/echarts/"

// maxMarks bounds the events marked on one match's charts.
const maxMarks = 200

// The bounds of the numbers a chart carries, so that a page's size does
// not grow with the length of the match: every line gets an equal share of
// pagePoints, from minLinePoints to maxLinePoints, and a longer line is
// downsampled to its share (analytics.Downsample keeps each bucket's lowest
// and highest value, with their turns). 2000 points is more than a chart is
// wide in pixels; a chart with many lines (15 snakes) gets fewer per line.
// A match page embeds only its key charts, whose lines share the smaller
// keyPoints, and fetches each other chart when it is opened: no match page
// sends more than 150 KB of HTML.
const (
	pagePoints    = 40_000
	keyPoints     = 8_000
	maxLinePoints = 2000
	minLinePoints = 100
)

// linePoints is the share of points (pagePoints or keyPoints) of each of
// n lines.
func linePoints(points, n int) int {
	return min(maxLinePoints, max(minLinePoints, points/max(n, 1)))
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

// matchChartsView is the charts section of a match page: the key charts
// drawn at once, the others collapsed under their titles and fetched when
// opened, and the charts not drawn at all, with why.
type matchChartsView struct {
	Key      []chartView
	More     []moreChart
	NotDrawn []string // "Throws (all zero)", "Score (same as HP)"
	Assets   []string // the scripts the charts need
}

// moreChart is a chart of a match page drawn only when opened: charts.js
// fetches its option and numbers from Src. A yes-or-no metric
// (sim.MetricDef.Flag) is a list of the spans of turns each line holds
// instead, on the page.
type moreChart struct {
	ID    string
	Title string
	Src   string
	Spans []flagLine
}

// metricPlan is what a match page does with one metric's lines.
type metricPlan struct {
	Index int
	Lines []analytics.Line
	// Skip says why the metric is not drawn ("all zero", "same as HP");
	// empty when it is.
	Skip string
}

// planCharts decides, for each metric of g with its lines, whether the
// page draws it: not when every line is zero all match, nor when its
// lines are those of a metric before it.
func planCharts(g *sim.Game, lines [][]analytics.Line) []metricPlan {
	plans := make([]metricPlan, len(g.Metrics))
	for i := range g.Metrics {
		p := metricPlan{Index: i, Lines: lines[i]}
		if !slices.ContainsFunc(p.Lines, func(l analytics.Line) bool { return !allZero(l.Values) }) {
			p.Skip = "all zero"
		}
		for _, o := range plans[:i] {
			if p.Skip == "" && o.Skip == "" && sameLines(p.Lines, o.Lines) {
				p.Skip = "same as " + g.Metrics[o.Index].Label
			}
		}
		plans[i] = p
	}
	return plans
}

// sameLines reports whether two charts would draw the same lines: the same
// seats and units with the same value at every turn.
func sameLines(a, b []analytics.Line) bool {
	return slices.EqualFunc(a, b, func(x, y analytics.Line) bool {
		return x.Seat == y.Seat && x.Unit == y.Unit && slices.EqualFunc(x.Values, y.Values, sameValue)
	})
}

// sameValue reports whether two values are equal, missing (NaN) ones
// equal to each other.
func sameValue(x, y float64) bool {
	return x == y || math.IsNaN(x) && math.IsNaN(y)
}

// matchCharts builds a match page's charts: a line chart of each key
// metric of the game, with one line per player (or per unit, for metrics
// reported per unit) and the match's notable events marked on them; a
// collapsed entry for every other metric; and the metrics not drawn.
func (s *server) matchCharts(ctx context.Context, m store.MatchSummary, g *sim.Game) (matchChartsView, error) {
	if g == nil || len(g.Metrics) == 0 {
		return matchChartsView{}, nil
	}
	metrics := make([]int, len(g.Metrics))
	for i := range metrics {
		metrics[i] = i
	}
	stored, err := s.db.Series(ctx, m.ID, metrics...)
	if err != nil {
		return matchChartsView{}, err
	}
	lines := make([][]analytics.Line, len(g.Metrics))
	for i, md := range g.Metrics {
		lines[i] = chartLines(analytics.Lines(stored[i], m.Turns), md.PerUnit)
	}
	plans := planCharts(g, lines)
	var marks []store.TurnEvent
	if keyLines(g, plans) > 0 {
		if marks, err = s.chartMarks(ctx, m); err != nil {
			return matchChartsView{}, err
		}
	}
	return sortCharts(g, plans,
		func(p metricPlan, bound int) (chartView, []string) {
			return metricChart(m, g.Metrics[p.Index], p.Lines, marks, bound)
		},
		func(p metricPlan) moreChart {
			md := g.Metrics[p.Index]
			if md.Flag {
				return moreChart{ID: "chart-" + md.Name, Title: md.Label, Spans: flagLines(m, p.Lines)}
			}
			return moreChart{ID: "chart-" + md.Name, Title: md.Label, Src: matchURL(m.ID) + "/charts/" + md.Name}
		}), nil
}

// keyLines counts the lines of the key charts drawn.
func keyLines(g *sim.Game, plans []metricPlan) int {
	n := 0
	for _, p := range plans {
		if p.Skip == "" && g.Metrics[p.Index].Key {
			n += len(p.Lines)
		}
	}
	return n
}

// sortCharts makes a page's charts of the plans: the key metrics drawn
// (by key, their lines sharing keyPoints), the others collapsed (as later
// makes them), and the metrics not drawn, with why.
func sortCharts(g *sim.Game, plans []metricPlan, key func(p metricPlan, bound int) (chartView, []string), later func(p metricPlan) moreChart) matchChartsView {
	var v matchChartsView
	bound := linePoints(keyPoints, keyLines(g, plans))
	for _, p := range plans {
		md := g.Metrics[p.Index]
		switch {
		case p.Skip != "":
			v.NotDrawn = append(v.NotDrawn, md.Label+" ("+p.Skip+")")
		case md.Key:
			cv, assets := key(p, bound)
			v.Key = append(v.Key, cv)
			v.Assets = appendAssets(v.Assets, assets)
		default:
			v.More = append(v.More, later(p))
		}
	}
	if len(v.More) > 0 {
		// The charts opened later need the same scripts.
		v.Assets = appendAssets(v.Assets, newTurnChartAssets())
	}
	return v
}

// metricChart draws metric md's lines with the events marked on them, each
// line downsampled to bound points, and returns the scripts it needs.
func metricChart(m store.MatchSummary, md sim.MetricDef, lines []analytics.Line, marks []store.TurnEvent, bound int) (chartView, []string) {
	// Marks take their height from the whole line, before downsampling
	// drops the turn they sit at.
	line, hidden := lineChart(m, md, lines, marks)
	line.Validate() // prefixes the assets with echartsHost
	return chartView{ID: line.ChartID, Title: md.Label + " per turn", Option: line.JSON(), Data: stepData(lines, 0, bound), Hidden: hidden}, line.JSAssets.Values
}

// newTurnChartAssets are the scripts every turn chart needs, for a page
// that draws its charts later.
func newTurnChartAssets() []string {
	c := newTurnChart("assets", sim.MetricDef{}, 0, 1, plainLegend(nil, nil), "")
	c.Validate() // prefixes the assets with echartsHost
	return c.JSAssets.Values
}

// maxSpans bounds the spans of turns a yes-or-no line lists.
const maxSpans = 20

// flagLine is a yes-or-no metric's line of a match page: the turns it is
// yes, as spans of consecutive turns.
type flagLine struct {
	Match string // the match's id, for the links to its turns
	Seat  int
	Name  string
	Held  int // turns it is yes
	Turns int // turns of the match
	Spans []turnSpan
	More  int // spans left out, past maxSpans
}

// turnSpan is the turns From to To, both included.
type turnSpan struct{ From, To int }

// flagLines lists the spans of turns each line is not zero.
func flagLines(m store.MatchSummary, lines []analytics.Line) []flagLine {
	out := make([]flagLine, len(lines))
	for i, l := range lines {
		f := flagLine{Match: m.ID, Seat: l.Seat, Name: lineName(m, l), Turns: m.Turns}
		for t := 0; t < len(l.Values); t++ {
			if l.Values[t] == 0 || math.IsNaN(l.Values[t]) {
				continue
			}
			from := t
			for t+1 < len(l.Values) && l.Values[t+1] != 0 && !math.IsNaN(l.Values[t+1]) {
				t++
			}
			f.Held += t - from + 1
			if len(f.Spans) < maxSpans {
				f.Spans = append(f.Spans, turnSpan{from, t})
			} else {
				f.More++
			}
		}
		out[i] = f
	}
	return out
}

// matchChart answers the option and numbers of one metric's chart of a
// match, which its match page fetches when the chart is opened, as the
// JSON object {"option": ..., "data": ...}.
func (s *server) matchChart(c echo.Context) error {
	m, g, i, err := s.matchMetric(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	stored, err := s.db.Series(ctx, m.ID, i)
	if err != nil {
		return err
	}
	marks, err := s.chartMarks(ctx, m)
	if err != nil {
		return err
	}
	md := g.Metrics[i]
	lines := chartLines(analytics.Lines(stored[0], m.Turns), md.PerUnit)
	v, _ := metricChart(m, md, lines, marks, linePoints(pagePoints, len(lines)))
	return sendChart(c, v)
}

// sendChart answers a chart's option and numbers as the JSON object
// {"option": ..., "data": ...}.
func sendChart(c echo.Context, v chartView) error {
	option, err := json.Marshal(v.Option)
	if err != nil {
		return err
	}
	b := make([]byte, 0, len(option)+len(v.Data)+32)
	b = append(append(append(b, `{"option":`...), option...), `,"data":`...)
	b = append(append(b, v.Data...), '}')
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSONCharsetUTF8, b)
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
	return writeSeries(lines, from, bound, false)
}

// stepData is seriesData for a chart that draws steps, a value held until
// the next point: a point whose value repeats the one before adds nothing
// and is left out (the last is kept, to reach the end), so a line that
// changes rarely is a few [turn, value] pairs.
func stepData(lines []analytics.Line, from, bound int) template.JS {
	return writeSeries(lines, from, bound, true)
}

// writeSeries writes seriesData, or stepData when steps is true.
func writeSeries(lines []analytics.Line, from, bound int, steps bool) template.JS {
	b := make([]byte, 0, 2+len(lines)*bound*8)
	b = append(b, '[')
	for i, l := range lines {
		if i > 0 {
			b = append(b, ',')
		}
		d := analytics.Downsample(l, bound)
		points := allPoints(d.Values)
		if steps {
			points = stepPoints(d.Values)
		}
		if d.Turns == nil && from == 0 && 2*len(points) > len(d.Values) {
			b = appendValues(b, d.Values)
			continue
		}
		b = append(b, '[')
		for j, k := range points {
			if j > 0 {
				b = append(b, ',')
			}
			turn := k
			if d.Turns != nil {
				turn = d.Turns[k]
			}
			b = appendPair(b, float64(from+turn), d.Values[k])
		}
		b = append(b, ']')
	}
	return template.JS(append(b, ']'))
}

// allPoints returns the indexes of all values.
func allPoints(values []float64) []int {
	all := make([]int, len(values))
	for i := range all {
		all[i] = i
	}
	return all
}

// stepPoints returns the indexes of the values a step line needs: the
// first, each that differs from the one before, and the last.
func stepPoints(values []float64) []int {
	var keep []int
	for i, v := range values {
		if i == 0 || i == len(values)-1 || !sameValue(v, values[i-1]) {
			keep = append(keep, i)
		}
	}
	return keep
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
