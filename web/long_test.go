package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/toad"
)

// longToad is a River Toad match of about turns turns: explicit rolls that
// only ever spawn flies or nothing, and a toad that stays put, so he
// survives every roll.
func longToad(t testing.TB, turns int) *replay.Log {
	t.Helper()
	rolls := make([]string, turns)
	for i := range rolls {
		rolls[i] = []string{"32", "33", "0"}[i%3]
	}
	h := replay.Header{Format: replay.Format, Game: "toad", Seed: 1,
		Config:  json.RawMessage(`{"rolls":[` + strings.Join(rolls, ",") + `]}`),
		Players: []replay.Player{{Name: "idle", Version: "v1"}}}
	l := &replay.Log{Header: h, Turns: make([][]string, turns)}
	m, err := toad.Game.New(h.Setup())
	if err != nil {
		t.Fatal(err)
	}
	for i := range l.Turns {
		l.Turns[i] = []string{"S"}
		if err := m.Step(l.Turns[i]); err != nil {
			t.Fatal(err)
		}
	}
	l.End = &replay.Hash{Turn: turns, Sum: m.Hash()} // as the recorder closes a log
	return l
}

// serveGet answers a GET on h with its status and body.
func serveGet(t *testing.T, h http.Handler, url string) (int, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, url, nil)
	req.Host = testAddr // the name the server answers for (see hostGuard)
	h.ServeHTTP(rec, req)
	body, err := io.ReadAll(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Code, body
}

// TestLongMatchBounded stores two long matches, one five times the other,
// and checks that what the match page, the series API and the events API
// answer does not grow with the turns: the charts are downsampled and the
// events come in pages.
func TestLongMatchBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 60000-turn match")
	}
	db := openDB(t)
	e, err := New(Config{DB: db, Addr: testAddr})
	if err != nil {
		t.Fatal(err)
	}
	const short, long = 12_000, 60_000
	ids := map[int]string{short: ingest(t, db, longToad(t, short)), long: ingest(t, db, longToad(t, long))}
	size := map[string]map[int]int{}
	for _, turns := range []int{short, long} {
		for _, tt := range []struct{ name, url string }{
			{"match page", "/matches/" + ids[turns]},
			{"series", "/api/v1/matches/" + ids[turns] + "/series/hp"},
			{"events", "/api/v1/matches/" + ids[turns] + "/events"},
		} {
			status, body := serveGet(t, e, tt.url)
			if status != http.StatusOK {
				t.Fatalf("%s of %d turns: got status %d: %.200s", tt.name, turns, status, body)
			}
			if size[tt.name] == nil {
				size[tt.name] = map[int]int{}
			}
			size[tt.name][turns] = len(body)
		}
	}
	for name, by := range size {
		t.Logf("%s: %d bytes at %d turns, %d at %d", name, by[short], short, by[long], long)
		// Five times the turns: only the digits of turn numbers (4 or 5
		// at 12000 turns, 5 at 60000) and the values may differ.
		if by[long] > by[short]*23/20 || by[long] >= 1<<20 {
			t.Errorf("%s: got %d bytes at %d turns, %d at %d; want under 1 MiB and no growth with turns", name, by[short], short, by[long], long)
		}
	}

	// The chart data are [turn, value] pairs at real turns, in order, each
	// the value the series API gives for that turn.
	_, full := serveGet(t, e, "/api/v1/matches/"+ids[long]+"/series/hp?points=100000")
	var series struct {
		Lines []struct {
			Values []float64 `json:"values"`
			Turns  []int     `json:"turns"`
		} `json:"lines"`
	}
	if err := json.Unmarshal(full, &series); err != nil || len(series.Lines) != 1 || series.Lines[0].Turns != nil {
		t.Fatalf("series of every turn: got %.200s, %v", full, err)
	}
	values := series.Lines[0].Values
	_, page := serveGet(t, e, "/matches/"+ids[long])
	block := regexp.MustCompile(`<script type="application/json" id="chart-hp-data">(.*?)</script>`).FindSubmatch(page)
	if block == nil {
		t.Fatal("match page: no chart-hp data")
	}
	var lines [][][2]float64
	if err := json.Unmarshal(block[1], &lines); err != nil {
		t.Fatalf("chart-hp data: %v", err)
	}
	if len(lines) != 1 || len(lines[0]) < 2 || len(lines[0]) > maxLinePoints {
		t.Fatalf("chart-hp data: got %d lines of %d points; want 1 line of 2 to %d", len(lines), len(lines[0]), maxLinePoints)
	}
	for i, p := range lines[0] {
		turn := int(p[0])
		if turn < 0 || turn >= len(values) || i > 0 && p[0] <= lines[0][i-1][0] || p[1] != values[turn] {
			t.Fatalf("chart-hp point %d: got %v after %v", i, p, lines[0][max(i-1, 0)])
		}
	}
}
