package web

import (
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// page is what the layout needs from every page.
type page struct {
	Title   string
	Nav     string   // the active navigation entry
	Scripts []string // scripts the page loads, in order
	Refresh int      // seconds after which the page reloads itself; 0 never
}

// gameSummary is a game on the overview: its matches and the leading bots
// under each ruleset.
type gameSummary struct {
	Game    *sim.Game
	Matches int
	Top     []leaderBoard
}

// leaderBoard is the head of a leaderboard: its first leadersShown
// versions, and how many more the full board lists.
type leaderBoard struct {
	boardView
	More int
}

type overviewData struct {
	page
	Games     []gameSummary
	Recent    []store.MatchSummary
	NeedToken bool
	Fill      fillState
}

// fillRefresh is how often, in seconds, the overview reloads itself while
// a fill runs.
const fillRefresh = 2

// leadersShown is how many bots each game's overview leaderboard lists.
const leadersShown = 5

func (s *server) overviewPage(c echo.Context) error {
	counts, err := s.gameCounts(c)
	if err != nil {
		return err
	}
	byGame, err := s.boardsByGame(c)
	if err != nil {
		return err
	}
	recent, _, err := s.db.Matches(c.Request().Context(), store.MatchFilter{Limit: recentLimit})
	if err != nil {
		return err
	}
	d := overviewData{page: page{Title: "replaylab", Nav: "overview"}, Recent: recent, NeedToken: s.uploadToken != "", Fill: s.fill.state()}
	if d.Fill.Running {
		// The page changes with every match stored: neither the browser
		// nor the page cache may keep it, and it reloads until the end.
		d.Refresh = fillRefresh
		c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	}
	for _, g := range games.All() {
		gs := gameSummary{Game: g, Matches: counts[g.Name]}
		for _, b := range byGame[g.Name] {
			more := max(0, len(b.Standings)-leadersShown)
			b.Standings = b.Standings[:min(len(b.Standings), leadersShown)]
			gs.Top = append(gs.Top, leaderBoard{b, more})
		}
		d.Games = append(d.Games, gs)
	}
	return s.render(c, http.StatusOK, "overview", d)
}

type matchesData struct {
	page
	Filter     store.MatchFilter
	Games      []*sim.Game
	Matches    []store.MatchSummary
	Total      int
	TotalExact bool // else the filter selects Total matches or more
	First      int  // 1-based number of the first match shown; 0 when not known
	Last       int
	PrevURL    template.URL // the newer page; "" on the first
	NextURL    template.URL // the older page; "" on the last
	Problem    string       // why the filter selects nothing, for the form
	BotNames   []string     // the names the bot fields suggest
}

// maxSuggestedNames bounds the bot names the match filter suggests.
const maxSuggestedNames = 1000

// pageSize is the number of matches per page of the match list.
const pageSize = 25

func (s *server) matchesPage(c echo.Context) error {
	f, err := matchFilter(c, pageSize)
	if err != nil {
		return err
	}
	// at numbers the first match of a page its older link reached, as
	// that link counted: the cursor itself knows no position.
	at, err := intQuery(c, "at", 0)
	if err != nil {
		return err
	}
	d := matchesData{page: page{Title: "Matches", Nav: "matches"}, Filter: f, Games: games.All()}
	l, err := s.db.MatchList(c.Request().Context(), f)
	if errors.Is(err, store.ErrInvalid) {
		// A filter that does not go together (a result without a bot)
		// keeps the form, with what to change, instead of an error page.
		d.Problem = err.Error()
		return s.render(c, http.StatusBadRequest, "matches", d)
	}
	if err != nil {
		return err
	}
	// A name typed in another case is shown, and linked, as stored.
	f.Bot, f.Vs = l.Bot, l.Vs
	d.Filter.Bot, d.Filter.Vs = l.Bot, l.Vs
	if d.BotNames, err = s.db.BotNames(c.Request().Context(), f.Game, maxSuggestedNames); err != nil {
		return err
	}
	d.Matches, d.Total, d.TotalExact = l.Matches, l.Total, l.Exact
	top := f
	top.Before, top.Offset = 0, 0
	switch {
	case f.Before == 0:
		d.First = f.Offset + 1
	case at > 0:
		d.First = at + f.Offset
	}
	if d.First > 0 {
		d.Last = d.First + len(l.Matches) - 1
	}
	// Older pages follow the cursor; a newer one is the offset page
	// before this, or the first when the position is not known. Both
	// keep a page size that is not the default.
	limit := f.Limit
	if limit == pageSize {
		limit = 0
	}
	switch {
	case d.First > 1:
		d.PrevURL = matchesLink(top, "offset", max(0, d.First-1-f.Limit), "limit", limit)
	case d.First == 0:
		d.PrevURL = matchesLink(top, "limit", limit)
	}
	if l.Next != 0 {
		older := top
		older.Before = l.Next
		at := 0
		if d.First > 0 {
			at = d.Last + 1
		}
		d.NextURL = matchesLink(older, "at", at, "limit", limit)
	}
	return s.render(c, http.StatusOK, "matches", d)
}

type matchData struct {
	page
	Match     store.MatchSummary
	GameTitle string
	Config    string // the setup config, cut to maxConfigShown bytes
	Charts    matchChartsView
	Trouble   []troubleView // the banner's lines, one per seat with trouble
	Lineage   store.Lineage
	Critical  criticalData // the decisive turns of the stored sweeps
}

// troubleView is a seat's line of a match page's trouble banner: the
// seat, its bot and what went wrong, each fact linked to its turn in the
// inspector.
type troubleView struct {
	Seat  int
	Label string // "Seat 2 · name version" (playerName)
	Facts []store.TroubleFact
}

// troubleViews lists the trouble of m for its page.
func troubleViews(m store.MatchSummary) []troubleView {
	var out []troubleView
	for _, t := range m.Trouble {
		v := troubleView{Seat: t.Seat, Label: sim.SeatName(t.Seat), Facts: t.Facts()}
		if t.Seat < len(m.Players) {
			v.Label = playerName(m.Players[t.Seat])
		}
		out = append(out, v)
	}
	return out
}

// troubleOption is a choice of the match list's trouble filter.
type troubleOption struct {
	Kind  store.TroubleKind
	Label string
}

// troubleOptions label store.TroubleKinds for the match list's form.
var troubleOptions = []troubleOption{
	{store.TroubleAny, "any"},
	{store.TroubleCrash, "a crash"},
	{store.TroubleTimeout, "time-outs"},
	{store.TroubleInvalid, "invalid commands"},
	{store.TroubleOversize, "over-long answers"},
}

// HasTeams reports whether some seats of the match played together, so
// that its page shows a team column.
func (d matchData) HasTeams() bool {
	return slices.ContainsFunc(d.Match.Players, func(p store.PlayerSummary) bool { return p.Team != p.Seat })
}

// TeamName names a team by the seats of the match that played in it:
// "Seats 1 and 2" for the team of seats 0 and 1.
func (d matchData) TeamName(team int) string {
	var seats []string
	for _, p := range d.Match.Players {
		if p.Team == team {
			seats = append(seats, strconv.Itoa(sim.SeatNumber(p.Seat)))
		}
	}
	if len(seats) == 1 {
		return sim.SeatName(team)
	}
	return "Seats " + strings.Join(seats[:len(seats)-1], ", ") + " and " + seats[len(seats)-1]
}

// maxConfigShown bounds the config a match page shows: a config may list
// a value per turn (River Toad's rolls), which for a long match would be
// most of the page. The replay holds all of it.
const maxConfigShown = 1000

// shownConfig cuts a config to maxConfigShown bytes, at a character
// boundary, saying how long it is when it cuts.
func shownConfig(config []byte) string {
	if len(config) <= maxConfigShown {
		return string(config)
	}
	return fmt.Sprintf("%s… (%d bytes in all, in the replay)", cutText(string(config), maxConfigShown), len(config))
}

// cutText returns the longest prefix of s of at most n bytes that ends at
// a character boundary.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// gameTitle names a game for people, falling back to its identifier for
// a game this build does not have.
func gameTitle(g *sim.Game, name string) string {
	if g == nil {
		return name
	}
	return g.Title
}

func (s *server) matchPage(c echo.Context) error {
	m, g, err := s.matchParam(c)
	if err != nil {
		return err
	}
	charts, err := s.matchCharts(c.Request().Context(), m, g)
	if err != nil {
		return err
	}
	tc, err := s.timesChart(c.Request().Context(), m)
	if err != nil {
		return err
	}
	if tc != nil {
		charts.More = append(charts.More, *tc)
		charts.Assets = appendAssets(charts.Assets, newTurnChartAssets())
	}
	assets := charts.Assets
	lin, err := s.db.Lineage(c.Request().Context(), m.ID)
	if err != nil {
		return err
	}
	sweeps, err := s.db.Sweeps(c.Request().Context(), m.ID)
	if err != nil {
		return err
	}
	crit, critAssets := criticalSection(m, sweeps)
	assets = appendAssets(assets, critAssets)
	d := matchData{
		page:      page{Title: gameTitle(g, m.Game) + " match " + shortID(m.ID), Nav: "matches", Scripts: append(assets, "/static/js/scheme.js", "/static/js/charts.js")},
		Match:     m,
		GameTitle: gameTitle(g, m.Game),
		Config:    shownConfig(m.Config),
		Charts:    charts,
		Trouble:   troubleViews(m),
		Lineage:   lin,
		Critical:  crit,
	}
	return s.render(c, http.StatusOK, "match", d)
}

// inspectorMeta is what inspector.js needs besides the turns.
type inspectorMeta struct {
	ID      string       `json:"id"`
	URL     string       `json:"url"`
	Game    string       `json:"game"`
	Turns   int          `json:"turns"`
	Players []playerJSON `json:"players"`
	Metrics []metricJSON `json:"metrics"`
	// Marks are the events the match's charts mark, for the timeline.
	Marks []eventJSON `json:"marks"`
	// Unit says how the board names units, so the tables say the same.
	Unit unitNaming `json:"unit"`
	// DebugSeats are the seats whose bots drew over the board in some
	// turn, for which the page offers toggles and asks turns with
	// debug=1; none for most matches.
	DebugSeats []int `json:"debug_seats"`
}

type inspectorData struct {
	page
	Match     store.MatchSummary
	GameTitle string
	Turn      int
	Meta      inspectorMeta
	Initial   turnJSON
	Fork      forkView
}

func (s *server) inspectorPage(c echo.Context) error {
	m, g, t, err := s.turn(c)
	if err != nil {
		return err
	}
	marks, err := s.chartMarks(c.Request().Context(), m)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	meta := newInspectorMeta(m, g, marks)
	if meta.DebugSeats, err = s.db.BotDebugSeats(ctx, m.ID); err != nil {
		return err
	}
	if len(meta.DebugSeats) > 0 && t.Debug == nil {
		if t.Debug, err = s.turnDebug(ctx, m.ID, t.Turn); err != nil {
			return err
		}
	}
	scripts := append(boardScripts(m.Game), "/static/js/fork.js", "/static/js/inspector.js", "/static/js/seatview.js", echartsHost+"echarts.min.js", "/static/js/curves.js")
	d := inspectorData{
		page:      page{Title: gameTitle(g, m.Game) + " match " + shortID(m.ID) + ", turn inspector", Nav: "matches", Scripts: scripts},
		Match:     m,
		GameTitle: gameTitle(g, m.Game),
		Turn:      t.Turn,
		Meta:      meta,
		Initial:   t,
		Fork:      s.forkView(g, m, t.Turn),
	}
	return s.render(c, http.StatusOK, "inspector", d)
}

// newInspectorMeta is what a page drawing m's boards tells its script,
// with the events its timeline marks.
func newInspectorMeta(m store.MatchSummary, g *sim.Game, marks []store.TurnEvent) inspectorMeta {
	mj := newMatchJSON(m)
	return inspectorMeta{ID: m.ID, URL: mj.URL, Game: m.Game, Turns: m.Turns, Players: mj.Players, Metrics: metricsJSON(g), Marks: eventsJSON(marks), Unit: unitNamingOf(m.Game)}
}

// boardScripts are the scripts that draw a game's boards: the renderers'
// registry and the game's renderer, when it has one.
func boardScripts(game string) []string {
	scripts := []string{"/static/js/renderers.js"}
	if r := "js/render/" + game + ".js"; staticExists(r) {
		scripts = append(scripts, "/static/"+r)
	}
	return scripts
}

// staticExists reports whether an embedded static file exists.
func staticExists(name string) bool {
	_, err := fs.Stat(assets, "static/"+name)
	return err == nil
}

// gameBoards is one game's leaderboards, one per ruleset.
type gameBoards struct {
	Name   string
	Title  string
	Boards []boardView
}

type botsData struct {
	page
	Games []gameBoards
}

// boardsByGame returns every game's leaderboards by game name.
func (s *server) boardsByGame(c echo.Context) (map[string][]boardView, error) {
	bs, err := s.boards(c, "", "")
	if err != nil {
		return nil, err
	}
	byGame := map[string][]boardView{}
	for _, b := range bs {
		byGame[b.Game] = append(byGame[b.Game], b)
	}
	return byGame, nil
}

func (s *server) botsPage(c echo.Context) error {
	byGame, err := s.boardsByGame(c)
	if err != nil {
		return err
	}
	d := botsData{page: page{Title: "Bots", Nav: "bots"}}
	for _, g := range games.All() {
		if bs := byGame[g.Name]; len(bs) > 0 {
			d.Games = append(d.Games, gameBoards{g.Name, g.Title, bs})
		}
	}
	return s.render(c, http.StatusOK, "bots", d)
}

type botData struct {
	page
	botProfile
	GameTitle string
}

func (s *server) botPage(c echo.Context) error {
	p, err := s.botProfile(c)
	if err != nil {
		return err
	}
	g, _ := games.Lookup(p.Game)
	pg := page{Title: p.Name + " (" + gameTitle(g, p.Game) + ")", Nav: "bots"}
	if len(p.Charts) > 0 {
		pg.Scripts = append(p.Assets, "/static/js/scheme.js", "/static/js/charts.js")
	}
	return s.render(c, http.StatusOK, "bot", botData{page: pg, botProfile: p, GameTitle: gameTitle(g, p.Game)})
}
