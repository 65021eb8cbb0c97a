package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// fitter hands out the latest rating fit of a game under a ruleset, as
// the background refitter keeps it; false when there is none yet. The
// compare page only reads fits: fitting is never done on a request.
type fitter interface {
	Fit(game, ruleset string) (*analytics.RatingFit, bool)
}

// The bounds of a comparison's work, whatever the number of stored
// matches: pairs are sought on the seeds of A's newest pairMatches matches
// (and at most pairMatches of B's on them),
// distributions and curves read the lines of its newest seriesMatches,
// a curve has at most curvePoints points, the seed picker lists at most
// seedChoices pairs, and a shown command is cut to maxCommandShown bytes.
const (
	seriesMatches   = 200
	curvePoints     = 400
	seedChoices     = 200
	maxCommandShown = 120
)

// pairMatches bounds the search for pairs: the seeds of A's newest
// pairMatches matches, and as many of B's matches on them. Each match
// searched costs a step of the walk down A's entries and a search of B's
// entries on its seed (store.PairLineups): a thousand keep a comparison
// within 20 ms at a million matches. A variable, which tests lower.
var pairMatches = 1000

// minIntervalMatches is the fewest matches a side needs for an interval:
// one match says nothing about how much its result varies.
const minIntervalMatches = 2

// notEnoughForInterval is the note of an interval left out for want of
// matches.
var notEnoughForInterval = fmt.Sprintf("not enough matches for an interval: each side needs at least %d under the ruleset", minIntervalMatches)

// Messages a comparison shows where a number cannot be had.
const (
	noPairsNote   = "no seed played by both — record them on the same seeds, e.g. with replaylab tournament"
	notFittedNote = "ratings not fitted yet"
)

// number is a float that encodes NaN and infinities as null, which JSON
// cannot otherwise hold.
type number float64

func (n number) MarshalJSON() ([]byte, error) { return appendNumber(nil, float64(n)), nil }

// optional is a number that may be missing (null): a rate of no matches,
// a p-value of no pairs.
func optional(x float64) *number {
	n := number(x)
	return &n
}

// interval is a 95% interval as the API writes it: [low, high].
type interval [2]number

func newInterval(iv analytics.Interval) *interval { return &interval{number(iv.Low), number(iv.High)} }

// compareSide is one side of a comparison: the bot version and its record
// under the ruleset.
type compareSide struct {
	Name    string    `json:"name"`
	Version string    `json:"version"`
	URL     string    `json:"url"`
	Matches int       `json:"matches"`
	Wins    int       `json:"wins"`
	Draws   int       `json:"draws"`
	Losses  int       `json:"losses"`
	WinRate *number   `json:"win_rate"`      // null without a match
	WinCI   *interval `json:"win_rate_ci95"` // null with fewer than minIntervalMatches
	// Recent is how many of its matches the search for pairs read: A's
	// newest whose seeds were looked up, B's on those seeds. Sampled is
	// how many of its seats the distributions and curves read.
	Recent  int `json:"recent_matches"`
	Sampled int `json:"sampled_seats"`
}

// estimate is a difference of A minus B with its 95% interval; Note says
// why either is missing.
type estimate struct {
	Value *number   `json:"value"`
	CI    *interval `json:"ci95"`
	Note  string    `json:"note,omitempty"`
	// FittedOver says what the rating fit behind a rating difference
	// covered (analytics.RatingBasis).
	FittedOver string `json:"fitted_over,omitempty"`
}

// pairedTest is the sign test over the pairs.
type pairedTest struct {
	Pairs   int     `json:"pairs"`
	ABetter int     `json:"a_better"`
	BBetter int     `json:"b_better"`
	Even    int     `json:"even"`
	PValue  *number `json:"p_value"`
	// PairsNeeded is how many more pairs at this rate would make the
	// difference significant at 5%: 0 when it is already, null when no
	// number would (or there are no pairs).
	PairsNeeded *int   `json:"pairs_needed"`
	Note        string `json:"note,omitempty"`
	// Searched is how many of A's newest matches under the ruleset had
	// their seeds searched for pairs, of the Matches it played there;
	// Complete is false when the search stopped at its bound, and
	// SearchNote then says where.
	Searched   int    `json:"searched_matches"`
	Matches    int    `json:"a_matches"`
	Complete   bool   `json:"complete"`
	SearchNote string `json:"search_note,omitempty"`
}

// pairJSON is one pair: a seed with the bots' seats exchanged.
type pairJSON struct {
	Seed   uint64 `json:"seed"`
	A      string `json:"a_match"`
	B      string `json:"b_match"`
	Seats  []int  `json:"seats"`
	ARank  int    `json:"a_rank"`
	AScore number `json:"a_score"`
	BRank  int    `json:"b_rank"`
	BScore number `json:"b_score"`
	Better string `json:"better"` // "a", "b" or "even"
}

// spreadJSON is a box plot's numbers.
type spreadJSON struct {
	N      int    `json:"n"`
	Min    number `json:"min"`
	Q1     number `json:"q1"`
	Median number `json:"median"`
	Q3     number `json:"q3"`
	Max    number `json:"max"`
	Mean   number `json:"mean"`
}

// finalsJSON is one metric's final values of both sides; a side with none
// is null.
type finalsJSON struct {
	Metric string      `json:"metric"`
	Label  string      `json:"label"`
	A      *spreadJSON `json:"a"`
	B      *spreadJSON `json:"b"`
}

// bandJSON is a mean curve with its 95% band, at the turns listed.
type bandJSON struct {
	Turns []int  `json:"turns"`
	Mean  values `json:"mean"`
	Low   values `json:"low"`
	High  values `json:"high"`
	N     []int  `json:"n"`
}

// curveJSON is one metric's mean curves of both sides.
type curveJSON struct {
	Metric string   `json:"metric"`
	Label  string   `json:"label"`
	A      bandJSON `json:"a"`
	B      bandJSON `json:"b"`
}

// commandDiff is a seat whose commands differ at the divergence turn.
type commandDiff struct {
	Seat int    `json:"seat"`
	A    string `json:"a"`
	B    string `json:"b"`
}

// divergence is where a pair's matches first differ in their commands.
type divergence struct {
	Seed     uint64        `json:"seed"`
	A        string        `json:"a_match"`
	B        string        `json:"b_match"`
	Turn     *int          `json:"turn"` // null when they never differ
	AURL     string        `json:"a_url"`
	BURL     string        `json:"b_url"`
	Commands []commandDiff `json:"commands"`
	Note     string        `json:"note,omitempty"`
}

// comparison is everything the compare page shows and its API returns.
type comparison struct {
	Game        string       `json:"game"`
	Ruleset     string       `json:"ruleset"`
	A           compareSide  `json:"a"`
	B           compareSide  `json:"b"`
	WinRateDiff estimate     `json:"win_rate_difference"`
	RatingDiff  estimate     `json:"rating_difference"`
	Paired      pairedTest   `json:"paired"`
	Pairs       []pairJSON   `json:"pairs"`
	Finals      []finalsJSON `json:"finals"`
	Curves      []curveJSON  `json:"curves"`
	Divergence  *divergence  `json:"divergence"`
	// Bounds say how much each side's work reads.
	PairMatches   int `json:"pair_matches_bound"`
	SeriesMatches int `json:"series_matches_bound"`
}

// compareRequest is what the query string of a comparison asks for.
type compareRequest struct {
	game    *sim.Game
	ruleset string
	a, b    analytics.BotVersion
	seed    *uint64 // the pair whose divergence to show; nil for the first
	// pair, when set, names the pair by A's match (its id or a prefix of
	// it): a seed can have several pairs (other seats, other configs).
	pair string
}

// compareRequest reads and checks the query: game (and game_b, which
// must be the same), ruleset (by default that of A's newest match), a and
// b with their versions av and bv (each bot's newest by default), and
// seed.
func (s *server) compareRequest(c echo.Context) (compareRequest, error) {
	var r compareRequest
	q := c.QueryParams()
	gameA, gameB := q.Get("game"), q.Get("game_b")
	r.a.Name, r.b.Name = q.Get("a"), q.Get("b")
	if gameA == "" || r.a.Name == "" || r.b.Name == "" {
		return r, badInput("compare needs a game and two bots: /compare?game=GAME&a=BOT&b=BOT, with av= and bv= for versions")
	}
	if gameB != "" && gameB != gameA {
		return r, badInput("%s plays %s and %s plays %s: only bots of one game can be compared", r.a.Name, gameA, r.b.Name, gameB)
	}
	g, err := games.Lookup(gameA)
	if err != nil {
		return r, notFound("%v", err)
	}
	r.game = g
	ctx := c.Request().Context()
	r.ruleset = q.Get("ruleset")
	if r.ruleset == "" {
		if r.ruleset, err = s.latestRuleset(ctx, g, r.a.Name, q.Get("av")); err != nil {
			return r, err
		}
	}
	if !slices.Contains(g.Rulesets, r.ruleset) {
		return r, badInput("game %s has no ruleset %q: it has %s", g.Name, r.ruleset, strings.Join(g.Rulesets, ", "))
	}
	if v := q.Get("seed"); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return r, badInput("seed %q: want a whole number from 0 to %d", v, uint64(math.MaxUint64))
		}
		r.seed = &seed
	}
	if r.pair = q.Get("pair"); r.pair != "" && !store.IsIDPrefix(r.pair) {
		return r, badInput("pair %q: want A's match id of the pair, or a prefix of it", r.pair)
	}
	if r.a.Version, err = s.botVersion(ctx, g.Name, r.ruleset, r.a.Name, q.Get("av")); err != nil {
		return r, err
	}
	if r.b.Version, err = s.botVersion(ctx, g.Name, r.ruleset, r.b.Name, q.Get("bv")); err != nil {
		return r, err
	}
	if r.a == r.b {
		return r, badInput("A and B are both %s %s: compare two bots, or two versions of one bot", r.a.Name, r.a.Version)
	}
	return r, nil
}

// latestRuleset is the ruleset of the newest match of a bot (of one
// version, when version is not empty), where its author most likely looks,
// and the game's first when it has none.
func (s *server) latestRuleset(ctx context.Context, g *sim.Game, name, version string) (string, error) {
	ms, err := s.db.RecentMatches(ctx, store.MatchFilter{Game: g.Name, Bot: name, Version: version}, 1)
	if err != nil || len(ms) == 0 {
		return g.Rulesets[0], err
	}
	return ms[0].Ruleset, nil
}

// botVersion returns version when the bot has it in the game, and the
// bot's newest version when version is empty.
func (s *server) botVersion(ctx context.Context, game, ruleset, name, version string) (string, error) {
	newest, err := s.db.NewestVersion(ctx, game, ruleset, name)
	if err != nil || version == "" || version == newest {
		return newest, err
	}
	ms, err := s.db.RecentMatches(ctx, store.MatchFilter{Game: game, Bot: name, Version: version}, 1)
	if err != nil {
		return "", err
	}
	if len(ms) == 0 {
		return "", notFound("bot %q has no version %q in %s", name, version, game)
	}
	return version, nil
}

// compare works out the comparison r asks for. Every part is bounded (see
// pairMatches and seriesMatches); what cannot be computed says why in a
// note instead of failing.
func (s *server) compare(ctx context.Context, r compareRequest) (comparison, error) {
	cmp := comparison{Game: r.game.Name, Ruleset: r.ruleset, Pairs: []pairJSON{}, Finals: []finalsJSON{}, Curves: []curveJSON{},
		PairMatches: pairMatches, SeriesMatches: seriesMatches}
	bots, err := s.db.Bots(ctx, r.game.Name)
	if err != nil {
		return cmp, err
	}
	cmp.A, cmp.B = newCompareSide(r.game.Name, r.ruleset, r.a, bots), newCompareSide(r.game.Name, r.ruleset, r.b, bots)
	cmp.WinRateDiff = winRateDiff(cmp.A, cmp.B, r.ruleset)
	cmp.RatingDiff = s.ratingDiff(r)
	if cmp.RatingDiff.CI != nil && min(cmp.A.Matches, cmp.B.Matches) < minIntervalMatches {
		// The fit's prior would make up most of such an interval.
		cmp.RatingDiff.CI, cmp.RatingDiff.Note = nil, notEnoughForInterval
	}

	found, err := s.db.PairLineups(ctx, r.game.Name, r.ruleset, storeVersion(r.a), storeVersion(r.b), pairMatches)
	if err != nil {
		return cmp, err
	}
	cmp.A.Recent, cmp.B.Recent = found.Searched, len(found.B)
	pairs := analytics.Pairs(r.a, r.b, found.A, found.B)
	cmp.Paired = signTest(pairs)
	cmp.Paired.Searched, cmp.Paired.Matches, cmp.Paired.Complete = found.Searched, found.Matches, found.Complete
	if !found.Complete {
		cmp.Paired.SearchNote = fmt.Sprintf("bounded: the seeds of %d of %s %s's %d matches under ruleset %s were searched, the newest, with at most %d matches of %s %s on them",
			found.Searched, r.a.Name, r.a.Version, found.Matches, r.ruleset, pairMatches, r.b.Name, r.b.Version)
	}
	for _, p := range pairs {
		cmp.Pairs = append(cmp.Pairs, newPairJSON(p))
	}
	if err := s.compareSeries(ctx, r, &cmp); err != nil {
		return cmp, err
	}
	if len(pairs) > 0 {
		p := pairs[0]
		switch {
		case r.pair != "":
			i := slices.IndexFunc(pairs, func(p analytics.SeedPair) bool { return strings.HasPrefix(p.A, r.pair) })
			if i < 0 {
				return cmp, notFound("none of the %d pairs found has A's match %s", len(pairs), r.pair)
			}
			p = pairs[i]
		case r.seed != nil:
			i := slices.IndexFunc(pairs, func(p analytics.SeedPair) bool { return p.Seed == *r.seed })
			if i < 0 {
				cmp.Divergence = &divergence{Seed: *r.seed, Commands: []commandDiff{}, Note: fmt.Sprintf("seed %d is not one both played", *r.seed)}
				return cmp, nil
			}
			p = pairs[i]
		}
		if cmp.Divergence, err = s.diverge(ctx, p); err != nil {
			return cmp, err
		}
	}
	return cmp, nil
}

// newCompareSide is v's record under the ruleset, from the bots' records.
func newCompareSide(game, ruleset string, v analytics.BotVersion, bots []store.BotSummary) compareSide {
	side := compareSide{Name: v.Name, Version: v.Version, URL: botURL(game, v.Name)}
	i := slices.IndexFunc(bots, func(b store.BotSummary) bool {
		return b.Ruleset == ruleset && b.Name == v.Name && b.Version == v.Version
	})
	if i < 0 {
		return side
	}
	b := bots[i]
	side.Matches, side.Wins, side.Draws, side.Losses = b.Matches, b.Wins, b.Draws, b.Losses
	if b.Matches > 0 {
		side.WinRate = optional(float64(b.Wins) / float64(b.Matches))
	}
	if b.Matches >= minIntervalMatches {
		side.WinCI = newInterval(analytics.Wilson(b.Wins, b.Matches))
	}
	return side
}

// winRateDiff is A's win rate minus B's, with its interval when both have
// enough matches.
func winRateDiff(a, b compareSide, ruleset string) estimate {
	for _, side := range []compareSide{a, b} {
		if side.Matches == 0 {
			return estimate{Note: fmt.Sprintf("not enough matches: %s %s has none under ruleset %s", side.Name, side.Version, ruleset)}
		}
	}
	d, iv, err := analytics.WinRateDifference(a.Wins, a.Matches, b.Wins, b.Matches)
	if err != nil { // both have matches: cannot happen, but never a 500
		return estimate{Note: err.Error()}
	}
	e := estimate{Value: optional(d)}
	if a.Matches < minIntervalMatches || b.Matches < minIntervalMatches {
		e.Note = notEnoughForInterval
		return e
	}
	e.CI = newInterval(iv)
	return e
}

// ratingDiff is A's rating minus B's from the latest fit.
func (s *server) ratingDiff(r compareRequest) estimate {
	if s.fits == nil {
		return estimate{Note: notFittedNote}
	}
	fit, ok := s.fits.Fit(r.game.Name, r.ruleset)
	if !ok || fit == nil {
		return estimate{Note: notFittedNote}
	}
	d, err := fit.Difference(analytics.RatingKey(r.a.Name, r.a.Version), analytics.RatingKey(r.b.Name, r.b.Version))
	if errors.Is(err, analytics.ErrUnknownPlayer) {
		return estimate{Note: fmt.Sprintf("not enough matches: %s %s and %s %s are not both rated under ruleset %s yet",
			r.a.Name, r.a.Version, r.b.Name, r.b.Version, r.ruleset)}
	}
	if err != nil {
		return estimate{Note: err.Error()}
	}
	return estimate{Value: optional(d.Diff), CI: newInterval(d.CI), FittedOver: analytics.RatingBasis(r.game.Name, r.ruleset, fit.Matches)}
}

// signTest counts the pairs and tests them.
func signTest(pairs []analytics.SeedPair) pairedTest {
	t := pairedTest{Pairs: len(pairs)}
	t.ABetter, t.BBetter, t.Even = analytics.Tally(pairs)
	if len(pairs) == 0 {
		t.Note = noPairsNote
		return t
	}
	p, err := analytics.SignTest(t.ABetter, t.BBetter)
	if err != nil {
		t.Note = "every pair was even: the sign test has no pair to count, and no number of pairs would show a difference"
		return t
	}
	t.PValue = optional(p)
	n, err := analytics.PairsNeeded(t.ABetter, t.BBetter, t.Even)
	switch {
	case errors.Is(err, analytics.ErrNoDifference):
		t.Note = "the pairs are even so far: no number of pairs at this rate would make a difference significant"
	case err != nil:
		t.Note = err.Error()
	case n == 0:
		t.PairsNeeded = &n
		t.Note = "significant at the 5% level"
	default:
		t.PairsNeeded = &n
		t.Note = fmt.Sprintf("about %d more pairs at this rate would make it significant at the 5%% level", n)
	}
	return t
}

func newPairJSON(p analytics.SeedPair) pairJSON {
	better := "even"
	switch p.Better {
	case 1:
		better = "a"
	case -1:
		better = "b"
	}
	return pairJSON{Seed: p.Seed, A: p.A, B: p.B, Seats: p.Seats, ARank: p.ARank, AScore: number(p.AScore),
		BRank: p.BRank, BScore: number(p.BScore), Better: better}
}

// storeVersion is v as the store names it.
func storeVersion(v analytics.BotVersion) store.BotVersion {
	return store.BotVersion{Name: v.Name, Version: v.Version}
}

// compareSeries fills in the distributions of final values and the mean
// curves of every metric of the game, from the player lines of each
// side's seats in its newest seriesMatches matches.
func (s *server) compareSeries(ctx context.Context, r compareRequest, cmp *comparison) error {
	metrics := r.game.Metrics
	type sideSeries struct {
		finals [][]float64
		curves []analytics.Curve
	}
	read := func(v analytics.BotVersion) (sideSeries, int, error) {
		ss := sideSeries{finals: make([][]float64, len(metrics)), curves: make([]analytics.Curve, len(metrics))}
		seats, err := s.db.VersionLines(ctx, r.game.Name, r.ruleset, storeVersion(v), seriesMatches, func(l store.Line) error {
			if l.Metric >= len(metrics) { // a metric this build's game no longer has
				return nil
			}
			if f, ok := analytics.Final(l.Values); ok {
				ss.finals[l.Metric] = append(ss.finals[l.Metric], f)
			}
			ss.curves[l.Metric].Add(l.Values)
			return nil
		})
		return ss, seats, err
	}
	a, na, err := read(r.a)
	if err != nil {
		return err
	}
	b, nb, err := read(r.b)
	if err != nil {
		return err
	}
	cmp.A.Sampled, cmp.B.Sampled = na, nb
	for i, md := range metrics {
		cmp.Finals = append(cmp.Finals, finalsJSON{Metric: md.Name, Label: md.Label, A: newSpreadJSON(a.finals[i]), B: newSpreadJSON(b.finals[i])})
		cmp.Curves = append(cmp.Curves, curveJSON{Metric: md.Name, Label: md.Label,
			A: newBandJSON(a.curves[i].Band(curvePoints)), B: newBandJSON(b.curves[i].Band(curvePoints))})
	}
	return nil
}

// newSpreadJSON summarizes values; nil when there are none.
func newSpreadJSON(vs []float64) *spreadJSON {
	sp, err := analytics.Summarize(vs)
	if err != nil {
		return nil
	}
	return &spreadJSON{sp.N, number(sp.Min), number(sp.Q1), number(sp.Median), number(sp.Q3), number(sp.Max), number(sp.Mean)}
}

func newBandJSON(b analytics.Band) bandJSON {
	j := bandJSON{Turns: b.Turns, Mean: b.Mean, Low: b.Low, High: b.High, N: b.N}
	if j.Turns == nil {
		j.Turns, j.Mean, j.Low, j.High, j.N = []int{}, values{}, values{}, values{}, []int{}
	}
	return j
}

// diverge finds the first turn at which a pair's matches differ.
func (s *server) diverge(ctx context.Context, p analytics.SeedPair) (*divergence, error) {
	return s.divergeAfter(ctx, p.Seed, p.A, p.B, 0)
}

// divergeAfter finds the first turn after turn from at which the stored
// matches a and b differ (see find), decoding both replays within the
// memory budget.
func (s *server) divergeAfter(ctx context.Context, seed uint64, a, b string, from int) (*divergence, error) {
	d := &divergence{Seed: seed, A: a, B: b, AURL: matchURL(a), BURL: matchURL(b), Commands: []commandDiff{}}
	logs, mem, err := s.decodeStored(ctx, a, b)
	if err != nil {
		return nil, err
	}
	defer mem.Release()
	d.find(logs[0], logs[1], from)
	return d, nil
}

// find sets the first turn after turn from at which logs a and b differ:
// the commands of a seat (listed), else the state hashes both recorded
// for that turn, else one match ending before the other. It leaves the
// turn unset, with a note, when they never differ.
func (d *divergence) find(a, b *replay.Log, from int) {
	ta, tb := a.Turns, b.Turns
	ha, hb := a.Hashes, b.Hashes
	for i := max(from, 0); i < min(len(ta), len(tb)); i++ {
		turn := i + 1
		for seat := range min(len(ta[i]), len(tb[i])) {
			if ta[i][seat] != tb[i][seat] {
				d.Commands = append(d.Commands, commandDiff{seat, shownCommand(ta[i][seat]), shownCommand(tb[i][seat])})
			}
		}
		if len(d.Commands) > 0 {
			d.at(turn)
			return
		}
		ha, hb = hashesFrom(ha, turn), hashesFrom(hb, turn)
		if len(ha) > 0 && len(hb) > 0 && ha[0].Turn == turn && hb[0].Turn == turn && ha[0].Sum != hb[0].Sum {
			d.at(turn)
			d.Note = fmt.Sprintf("the commands agree, but the state hashes recorded after turn %d differ; hashes are kept every few turns, so the states may have parted earlier", turn)
			return
		}
	}
	if len(ta) != len(tb) {
		d.at(max(from, min(len(ta), len(tb))) + 1)
		d.Note = "the commands agree as long as both matches last; one ends first"
		return
	}
	d.Note = "both matches played the same commands every turn"
}

// hashesFrom drops the hashes of turns before turn.
func hashesFrom(hs []replay.Hash, turn int) []replay.Hash {
	for len(hs) > 0 && hs[0].Turn < turn {
		hs = hs[1:]
	}
	return hs
}

// at sets the divergence's turn and the inspector links to it.
func (d *divergence) at(turn int) {
	d.Turn = &turn
	d.AURL, d.BURL = turnURL(d.A, turn), turnURL(d.B, turn)
}

// shownCommand cuts a command to maxCommandShown bytes: a bot may send
// anything up to the game's limit.
func shownCommand(cmd string) string {
	if len(cmd) <= maxCommandShown {
		return cmd
	}
	return cutText(cmd, maxCommandShown) + "…"
}

// comparison reads the request's query and works out the comparison it
// asks for.
func (s *server) comparison(c echo.Context) (compareRequest, comparison, error) {
	r, err := s.compareRequest(c)
	if err != nil {
		return r, comparison{}, err
	}
	cmp, err := s.compare(c.Request().Context(), r)
	return r, cmp, s.memoryFault(c, err)
}

// comparePage shows the comparison with its charts.
func (s *server) comparePage(c echo.Context) error {
	r, cmp, err := s.comparison(c)
	if err != nil {
		return err
	}
	charts, assets := compareCharts(cmp)
	d := compareData{
		page: page{Title: fmt.Sprintf("%s %s vs %s %s (%s)", cmp.A.Name, cmp.A.Version, cmp.B.Name, cmp.B.Version, r.game.Title),
			Nav: "bots", Scripts: append(assets, "/static/js/scheme.js", "/static/js/compare.js")},
		comparison: cmp,
		GameTitle:  r.game.Title,
		Rulesets:   r.game.Rulesets,
		Charts:     charts,
		Seeds:      cmp.Pairs[:min(len(cmp.Pairs), seedChoices)],
	}
	return s.render(c, http.StatusOK, "compare", d)
}

// compareData is the data of the compare template.
type compareData struct {
	page
	comparison
	GameTitle string
	Rulesets  []string
	Charts    []chartView
	Seeds     []pairJSON // the pairs offered in the seed picker
}

// pairsShown bounds the pairs the page lists; the API has all of them.
const pairsShown = 50

// ShownPairs are the pairs the page lists.
func (d compareData) ShownPairs() []pairJSON { return d.Pairs[:min(len(d.Pairs), pairsShown)] }

// Query is the query string of this comparison, with extra key/value
// pairs (format, table, seed), for links to itself and its exports.
func (d compareData) Query(extra ...any) template.URL {
	return query(append([]any{"game", d.Game, "ruleset", d.Ruleset, "a", d.A.Name, "av", d.A.Version,
		"b", d.B.Name, "bv", d.B.Version}, extra...)...)
}

// RateText shows a side's win rate and its interval, or why there is none.
func (side compareSide) RateText() string {
	if side.WinRate == nil {
		return "no matches"
	}
	text := formatPercent(float64(*side.WinRate), false)
	if side.WinCI == nil {
		return text + " (not enough matches for an interval)"
	}
	return text + " (" + formatPercent(float64(side.WinCI[0]), false) + " to " + formatPercent(float64(side.WinCI[1]), false) + ")"
}

// PointsText shows a win-rate difference in percentage points.
func (e estimate) PointsText() string {
	return e.text(func(x float64) string { return formatPercent(x, true) })
}

// RatingText shows a rating difference in rating points.
func (e estimate) RatingText() string {
	return e.text(func(x float64) string { return signed(math.Round(x), 0) })
}

func (e estimate) text(format func(float64) string) string {
	if e.Value == nil {
		return "–"
	}
	text := format(float64(*e.Value))
	if e.CI != nil {
		text += " (95%: " + format(float64(e.CI[0])) + " to " + format(float64(e.CI[1])) + ")"
	}
	return text
}

// PText shows the sign test's p-value.
func (t pairedTest) PText() string {
	if t.PValue == nil {
		return "–"
	}
	p := float64(*t.PValue)
	if p < 0.0001 {
		return "< 0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// formatPercent shows a proportion as a percentage, or a difference of
// two as signed percentage points.
func formatPercent(x float64, diff bool) string {
	if diff {
		return signed(100*x, 1) + " pts"
	}
	return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
}

// signed formats x with prec decimals and its sign, a minus sign for
// negatives as typesetting has it.
func signed(x float64, prec int) string {
	s := strconv.FormatFloat(math.Abs(x), 'f', prec, 64)
	switch {
	case strings.Trim(s, "0.") == "":
		return s
	case x < 0:
		return "−" + s
	}
	return "+" + s
}

// Sides are A and B, for the records table.
func (d compareData) Sides() []compareSide { return []compareSide{d.A, d.B} }

// AText shows A's rank and score in the pair.
func (p pairJSON) AText() string {
	return strconv.Itoa(p.ARank) + ", " + formatNumber(float64(p.AScore))
}

// BText shows B's rank and score in the pair.
func (p pairJSON) BText() string {
	return strconv.Itoa(p.BRank) + ", " + formatNumber(float64(p.BScore))
}
