package web

import (
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// sweepView is a stored critical sweep on its match's page: what it is,
// what it found, and its chart of decisive turns.
type sweepView struct {
	Seat    int
	Label   string // "Seat 2 · name version, played on by SPEC, all alternatives"
	Summary string // forks played, turns swept, changes found
	Chart   chartView
	// Decisive are the first maxDecisiveListed turns with a change, for
	// the list above the chart; More counts the others.
	Decisive []decisiveTurn
	More     int
}

// maxDecisiveListed bounds the turns a sweep lists as links: a sweep in
// which every fork changes the outcome would list every turn.
const maxDecisiveListed = 30

// decisiveTurn is a turn where some alternative changes the seat's
// outcome or rank.
type decisiveTurn struct {
	Turn          int
	Better, Worse int
}

// criticalData is the match page's "decisive turns" section: a view per
// stored sweep, or with none the command line that runs one.
type criticalData struct {
	Sweeps  []sweepView
	More    int // sweeps not charted: past maxSweepsCharted
	Command string
}

// maxSweepsCharted bounds the charts of sweeps a match page draws: every
// bot and --alternatives is a sweep of its own. The API has them all.
const maxSweepsCharted = 10

// Colours of the changes a decisive turns chart counts.
const (
	betterColor = "#2a9d5c"
	worseColor  = "#d1495b"
)

// criticalSection builds the match page's decisive turns from the
// match's stored sweeps, and the chart assets they need.
func criticalSection(m store.MatchSummary, stored []store.StoredSweep) (criticalData, []string) {
	// A sweep stopped before its first fork finished found nothing.
	var sweeps []store.StoredSweep
	for _, s := range stored {
		if len(s.Forks) > 0 {
			sweeps = append(sweeps, s)
		}
	}
	if len(sweeps) == 0 {
		return criticalData{Command: fmt.Sprintf("replaylab critical %s --db FILE --seat 1", shortID(m.ID))}, nil
	}
	var (
		d      criticalData
		assets []string
	)
	if len(sweeps) > maxSweepsCharted {
		sweeps, d.More = sweeps[:maxSweepsCharted], len(sweeps)-maxSweepsCharted
	}
	for i, s := range sweeps {
		turns := analytics.SweptTurns(s.Recorded, s.Forks)
		v := sweepView{Seat: s.Seat, Label: sweepLabel(m, s.Sweep), Summary: sweepSummary(turns)}
		for _, t := range turns {
			switch {
			case t.Changes() == 0:
			case len(v.Decisive) < maxDecisiveListed:
				v.Decisive = append(v.Decisive, decisiveTurn{t.Turn, t.Better, t.Worse})
			default:
				v.More++
			}
		}
		c, lines := decisiveChart(m, i, turns)
		c.Validate() // prefixes the assets with echartsHost
		v.Chart = chartView{ID: c.ChartID, Title: "Decisive turns of " + v.Label, Option: c.JSON(), Data: seriesData(lines, 0, linePoints(pagePoints, len(lines)*len(sweeps)))}
		d.Sweeps = append(d.Sweeps, v)
		assets = appendAssets(assets, c.JSAssets.Values)
	}
	return d, assets
}

// sweepLabel says whose sweep s is: the seat and its recorded bot, the bot
// that played on, and the alternatives tried.
func sweepLabel(m store.MatchSummary, s store.Sweep) string {
	who := sim.SeatName(s.Seat)
	if s.Seat < len(m.Players) {
		who = playerName(m.Players[s.Seat])
	}
	alts := "all alternatives"
	if s.Alternatives > 0 {
		alts = fmt.Sprintf("the first %d alternatives", s.Alternatives)
	}
	return fmt.Sprintf("%s, played on by %s, %s", who, s.Bot, alts)
}

// sweepSummary says what a sweep played and found.
func sweepSummary(turns []analytics.SweptTurn) string {
	forks, better, worse, half := 0, 0, 0, 0
	for _, t := range turns {
		forks, better, worse = forks+t.Forks, better+t.Better, worse+t.Worse
		if t.Forks < t.Of {
			half++
		}
	}
	s := fmt.Sprintf("%d forks at %d turns", forks, len(turns))
	if len(turns) > 0 {
		s += fmt.Sprintf(" (%d to %d)", turns[0].Turn, turns[len(turns)-1].Turn)
	}
	s += fmt.Sprintf(": %d change the outcome or rank for the better, %d for the worse", better, worse)
	if half > 0 {
		s += fmt.Sprintf("; turns not all played: %d (run the sweep again to finish them)", half)
	}
	return s
}

// decisiveChart draws a sweep's turns: at each turn swept, how many
// alternatives change the seat's outcome or rank for the better and for
// the worse. Its lines are NaN at the turns not swept, which the chart
// leaves as gaps, every turn swept has a point even at 0, and the span
// swept is shaded.
func decisiveChart(m store.MatchSummary, i int, turns []analytics.SweptTurn) (*charts.Line, []analytics.Line) {
	better := analytics.Line{Seat: 0, Unit: sim.NoUnit, Values: make([]float64, m.Turns+1)}
	worse := analytics.Line{Seat: 0, Unit: sim.NoUnit, Values: make([]float64, m.Turns+1)}
	for t := range better.Values {
		better.Values[t], worse.Values[t] = math.NaN(), math.NaN()
	}
	for _, t := range turns {
		if t.Turn < len(better.Values) {
			better.Values[t.Turn], worse.Values[t.Turn] = float64(t.Better), float64(t.Worse)
		}
	}
	md := sim.MetricDef{Name: "decisive", Label: "Decisive turns", Integer: true}
	c := newTurnChart("chart-decisive-"+strconv.Itoa(i), md, 0, m.Turns, plainLegend(nil, nil), shortID(m.ID)+"-decisive-"+strconv.Itoa(i))
	series := func(color string) []charts.SeriesOpts {
		return []charts.SeriesOpts{
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 6, ConnectNulls: opts.Bool(false)}),
			charts.WithLineStyleOpts(opts.LineStyle{Color: color, Width: 2}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
		}
	}
	betterOpts := series(betterColor)
	if len(turns) > 0 {
		betterOpts = append(betterOpts,
			charts.WithMarkAreaNameCoordItemOpts(opts.MarkAreaNameCoordItem{
				Name:        "swept",
				Coordinate0: []any{turns[0].Turn, "min"},
				Coordinate1: []any{turns[len(turns)-1].Turn, "max"},
			}),
			charts.WithMarkAreaStyleOpts(opts.MarkAreaStyle{ItemStyle: &opts.ItemStyle{Color: gameEventColor, Opacity: opts.Float(0.12)}}))
	}
	c.AddSeries("better", nil, betterOpts...)
	c.AddSeries("worse", nil, series(worseColor)...)
	return c, []analytics.Line{better, worse}
}

// sweepJSON is a stored critical sweep as the API gives it.
type sweepJSON struct {
	SeatIndex    int             `json:"seat_index"`
	SeatNumber   int             `json:"seat_number"`
	Bot          string          `json:"bot"`
	Fingerprint  string          `json:"fingerprint"`
	BotPlayer    string          `json:"bot_player"`
	Alternatives string          `json:"alternatives"`
	Recorded     resultJSON      `json:"recorded"`
	Forks        int             `json:"forks"`
	Turns        []sweptTurnJSON `json:"turns"`
	Changes      []changeJSON    `json:"changes"`
}

type resultJSON struct {
	Outcome sim.Outcome `json:"outcome"`
	Rank    int         `json:"rank"`
	Score   float64     `json:"score"`
}

// sweptTurnJSON is a turn swept: Forks of its Of forks played, Changes of
// them changing the seat's outcome or rank, Better or Worse.
type sweptTurnJSON struct {
	Turn    int    `json:"turn"`
	Forks   int    `json:"forks"`
	Of      int    `json:"of"`
	Changes int    `json:"changes"`
	Better  int    `json:"better"`
	Worse   int    `json:"worse"`
	URL     string `json:"url"`
}

// changeJSON is a fork that changes the seat's outcome or rank.
type changeJSON struct {
	Turn    int    `json:"turn"`
	Command string `json:"command"`
	resultJSON
	Better bool `json:"better"`
}

// apiCritical answers the stored critical sweeps of a match.
func (s *server) apiCritical(c echo.Context) error {
	m, _, err := s.matchParam(c)
	if err != nil {
		return err
	}
	sweeps, err := s.db.Sweeps(c.Request().Context(), m.ID)
	if err != nil {
		return err
	}
	out := make([]sweepJSON, len(sweeps))
	for i, sw := range sweeps {
		alts := "all"
		if sw.Alternatives > 0 {
			alts = strconv.Itoa(sw.Alternatives)
		}
		j := sweepJSON{
			SeatIndex: sw.Seat, SeatNumber: sim.SeatNumber(sw.Seat), Bot: sw.Bot, Fingerprint: sw.Fingerprint,
			BotPlayer: sw.Player.Name, Alternatives: alts, Forks: len(sw.Forks),
			Recorded: resultJSON{sw.Recorded.Outcome, sw.Recorded.Rank, sw.Recorded.Score},
			Turns:    []sweptTurnJSON{}, Changes: []changeJSON{},
		}
		if sw.Player.Version != "" {
			j.BotPlayer += "@" + sw.Player.Version
		}
		for _, t := range analytics.SweptTurns(sw.Recorded, sw.Forks) {
			j.Turns = append(j.Turns, sweptTurnJSON{t.Turn, t.Forks, t.Of, t.Changes(), t.Better, t.Worse, turnURL(m.ID, t.Turn)})
		}
		for _, f := range sw.Forks {
			if c := analytics.CompareResults(sw.Recorded, f.Result); c != 0 {
				j.Changes = append(j.Changes, changeJSON{f.Turn, f.Command, resultJSON{f.Result.Outcome, f.Result.Rank, f.Result.Score}, c > 0})
			}
		}
		out[i] = j
	}
	return c.JSON(http.StatusOK, map[string]any{"match": m.ID, "sweeps": out})
}
