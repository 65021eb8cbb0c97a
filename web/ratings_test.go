package web

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// getOK answers a GET of url through e, failing unless the status is 200.
func getOK(t *testing.T, e http.Handler, url string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, url, nil)
	req.Host = testAddr
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: got status %d, want 200; body %.300s", url, rec.Code, rec.Body.String())
	}
	return rec
}

// leagueFit is the fit of the league's matches of one game and ruleset
// as the refitter makes it: the players keyed as it keys them, and, as
// the league is shorter than its history, each prefix fitted from the
// one before.
func leagueFit(t *testing.T, game, ruleset string) *analytics.RatingFit {
	t.Helper()
	var (
		in analytics.RatingInput
		f  *analytics.RatingFit
	)
	for _, m := range league {
		if m.game != game || m.ruleset != ruleset {
			continue
		}
		var ps []analytics.Placing
		for _, s := range m.seats {
			ps = append(ps, analytics.Placing{Player: analytics.RatingKey(s.bot, "v1"), Rank: s.rank})
		}
		if err := in.Add(ps); err != nil {
			t.Fatal(err)
		}
		var err error
		if f, err = in.FitFrom(analytics.RatingPrior, f); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestRatingsAPI(t *testing.T) {
	db := leagueDB(t)
	refit := analytics.NewRefitter(db, slog.New(slog.DiscardHandler))
	e, err := New(Config{DB: db, Addr: testAddr, Refitter: refit})
	if err != nil {
		t.Fatal(err)
	}
	// Before the first fit, nothing is rated and nothing fails.
	for _, sc := range []scenario{
		{name: "no fit yet", url: "/api/v1/ratings", status: 200, want: []string{`[]`}},
		{name: "bots unrated", url: "/api/v1/bots?game=worms", status: 200, want: []string{`"rating":null,"rating_ci95":null`}},
		{name: "page unrated", url: "/bots", status: 200, want: []string{"Not rated yet"}},
		{name: "no history yet", url: "/api/v1/bots/worms/tactical/ratings", status: 200, want: []string{`"history":[]`}},
		{name: "bot page without history", url: "/bots/worms/tactical", status: 200, want: []string{"No rating history yet"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}
	if err := refit.Refit(context.Background()); err != nil {
		t.Fatal(err)
	}

	// The API serves what FitRatings gives over the same matches.
	var boards []ratingBoardJSON
	if err := json.Unmarshal(getOK(t, e, "/api/v1/ratings?game=worms").Body.Bytes(), &boards); err != nil {
		t.Fatal(err)
	}
	if len(boards) != 2 || boards[0].Ruleset != "base" || boards[1].Ruleset != "final" {
		t.Fatalf("got boards %+v, want worms base and final", boards)
	}
	for _, b := range boards {
		want := leagueFit(t, b.Game, b.Ruleset)
		var got []analytics.Rating
		for _, r := range b.Ratings {
			got = append(got, analytics.Rating{Player: analytics.RatingKey(r.Name, r.Version), Rating: r.Rating,
				CI: analytics.Interval{Low: r.CI[0], High: r.CI[1]}, Matches: r.Matches})
		}
		if !reflect.DeepEqual(got, want.Ratings) {
			t.Errorf("%s: got %+v, want %+v", b.Ruleset, got, want.Ratings)
		}
	}
	final := leagueFit(t, "worms", "final").Ratings
	for _, sc := range []scenario{
		{name: "csv", url: "/api/v1/ratings?game=worms&ruleset=final&format=csv", status: 200,
			want: []string{strings.Join(ratingsHeader, ",") + "\n", "worms,final,1,random,v1," + formatFloat(final[0].Rating) + ",",
				"worms,final,2,tactical,v1," + formatFloat(final[1].Rating) + ","},
			notWant:     []string{"base", "NaN"},
			wantHeaders: map[string]string{"Content-Type": "text/csv", "Content-Disposition": "worms-ratings.csv"}},
		{name: "all games", url: "/api/v1/ratings", status: 200, want: []string{`"game":"snake","ruleset":"codebattle2020"`, `"game":"worms","ruleset":"final"`}},
		{name: "unknown game", url: "/api/v1/ratings?game=chess", status: 404, want: []string{`no game \"chess\"`}},
		{name: "known game without matches", url: "/api/v1/ratings?game=toad", status: 200, want: []string{`[]`}},
		{name: "bad format", url: "/api/v1/ratings?format=xml", status: 400, want: []string{`format \"xml\": want json or csv`}},
		{name: "leaderboard ranked by rating", url: "/api/v1/bots?game=worms&ruleset=final", status: 200,
			want: []string{`"name":"random","version":"v1"`, `"rating":` + string(mustJSON(t, final[0].Rating))}},
		{name: "bots page", url: "/bots", status: 200, want: []string{"Ranked by rating, fitted over all 2 stored matches of this game and ruleset", ratingText(final[0].Rating)}},
		{name: "overview", url: "/", status: 200, want: []string{`<td class="num">` + ratingText(final[0].Rating) + `</td>`}, notWant: []string{"Not rated yet"}},
		{name: "history", url: "/api/v1/bots/worms/tactical/ratings", status: 200,
			want: []string{`"game":"worms","name":"tactical"`, `{"ruleset":"base","version":"v1","upto":1,"rated_matches":1,`, `{"ruleset":"final","version":"v1","upto":2,"rated_matches":2,"rating":` + string(mustJSON(t, final[1].Rating))}},
		{name: "history csv", url: "/api/v1/bots/worms/tactical/ratings?format=csv", status: 200,
			want: []string{"ruleset,version,upto,rated_matches,rating,rating_ci95_low,rating_ci95_high\nbase,v1,1,1,", "\nfinal,v1,1,1,", "\nfinal,v1,2,2," + formatFloat(final[1].Rating)}},
		{name: "history of an unknown bot", url: "/api/v1/bots/worms/nobody/ratings", status: 404, want: []string{`no bot \"nobody\" has played worms`}},
		{name: "bot page chart", url: "/bots/worms/tactical", status: 200,
			want: []string{`id="rating-base"`, `id="rating-final"`, `/static/js/charts.js`, `/static/vendor/echarts/`, `/api/v1/bots/worms/tactical/ratings?format=csv`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}
}

// ratingText is a rating as the leaderboards show it.
func ratingText(x float64) string { return funcs["rating"].(func(*float64) string)(&x) }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRatingsProblem checks a game that cannot be rated (River Toad is
// played alone) says so instead of showing numbers.
func TestRatingsProblem(t *testing.T) {
	f := newFixture(t, nil)
	if err := analytics.NewRefitter(f.db, slog.New(slog.DiscardHandler)).Refit(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, sc := range []scenario{
		{name: "api", url: "/api/v1/ratings?game=toad", status: 200, want: []string{`"matches":3`, `"problem":"Not enough matches to rate`, `"ratings":[]`}},
		{name: "csv", url: "/api/v1/ratings?game=toad&format=csv", status: 200, want: []string{"\ntoad,classic,,,,,,,,3,"}, notWant: []string{"NaN"}},
		{name: "page", url: "/bots", status: 200, want: []string{"Not enough matches to rate: ratings compare bots"}, notWant: []string{"NaN"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}

// TestUploadNotifiesRefitter uploads a replay to a server whose refitter
// runs: the stored fit comes to cover it without any request fitting.
func TestUploadNotifiesRefitter(t *testing.T) {
	var refit *analytics.Refitter
	f := newFixture(t, func(c *Config) {
		refit = analytics.NewRefitter(c.DB, slog.New(slog.DiscardHandler))
		c.Refitter = refit
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		refit.Run(ctx)
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	fitted := func() int {
		bs, err := f.db.Ratings(context.Background(), "toad", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(bs) == 0 {
			return 0
		}
		return bs[0].Matches
	}
	waitUntil(t, "the first fit", func() bool { return fitted() == 3 })
	enc, _ := f.encodeFresh(t)
	scenario{method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, status: 201}.run(t, f.e)
	waitUntil(t, "the refit after the upload", func() bool { return fitted() == 4 })
}

// waitUntil polls cond until it holds, failing after a few seconds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestBrowserRatings opens a bot page in headless chromium: the rating
// history chart draws each ruleset's line and band from its JSON blocks,
// with no error under the CSP.
func TestBrowserRatings(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	db := leagueDB(t)
	if err := analytics.NewRefitter(db, slog.New(slog.DiscardHandler)).Refit(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	e, err := New(Config{DB: db, Addr: srv.Listener.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = e
	srv.Start()
	t.Cleanup(srv.Close)
	b := newBrowserSession(t)
	b.do(t, "open the bot page", chromedp.Navigate(srv.URL+"/bots/worms/tactical"),
		chromedp.WaitVisible(chromedp.CSS("#rating-final canvas")))
	// Per version: the rating line, the band's low end and its width.
	const series = `echarts.getInstanceByDom(document.getElementById('rating-final')).getOption().series`
	if got := eval[[]any](t, b, series+`.map(s => s.data.length)`); !reflect.DeepEqual(got, []any{2.0, 2.0, 2.0}) {
		t.Errorf("final chart: got points per series %v, want 2 in each of 3", got)
	}
	final := leagueFit(t, "worms", "final").Ratings[1] // tactical, last
	if got := eval[[]any](t, b, series+`[0].data[1]`); len(got) != 2 || got[0] != 2.0 || got[1] != final.Rating {
		t.Errorf("final chart: got last point %v, want [2, %v]", got, final.Rating)
	}
	if got := eval[float64](t, b, series+`[2].data[1][1]`); math.Abs(got-(final.CI.High-final.CI.Low)) > 1e-9 {
		t.Errorf("final chart: got band width %v, want %v", got, final.CI.High-final.CI.Low)
	}
	b.checkQuiet(t)
}

// TestRatingChartLegend checks that a rating chart's legend shows every
// version, however many, as the match charts' legends do: a plain legend
// wrapped onto rows under the title (never paged), its plot starting
// where the match charts' does, which charts.js moves below the rows.
func TestRatingChartLegend(t *testing.T) {
	line, _ := lineChart(store.MatchSummary{Turns: 1}, sim.MetricDef{Name: "score"}, nil, nil)
	match := decodeOption(t, line)
	for _, versions := range []int{1, 12} {
		t.Run(strconv.Itoa(versions), func(t *testing.T) {
			var points []store.RatingPoint
			for v := range versions {
				p := store.RatingPoint{Ruleset: "final", Upto: 1}
				p.Version = fmt.Sprintf("v%d-%s", v, strings.Repeat("long", 8))
				points = append(points, p)
			}
			c, _ := ratingChart("worms", "tactical", points)
			o := decodeOption(t, c)
			if o.Legend.Type != "plain" {
				t.Errorf("got legend type %q, want plain (every version shown, no paging)", o.Legend.Type)
			}
			if want := strconv.Itoa(legendTop); o.Legend.Top != want {
				t.Errorf("got legend top %q, want %q", o.Legend.Top, want)
			}
			if len(o.Legend.Data) != 0 || len(o.Legend.Selected) != 0 {
				t.Errorf("got legend data %v, selection %v, want every series' name shown", o.Legend.Data, o.Legend.Selected)
			}
			if len(o.Grid) != 1 || len(match.Grid) != 1 || o.Grid[0].Top != match.Grid[0].Top {
				t.Errorf("got grid %v, want the top of a match chart's, %v", o.Grid, match.Grid)
			}
		})
	}
}

// TestBotMatchesAt puts a bot's rating history on its own matches: v1
// played 1, 2 and 3 rated matches by the fits of 1, 2 and 4 stored
// matches, v2 1 by the fit of 4 and 3 by that of 8, when v1 had stopped.
func TestBotMatchesAt(t *testing.T) {
	point := func(version string, upto, matches int) store.RatingPoint {
		p := store.RatingPoint{Ruleset: "final", Upto: upto}
		p.Version, p.Matches = version, matches
		return p
	}
	got := botMatchesAt([]store.RatingPoint{point("v1", 1, 1), point("v1", 2, 2), point("v1", 4, 3), point("v2", 4, 1), point("v2", 8, 3)})
	if want := map[int]int{1: 1, 2: 2, 4: 4, 8: 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
