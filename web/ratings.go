package web

import (
	"context"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// rate attaches the stored ratings to boards and ranks them by rating.
// It only reads what the refitter stored: no request ever fits.
func (s *server) rate(ctx context.Context, boards []analytics.Board, game, ruleset string) error {
	fits, err := s.db.Ratings(ctx, game, ruleset)
	if err != nil {
		return err
	}
	analytics.WithRatings(boards, fits)
	return nil
}

// matchesStored tells the refitter, when there is one, that a match was
// stored.
func (s *server) matchesStored() {
	if s.refit != nil {
		s.refit.Notify()
	}
}

// ratingJSON is one bot version's rating.
type ratingJSON struct {
	Rank    int        `json:"rank"`
	Name    string     `json:"name"`
	Version string     `json:"version"`
	URL     string     `json:"url"`
	Rating  float64    `json:"rating"`
	CI      [2]float64 `json:"rating_ci95"`
	// Matches are the matches the fit rated the version in: each match
	// once, as the leaderboards count, but not those in which no other
	// side played it (no rating learns from them), hence another name.
	Matches int `json:"rated_matches"`
}

// ratingBoardJSON is the rating fit of one game and ruleset.
type ratingBoardJSON struct {
	Game     string    `json:"game"`
	Ruleset  string    `json:"ruleset"`
	Matches  int       `json:"matches"`
	FittedAt time.Time `json:"fitted_at"`
	Problem  string    `json:"problem,omitempty"`
	// FittedOver says in words which matches the fit covered and what
	// anchors its scale (analytics.RatingBasis).
	FittedOver string       `json:"fitted_over"`
	Ratings    []ratingJSON `json:"ratings"`
}

// ratingsHeader is the header row of /api/v1/ratings?format=csv.
var ratingsHeader = []string{"game", "ruleset", "rank", "name", "version", "rating", "rating_ci95_low", "rating_ci95_high", "rated_matches", "fit_matches", "fitted_at", "problem", "fitted_over"}

// apiRatings answers the stored ratings, ?game= and ?ruleset= keeping one
// game's and one ruleset's, as JSON or (?format=csv) CSV with a row per
// bot version, and a row with only the problem for a ruleset that could
// not be rated.
func (s *server) apiRatings(c echo.Context) error {
	format, err := tableFormat(c)
	if err != nil {
		return err
	}
	game, ruleset := c.QueryParam("game"), c.QueryParam("ruleset")
	fits, err := s.db.Ratings(c.Request().Context(), game, ruleset)
	if err != nil {
		return err
	}
	if _, err := games.Lookup(game); game != "" && err != nil && len(fits) == 0 {
		return notFound("no game %q: see /api/v1/games", game)
	}
	out := make([]ratingBoardJSON, len(fits))
	for i, f := range fits {
		out[i] = ratingBoardJSON{Game: f.Game, Ruleset: f.Ruleset, Matches: f.Matches, FittedAt: f.FittedAt, Problem: f.Problem,
			FittedOver: analytics.RatingBasis(f.Game, f.Ruleset, f.Matches), Ratings: []ratingJSON{}}
		for j, r := range f.Ratings {
			out[i].Ratings = append(out[i].Ratings, ratingJSON{j + 1, r.Name, r.Version, botURL(f.Game, r.Name), r.Rating, [2]float64{r.Low, r.High}, r.Matches})
		}
	}
	if format == "json" {
		return c.JSON(http.StatusOK, out)
	}
	rows := [][]string{ratingsHeader}
	for _, b := range out {
		fit := []string{strconv.Itoa(b.Matches), b.FittedAt.Format(time.RFC3339), b.Problem, b.FittedOver}
		if len(b.Ratings) == 0 {
			rows = append(rows, append([]string{b.Game, b.Ruleset, "", "", "", "", "", "", ""}, fit...))
		}
		for _, r := range b.Ratings {
			rows = append(rows, append([]string{b.Game, b.Ruleset, strconv.Itoa(r.Rank), r.Name, r.Version,
				formatFloat(r.Rating), formatFloat(r.CI[0]), formatFloat(r.CI[1]), strconv.Itoa(r.Matches)}, fit...))
		}
	}
	name := "ratings.csv"
	if game != "" {
		name = game + "-ratings.csv"
	}
	return sendCSV(c, name, rows)
}

// ratingPointJSON is a bot version's rating after the first Upto matches
// of a ruleset, of which it was rated in Matches (see ratingJSON).
type ratingPointJSON struct {
	Ruleset string     `json:"ruleset"`
	Version string     `json:"version"`
	Upto    int        `json:"upto"`
	Matches int        `json:"rated_matches"`
	Rating  float64    `json:"rating"`
	CI      [2]float64 `json:"rating_ci95"`
}

// apiBotRatings answers the rating history of every version of a bot, as
// JSON or (?format=csv) CSV.
func (s *server) apiBotRatings(c echo.Context) error {
	format, err := tableFormat(c)
	if err != nil {
		return err
	}
	game, name, err := botParams(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	history, err := s.db.RatingHistory(ctx, game, name)
	if err != nil {
		return err
	}
	if len(history) == 0 {
		if _, err := s.botBoards(ctx, game, name); err != nil {
			return err
		}
	}
	points := make([]ratingPointJSON, len(history))
	for i, p := range history {
		points[i] = ratingPointJSON{p.Ruleset, p.Version, p.Upto, p.Matches, p.Rating, [2]float64{p.Low, p.High}}
	}
	if format == "json" {
		return c.JSON(http.StatusOK, struct {
			Game    string            `json:"game"`
			Name    string            `json:"name"`
			History []ratingPointJSON `json:"history"`
		}{game, name, points})
	}
	rows := [][]string{{"ruleset", "version", "upto", "rated_matches", "rating", "rating_ci95_low", "rating_ci95_high"}}
	for _, p := range points {
		rows = append(rows, []string{p.Ruleset, p.Version, strconv.Itoa(p.Upto), strconv.Itoa(p.Matches),
			formatFloat(p.Rating), formatFloat(p.CI[0]), formatFloat(p.CI[1])})
	}
	return sendCSV(c, game+"-"+name+"-ratings.csv", rows)
}

// bandColors are the colours of the versions on a rating chart, ECharts'
// default palette: a version's line and band must share one.
var bandColors = []string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"}

// ratingCharts draws a bot's rating history: one chart per ruleset, with
// a line per version over the matches stored in the ruleset and its 95%
// band. The band is two stacked series, its low end drawn invisibly and
// its width filled; they share the version's name, so the legend hides
// them with the line. The tooltip is the item's: the points of the rating
// lines, not the band's edges.
func ratingCharts(game, name string, history []store.RatingPoint) ([]chartView, []string) {
	var (
		views  []chartView
		assets []string
	)
	for start := 0; start < len(history); {
		end := start
		for end < len(history) && history[end].Ruleset == history[start].Ruleset {
			end++
		}
		c, data := ratingChart(game, name, history[start:end])
		c.Validate() // prefixes the assets with echartsHost
		views = append(views, chartView{ID: c.ChartID, Title: "Rating, ruleset " + history[start].Ruleset, Option: c.JSON(), Data: template.JS(data)})
		assets = c.JSAssets.Values
		start = end
	}
	return views, assets
}

// botMatchesAt maps each fit of a ruleset's history (its Upto, the
// matches stored under the ruleset) to the bot's own rated matches then:
// the sum over its versions of their matches at their latest point up to
// that fit. points are ordered by version and Upto, as RatingHistory
// gives them.
func botMatchesAt(points []store.RatingPoint) map[int]int {
	var uptos []int
	for _, p := range points {
		uptos = append(uptos, p.Upto)
	}
	slices.Sort(uptos)
	uptos = slices.Compact(uptos)
	total := make([]int, len(uptos))
	for start := 0; start < len(points); {
		end := start
		for end < len(points) && points[end].Version == points[start].Version {
			end++
		}
		// The version's matches at each fit from its first point on.
		k, last := start, 0
		for i, u := range uptos {
			for k < end && points[k].Upto <= u {
				last = points[k].Matches
				k++
			}
			total[i] += last
		}
		start = end
	}
	at := make(map[int]int, len(uptos))
	for i, u := range uptos {
		at[u] = total[i]
	}
	return at
}

// ratingChart draws the history of one ruleset, ordered by version and
// Upto, over the bot's own rated matches (botMatchesAt), and returns the
// series' numbers as seriesData does.
func ratingChart(game, name string, points []store.RatingPoint) (*charts.Line, []byte) {
	ruleset := points[0].Ruleset
	c := charts.NewLine()
	c.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: "rating-" + ruleset, AssetsHost: echartsHost}),
		charts.WithTitleOpts(opts.Title{Title: "Rating, ruleset " + ruleset, Subtitle: "95% band", Left: "left"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithLegendOpts(plainLegend(nil, nil)),
		charts.WithGridOpts(gridUnderLegend(48)),
		charts.WithXAxisOpts(opts.XAxis{Name: "the bot's rated matches (all its versions)", NameLocation: "middle", NameGap: 28, Type: "value", Min: 0}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Scale: opts.Bool(true)}),
		charts.WithToolboxOpts(opts.Toolbox{Show: opts.Bool(true), Right: "8", Feature: &opts.ToolBoxFeature{
			SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png", Name: game + "-" + name + "-" + ruleset + "-rating"},
		}}),
	)
	own := botMatchesAt(points)
	var lines [][][2]float64 // per series: [bot's matches, value] pairs
	for start, v := 0, 0; start < len(points); v++ {
		end := start
		for end < len(points) && points[end].Version == points[start].Version {
			end++
		}
		label := points[start].Version
		if label == "" {
			label = "(no version)"
		}
		color := bandColors[v%len(bandColors)]
		stack := "band-" + strconv.Itoa(v)
		c.AddSeries(label, nil,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
			charts.WithLineStyleOpts(opts.LineStyle{Color: color}))
		c.AddSeries(label, nil,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Stack: stack}),
			charts.WithLineStyleOpts(opts.LineStyle{Opacity: opts.Float(0)}))
		c.AddSeries(label, nil,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Stack: stack}),
			charts.WithLineStyleOpts(opts.LineStyle{Opacity: opts.Float(0)}),
			charts.WithAreaStyleOpts(opts.AreaStyle{Color: color, Opacity: opts.Float(0.2)}))
		rating, low, width := make([][2]float64, 0, end-start), make([][2]float64, 0, end-start), make([][2]float64, 0, end-start)
		for _, p := range points[start:end] {
			x := float64(own[p.Upto])
			rating = append(rating, [2]float64{x, p.Rating})
			low = append(low, [2]float64{x, p.Low})
			width = append(width, [2]float64{x, p.High - p.Low})
		}
		lines = append(lines, rating, low, width)
		start = end
	}
	b := []byte{'['}
	for i, l := range lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, p := range l {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendPair(b, p[0], p[1])
		}
		b = append(b, ']')
	}
	return c, append(b, ']')
}
