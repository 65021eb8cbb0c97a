package web

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// timesJSON is a match's answer times (GET /api/v1/matches/ID/times):
// per timed seat, TimesMS[i] is its time at turn i+1 in milliseconds,
// null where it was not timed, and LimitMS the turn limit it had, or
// "unknown" when the output file did not say. The match's LimitMS is the
// seats' when they all had the same known one, "unknown" otherwise.
type timesJSON struct {
	LimitMS any             `json:"limit_ms"`
	Seats   []seatTimesJSON `json:"seats"`
}

type seatTimesJSON struct {
	Seat    int        `json:"seat"`
	LimitMS any        `json:"limit_ms"`
	TimesMS []*float64 `json:"times_ms"`
}

// commonLimit returns the turn limit every seat of times had, 0 when one
// is not known or they differ.
func commonLimit(times []store.BotOutput) time.Duration {
	if len(times) == 0 {
		return 0
	}
	for _, t := range times {
		if t.Limit != times[0].Limit {
			return 0
		}
	}
	return times[0].Limit
}

// limitJSON is a turn limit in milliseconds, or "unknown".
func limitJSON(d time.Duration) any {
	if d <= 0 {
		return "unknown"
	}
	return millis(d)
}

// turnTimeJSON is a seat's answer time at one turn, for the inspector.
type turnTimeJSON struct {
	Seat int     `json:"seat"`
	MS   float64 `json:"ms"`
}

// millis converts d to milliseconds, to the microsecond the store keeps.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// matchTimes returns the match the URL names and its answer times.
func (s *server) matchTimes(c echo.Context) (store.MatchSummary, []store.BotOutput, error) {
	m, _, err := s.matchParam(c)
	if err != nil {
		return m, nil, err
	}
	times, err := s.db.BotTimes(c.Request().Context(), m.ID)
	return m, times, err
}

func (s *server) apiTimes(c echo.Context) error {
	_, times, err := s.matchTimes(c)
	if err != nil {
		return err
	}
	out := timesJSON{LimitMS: limitJSON(commonLimit(times)), Seats: make([]seatTimesJSON, len(times))}
	for i, t := range times {
		st := seatTimesJSON{Seat: t.Seat, LimitMS: limitJSON(t.Limit), TimesMS: make([]*float64, len(t.Times))}
		for j, d := range t.Times {
			if d > 0 {
				v := millis(d)
				st.TimesMS[j] = &v
			}
		}
		out.Seats[i] = st
	}
	return c.JSON(http.StatusOK, out)
}

// turnTimes returns each timed seat's answer time at turn.
func (s *server) turnTimes(ctx context.Context, id string, turn int) ([]turnTimeJSON, error) {
	times, err := s.db.BotTimesTo(ctx, id, turn)
	if err != nil {
		return nil, err
	}
	out := []turnTimeJSON{}
	for _, t := range times {
		if turn >= 1 && turn <= len(t.Times) && t.Times[turn-1] > 0 {
			out = append(out, turnTimeJSON{t.Seat, millis(t.Times[turn-1])})
		}
	}
	return out, nil
}

// responseTime is the chart of the answer times, drawn as a metric's.
var responseTime = sim.MetricDef{Name: "response-time", Label: "Response time (ms)"}

// timesChart returns the collapsed "Response time" chart of a match page
// when its bots' answers were timed.
func (s *server) timesChart(ctx context.Context, m store.MatchSummary) (*moreChart, error) {
	times, err := s.db.BotTimesTo(ctx, m.ID, 1) // whether there are any
	if err != nil || len(times) == 0 {
		return nil, err
	}
	return &moreChart{ID: "chart-" + responseTime.Name, Title: "Response time", Src: matchURL(m.ID) + "/times/chart"}, nil
}

// timeLines are the answer times as chart lines: turns 0..turns, NaN
// where a seat was not timed.
func timeLines(times []store.BotOutput, turns int) []analytics.Line {
	lines := make([]analytics.Line, len(times))
	for i, t := range times {
		v := make([]float64, turns+1)
		for turn := range v {
			v[turn] = math.NaN()
			if turn >= 1 && turn <= len(t.Times) && t.Times[turn-1] > 0 {
				v[turn] = millis(t.Times[turn-1])
			}
		}
		lines[i] = analytics.Line{Seat: t.Seat, Unit: sim.NoUnit, Values: v}
	}
	return lines
}

// timesChartData answers the option and numbers of a match's response
// time chart, as matchChart does a metric's.
func (s *server) timesChartData(c echo.Context) error {
	m, times, err := s.matchTimes(c)
	if err != nil {
		return err
	}
	lines := timeLines(times, m.Turns)
	line, _ := lineChart(m, responseTime, lines, nil)
	if limit := commonLimit(times); limit > 0 && len(line.MultiSeries) > 0 {
		// The limit is a dashed line across the chart, on the first
		// seat's series, as the event marks are.
		charts.WithMarkLineNameYAxisItemOpts(opts.MarkLineNameYAxisItem{Name: "turn limit", YAxis: millis(limit)})(&line.MultiSeries[0])
		charts.WithMarkLineStyleOpts(opts.MarkLineStyle{
			Symbol:    []string{"none", "none"},
			Label:     &opts.Label{Show: opts.Bool(true), Formatter: "turn limit"},
			LineStyle: &opts.LineStyle{Color: gameEventColor, Type: "dashed"},
		})(&line.MultiSeries[0])
	}
	line.Validate()
	return sendChart(c, chartView{ID: line.ChartID, Title: responseTime.Label + " per turn", Option: line.JSON(),
		Data: stepData(lines, 0, linePoints(pagePoints, len(lines)))})
}
