package web

import (
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// The league's head-to-head boards, worked by hand (scores are 10 − rank):
//
//	worms base:  tactical beat random once by 1: one meeting, no interval.
//	worms final: random beat tactical twice by 1: mean 1, interval [1, 1].
//	snake:       greedy plays at its best seat (rank 1), random at its
//	             (rank 2): greedy beat random once by 1, and each beat
//	             astar once; a bot's other seats are no meetings.
func TestHeadToHead(t *testing.T) {
	e := newLeague(t)
	greedyVsRandom := `href="/matches?bot=greedy&amp;game=snake&amp;ruleset=codebattle2020&amp;version=v1&amp;vs=random&amp;vs_version=v1"`
	for _, sc := range []scenario{
		{name: "one meeting", url: "/api/v1/headtohead?game=worms&ruleset=base", status: 200,
			want: []string{
				// random comes first, level with tactical on meetings and first by name.
				`"cells":[[null,{"meetings":1,"wins":0,"draws":0,"losses":1,"win_share":0,"mean_score_diff":-1,"mean_score_diff_ci95":null,`,
				`[{"meetings":1,"wins":1,"draws":0,"losses":0,"win_share":1,"mean_score_diff":1,"mean_score_diff_ci95":null,`}},
		{name: "two meetings", url: "/api/v1/headtohead?game=worms&ruleset=final", status: 200,
			want: []string{`{"meetings":2,"wins":2,"draws":0,"losses":0,"win_share":1,"mean_score_diff":1,"mean_score_diff_ci95":[1,1],`}},
		{name: "csv", url: "/api/v1/headtohead?game=worms&ruleset=base&format=csv", status: 200,
			want:        []string{strings.Join(h2hCSVHeader, ",") + "\n", "worms,base,tactical,v1,random,v1,1,1,0,0,1,1,,\n", "worms,base,random,v1,tactical,v1,1,0,0,1,0,-1,,\n"},
			wantHeaders: map[string]string{"Content-Type": "text/csv", "Content-Disposition": "headtohead-worms-base.csv"}},
		{name: "no meetings", url: "/api/v1/headtohead?game=toad&ruleset=classic", status: 200,
			want: []string{`"bots":[]`, `"cells":[]`, "needs two bots"}},
		{name: "no meetings, csv", url: "/api/v1/headtohead?game=toad&ruleset=classic&format=csv", status: 200,
			want: []string{strings.Join(h2hCSVHeader, ",") + "\n"}, notWant: []string{"toad,"}},
		{name: "unknown game", url: "/api/v1/headtohead?game=chess&ruleset=base", status: 404, want: []string{`no game \"chess\"`}},
		{name: "unknown ruleset", url: "/api/v1/headtohead?game=worms&ruleset=codenjoy", status: 404, want: []string{`has no ruleset \"codenjoy\"`, "base, final"}},
		{name: "no ruleset", url: "/api/v1/headtohead?game=worms", status: 400, want: []string{"needs a game and a ruleset"}},
		{name: "bad format", url: "/api/v1/headtohead?game=worms&ruleset=base&format=xml", status: 400, want: []string{`format \"xml\"`}},
		{name: "page", url: "/headtohead/snake/codebattle2020", status: 200,
			want: []string{greedyVsRandom, `class="ws10"`, `<span class="wdl">1–0–0</span>`, `<span>greedy v1</span>`}},
		{name: "page of one meeting", url: "/headtohead/worms/base", status: 200, want: []string{"+1 (one meeting: no interval)", `<span class="wdl">1–0–0</span>`}},
		{name: "page without meetings", url: "/headtohead/toad/classic", status: 200,
			want: []string{"a head-to-head board needs two bots that played each other"}, notWant: []string{`<table class="h2h">`}},
		{name: "page of an unknown ruleset", url: "/headtohead/worms/nope", status: 404, want: []string{"has no ruleset &#34;nope&#34;: it has base, final"}},
		{name: "bots page links each board", url: "/bots", status: 200,
			want: []string{`href="/headtohead/worms/base"`, `href="/headtohead/worms/final"`, `href="/headtohead/snake/codebattle2020"`}},
		{name: "a cell's matches", url: "/api/v1/matches?game=snake&bot=greedy&version=v1&vs=random&vs_version=v1", status: 200, want: []string{`"total":1`}},
		{name: "vs in a ruleset", url: "/api/v1/matches?game=worms&ruleset=final&bot=tactical&vs=random", status: 200, want: []string{`"total":2`}},
		{name: "vs needs a bot", url: "/api/v1/matches?vs=random", status: 400, want: []string{"needs a bot"}},
		{name: "matches page keeps vs", url: "/matches?game=worms&bot=tactical&vs=random&vs_version=v1&limit=1", status: 200,
			want: []string{`name="vs" value="random"`, `name="vs_version" value="v1"`, `&amp;vs=random&amp;vs_version=v1`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}
}

// snakeSeries is four 5-seat Snake matches in which astar holds three
// seats: greedy placed 4th, 1st, 2nd and 1st against random's 2nd, 2nd,
// 3rd and 5th, score differences −2, 1, 1, 4 (scores are 10 − rank):
// mean 1, variance (22 − 16/4)/3 = 6, half-width t(3)·√(6/4) = 3.182446 ×
// 1.224745 = 3.897685.
var snakeSeries = []leagueMatch{
	{"snake", "codebattle2020", []seat{{"greedy", 4, sim.Loss}, {"random", 2, sim.Loss}, {"astar", 1, sim.Win}, {"astar", 3, sim.Loss}, {"astar", 5, sim.Loss}}, nil},
	{"snake", "codebattle2020", []seat{{"greedy", 1, sim.Win}, {"random", 2, sim.Loss}, {"astar", 3, sim.Loss}, {"astar", 4, sim.Loss}, {"astar", 5, sim.Loss}}, nil},
	{"snake", "codebattle2020", []seat{{"greedy", 2, sim.Loss}, {"random", 3, sim.Loss}, {"astar", 1, sim.Win}, {"astar", 4, sim.Loss}, {"astar", 5, sim.Loss}}, nil},
	{"snake", "codebattle2020", []seat{{"greedy", 1, sim.Win}, {"random", 5, sim.Loss}, {"astar", 2, sim.Loss}, {"astar", 3, sim.Loss}, {"astar", 4, sim.Loss}}, nil},
}

// TestHeadToHeadJSONNumbers decodes a board and checks the interval of a
// cell worked by hand, from both sides, and that no number is NaN.
func TestHeadToHeadJSONNumbers(t *testing.T) {
	e := serveMatches(t, snakeSeries)
	req := httptest.NewRequest(http.MethodGet, "/api/v1/headtohead?game=snake&ruleset=codebattle2020", nil)
	req.Host = testAddr
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	var m matrixJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("decode %s: %v", rec.Body, err)
	}
	var names []string
	for _, b := range m.Bots {
		names = append(names, b.Name)
	}
	// Each met the other two in every match, once: level, by name.
	if got := strings.Join(names, " "); got != "astar greedy random" {
		t.Fatalf("bots: got %s, want astar greedy random", got)
	}
	tests := []struct {
		row, col int
		wins     int
		mean     float64
		ci       [2]float64
	}{
		{1, 2, 3, 1, [2]float64{1 - 3.897685, 1 + 3.897685}},
		{2, 1, 1, -1, [2]float64{-1 - 3.897685, -1 + 3.897685}},
	}
	for _, tt := range tests {
		c := m.Cells[tt.row][tt.col]
		if c == nil || c.Wins != tt.wins || c.MeanDiff == nil || *c.MeanDiff != tt.mean || c.DiffCI == nil ||
			math.Abs(c.DiffCI[0]-tt.ci[0]) > 1e-6 || math.Abs(c.DiffCI[1]-tt.ci[1]) > 1e-6 {
			t.Errorf("cell %d,%d: got %+v, want %d wins, mean %v, interval %v", tt.row, tt.col, c, tt.wins, tt.mean, tt.ci)
		}
	}
	for i, row := range m.Cells {
		if row[i] != nil {
			t.Errorf("diagonal cell %d: got %+v, want null", i, row[i])
		}
	}
}

// TestHeadToHeadLongNames shows names that are long or hostile escaped
// and whole, in the column's head as in the row's.
func TestHeadToHeadLongNames(t *testing.T) {
	long := strings.Repeat("very-long-bot-name-", 8)
	e := serveMatches(t, []leagueMatch{{"snake", "codenjoy", []seat{{long, 1, sim.Win}, {xssName, 2, sim.Loss}}, nil}})
	sc := scenario{url: "/headtohead/snake/codenjoy", status: 200,
		want:    []string{`<th scope="col" class="bot" title="` + long + ` v1"><span>` + long + ` v1</span>`, `<th scope="row" class="bot" title="` + long + ` v1"><span>` + long + ` v1</span>`, "&lt;img src=x onerror=alert(1)&gt;"},
		notWant: []string{xssName}}
	sc.run(t, e)
}

// TestHeadToHeadNeverMet has a and c each meet b but not each other: their
// cell is empty, and its numbers null in JSON.
func TestHeadToHeadNeverMet(t *testing.T) {
	e := serveMatches(t, []leagueMatch{
		{"snake", "codenjoy", []seat{{"a", 1, sim.Win}, {"b", 2, sim.Loss}}, nil},
		{"snake", "codenjoy", []seat{{"b", 1, sim.Win}, {"c", 2, sim.Loss}}, nil},
	})
	never := `{"meetings":0,"wins":0,"draws":0,"losses":0,"win_share":null,"mean_score_diff":null,"mean_score_diff_ci95":null}`
	for _, sc := range []scenario{
		{name: "json", url: "/api/v1/headtohead?game=snake&ruleset=codenjoy", status: 200, want: []string{`"cells":[[null,`, never}},
		{name: "csv leaves it out", url: "/api/v1/headtohead?game=snake&ruleset=codenjoy&format=csv", status: 200,
			want: []string{"snake,codenjoy,a,v1,b,v1,1,1,0,0,1,1,,\n"}, notWant: []string{"a,v1,c,v1", "c,v1,a,v1"}},
		{name: "page", url: "/headtohead/snake/codenjoy", status: 200, want: []string{`<td class="none" title="never met">·</td>`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}
}

// TestMeetingLinks checks the cells' links against matchesURL, which
// builds the same filter's link the general way.
func TestMeetingLinks(t *testing.T) {
	bots := []store.BotVersion{{Name: "a b&c=d", Version: "1.0+x"}, {Name: "ünï/cödé", Version: ""}, {Name: xssName, Version: "v?1#"}}
	m := analytics.Matrix{Game: "snake", Ruleset: "code battle", Bots: bots}
	links := newMeetingLinks(m)
	for i, a := range bots {
		for j, b := range bots {
			f := store.MatchFilter{Game: m.Game, Ruleset: m.Ruleset, Bot: a.Name, Version: a.Version, Vs: b.Name, VsVersion: b.Version}
			if got, want := links.url(i, j), string(matchesURL(f, 0)); got != want {
				t.Errorf("link %d,%d: got %s, want %s", i, j, got, want)
			}
		}
	}
}

// TestHeadToHeadByRating orders the board by the stored ratings: zeta beat
// both others and mid beat alpha, every pair met three times, so by
// meetings and name the board would read alpha, mid, zeta.
func TestHeadToHeadByRating(t *testing.T) {
	var matches []leagueMatch
	for range 3 {
		for _, p := range [][2]string{{"zeta", "alpha"}, {"zeta", "mid"}, {"mid", "alpha"}} {
			matches = append(matches, leagueMatch{"snake", "codenjoy", []seat{{p[0], 1, sim.Win}, {p[1], 2, sim.Loss}}, nil})
		}
	}
	db := matchesDB(t, matches)
	e, err := New(Config{DB: db, Addr: testAddr})
	if err != nil {
		t.Fatal(err)
	}
	order := func() string {
		var m matrixJSON
		if err := json.Unmarshal(getOK(t, e, "/api/v1/headtohead?game=snake&ruleset=codenjoy").Body.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, b := range m.Bots {
			names = append(names, b.Name)
			if b.Rating != nil {
				names[len(names)-1] += "(rated)"
			}
		}
		return strings.Join(names, " ")
	}
	if got := order(); got != "alpha mid zeta" {
		t.Fatalf("before a fit: got %s, want alpha mid zeta (meetings, then name)", got)
	}
	if err := analytics.NewRefitter(db, slog.New(slog.DiscardHandler)).Refit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := order(); got != "zeta(rated) mid(rated) alpha(rated)" {
		t.Fatalf("after a fit: got %s, want zeta mid alpha, each rated", got)
	}
	page := getOK(t, e, "/headtohead/snake/codenjoy").Body.String()
	if z, a := strings.Index(page, `<th scope="row" class="bot" title="zeta v1"><span>zeta v1</span> <span class="rating"`), strings.Index(page, `<th scope="row" class="bot" title="alpha v1">`); z < 0 || a < z {
		t.Errorf("page: zeta's row (with its rating) at %d, alpha's at %d; want zeta first", z, a)
	}
}

func TestRoundedDiff(t *testing.T) {
	for _, tt := range []struct {
		x, scale float64
		want     string
	}{
		{540.73, 51.04, "+541"}, {51.04, 51.04, "+51"}, {-540.73, 51.04, "-541"},
		{0.4137, 0.0912, "+0.41"}, {2.345, 3.2, "+2.3"}, {1, 1, "+1"}, {-3, 0.5, "-3"},
		{0.001, 2, "0"}, {-0.001, 2, "0"}, {0, 0, "0"},
	} {
		if got := roundedDiff(tt.x, tt.scale); got != tt.want {
			t.Errorf("roundedDiff(%v, %v) = %q, want %q", tt.x, tt.scale, got, tt.want)
		}
	}
}
