package web

import (
	"errors"
	"fmt"
	"html"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// maxMatrixBots bounds a head-to-head matrix: 40 versions are 1,560 cells,
// about what a page can still show and a reader take in.
const maxMatrixBots = 40

// headToHead lays out the board of a game and ruleset, which must be a
// game of this build and one of its rulesets, and says in a note what the
// matrix leaves out: the versions past maxMatrixBots, or everything when
// fewer than two versions met.
func (s *server) headToHead(c echo.Context, game, ruleset string) (analytics.Matrix, *sim.Game, string, error) {
	g, err := games.Lookup(game)
	if err != nil {
		return analytics.Matrix{}, nil, "", notFound("no game %q: head-to-head boards are of %s", game, gameNames())
	}
	if !slices.Contains(g.Rulesets, ruleset) {
		return analytics.Matrix{}, g, "", notFound("%s has no ruleset %q: it has %s", g.Title, ruleset, strings.Join(g.Rulesets, ", "))
	}
	h, err := s.db.HeadToHead(c.Request().Context(), game, ruleset, maxMatrixBots)
	if err != nil {
		return analytics.Matrix{}, g, "", err
	}
	boards, err := s.db.Ratings(c.Request().Context(), game, ruleset)
	if err != nil {
		return analytics.Matrix{}, g, "", err
	}
	var fit []store.BotRating
	if len(boards) == 1 {
		fit = boards[0].Ratings
	}
	m := analytics.NewMatrix(h).ByRating(fit)
	var note string
	switch {
	case len(m.Bots) < 2:
		note = fmt.Sprintf("No two bot versions have met in %s under ruleset %s: a head-to-head board needs two bots that played each other.", g.Title, ruleset)
	case m.TotalBots > len(m.Bots):
		note = fmt.Sprintf("Showing the %d bot versions with the most meetings, of %d.", len(m.Bots), m.TotalBots)
	}
	return m, g, note, nil
}

// gameNames lists the names of this build's games.
func gameNames() string {
	var names []string
	for _, g := range games.All() {
		names = append(names, g.Name)
	}
	return strings.Join(names, ", ")
}

// h2hURL is the page of a game's head-to-head board under a ruleset.
func h2hURL(game, ruleset string) string {
	return "/headtohead/" + url.PathEscape(game) + "/" + url.PathEscape(ruleset)
}

// meetingLinks are the links of a matrix's cells to the matches of the
// row's bot against the column's: the link of row i and column j is
// rows[i] + cols[j]. A board of 40 versions has 1,560 cells; escaping
// each part once instead of building every link whole through
// matchesURL halves the cost of the API's answer.
type meetingLinks struct{ rows, cols []string }

func newMeetingLinks(m analytics.Matrix) meetingLinks {
	// The keys in the order url.Values.Encode sorts them, as matchesURL
	// writes them; an empty version is left out, as query leaves it.
	param := func(key, value string) string {
		if value == "" {
			return ""
		}
		return "&" + key + "=" + url.QueryEscape(value)
	}
	board := param("game", m.Game) + param("ruleset", m.Ruleset)
	l := meetingLinks{rows: make([]string, len(m.Bots)), cols: make([]string, len(m.Bots))}
	for i, b := range m.Bots {
		l.rows[i] = "/matches?bot=" + url.QueryEscape(b.Name) + board + param("version", b.Version)
		l.cols[i] = param("vs", b.Name) + param("vs_version", b.Version)
	}
	return l
}

func (l meetingLinks) url(row, col int) string { return l.rows[row] + l.cols[col] }

// botLabel names a bot version in a matrix.
func botLabel(b store.BotVersion) string {
	if b.Version == "" {
		return b.Name
	}
	return b.Name + " " + b.Version
}

type rowView struct {
	Bot    store.BotVersion
	Rating string        // the version's rating, rounded, or "" without one
	Cells  template.HTML // the row's cells, rendered by writeCell
}

type h2hData struct {
	page
	GameTitle string
	Matrix    analytics.Matrix
	Rows      []rowView
	Note      string
	APIQuery  template.URL
}

// diffText shows a mean score difference and its interval, or why there
// is none, to the digits the interval leaves meaningful (roundedDiff).
func diffText(p analytics.Pair) string {
	if !p.HasCI {
		return roundedDiff(p.MeanDiff, p.MeanDiff) + " (one meeting: no interval)"
	}
	half := (p.DiffCI.High - p.DiffCI.Low) / 2
	return roundedDiff(p.MeanDiff, half) + " ± " + strings.TrimPrefix(roundedDiff(half, half), "+")
}

// roundedDiff shows x with its sign, to two significant digits of scale
// (the interval's half-width, or x itself without one) and at most two
// decimals, a whole number whole: +540.73 ± 51.04 reads +541 ± 51,
// +0.4137 ± 0.0912 reads +0.41 ± 0.09.
func roundedDiff(x, scale float64) string {
	decimals := 0
	for s := math.Abs(scale); x != math.Trunc(x) && decimals < 2 && s > 0 && s < 10; s *= 10 {
		decimals++
	}
	v := strconv.FormatFloat(x, 'f', decimals, 64)
	if v == "-0" || strings.Trim(v, "-0.") == "" {
		return "0" // a difference rounded to nothing has no sign
	}
	if x > 0 {
		v = "+" + v
	}
	return v
}

// meetingsText counts meetings in words.
func meetingsText(n int) string {
	if n == 1 {
		return "1 meeting"
	}
	return strconv.Itoa(n) + " meetings"
}

// writeCell renders the cell of row i and column j. A board of 40
// versions has 1,560 cells, and html/template escaping each cell's half
// a dozen values by reflection took most of the page's time; here each
// value is escaped once by html.EscapeString, which is all the text and
// quoted attributes of this markup need (the link is a relative URL of
// query-escaped values).
func writeCell(b *strings.Builder, m analytics.Matrix, links meetingLinks, i, j int) {
	p := m.Cells[i][j]
	switch {
	case i == j:
		b.WriteString(`<td class="self" title="a bot against itself is no meeting">—</td>`)
		return
	case p.Meetings == 0:
		b.WriteString(`<td class="none" title="never met">·</td>`)
		return
	}
	diff := diffText(p)
	title := fmt.Sprintf("%s against %s: %s, %d won, %d drawn, %d lost; score difference %s",
		botLabel(m.Bots[i]), botLabel(m.Bots[j]), meetingsText(p.Meetings), p.Wins, p.Draws, p.Losses, diff)
	fmt.Fprintf(b, `<td class="ws%d" title="%s"><a href="%s"><span class="wdl">%d–%d–%d</span><span class="diff">%s</span></a></td>`,
		int(p.WinShare*10+0.5), html.EscapeString(title), html.EscapeString(links.url(i, j)),
		p.Wins, p.Draws, p.Losses, html.EscapeString(diff))
}

func (s *server) h2hPage(c echo.Context) error {
	game, err1 := url.PathUnescape(c.Param("game"))
	ruleset, err2 := url.PathUnescape(c.Param("ruleset"))
	if err := errors.Join(err1, err2); err != nil {
		return badInput("head-to-head path: %v", err)
	}
	m, g, note, err := s.headToHead(c, game, ruleset)
	if err != nil {
		return err
	}
	d := h2hData{page: page{Title: "Head to head: " + g.Title + ", " + ruleset, Nav: "bots"}, GameTitle: g.Title, Matrix: m, Note: note,
		APIQuery: query("game", game, "ruleset", ruleset)}
	if len(m.Bots) >= 2 {
		links := newMeetingLinks(m)
		var sb strings.Builder
		for i, b := range m.Bots {
			sb.Reset()
			for j := range m.Bots {
				writeCell(&sb, m, links, i, j)
			}
			var rating string
			if r := m.Ratings[i]; !math.IsNaN(r) {
				rating = strconv.FormatFloat(r, 'f', 0, 64)
			}
			d.Rows = append(d.Rows, rowView{Bot: b, Rating: rating, Cells: template.HTML(sb.String())})
		}
	}
	return s.render(c, http.StatusOK, "headtohead", d)
}

// matrixJSON is a head-to-head board: cells[i][j] is bots[i] against
// bots[j], null on the diagonal.
type matrixJSON struct {
	Game      string            `json:"game"`
	Ruleset   string            `json:"ruleset"`
	Note      string            `json:"note,omitempty"`
	TotalBots int               `json:"total_bots"`
	Bots      []botVersionJSON  `json:"bots"`
	Cells     [][]*pairCellJSON `json:"cells"`
}

type botVersionJSON struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	URL     string `json:"url"`
	// Rating is the version's stored rating, null when the fit has not
	// rated it; the board's versions are ordered by it.
	Rating *float64 `json:"rating"`
}

// pairCellJSON is one cell. The numbers that need a meeting, or two, are
// null without them: JSON has no NaN.
type pairCellJSON struct {
	Meetings int         `json:"meetings"`
	Wins     int         `json:"wins"`
	Draws    int         `json:"draws"`
	Losses   int         `json:"losses"`
	WinShare *float64    `json:"win_share"`
	MeanDiff *float64    `json:"mean_score_diff"`
	DiffCI   *[2]float64 `json:"mean_score_diff_ci95"`
	Matches  string      `json:"matches_url,omitempty"`
}

func newMatrixJSON(m analytics.Matrix, note string) matrixJSON {
	out := matrixJSON{Game: m.Game, Ruleset: m.Ruleset, Note: note, TotalBots: m.TotalBots, Bots: []botVersionJSON{}, Cells: [][]*pairCellJSON{}}
	links := newMeetingLinks(m)
	for i, b := range m.Bots {
		bj := botVersionJSON{Name: b.Name, Version: b.Version, URL: botURL(m.Game, b.Name)}
		if r := m.Ratings[i]; !math.IsNaN(r) {
			bj.Rating = &r
		}
		out.Bots = append(out.Bots, bj)
		row := make([]*pairCellJSON, len(m.Bots))
		for j, p := range m.Cells[i] {
			if i == j {
				continue
			}
			cell := &pairCellJSON{Meetings: p.Meetings, Wins: p.Wins, Draws: p.Draws, Losses: p.Losses}
			if p.Meetings > 0 {
				cell.WinShare, cell.MeanDiff = &p.WinShare, &p.MeanDiff
				cell.Matches = links.url(i, j)
			}
			if p.HasCI {
				cell.DiffCI = &[2]float64{p.DiffCI.Low, p.DiffCI.High}
			}
			row[j] = cell
		}
		out.Cells = append(out.Cells, row)
	}
	return out
}

// h2hCSVHeader is the header row of the CSV export: one row per ordered
// pair of versions that met.
var h2hCSVHeader = []string{"game", "ruleset", "bot", "version", "vs", "vs_version", "meetings", "wins", "draws", "losses",
	"win_share", "mean_score_diff", "mean_score_diff_ci95_low", "mean_score_diff_ci95_high"}

// matrixRows are the CSV rows of a board, header first: the pairs that
// met, both ways round; a pair of one meeting leaves the interval's
// columns empty.
func matrixRows(m analytics.Matrix) [][]string {
	rows := [][]string{h2hCSVHeader}
	for i, a := range m.Bots {
		for j, p := range m.Cells[i] {
			if i == j || p.Meetings == 0 {
				continue
			}
			b := m.Bots[j]
			low, high := "", ""
			if p.HasCI {
				low, high = formatFloat(p.DiffCI.Low), formatFloat(p.DiffCI.High)
			}
			rows = append(rows, []string{m.Game, m.Ruleset, a.Name, a.Version, b.Name, b.Version, strconv.Itoa(p.Meetings),
				strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses), formatFloat(p.WinShare), formatFloat(p.MeanDiff), low, high})
		}
	}
	return rows
}

// apiHeadToHead answers ?game=G&ruleset=R with the board as JSON, or as
// CSV with &format=csv.
func (s *server) apiHeadToHead(c echo.Context) error {
	game, ruleset := c.QueryParam("game"), c.QueryParam("ruleset")
	if game == "" || ruleset == "" {
		return badInput("head-to-head needs a game and a ruleset: ?game=G&ruleset=R")
	}
	format, err := tableFormat(c)
	if err != nil {
		return err
	}
	m, _, note, err := s.headToHead(c, game, ruleset)
	if err != nil {
		return err
	}
	if format == "json" {
		return c.JSON(http.StatusOK, newMatrixJSON(m, note))
	}
	return sendCSV(c, "headtohead-"+game+"-"+ruleset+".csv", matrixRows(m))
}
