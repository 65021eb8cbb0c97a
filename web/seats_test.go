package web

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/sim/worms"
)

// TestPagesNumberSeatsFromOne stores a match of every game and reads its
// page, its inspector at a turn under way and its turns.csv, as the
// "Seats" in docs/cli.md says people read them: no seat numbered from 0, none
// outside 1 to N, the CSV's seats 1 to N, and every unit named as its game
// does (Worms' worms 11 to 13 and 21 to 23) in the charts' lines and the
// inspector's meta.
func TestPagesNumberSeatsFromOne(t *testing.T) {
	f := newFixture(t, nil)
	zero := regexp.MustCompile(`(?i)\b(seat|player|team)\s+#?0\b`)
	named := regexp.MustCompile(`\b[Ss]eat (\d+)\b`)
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			n := g.DefaultPlayers
			l := recordBuiltin(t, g, "", "", 5, slices.Repeat([]string{g.Bots[0].Name}, n), nil)
			id := ingest(t, f.db, l)
			turn := len(l.Turns) / 2
			bodies := map[string]string{}
			for _, url := range []string{"/matches/" + id, fmt.Sprintf("/matches/%s/turns/%d", id, turn), "/api/v1/matches/" + id + "/turns.csv"} {
				bodies[url] = getBody(t, f, url)
			}
			for url, body := range bodies {
				if m := zero.FindString(body); m != "" {
					t.Errorf("%s numbers a seat from 0: %q", url, m)
				}
				for _, m := range named.FindAllStringSubmatch(body, -1) {
					if s, _ := strconv.Atoi(m[1]); s < 1 || s > n {
						t.Errorf("%s names %q, want seats 1 to %d", url, m[0], n)
					}
				}
			}
			rows, err := csv.NewReader(strings.NewReader(bodies["/api/v1/matches/"+id+"/turns.csv"])).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			seats := map[string]bool{}
			for _, r := range rows[1:] {
				seats[r[1]] = true
			}
			for s := range n {
				if !seats[strconv.Itoa(s+1)] {
					t.Errorf("turns.csv has no row of seat %d (got %v)", s+1, seats)
				}
			}
			if len(seats) != n {
				t.Errorf("turns.csv has seats %v, want 1 to %d", seats, n)
			}
			if g.Units == (sim.UnitNaming{}) {
				return
			}
			meta := fmt.Sprintf(`"unit":{"noun":%q,"first":%d,"per_seat":%d}`, g.Units.Noun, g.Units.First, g.Units.PerSeat)
			if page := bodies[fmt.Sprintf("/matches/%s/turns/%d", id, turn)]; !strings.Contains(page, meta) {
				t.Errorf("the inspector's meta lacks %s", meta)
			}
			for _, md := range g.Metrics {
				if !md.PerUnit {
					continue
				}
				var series struct {
					Lines []struct {
						Seat, Unit int
						Name       string
					}
				}
				getJSON(t, f.e, "/api/v1/matches/"+id+"/series/"+md.Name, http.StatusOK, &series)
				for _, l := range series.Lines {
					if want := g.Units.Name(l.Seat, l.Unit); l.Unit != sim.NoUnit && !strings.HasSuffix(l.Name, " · "+want) {
						t.Errorf("%s line of seat %d unit %d is %q, want it to end in %q", md.Name, l.Seat, l.Unit, l.Name, want)
					}
				}
				break
			}
		})
	}
	if want := (sim.UnitNaming{Noun: "worm", First: 11, PerSeat: 10}); worms.Game.Units != want {
		t.Errorf("worms names its units %+v, want the engine's ids %+v", worms.Game.Units, want)
	}
}

// getBody answers a GET through the router, failing unless it is a 200.
func getBody(t *testing.T, f *fixture, url string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, url, nil)
	req.Host = testAddr
	rec := httptest.NewRecorder()
	f.e.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: status %d; body %.300s", url, rec.Code, rec.Body)
	}
	return rec.Body.String()
}
