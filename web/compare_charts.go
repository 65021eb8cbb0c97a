package web

import (
	"encoding/json"
	"html/template"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// The colours of the two sides on every chart of a comparison.
var sideColours = [2]string{"#2b6cb0", "#dd6b20"}

// compareCharts draws each metric twice: box plots of both sides' final
// values, and both sides' mean curves with their 95% bands. A chart with
// nothing to draw is left out. It returns the charts and the scripts they
// need.
func compareCharts(cmp comparison) ([]chartView, []string) {
	names := [2]string{cmp.A.Name + " " + cmp.A.Version, cmp.B.Name + " " + cmp.B.Version}
	var (
		views  []chartView
		assets []string
	)
	add := func(id, title string, option map[string]any, jsAssets []string, data any) {
		// json.Marshal escapes <, > and &, so the block cannot be ended
		// early; its numbers are finite (number encodes the rest as null).
		b, err := json.Marshal(data)
		if err != nil {
			b = []byte("[]") // only numbers and nulls: cannot fail
		}
		views = append(views, chartView{ID: id, Title: title, Option: option, Data: template.JS(b)})
		assets = appendAssets(assets, jsAssets)
	}
	for i, f := range cmp.Finals {
		if f.A != nil || f.B != nil {
			box := finalsChart(f, names)
			box.Validate() // prefixes the assets with echartsHost
			add(box.ChartID, "Final "+f.Label, box.JSON(), box.JSAssets.Values, [][]any{{boxItem(f.A, 0), boxItem(f.B, 1)}})
		}
		c := cmp.Curves[i]
		if len(c.A.Turns) > 0 || len(c.B.Turns) > 0 {
			line := curveChart(c, names)
			line.Validate()
			var data [][][2]number
			for _, b := range []bandJSON{c.A, c.B} {
				data = append(data, points(b.Turns, b.Mean), points(b.Turns, b.Low), bandWidths(b))
			}
			add(line.ChartID, "Mean "+c.Label+" per turn", line.JSON(), line.JSAssets.Values, data)
		}
	}
	return views, assets
}

// finalsChart is the box plot of one metric's final values, a box per
// side; compare.js fills in its data.
func finalsChart(f finalsJSON, names [2]string) *charts.BoxPlot {
	c := charts.NewBoxPlot()
	c.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: "final-" + f.Metric, AssetsHost: echartsHost}),
		charts.WithTitleOpts(opts.Title{Title: "Final " + f.Label, Left: "left"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Left: "40", Right: "24", Top: "48", Bottom: "32", ContainLabel: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Scale: opts.Bool(true)}),
	)
	c.SetXAxis(names[:])
	c.AddSeries(f.Label, nil)
	return c
}

// boxItem is one side's box: [min, Q1, median, Q3, max] in its colour, or
// null for a side with no value.
func boxItem(sp *spreadJSON, side int) any {
	if sp == nil {
		return nil
	}
	return map[string]any{
		"value":     []number{sp.Min, sp.Q1, sp.Median, sp.Q3, sp.Max},
		"itemStyle": map[string]string{"borderColor": sideColours[side]},
	}
}

// curveChart draws one metric's mean curves. Each side has three series
// of one name, so its legend entry shows and hides them together: the
// mean, and its band drawn as the low bound (invisible) with the band's
// width stacked on it and filled.
func curveChart(c curveJSON, names [2]string) *charts.Line {
	line := charts.NewLine()
	line.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: "curve-" + c.Metric, AssetsHost: echartsHost}),
		charts.WithTitleOpts(opts.Title{Title: "Mean " + c.Label + " per turn", Left: "left"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "28", Left: "center"}),
		charts.WithGridOpts(opts.Grid{Left: "40", Right: "44", Top: "64", Bottom: "40", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Name: "turn", Type: "value", Min: 0}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Scale: opts.Bool(true)}),
	)
	for side, name := range names {
		colour := sideColours[side]
		stack := "band-" + string(rune('a'+side))
		line.AddSeries(name, nil,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}),
			charts.WithLineStyleOpts(opts.LineStyle{Color: colour, Width: 2}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colour}))
		line.AddSeries(name, nil,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Stack: stack}),
			charts.WithLineStyleOpts(opts.LineStyle{Opacity: opts.Float(0)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colour}))
		line.AddSeries(name, nil,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Stack: stack}),
			charts.WithLineStyleOpts(opts.LineStyle{Opacity: opts.Float(0)}),
			charts.WithAreaStyleOpts(opts.AreaStyle{Color: colour, Opacity: opts.Float(0.2)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colour}))
	}
	return line
}

// points pairs turns with values, as a value axis of turns wants them.
func points(turns []int, vs values) [][2]number {
	ps := make([][2]number, len(turns))
	for i, t := range turns {
		ps[i] = [2]number{number(t), number(vs[i])}
	}
	return ps
}

// bandWidths is the band's height at each turn, stacked on its low bound.
func bandWidths(b bandJSON) [][2]number {
	ps := make([][2]number, len(b.Turns))
	for i, t := range b.Turns {
		ps[i] = [2]number{number(t), number(b.High[i] - b.Low[i])}
	}
	return ps
}
