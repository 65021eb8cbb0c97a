package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// A branch view is named by the fork alone (/matches/FORK/branch): a fork
// has one parent and one fork turn, so one id names the pair, and no URL
// can name two matches that are not parent and fork.

// branchLead is how many turns before the fork turn a branch view's
// charts begin: the turns both matches share, for the eye to follow the
// lines into the fork.
const branchLead = 10

// branchSides names the two matches of a branch view, in their order on
// the page and in its charts.
var branchSides = [2]string{"parent", "fork"}

// branchJSON is the branch view of a fork: its parent and it from the
// fork turn on.
type branchJSON struct {
	// Turn is the fork turn: the last turn the fork took from its parent
	// as recorded. It is live from the next.
	Turn   int          `json:"turn"`
	Parent matchJSON    `json:"parent"`
	Fork   matchJSON    `json:"fork"`
	Seats  []branchSeat `json:"seats"`
	// FirstDifference is the first turn after Turn at which the two
	// differ, A being the parent and B the fork: a command of the parent
	// is the recorded one, the fork's is what was played instead.
	FirstDifference *divergence `json:"first_difference"`
}

// branchSeat is a seat's result in both matches, and what of it the fork
// changed: any of "bot", "outcome", "rank" and "score".
type branchSeat struct {
	SeatIndex int        `json:"seat_index"` // 0-based
	Parent    playerJSON `json:"parent"`
	Fork      playerJSON `json:"fork"`
	Changed   []string   `json:"changed"`
}

// Changes reports whether the fork changed what of the seat's result.
func (s branchSeat) Changes(what string) bool { return slices.Contains(s.Changed, what) }

// branch is a branch view with the matches it shows.
type branch struct {
	branchJSON
	parent, fork store.MatchSummary
	game         *sim.Game // nil for a game this build does not have
}

// branch reads the fork the URL names, its parent, and where they first
// differ. A match played from its start, and a fork whose parent is not
// stored, are not found: there is nothing to set them beside.
func (s *server) branch(c echo.Context) (branch, error) {
	fork, g, err := s.matchParam(c)
	if err != nil {
		return branch{}, err
	}
	ctx := c.Request().Context()
	lin, err := s.db.Lineage(ctx, fork.ID)
	if err != nil {
		return branch{}, err
	}
	p := lin.Parent
	if p == nil {
		return branch{}, notFound("match %s is not a fork: it was played from its start, so it has no parent to be set beside (its page lists the forks of it)", shortID(fork.ID))
	}
	if !p.Stored {
		return branch{}, notFound("match %s is a fork of match %s at turn %d, which is not stored here (deleted, or the fork was uploaded without it), so there is nothing to set it beside", shortID(fork.ID), shortID(p.ID), p.Turn)
	}
	parent, err := s.summaries.match(ctx, s.db, p.ID)
	if err != nil {
		return branch{}, err
	}
	b := branch{parent: parent, fork: fork, game: g}
	b.Turn, b.Parent, b.Fork = p.Turn, newMatchJSON(parent), newMatchJSON(fork)
	b.Seats = branchSeats(b.Parent.Players, b.Fork.Players)
	if b.FirstDifference, err = s.divergeAfter(ctx, fork.Seed, parent.ID, fork.ID, p.Turn); err != nil {
		return branch{}, s.memoryFault(c, err)
	}
	return b, nil
}

// branchSeats pairs the seats of a parent and its fork, which has the
// same seats.
func branchSeats(parent, fork []playerJSON) []branchSeat {
	seats := []branchSeat{}
	for i := range min(len(parent), len(fork)) {
		p, f := parent[i], fork[i]
		s := branchSeat{SeatIndex: f.Seat, Parent: p, Fork: f, Changed: []string{}}
		for _, c := range []struct {
			what    string
			changed bool
		}{
			{"bot", p.Name != f.Name || p.Version != f.Version},
			{"outcome", p.Outcome != f.Outcome},
			{"rank", p.Rank != f.Rank},
			{"score", p.Score != f.Score},
		} {
			if c.changed {
				s.Changed = append(s.Changed, c.what)
			}
		}
		seats = append(seats, s)
	}
	return seats
}

// apiBranch is the branch view as JSON.
func (s *server) apiBranch(c echo.Context) error {
	b, err := s.branch(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, b.branchJSON)
}

// branchMeta is what branch.js needs: the fork turn, the first turn that
// differs (null when none does), and each match as the inspector's
// script knows it, for the renderers.
type branchMeta struct {
	Turn       int           `json:"turn"`
	Difference *int          `json:"first_difference"`
	Parent     inspectorMeta `json:"parent"`
	Fork       inspectorMeta `json:"fork"`
}

// branchData is the data of the branch template.
type branchData struct {
	page
	branchJSON
	GameTitle string
	Charts    matchChartsView
	Meta      branchMeta
}

// LiveTurn is the fork's first turn played live.
func (d branchData) LiveTurn() int { return d.Turn + 1 }

// Sides names the two matches, for the template's boards.
func (branchData) Sides() [2]string { return branchSides }

// branchPage sets a fork beside its parent: both boards stepping
// together from the fork turn, every metric's lines of both on one chart,
// both outcomes, and the first turn that differs.
func (s *server) branchPage(c echo.Context) error {
	b, err := s.branch(c)
	if err != nil {
		return err
	}
	charts, err := s.branchCharts(c.Request().Context(), b)
	if err != nil {
		return err
	}
	scripts := append(charts.Assets, "/static/js/scheme.js", "/static/js/charts.js")
	scripts = append(append(scripts, boardScripts(b.fork.Game)...), "/static/js/branch.js")
	title := gameTitle(b.game, b.fork.Game)
	d := branchData{
		page:       page{Title: fmt.Sprintf("%s fork %s beside its parent %s", title, shortID(b.fork.ID), shortID(b.parent.ID)), Nav: "matches", Scripts: scripts},
		branchJSON: b.branchJSON,
		GameTitle:  title,
		Charts:     charts,
		Meta: branchMeta{Turn: b.Turn, Difference: b.FirstDifference.Turn,
			Parent: newInspectorMeta(b.parent, b.game, nil), Fork: newInspectorMeta(b.fork, b.game, nil)},
	}
	return s.render(c, http.StatusOK, "branch", d)
}

// branchLines reads the lines of the metrics of a branch view's charts,
// the parent's and the fork's, from a little before the fork turn.
func (s *server) branchLines(ctx context.Context, b branch, metrics ...int) ([][2][]analytics.Line, error) {
	matches := [2]store.MatchSummary{b.parent, b.fork}
	first := max(0, b.Turn-branchLead)
	lines := make([][2][]analytics.Line, len(metrics))
	for side, m := range matches {
		stored, err := s.db.Series(ctx, m.ID, metrics...)
		if err != nil {
			return nil, err
		}
		for i, mi := range metrics {
			ls := chartLines(analytics.Lines(stored[i], m.Turns), b.game.Metrics[mi].PerUnit)
			for j := range ls {
				ls[j].Values = ls[j].Values[min(first, len(ls[j].Values)):]
			}
			lines[i][side] = ls
		}
	}
	return lines, nil
}

// branchCharts draws a chart of each key metric of the game with the
// lines of the parent (dashed) and of the fork (solid), each in its seat's
// colour, from a little before the fork turn, which is marked; both from
// the stored per-turn rows. The other metrics are collapsed, each fetched
// when opened, and those all zero or the same as another not drawn, as
// on a match page.
func (s *server) branchCharts(ctx context.Context, b branch) (matchChartsView, error) {
	g := b.game
	if g == nil || len(g.Metrics) == 0 {
		return matchChartsView{}, nil
	}
	metrics := make([]int, len(g.Metrics))
	for i := range metrics {
		metrics[i] = i
	}
	lines, err := s.branchLines(ctx, b, metrics...)
	if err != nil {
		return matchChartsView{}, err
	}
	both := make([][]analytics.Line, len(lines))
	for i, l := range lines {
		both[i] = slices.Concat(l[0], l[1])
	}
	return sortCharts(g, planCharts(g, both),
		func(p metricPlan, bound int) (chartView, []string) {
			return branchMetricChart(b, g.Metrics[p.Index], lines[p.Index], bound)
		},
		func(p metricPlan) moreChart {
			md := g.Metrics[p.Index]
			return moreChart{ID: "branch-" + md.Name, Title: md.Label, Src: branchURL(b.fork.ID) + "/charts/" + md.Name}
		}), nil
}

// branchMetricChart draws metric md of a branch view, each line
// downsampled to bound points, and returns the scripts it needs.
func branchMetricChart(b branch, md sim.MetricDef, lines [2][]analytics.Line, bound int) (chartView, []string) {
	first := max(0, b.Turn-branchLead)
	line := branchChart([2]store.MatchSummary{b.parent, b.fork}, md, lines, first, b.Turn)
	line.Validate() // prefixes the assets with echartsHost
	return chartView{ID: line.ChartID, Title: md.Label + " per turn, parent and fork",
		Option: line.JSON(), Data: stepData(slices.Concat(lines[0], lines[1]), first, bound)}, line.JSAssets.Values
}

// branchMetric answers one metric's chart of a branch view, which the
// page fetches when the chart is opened, as matchChart does.
func (s *server) branchMetric(c echo.Context) error {
	b, err := s.branch(c)
	if err != nil {
		return err
	}
	i, err := metricParam(c, b.fork.Game, b.game)
	if err != nil {
		return err
	}
	lines, err := s.branchLines(c.Request().Context(), b, i)
	if err != nil {
		return err
	}
	v, _ := branchMetricChart(b, b.game.Metrics[i], lines[0], linePoints(pagePoints, len(lines[0][0])+len(lines[0][1])))
	return sendChart(c, v)
}

// branchChart draws one metric of a parent and its fork from turn first:
// the parent's lines dashed and thin, the fork's solid, the fork turn a
// labelled line across the chart.
func branchChart(matches [2]store.MatchSummary, md sim.MetricDef, lines [2][]analytics.Line, first, turn int) *charts.Line {
	c := newTurnChart("branch-"+md.Name, md, first, max(matches[0].Turns, matches[1].Turns),
		plainLegend(nil, nil), shortID(matches[1].ID)+"-branch-"+md.Name)
	marked := false
	for side, m := range matches {
		for _, l := range lines[side] {
			color := seatColor(l.Seat)
			style := opts.LineStyle{Color: color, Width: 2.5}
			if side == 0 {
				style.Width, style.Type = 1.5, "dashed"
			}
			seriesOpts := []charts.SeriesOpts{
				charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Step: "end"}),
				charts.WithLineStyleOpts(style),
				charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
			}
			if !marked {
				marked = true
				seriesOpts = append(seriesOpts,
					charts.WithMarkLineNameXAxisItemOpts(opts.MarkLineNameXAxisItem{Name: fmt.Sprintf("fork turn %d", turn), XAxis: turn}),
					charts.WithMarkLineStyleOpts(opts.MarkLineStyle{
						Symbol:    []string{"none", "none"},
						Label:     &opts.Label{Show: opts.Bool(true), Formatter: "{b}", Position: "end"},
						LineStyle: &opts.LineStyle{Color: gameEventColor, Type: "dashed"},
					}))
			}
			c.AddSeries(branchSides[side]+" · "+lineName(m, l), nil, seriesOpts...)
		}
	}
	return c
}
