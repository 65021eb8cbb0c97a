package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// matchParam finds the match the URL's :id names, by its full id or a
// unique prefix, and its game (nil for a game this build does not have).
func (s *server) matchParam(c echo.Context) (store.MatchSummary, *sim.Game, error) {
	m, err := s.summaries.match(c.Request().Context(), s.db, c.Param("id"))
	if err != nil {
		return m, nil, err
	}
	g, _ := games.Lookup(m.Game)
	return m, g, nil
}

// matchMetric reads the match the URL names, its game, and the index of
// the game's metric the URL's :metric names.
func (s *server) matchMetric(c echo.Context) (store.MatchSummary, *sim.Game, int, error) {
	m, g, err := s.matchParam(c)
	if err != nil {
		return m, g, 0, err
	}
	i, err := metricParam(c, m.Game, g)
	return m, g, i, err
}

// metricParam reads the URL's :metric, a metric of game g (nil for a
// game this build does not have, which has none), named game.
func metricParam(c echo.Context, game string, g *sim.Game) (int, error) {
	name := c.Param("metric")
	if g != nil {
		if i, ok := g.Metric(name); ok {
			return i, nil
		}
	}
	return 0, notFound("game %s has no metric %q", game, name)
}

// turnParam reads the URL's :n, a turn of a match whose last turn is last.
func turnParam(c echo.Context, last int) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 0 {
		return 0, badInput("turn %q: want a whole number from 0 to %d", c.Param("n"), last)
	}
	if n > last {
		return 0, notFound("turn %d is past the end: the match has turns 0 to %d", n, last)
	}
	return n, nil
}

// intQuery reads an optional non-negative integer query parameter.
func intQuery(c echo.Context, name string, def int) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, badInput("%s %q: want a whole number of 0 or more", name, v)
	}
	return n, nil
}

// matchFilter reads the filters of a match list: game, ruleset, bot,
// version, result (win, loss or draw) and rank of the bot in its own seat,
// the bot it met and that bot's version (vs, vs_version), limit, offset
// and before (a page's next cursor: the matches stored before it).
func matchFilter(c echo.Context, defLimit int) (store.MatchFilter, error) {
	f := store.MatchFilter{
		Game:      c.QueryParam("game"),
		Ruleset:   c.QueryParam("ruleset"),
		Bot:       c.QueryParam("bot"),
		Version:   c.QueryParam("version"),
		Outcome:   sim.Outcome(c.QueryParam("result")),
		Vs:        c.QueryParam("vs"),
		VsVersion: c.QueryParam("vs_version"),
		Trouble:   store.TroubleKind(c.QueryParam("trouble")),
	}
	var err error
	if f.Rank, err = intQuery(c, "rank", 0); err != nil {
		return f, err
	}
	if f.Limit, err = intQuery(c, "limit", defLimit); err != nil {
		return f, err
	}
	if f.Limit > store.MaxLimit {
		return f, badInput("limit %d: at most %d", f.Limit, store.MaxLimit)
	}
	if f.Offset, err = intQuery(c, "offset", 0); err != nil {
		return f, err
	}
	if v := c.QueryParam("before"); v != "" {
		if f.Before, err = strconv.ParseInt(v, 10, 64); err != nil || f.Before < 1 {
			return f, badInput("before %q: want the next cursor of a page, a whole number of 1 or more", v)
		}
	}
	return f, nil
}

func (s *server) apiGames(c echo.Context) error {
	counts, err := s.gameCounts(c)
	if err != nil {
		return err
	}
	out := []gameJSON{}
	for _, g := range games.All() {
		out = append(out, newGameJSON(g, counts[g.Name]))
	}
	return c.JSON(http.StatusOK, out)
}

// gameCounts returns the number of stored matches of each game.
func (s *server) gameCounts(c echo.Context) (map[string]int, error) {
	gs, err := s.db.Games(c.Request().Context())
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	for _, g := range gs {
		counts[g.Game] = g.Matches
	}
	return counts, nil
}

// matchList is a page of matches. A bot's filter the kept records cannot
// count is counted up to store.CountBound: total is then a lower bound
// and total_exact false. Next is the before of the page after this one
// (null on the last): its cost does not grow with depth, as an offset's
// does.
type matchList struct {
	Total      int         `json:"total"`
	TotalExact bool        `json:"total_exact"`
	Limit      int         `json:"limit"`
	Offset     int         `json:"offset"`
	Before     int64       `json:"before,omitempty"`
	Next       *int64      `json:"next"`
	Matches    []matchJSON `json:"matches"`
}

func (s *server) apiMatches(c echo.Context) error {
	f, err := matchFilter(c, store.DefaultLimit)
	if err != nil {
		return err
	}
	l, err := s.db.MatchList(c.Request().Context(), f)
	if err != nil {
		return err
	}
	out := matchList{Total: l.Total, TotalExact: l.Exact, Limit: f.Limit, Offset: f.Offset, Before: f.Before, Matches: matchesJSON(l.Matches)}
	if l.Next != 0 {
		out.Next = &l.Next
	}
	return c.JSON(http.StatusOK, out)
}

// matchDetail is a match with the metrics its game reports, the match it
// was forked from (null for none) and the stored forks of it.
type matchDetail struct {
	matchJSON
	Metrics []metricJSON `json:"metrics"`
	Parent  *parentJSON  `json:"parent"`
	Forks   []forkJSON   `json:"forks"`
}

func (s *server) apiMatch(c echo.Context) error {
	m, g, err := s.matchParam(c)
	if err != nil {
		return err
	}
	lin, err := s.db.Lineage(c.Request().Context(), m.ID)
	if err != nil {
		return err
	}
	d := matchDetail{matchJSON: newMatchJSON(m), Metrics: metricsJSON(g)}
	d.Parent, d.Forks = lineageJSON(lin)
	return c.JSON(http.StatusOK, d)
}

// The bounds of a line of the series API, as ?points=N: longer lines are
// downsampled to at most N values, keeping each bucket's extremes. The
// whole of a longer match is in its turns.csv.
const (
	defaultSeriesPoints = 2000
	maxSeriesPoints     = 100_000
)

func (s *server) apiSeries(c echo.Context) error {
	m, g, i, err := s.matchMetric(c)
	if err != nil {
		return err
	}
	points, err := intQuery(c, "points", defaultSeriesPoints)
	if err != nil {
		return err
	}
	if points < 2 || points > maxSeriesPoints {
		return badInput("points %d: want 2 to %d", points, maxSeriesPoints)
	}
	lines, err := s.db.Series(c.Request().Context(), m.ID, i)
	if err != nil {
		return err
	}
	md := g.Metrics[i]
	out := seriesJSON{Metric: newMetricJSON(md), Turns: m.Turns, Points: points, Lines: []lineJSON{}}
	for _, l := range analytics.Lines(lines[0], m.Turns) {
		d := analytics.Downsample(l, points)
		out.Lines = append(out.Lines, lineJSON{l.Seat, l.Unit, lineName(m, l), d.Values, d.Turns})
	}
	return c.JSON(http.StatusOK, out)
}

// turn collects what the inspector shows of the turn the URL names
// (:id and :n), with its match and game; the bots' debug drawings only
// when the query asks for them (debug=1).
func (s *server) turn(c echo.Context) (store.MatchSummary, *sim.Game, turnJSON, error) {
	m, g, err := s.matchParam(c)
	if err != nil {
		return m, g, turnJSON{}, err
	}
	n, err := turnParam(c, m.Turns)
	if err != nil {
		return m, g, turnJSON{}, err
	}
	ctx := c.Request().Context()
	frame, err := s.frames.FrameAt(ctx, m.ID, n)
	if err != nil {
		return m, g, turnJSON{}, s.memoryFault(c, err)
	}
	stats, err := s.db.StatsAt(ctx, m.ID, n)
	if err != nil {
		return m, g, turnJSON{}, err
	}
	// A turn's events are a few (the games emit at most a handful per
	// player); the largest page bounds a hostile game all the same.
	events, err := s.db.Events(ctx, m.ID, store.EventQuery{From: n, To: n, Limit: store.MaxEventLimit})
	if err != nil {
		return m, g, turnJSON{}, err
	}
	output, err := s.db.BotOutputAt(ctx, m.ID, n)
	if err != nil {
		return m, g, turnJSON{}, err
	}
	times, err := s.turnTimes(ctx, m.ID, n)
	if err != nil {
		return m, g, turnJSON{}, err
	}
	t := turnJSON{Turn: n, LastTurn: m.Turns, Frame: frame, Stats: statsJSON(g, stats), Events: eventsJSON(events.Events),
		Output: outputsJSON(output), Times: times}
	switch c.QueryParam("debug") {
	case "":
	case "1":
		if t.Debug, err = s.turnDebug(ctx, m.ID, n); err != nil {
			return m, g, turnJSON{}, err
		}
	default:
		return m, g, turnJSON{}, badInput("debug %q: want 1 (or leave it out)", c.QueryParam("debug"))
	}
	return m, g, t, nil
}

// turnDebug returns what the bots of match id drew over the board in
// turn n, a seat's shapes each, never nil.
func (s *server) turnDebug(ctx context.Context, id string, n int) ([]debugJSON, error) {
	drawn, err := s.db.BotDebugAt(ctx, id, n)
	if err != nil {
		return nil, err
	}
	out := make([]debugJSON, len(drawn))
	for i, d := range drawn {
		out[i] = debugJSON{d.Seat, json.RawMessage(d.Text)}
	}
	return out, nil
}

func (s *server) apiTurn(c echo.Context) error {
	_, _, t, err := s.turn(c)
	if err != nil {
		return err
	}
	if _, pretty := c.QueryParams()["pretty"]; pretty || c.Echo().Debug {
		return c.JSON(http.StatusOK, t)
	}
	b, err := t.encode()
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}

// eventsPage is a page of a match's events. Next, when not null, is the
// after parameter of the following page.
type eventsPage struct {
	Events []eventJSON `json:"events"`
	Next   *string     `json:"next"`
}

func (s *server) apiEvents(c echo.Context) error {
	m, _, err := s.matchParam(c)
	if err != nil {
		return err
	}
	q := store.EventQuery{After: c.QueryParam("after")}
	if q.From, err = intQuery(c, "from", 0); err != nil {
		return err
	}
	if q.To, err = intQuery(c, "to", m.Turns); err != nil {
		return err
	}
	if q.Limit, err = intQuery(c, "limit", store.DefaultEventLimit); err != nil {
		return err
	}
	if q.Limit < 1 || q.Limit > store.MaxEventLimit {
		return badInput("limit %d: want 1 to %d", q.Limit, store.MaxEventLimit)
	}
	page, err := s.db.Events(c.Request().Context(), m.ID, q)
	if err != nil {
		return err
	}
	out := eventsPage{Events: eventsJSON(page.Events)}
	if page.Next != "" {
		out.Next = &page.Next
	}
	return c.JSON(http.StatusOK, out)
}

// attachment marks a response as a file to save under name.
func attachment(c echo.Context, name string) {
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf("attachment; filename=%q", name))
}

// storedReplay returns the match the URL names and its binary replay.
func (s *server) storedReplay(c echo.Context) (store.MatchSummary, []byte, error) {
	m, _, err := s.matchParam(c)
	if err != nil {
		return m, nil, err
	}
	data, err := s.db.Replay(c.Request().Context(), m.ID)
	return m, data, err
}

func (s *server) apiReplayBinary(c echo.Context) error {
	m, data, err := s.storedReplay(c)
	if err != nil {
		return err
	}
	attachment(c, shortID(m.ID)+".rpl")
	return c.Blob(http.StatusOK, "application/octet-stream", data)
}

// apiReplayText decodes a stored replay and streams its text encoding,
// which is never held whole: it is up to twice the log's commands.
func (s *server) apiReplayText(c echo.Context) error {
	m, _, err := s.matchParam(c)
	if err != nil {
		return err
	}
	logs, mem, err := s.decodeStored(c.Request().Context(), m.ID)
	if err != nil {
		return s.memoryFault(c, err)
	}
	defer mem.Release()
	l := logs[0]
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "text/plain; charset=utf-8")
	attachment(c, shortID(m.ID)+".rlog")
	// WriteText checks the log before it writes, so a log that fails is
	// still answered with the error; what fails later is the connection.
	if err := l.WriteText(res); err != nil {
		if res.Committed {
			return &abortError{fmt.Errorf("write replay %s as text: %w", m.ID, err)}
		}
		return fmt.Errorf("encode replay %s as text: %w", m.ID, err)
	}
	return nil
}

// apiTurnsCSV streams the per-turn numbers of a match, one row per turn,
// seat and unit, with the game's metrics as columns.
func (s *server) apiTurnsCSV(c echo.Context) error {
	m, g, err := s.matchParam(c)
	if err != nil {
		return err
	}
	res := c.Response()
	return s.db.ExportTurns(c.Request().Context(), m.ID, g, "csv", res, func() {
		res.Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
		attachment(c, shortID(m.ID)+".csv")
		res.WriteHeader(http.StatusOK)
	})
}

// boards returns the leaderboards of one game, or of every game when game
// is empty, one per game and ruleset, ranked by rating where rated; a
// ruleset keeps only its boards.
func (s *server) boards(c echo.Context, game, ruleset string) ([]boardView, error) {
	bots, err := s.db.Bots(c.Request().Context(), game)
	if err != nil {
		return nil, err
	}
	bs := analytics.Boards(bots)
	if ruleset != "" {
		bs = slices.DeleteFunc(bs, func(b analytics.Board) bool { return b.Ruleset != ruleset })
	}
	if err := s.rate(c.Request().Context(), bs, game, ruleset); err != nil {
		return nil, err
	}
	return boardViews(bs), nil
}

// apiBots lists the leaderboards by game: each game's standings, board by
// board in ruleset order, each line naming its ruleset. ?game= and
// ?ruleset= keep one game's and one ruleset's.
func (s *server) apiBots(c echo.Context) error {
	format, err := tableFormat(c)
	if err != nil {
		return err
	}
	bs, err := s.boards(c, c.QueryParam("game"), c.QueryParam("ruleset"))
	if err != nil {
		return err
	}
	if format == "csv" {
		return sendCSV(c, "leaderboards.csv", standingsCSV(bs))
	}
	out := map[string][]standingJSON{}
	for _, b := range bs {
		out[b.Game] = append(out[b.Game], b.Standings...)
	}
	return c.JSON(http.StatusOK, out)
}

// standingsCSV lays leaderboards out as CSV rows, a header first: one row
// per bot version and ruleset, in board order, the rank counted within
// the board.
func standingsCSV(bs []boardView) [][]string {
	rows := [][]string{{"game", "ruleset", "rank", "name", "version", "rating", "rating_ci95_low", "rating_ci95_high",
		"matches", "seats", "wins", "draws", "losses", "win_rate", "win_rate_ci95_low", "win_rate_ci95_high", "mean_score"}}
	for _, b := range bs {
		for i, st := range b.Standings {
			rating := []string{"", "", ""}
			if st.Rating != nil {
				rating = []string{formatFloat(*st.Rating), formatFloat(st.RatingCI[0]), formatFloat(st.RatingCI[1])}
			}
			row := append([]string{st.Game, st.Ruleset, strconv.Itoa(i + 1), st.Name, st.Version}, rating...)
			rows = append(rows, append(row, strconv.Itoa(st.Matches), strconv.Itoa(st.Seats), strconv.Itoa(st.Wins), strconv.Itoa(st.Draws),
				strconv.Itoa(st.Losses), formatFloat(st.WinRate), formatFloat(st.WinCI[0]), formatFloat(st.WinCI[1]),
				formatFloat(st.MeanScore)))
		}
	}
	return rows
}

// botProfile is one bot of one game: its versions' records and ratings
// under each ruleset, its recent matches and its rating history charts.
type botProfile struct {
	Game   string
	Name   string
	Boards []boardView
	Recent []store.MatchSummary
	Total  int
	// Fingerprints are the codes each version was played with; a version
	// with two was changed without a new version number.
	Fingerprints []store.BotFingerprint
	Charts       []chartView
	Assets       []string // the scripts the charts need
	// Times sums up each version's answer times over its newest timed
	// seats (store.ResponseTimes).
	Times []store.VersionTimes
}

// recentLimit is how many recent matches overview and bot pages list.
const recentLimit = 15

// botParams reads the bot the URL's :game and :name name.
func botParams(c echo.Context) (game, name string, err error) {
	// Echo leaves path parameters as they came, percent-escapes included;
	// bot names may hold any character.
	game, err1 := url.PathUnescape(c.Param("game"))
	name, err2 := url.PathUnescape(c.Param("name"))
	if err := errors.Join(err1, err2); err != nil {
		return "", "", badInput("bot path: %v", err)
	}
	return game, name, nil
}

// botBoards returns a bot's leaderboards: one per ruleset it played,
// holding its versions, with their ratings.
func (s *server) botBoards(ctx context.Context, game, name string) ([]boardView, error) {
	bots, err := s.db.Bots(ctx, game)
	if err != nil {
		return nil, err
	}
	mine := slices.DeleteFunc(bots, func(b store.BotSummary) bool { return b.Name != name })
	if len(mine) == 0 {
		return nil, notFound("no bot %q has played %s", name, game)
	}
	bs := analytics.Boards(mine)
	if err := s.rate(ctx, bs, game, ""); err != nil {
		return nil, err
	}
	return boardViews(bs), nil
}

func (s *server) botProfile(c echo.Context) (botProfile, error) {
	game, name, err := botParams(c)
	if err != nil {
		return botProfile{}, err
	}
	ctx := c.Request().Context()
	p := botProfile{Game: game, Name: name}
	if p.Boards, err = s.botBoards(ctx, game, name); err != nil {
		return p, err
	}
	history, err := s.db.RatingHistory(ctx, game, name)
	if err != nil {
		return p, err
	}
	p.Charts, p.Assets = ratingCharts(game, name, history)
	if p.Fingerprints, err = s.db.Fingerprints(ctx, game, name); err != nil {
		return p, err
	}
	if p.Times, err = s.db.ResponseTimes(ctx, game, name); err != nil {
		return p, err
	}
	p.Recent, p.Total, err = s.db.BotMatches(ctx, p.Game, p.Name, recentLimit)
	return p, err
}

// fingerprintJSON is one code a bot version was played with.
type fingerprintJSON struct {
	Version     string `json:"version"`
	Fingerprint string `json:"fingerprint"`
	Matches     int    `json:"matches"`
}

func (s *server) apiBot(c echo.Context) error {
	p, err := s.botProfile(c)
	if err != nil {
		return err
	}
	versions := []standingJSON{}
	for _, b := range p.Boards {
		versions = append(versions, b.Standings...)
	}
	fps := make([]fingerprintJSON, len(p.Fingerprints))
	for i, f := range p.Fingerprints {
		fps[i] = fingerprintJSON(f)
	}
	times := make([]versionTimesJSON, len(p.Times))
	for i, v := range p.Times {
		times[i] = versionTimesJSON{v.Version, v.Seats, v.Turns, millis(v.P50), millis(v.P99), v.Timeouts, v.More}
	}
	return c.JSON(http.StatusOK, struct {
		Game          string             `json:"game"`
		Name          string             `json:"name"`
		Versions      []standingJSON     `json:"versions"`
		Fingerprints  []fingerprintJSON  `json:"fingerprints"`
		ResponseTimes []versionTimesJSON `json:"response_times"`
		Matches       int                `json:"matches"`
		Recent        []matchJSON        `json:"recent"`
	}{p.Game, p.Name, versions, fps, times, p.Total, matchesJSON(p.Recent)})
}

// versionTimesJSON is a bot version's answer times (store.VersionTimes).
type versionTimesJSON struct {
	Version  string  `json:"version"`
	Seats    int     `json:"seats"`
	Turns    int     `json:"turns"`
	P50MS    float64 `json:"p50_ms"`
	P99MS    float64 `json:"p99_ms"`
	Timeouts int     `json:"timeouts"`
	More     bool    `json:"more"`
}

// lineName labels a chart line: the player, and the unit where it is one.
func lineName(m store.MatchSummary, l analytics.Line) string {
	name := sim.SeatName(l.Seat)
	if l.Seat < len(m.Players) {
		name = playerName(m.Players[l.Seat])
	}
	if l.Unit != sim.NoUnit {
		name += " · " + unitName(m.Game, l.Seat, l.Unit)
	}
	return name
}
