package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/worms"
	"github.com/replaylab/replaylab/store"
)

// compareSeeds are the seeds tactical and random play each other on,
// once in each pair of seats.
var compareSeeds = []uint64{1, 2, 3}

// formulaName is a bot name a spreadsheet would run as a formula.
const formulaName = `=HYPERLINK("http://evil.example","click")`

// compareFixture is a server over Worms matches: tactical against random
// on compareSeeds with the seats swapped, and two bots with a single
// match each and no seed shared with tactical, loner (against random) and
// hermit (against drifter); drifter also met xssName and formulaName.
type compareFixture struct {
	db *store.DB
	// logs[seed] are the matches of a seed: tactical in seat 0, then in
	// seat 1.
	logs map[uint64][2]*replay.Log
	recs map[uint64][2]*store.Record
}

// fakeFits is a refitter that holds one fit.
type fakeFits struct {
	game, ruleset string
	fit           *analytics.RatingFit
}

func (f fakeFits) Fit(game, ruleset string) (*analytics.RatingFit, bool) {
	return f.fit, f.fit != nil && game == f.game && ruleset == f.ruleset
}

// relabel renames the bot in one seat of a recorded match: the match
// plays the same, under another name.
func relabel(l *replay.Log, seat int, name, version string) *replay.Log {
	c := *l
	c.Header.Players = slices.Clone(l.Header.Players)
	c.Header.Players[seat] = replay.Player{Name: name, Version: version}
	return &c
}

func newCompareFixture(t *testing.T) *compareFixture {
	t.Helper()
	f := &compareFixture{db: openDB(t), logs: map[uint64][2]*replay.Log{}, recs: map[uint64][2]*store.Record{}}
	const config = `{"rounds":30}`
	for _, seed := range compareSeeds {
		a := recordBuiltin(t, worms.Game, "base", config, seed, []string{"tactical", "random"}, nil)
		b := recordBuiltin(t, worms.Game, "base", config, seed, []string{"random", "tactical"}, nil)
		f.logs[seed] = [2]*replay.Log{a, b}
		f.recs[seed] = [2]*store.Record{build(t, f.db, a), build(t, f.db, b)}
	}
	lone := recordBuiltin(t, worms.Game, "base", config, 9, []string{"random", "tactical"}, nil)
	build(t, f.db, relabel(lone, 1, "loner", "v1"))
	build(t, f.db, relabel(relabel(lone, 1, "hermit", "v1"), 0, "drifter", "v1"))
	build(t, f.db, relabel(relabel(lone, 1, xssName, xssName), 0, "drifter", "v1"))
	build(t, f.db, relabel(relabel(lone, 1, formulaName, "@v1"), 0, "drifter", "v1"))
	return f
}

// server returns a server over the fixture whose ratings come from fits
// (nil: not fitted yet).
func (f *compareFixture) server(t *testing.T, fits fitter) *echo.Echo {
	t.Helper()
	e, err := New(Config{DB: f.db, Addr: testAddr, fits: fits})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// fit fits ratings to every stored Worms base match, as the refitter would.
func (f *compareFixture) fit(t *testing.T) *analytics.RatingFit {
	t.Helper()
	ms, _, err := f.db.Matches(context.Background(), store.MatchFilter{Game: "worms", Ruleset: "base", Limit: store.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	var placings [][]analytics.Placing
	for _, m := range ms {
		var ps []analytics.Placing
		for _, p := range m.Players {
			ps = append(ps, analytics.Placing{Player: analytics.RatingKey(p.Name, p.Version), Rank: p.Rank})
		}
		placings = append(placings, ps)
	}
	fit, err := analytics.FitRatings(placings, analytics.RatingPrior)
	if err != nil {
		t.Fatal(err)
	}
	fit.Matches = len(ms)
	return fit
}

// getJSON requests url and decodes the JSON answer into v.
func getJSON(t *testing.T, e *echo.Echo, url string, wantStatus int, v any) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, url, nil)
	req.Host = testAddr
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != wantStatus {
		t.Fatalf("GET %s: got status %d, want %d; body %.300s", url, rec.Code, wantStatus, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
		t.Fatalf("GET %s: %v; body %.300s", url, err, rec.Body)
	}
}

// wantPairs works out, from the regenerated matches, how the seeds went:
// tactical's result in seat 0 of the first match against random's in seat
// 0 of the second.
func (f *compareFixture) wantPairs() (aBetter, bBetter, even int) {
	for _, seed := range compareSeeds {
		a, b := f.recs[seed][0].Result.Players[0], f.recs[seed][1].Result.Players[0]
		switch {
		case a.Rank < b.Rank || (a.Rank == b.Rank && a.Score > b.Score):
			aBetter++
		case a.Rank > b.Rank || (a.Rank == b.Rank && a.Score < b.Score):
			bBetter++
		default:
			even++
		}
	}
	return aBetter, bBetter, even
}

// firstDifference is the first turn at which two logs' commands differ.
func firstDifference(a, b *replay.Log) int {
	for i := range min(len(a.Turns), len(b.Turns)) {
		if !slices.Equal(a.Turns[i], b.Turns[i]) {
			return i + 1
		}
	}
	return min(len(a.Turns), len(b.Turns)) + 1
}

func TestCompare(t *testing.T) {
	f := newCompareFixture(t)
	fit := f.fit(t)
	e := f.server(t, fakeFits{"worms", "base", fit})

	var got comparison
	getJSON(t, e, "/api/v1/compare?game=worms&a=tactical&b=random", http.StatusOK, &got)
	if got.Ruleset != "base" || got.A.Version != "v1" || got.B.Version != "v1" {
		t.Errorf("got ruleset %q and versions %q, %q; want the defaults base, v1, v1", got.Ruleset, got.A.Version, got.B.Version)
	}
	// Both played two matches of each seed, and random one more, with
	// loner.
	if got.A.Matches != 2*len(compareSeeds) || got.B.Matches != 2*len(compareSeeds)+1 {
		t.Errorf("got %d and %d matches, want %d and %d", got.A.Matches, got.B.Matches, 2*len(compareSeeds), 2*len(compareSeeds)+1)
	}
	wd, wiv, _ := analytics.WinRateDifference(got.A.Wins, got.A.Matches, got.B.Wins, got.B.Matches)
	if v := got.WinRateDiff; v.Value == nil || v.CI == nil || float64(*v.Value) != wd || float64(v.CI[0]) != wiv.Low || float64(v.CI[1]) != wiv.High {
		t.Errorf("got win-rate difference %+v, want %v in [%v, %v]", v, wd, wiv.Low, wiv.High)
	}
	rd, err := fit.Difference(analytics.RatingKey("tactical", "v1"), analytics.RatingKey("random", "v1"))
	if err != nil {
		t.Fatal(err)
	}
	if v := got.RatingDiff; v.Value == nil || v.CI == nil || float64(*v.Value) != rd.Diff || float64(v.CI[0]) != rd.CI.Low {
		t.Errorf("got rating difference %+v, want %v in [%v, %v]", v, rd.Diff, rd.CI.Low, rd.CI.High)
	}
	if want := analytics.RatingBasis("worms", "base", fit.Matches); got.RatingDiff.FittedOver != want {
		t.Errorf("got a rating difference fitted over %q, want %q", got.RatingDiff.FittedOver, want)
	}

	w, l, even := f.wantPairs()
	p := got.Paired
	if p.Pairs != len(compareSeeds) || p.ABetter != w || p.BBetter != l || p.Even != even {
		t.Errorf("got pairs %+v, want %d: %d, %d, %d", p, len(compareSeeds), w, l, even)
	}
	if wantP, err := analytics.SignTest(w, l); err == nil {
		if p.PValue == nil || float64(*p.PValue) != wantP {
			t.Errorf("got p-value %v, want %v", p.PValue, wantP)
		}
	} else if p.PValue != nil {
		t.Errorf("got p-value %v for no decisive pair, want null", *p.PValue)
	}
	for _, pair := range got.Pairs {
		recs := f.recs[pair.Seed]
		if pair.A != recs[0].ID || pair.B != recs[1].ID || !slices.Equal(pair.Seats, []int{0}) {
			t.Errorf("seed %d: got pair %s, %s in seats %v, want %s, %s in seat 0", pair.Seed, pair.A, pair.B, pair.Seats, recs[0].ID, recs[1].ID)
		}
	}

	// Final values: over every seat of each side, the last score.
	var finalA []float64
	for _, seed := range compareSeeds {
		for i, rec := range f.recs[seed] {
			for _, line := range rec.Lines {
				if line.Seat == i && line.Unit == -1 && line.Metric == 1 { // score
					finalA = append(finalA, line.Values[len(line.Values)-1])
				}
			}
		}
	}
	wantScore, _ := analytics.Summarize(finalA)
	if fs := got.Finals[1]; fs.Metric != "score" || fs.A == nil || fs.A.N != wantScore.N || float64(fs.A.Median) != wantScore.Median {
		t.Errorf("got final scores %+v, want %+v", fs.A, wantScore)
	}
	if c := got.Curves[1]; len(c.A.Turns) == 0 || len(c.A.Turns) > curvePoints || c.A.N[0] != 2*len(compareSeeds) {
		t.Errorf("got a score curve of %d points, %v lines at turn 0; want 1 to %d points of %d lines", len(c.A.Turns), c.A.N[:min(1, len(c.A.N))], curvePoints, 2*len(compareSeeds))
	}

	// The divergence of the first pair, and of a chosen seed.
	for _, tc := range []struct {
		url  string
		seed uint64
	}{
		{"/api/v1/compare?game=worms&a=tactical&b=random", got.Pairs[0].Seed},
		{"/api/v1/compare?game=worms&a=tactical&b=random&seed=2", 2},
		// A pair named by A's match, as the page's picker and its pairs
		// table name it: a seed may have several pairs.
		{"/api/v1/compare?game=worms&a=tactical&b=random&pair=" + f.recs[3][0].ID[:10], 3},
	} {
		var c comparison
		getJSON(t, e, tc.url, http.StatusOK, &c)
		logs := f.logs[tc.seed]
		want := firstDifference(logs[0], logs[1])
		d := c.Divergence
		if d == nil || d.Seed != tc.seed || d.Turn == nil || *d.Turn != want || len(d.Commands) == 0 {
			t.Fatalf("%s: got divergence %+v, want seed %d at turn %d", tc.url, d, tc.seed, want)
		}
		if wantURL := turnURL(f.recs[tc.seed][0].ID, want); d.AURL != wantURL {
			t.Errorf("%s: got A's link %s, want %s", tc.url, d.AURL, wantURL)
		}
		for _, cd := range d.Commands {
			if cd.A != logs[0].Turns[want-1][cd.Seat] || cd.B != logs[1].Turns[want-1][cd.Seat] {
				t.Errorf("%s: seat %d: got commands %q, %q, want %q, %q", tc.url, cd.Seat, cd.A, cd.B, logs[0].Turns[want-1][cd.Seat], logs[1].Turns[want-1][cd.Seat])
			}
		}
	}

	for _, sc := range []scenario{
		{name: "page", url: "/compare?game=worms&a=tactical&b=random", status: 200,
			want: []string{"tactical", `id="chart-`[:0] + `id="curve-score"`, `id="final-score"`, "/static/js/compare.js",
				fmt.Sprintf(`<dd id="pairs">%d: A better in %d, B better in %d, even in %d</dd>`, len(compareSeeds), w, l, even),
				turnURL(f.recs[got.Pairs[0].Seed][0].ID, *firstDivergence(t, e, got)),
				`<option value="` + f.recs[2][0].ID + `">seed 2, seat 1: A `,
				`<a href="/compare?a=tactical&amp;av=v1&amp;b=random&amp;bv=v1&amp;game=worms&amp;pair=` + f.recs[2][0].ID + `&amp;ruleset=base#divergence"`}},
		{name: "page of a chosen seed", url: "/compare?game=worms&a=tactical&b=random&seed=3", status: 200,
			want: []string{`<option value="` + f.recs[3][0].ID + `" selected>seed 3,`, "Seed 3: the commands first differ"}},
		{name: "page of a chosen pair", url: "/compare?game=worms&a=tactical&b=random&pair=" + f.recs[3][0].ID[:12], status: 200,
			want: []string{`<option value="` + f.recs[3][0].ID + `" selected>seed 3,`, "Seed 3: the commands first differ"}},
		{name: "a pair not found", url: "/compare?game=worms&a=tactical&b=random&pair=0000", status: 404,
			want: []string{"pairs found has A&#39;s match 0000"}},
		{name: "a seed not played by both", url: "/compare?game=worms&a=tactical&b=random&seed=9", status: 200,
			want: []string{"seed 9 is not one both played"}},
		{name: "rating difference", url: "/compare?game=worms&a=tactical&b=random", status: 200,
			want: []string{`<dd id="rating-difference">` + strings.ReplaceAll(signed(math.Round(rd.Diff), 0), "+", "&#43;")}},
		{name: "csv pairs", url: "/api/v1/compare?game=worms&a=tactical&b=random&format=csv&table=pairs", status: 200,
			// People read the CSV: its seats count from 1, the JSON's from 0.
			want:        []string{"seed,a_match,b_match,seats,a_rank,a_score,b_rank,b_score,better\n", got.Pairs[0].A + "," + got.Pairs[0].B + "," + seatNumbers(got.Pairs[0].Seats) + ","},
			wantHeaders: map[string]string{"Content-Type": "text/csv", "Content-Disposition": "compare-pairs.csv"}},
		{name: "csv summary", url: "/api/v1/compare?game=worms&a=tactical&b=random&format=csv&table=summary", status: 200,
			want: []string{"quantity,value,ci95_low,ci95_high,note\n", "a_bot,,,,tactical v1\n", fmt.Sprintf("pairs,%d,", len(compareSeeds))}},
		{name: "csv finals", url: "/api/v1/compare?game=worms&a=tactical&b=random&format=csv&table=finals", status: 200,
			want: []string{"metric,side,n,min,q1,median,q3,max,mean\n", fmt.Sprintf("score,a,%d,", wantScore.N)}},
		{name: "csv curves", url: "/api/v1/compare?game=worms&a=tactical&b=random&format=csv&table=curves", status: 200,
			want: []string{"metric,side,turn,n,mean,ci95_low,ci95_high\n", fmt.Sprintf("score,a,0,%d,", 2*len(compareSeeds))}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}

	// Every CSV table parses, with as many fields in each row.
	for table := range compareTables {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/compare?game=worms&a=tactical&b=random&format=csv&table="+table, nil)
		req.Host = testAddr
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		rows, err := csv.NewReader(rec.Body).ReadAll()
		if err != nil || len(rows) < 2 {
			t.Errorf("table %s: got %d rows, %v; want a header and rows", table, len(rows), err)
		}
	}
}

// TestCompareBounded checks that a comparison whose search for pairs
// stops at its bound says so, in the API, its CSV and the page, and that
// a search that did not stop says it is complete.
func TestCompareBounded(t *testing.T) {
	f := newCompareFixture(t)
	e := f.server(t, nil)
	var got comparison
	getJSON(t, e, "/api/v1/compare?game=worms&a=tactical&b=random", http.StatusOK, &got)
	if p := got.Paired; !p.Complete || p.Searched != 2*len(compareSeeds) || p.Matches != 2*len(compareSeeds) || p.SearchNote != "" {
		t.Errorf("unbounded: got searched %d of %d, complete %v, note %q; want all %d, complete, no note",
			p.Searched, p.Matches, p.Complete, p.SearchNote, 2*len(compareSeeds))
	}

	// Searched newest first, the last seed's two matches pair with
	// each other.
	defer func(n int) { pairMatches = n }(pairMatches)
	pairMatches = 2
	getJSON(t, e, "/api/v1/compare?game=worms&a=tactical&b=random", http.StatusOK, &got)
	p := got.Paired
	last := compareSeeds[len(compareSeeds)-1]
	if p.Complete || p.Searched != 2 || p.Matches != 2*len(compareSeeds) || p.Pairs != 1 || got.Pairs[0].Seed != last || got.A.Recent != 2 {
		t.Errorf("bounded: got searched %d of %d, complete %v, %d pairs %+v; want 2 of %d, not complete, the pair of seed %d",
			p.Searched, p.Matches, p.Complete, p.Pairs, got.Pairs, 2*len(compareSeeds), last)
	}
	note := fmt.Sprintf("bounded: the seeds of 2 of tactical v1's %d matches under ruleset base were searched", 2*len(compareSeeds))
	if !strings.HasPrefix(p.SearchNote, note) {
		t.Errorf("got note %q, want it to start %q", p.SearchNote, note)
	}
	for _, sc := range []scenario{
		{name: "page", url: "/compare?game=worms&a=tactical&b=random", status: 200,
			want: []string{`<p class="hint" id="pair-search">bounded: the seeds of 2 of tactical v1&#39;s`}},
		{name: "csv summary", url: "/api/v1/compare?game=worms&a=tactical&b=random&format=csv&table=summary", status: 200,
			want: []string{"pairs_searched_matches,2,,,\"" + note}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}
}

// firstDivergence is the turn of the default divergence of got's pairs.
func firstDivergence(t *testing.T, e *echo.Echo, got comparison) *int {
	t.Helper()
	if got.Divergence == nil || got.Divergence.Turn == nil {
		t.Fatalf("got no divergence, want one")
	}
	return got.Divergence.Turn
}

func TestCompareBadInput(t *testing.T) {
	f := newCompareFixture(t)
	final := recordBuiltin(t, worms.Game, "final", `{"rounds":30}`, 11, []string{"random", "tactical"}, nil)
	build(t, f.db, relabel(final, 1, "finalist", "v1"))
	e := f.server(t, nil)
	for _, sc := range []scenario{
		{name: "ruleset of A's newest match", url: "/api/v1/compare?game=worms&a=finalist&b=tactical", status: 200,
			want: []string{`"ruleset":"final"`}},
		{name: "ruleset of A's newest match of a version", url: "/api/v1/compare?game=worms&a=random&av=v1&b=tactical", status: 200,
			want: []string{`"ruleset":"final"`}},
		{name: "nothing asked", url: "/compare", status: 400, want: []string{"compare needs a game and two bots"}},
		{name: "one bot", url: "/api/v1/compare?game=worms&a=tactical", status: 400, want: []string{`"error":"compare needs a game and two bots`}},
		{name: "itself", url: "/compare?game=worms&a=tactical&b=tactical", status: 400,
			want: []string{"A and B are both tactical v1: compare two bots, or two versions of one bot"}},
		{name: "itself by version", url: "/api/v1/compare?game=worms&a=random&av=v1&b=random", status: 400, want: []string{"A and B are both random v1"}},
		{name: "different games", url: "/compare?game=worms&a=tactical&b=greedy&game_b=snake", status: 400,
			want: []string{"tactical plays worms and greedy plays snake: only bots of one game can be compared"}},
		{name: "different games api", url: "/api/v1/compare?game=worms&a=tactical&b=greedy&game_b=snake", status: 400, want: []string{"only bots of one game"}},
		{name: "same game named twice", url: "/api/v1/compare?game=worms&game_b=worms&a=tactical&b=random", status: 200},
		{name: "unknown bot", url: "/compare?game=worms&a=tactical&b=nobody", status: 404, want: []string{"no bot &#34;nobody&#34; has played worms"}},
		{name: "unknown bot api", url: "/api/v1/compare?game=worms&a=nobody&b=random", status: 404, want: []string{`"error":"no bot \"nobody\" has played worms"`}},
		{name: "unknown version", url: "/api/v1/compare?game=worms&a=tactical&av=v9&b=random", status: 404, want: []string{`bot \"tactical\" has no version \"v9\" in worms`}},
		{name: "unknown game", url: "/api/v1/compare?game=chess&a=x&b=y", status: 404, want: []string{`unknown game \"chess\"`}},
		{name: "unknown ruleset", url: "/api/v1/compare?game=worms&ruleset=hard&a=tactical&b=random", status: 400, want: []string{"game worms has no ruleset"}},
		{name: "bad seed", url: "/api/v1/compare?game=worms&a=tactical&b=random&seed=-1", status: 400, want: []string{`seed \"-1\"`}},
		{name: "bad pair", url: "/api/v1/compare?game=worms&a=tactical&b=random&pair=XYZ", status: 400, want: []string{`pair \"XYZ\": want A's match id`}},
		{name: "bad format", url: "/api/v1/compare?game=worms&a=tactical&b=random&format=xml", status: 400, want: []string{`format \"xml\"`}},
		{name: "bad table", url: "/api/v1/compare?game=worms&a=tactical&b=random&format=csv&table=all", status: 400, want: []string{`table \"all\"`}},
		{name: "not fitted", url: "/compare?game=worms&a=tactical&b=random", status: 200, want: []string{notFittedNote}},
		{name: "no shared seed", url: "/compare?game=worms&a=tactical&b=loner", status: 200,
			want: []string{noPairsNote, `id="final-score"`}},
		{name: "a single match each", url: "/compare?game=worms&a=loner&b=hermit", status: 200,
			want: []string{"1 / 0 / 0", "not enough matches for an interval", noPairsNote}},
		{name: "bot page form", url: "/bots/worms/tactical", status: 200,
			want: []string{`<form class="filters compare" method="get" action="/compare">`, `name="a" value="tactical"`, `<option value="base">base</option>`}},
		{name: "bots page form", url: "/bots", status: 200,
			want: []string{`<form class="filters compare" method="get" action="/compare">`, `<option value="worms">`}},
		{name: "hostile names", url: "/compare?game=worms&a=hermit&b=" + url.QueryEscape(xssName), status: 200,
			want: []string{"&lt;img src=x onerror=alert(1)&gt;"}, notWant: []string{xssName}},
		{name: "hostile names api", url: "/api/v1/compare?format=csv&table=summary&game=worms&a=hermit&b=" + url.QueryEscape(xssName), status: 200,
			want: []string{"b_bot,,,,<img src=x onerror=alert(1)> <img src=x onerror=alert(1)>"}},
		{name: "formula names api", url: "/api/v1/compare?format=csv&table=summary&game=worms&a=hermit&b=" + url.QueryEscape(formulaName), status: 200,
			want: []string{`b_bot,,,,"'` + strings.ReplaceAll(formulaName, `"`, `""`) + ` @v1"`}},
		{name: "another ruleset", url: "/compare?game=worms&ruleset=final&a=loner&b=hermit", status: 200,
			want: []string{"not enough matches: loner v1 has none under ruleset final", noPairsNote, "No per-turn numbers stored"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}

	// The JSON of the thin cases holds nulls where there is nothing to
	// say, never NaN (which would not encode at all).
	for _, url := range []string{
		"/api/v1/compare?game=worms&a=loner&b=hermit",
		"/api/v1/compare?game=worms&a=tactical&b=loner",
		"/api/v1/compare?game=worms&ruleset=final&a=tactical&b=random",
		"/api/v1/compare?game=worms&ruleset=final&a=loner&b=hermit",
	} {
		var got map[string]any
		getJSON(t, e, url, http.StatusOK, &got)
		paired := got["paired"].(map[string]any)
		if paired["p_value"] != nil || paired["pairs_needed"] != nil || paired["note"] != noPairsNote {
			t.Errorf("%s: got paired %v, want null p-value and pairs needed, and the no-pairs note", url, paired)
		}
		if got["divergence"] != nil {
			t.Errorf("%s: got divergence %v, want null", url, got["divergence"])
		}
		if rd := got["rating_difference"].(map[string]any); rd["value"] != nil || rd["note"] != notFittedNote {
			t.Errorf("%s: got rating difference %v, want null and %q", url, rd, notFittedNote)
		}
	}
	var single comparison
	getJSON(t, e, "/api/v1/compare?game=worms&a=loner&b=hermit", http.StatusOK, &single)
	if single.A.WinCI != nil || single.B.WinCI != nil || single.WinRateDiff.CI != nil || single.WinRateDiff.Value == nil {
		t.Errorf("a single match each: got %+v, %+v, %+v; want a difference and no interval", single.A, single.B, single.WinRateDiff)
	}
	if !strings.HasPrefix(single.WinRateDiff.Note, "not enough matches") {
		t.Errorf("a single match each: got note %q, want it to say not enough matches", single.WinRateDiff.Note)
	}
}

// TestCompareVersions compares two versions of one bot that played the
// same seeds in the same seats against the same opponent, and played them
// alike: every pair is even, and the commands never differ.
func TestCompareVersions(t *testing.T) {
	f := newCompareFixture(t)
	for _, seed := range compareSeeds {
		build(t, f.db, relabel(f.logs[seed][0], 0, "tactical", "v2"))
	}
	e := f.server(t, nil)
	var got comparison
	// v2, stored last, is tactical's newest version.
	getJSON(t, e, "/api/v1/compare?game=worms&a=tactical&av=v1&b=tactical", http.StatusOK, &got)
	if got.A.Version != "v1" || got.B.Version != "v2" {
		t.Errorf("got versions %q and %q, want v1 and the newest, v2", got.A.Version, got.B.Version)
	}
	p := got.Paired
	if p.Pairs != len(compareSeeds) || p.Even != len(compareSeeds) || p.PValue != nil || p.PairsNeeded != nil || !strings.HasPrefix(p.Note, "every pair was even") {
		t.Errorf("got paired %+v, want %d even pairs, no p-value, and a note saying so", p, len(compareSeeds))
	}
	for _, pair := range got.Pairs {
		if want := f.recs[pair.Seed][0].ID; pair.A != want || !slices.Equal(pair.Seats, []int{0}) {
			t.Errorf("seed %d: got A's match %s in seats %v, want %s in seat 0", pair.Seed, pair.A, pair.Seats, want)
		}
	}
	if d := got.Divergence; d == nil || d.Turn != nil || d.Note != "both matches played the same commands every turn" {
		t.Errorf("got divergence %+v, want none, and a note", d)
	}
	// v1 played both seats against random, v2 only seat 0: v1's seat-1
	// matches have no partner.
	if got.A.Matches != 2*len(compareSeeds) || got.B.Matches != len(compareSeeds) {
		t.Errorf("got %d and %d matches, want %d and %d", got.A.Matches, got.B.Matches, 2*len(compareSeeds), len(compareSeeds))
	}
}

// seatNumbers is how a CSV lists seats: their numbers from 1, spaced.
func seatNumbers(seats []int) string {
	n := make([]string, len(seats))
	for i, s := range seats {
		n[i] = strconv.Itoa(s + 1)
	}
	return strings.Join(n, " ")
}

// TestDivergenceFind finds the first turn after a fork turn at which two
// logs differ: in a command, in a state hash both recorded, in length.
func TestDivergenceFind(t *testing.T) {
	log := func(hashes []replay.Hash, turns ...string) *replay.Log {
		l := &replay.Log{Hashes: hashes}
		for _, c := range turns {
			l.Turns = append(l.Turns, []string{c, "-"})
		}
		return l
	}
	hashes := []replay.Hash{{Turn: 0, Sum: 1}, {Turn: 2, Sum: 5}, {Turn: 4, Sum: 9}}
	otherAt4 := []replay.Hash{{Turn: 0, Sum: 1}, {Turn: 2, Sum: 5}, {Turn: 4, Sum: 8}}
	tests := []struct {
		name     string
		a, b     *replay.Log
		from     int
		turn     int // 0: none
		commands []commandDiff
		note     string
	}{
		{"a command", log(hashes, "A", "B", "C", "D"), log(hashes, "A", "B", "X", "D"), 1, 3, []commandDiff{{0, "C", "X"}}, ""},
		{"before the fork turn", log(hashes, "X", "B", "C"), log(hashes, "A", "B", "C"), 1, 0, nil, "same commands"},
		{"a state hash", log(hashes, "A", "B", "C", "D"), log(otherAt4, "A", "B", "C", "D"), 2, 4, nil, "state hashes recorded after turn 4 differ"},
		{"one ends first", log(nil, "A", "B", "C"), log(nil, "A", "B", "C", "D"), 1, 4, nil, "one ends first"},
		{"the same", log(hashes, "A", "B"), log(hashes, "A", "B"), 0, 0, nil, "same commands"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &divergence{Commands: []commandDiff{}}
			d.find(tt.a, tt.b, tt.from)
			switch {
			case tt.turn == 0 && d.Turn != nil:
				t.Errorf("got turn %d, want none", *d.Turn)
			case tt.turn != 0 && (d.Turn == nil || *d.Turn != tt.turn):
				t.Errorf("got turn %v, want %d", d.Turn, tt.turn)
			}
			if !slices.Equal(d.Commands, tt.commands) && len(d.Commands)+len(tt.commands) > 0 {
				t.Errorf("got commands %+v, want %+v", d.Commands, tt.commands)
			}
			if !strings.Contains(d.Note, tt.note) {
				t.Errorf("got note %q, want it to say %q", d.Note, tt.note)
			}
		})
	}
}
