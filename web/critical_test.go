package web

import (
	"context"
	"encoding/json"
	"math"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// TestCriticalPages stores a sweep of the lost match, with a turn that
// changes the outcome, one that does not and one half played, and reads
// its chart on the match page and its forks from the API.
func TestCriticalPages(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	id, _, err := f.db.OpenSweep(ctx, store.Sweep{Match: f.lost, Seat: 0, Bot: "builtin:astar", Player: store.Player{Name: "astar", Version: "builtin"}})
	if err != nil {
		t.Fatal(err)
	}
	fork := func(turn int, command string, o sim.Outcome, score float64) store.ForkResult {
		return store.ForkResult{Turn: turn, Command: command, TurnForks: 2, Result: sim.PlayerResult{Outcome: o, Rank: 1, Score: score}}
	}
	if err := f.db.SaveForks(ctx, id, []store.ForkResult{
		fork(2, "S", sim.Win, 7), fork(2, "D", sim.Loss, 0),
		fork(3, "A", sim.Loss, 0), fork(3, "G", sim.Loss, 1),
		fork(5, "F", sim.Loss, 0),
	}); err != nil {
		t.Fatal(err)
	}
	// A sweep of the won match stopped before its first fork finished.
	if _, _, err := f.db.OpenSweep(ctx, store.Sweep{Match: f.won, Seat: 0, Bot: "builtin:random"}); err != nil {
		t.Fatal(err)
	}
	lost, won := shortID(f.lost), shortID(f.won)
	tests := []scenario{
		{name: "match page charts the sweep", url: "/matches/" + lost, status: 200,
			want: []string{"Decisive turns", `id="chart-decisive-0"`, "Seat 1 · random v1, played on by builtin:astar, all alternatives",
				"5 forks at 3 turns (2 to 5): 1 change the outcome or rank for the better, 0 for the worse; turns not all played: 1",
				`href="/matches/` + lost + `/turns/2" title="1 better, 0 worse">turn 2</a>`},
			notWant: []string{"No sweep of this match is stored"}},
		{name: "match page without a sweep gives the command", url: "/matches/" + won, status: 200,
			want:    []string{"No sweep of this match is stored", "<code>replaylab critical " + won + " --db FILE --seat 1</code>"},
			notWant: []string{"chart-decisive"}},
		{name: "api", url: "/api/v1/matches/" + lost + "/critical", status: 200,
			want: []string{`"match":"` + f.lost + `"`, `"seat_index":0,"seat_number":1,"bot":"builtin:astar","fingerprint":"","bot_player":"astar@builtin","alternatives":"all"`,
				`"recorded":{"outcome":"loss","rank":1,"score":`, `"forks":5`,
				`"turns":[{"turn":2,"forks":2,"of":2,"changes":1,"better":1,"worse":0,"url":"/matches/` + lost + `/turns/2"},{"turn":3,"forks":2,"of":2,"changes":0`,
				`{"turn":5,"forks":1,"of":2,"changes":0,"better":0,"worse":0`,
				`"changes":[{"turn":2,"command":"S","outcome":"win","rank":1,"score":7,"better":true}]`}},
		{name: "api of a sweep without a fork", url: "/api/v1/matches/" + won + "/critical", status: 200,
			want: []string{`"bot":"builtin:random"`, `"forks":0,"turns":[],"changes":[]`}},
		{name: "api without a sweep", url: "/api/v1/matches/" + shortID(f.hostile) + "/critical", status: 200, want: []string{`"sweeps":[]`}},
		{name: "api of an unknown match", url: "/api/v1/matches/" + strings.Repeat("0", 64) + "/critical", status: 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, f.e) })
	}

	// The chart's lines: a point at every turn swept, 0 included, and a
	// gap at every other.
	rec, req := httptest.NewRecorder(), httptest.NewRequest("GET", "/matches/"+lost, nil)
	req.Host = testAddr
	f.e.ServeHTTP(rec, req)
	m := regexp.MustCompile(`<script type="application/json" id="chart-decisive-0-data">([^<]*)</script>`).FindStringSubmatch(rec.Body.String())
	if m == nil {
		t.Fatalf("no data block of the decisive turns chart in\n%s", rec.Body.String())
	}
	var lines [][]*float64
	if err := json.Unmarshal([]byte(m[1]), &lines); err != nil {
		t.Fatalf("%v in %s", err, m[1])
	}
	at := func(line, turn int) float64 {
		if v := lines[line][turn]; v != nil {
			return *v
		}
		return math.NaN()
	}
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want better and worse", len(lines))
	}
	for _, c := range []struct {
		line, turn int
		want       float64
	}{{0, 2, 1}, {1, 2, 0}, {0, 3, 0}, {1, 5, 0}, {0, 1, math.NaN()}, {1, 4, math.NaN()}, {0, 6, math.NaN()}} {
		if got := at(c.line, c.turn); got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("line %d at turn %d: got %v, want %v (NaN: a gap)", c.line, c.turn, got, c.want)
		}
	}
}

// TestCriticalSectionBound charts at most maxSweepsCharted sweeps and
// counts the others.
func TestCriticalSectionBound(t *testing.T) {
	m := store.MatchSummary{ID: strings.Repeat("ab", 32), Turns: 10, Players: []store.PlayerSummary{{Seat: 0, Name: "astar"}}}
	var sweeps []store.StoredSweep
	for k := range maxSweepsCharted + 3 {
		sweeps = append(sweeps, store.StoredSweep{
			Sweep: store.Sweep{Match: m.ID, Bot: "builtin:astar", Alternatives: k},
			Forks: []store.ForkResult{{Turn: 1, Command: "A", TurnForks: 1, Result: sim.PlayerResult{Outcome: sim.Win, Rank: 1}}},
		})
	}
	d, _ := criticalSection(m, sweeps)
	if len(d.Sweeps) != maxSweepsCharted || d.More != 3 {
		t.Errorf("got %d sweeps charted and %d more, want %d and 3", len(d.Sweeps), d.More, maxSweepsCharted)
	}
}
