package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim/foodfight"
)

func TestPlaceText(t *testing.T) {
	for _, tt := range []struct {
		rank int
		want string
	}{
		{0, "–"}, {-1, "–"}, {1, "1st"}, {2, "2nd"}, {3, "3rd"}, {4, "4th"}, {10, "10th"},
		{11, "11th"}, {12, "12th"}, {13, "13th"}, {21, "21st"}, {22, "22nd"}, {101, "101st"}, {111, "111th"}, {112, "112th"},
	} {
		if got := placeText(tt.rank); got != tt.want {
			t.Errorf("placeText(%d): got %q, want %q", tt.rank, got, tt.want)
		}
	}
}

// TestMatchTablePlaces lists a match of three seats or more with each
// seat's place, and a two-seat one with win and loss, and marks the seats
// of the bot the list is about.
func TestMatchTablePlaces(t *testing.T) {
	f := newFixture(t, nil)
	three := build(t, f.db, recordBuiltin(t, foodfight.Game, "", `{"match_type":"FREE_FOR_ALL"}`, 3, []string{"thrower", "hider", "walls"}, nil))
	two := build(t, f.db, recordBuiltin(t, foodfight.Game, "", `{"match_type":"DUEL"}`, 3, []string{"thrower", "hider"}, nil))
	var want []string
	for seat, r := range three.Result.Players {
		want = append(want, fmt.Sprintf(`title="%s: %s, %s place, score %s">%s <span class="score"`, three.Players[seat].Name, r.Outcome, placeText(r.Rank), formatNumber(r.Score), placeText(r.Rank)))
	}
	for seat, r := range two.Result.Players {
		want = append(want, fmt.Sprintf(`title="%s: %s, %s place, score %s">%s <span class="score"`, two.Players[seat].Name, r.Outcome, placeText(r.Rank), formatNumber(r.Score), r.Outcome))
	}
	scenario{name: "foodfight matches", url: "/matches?game=foodfight", status: 200, want: want, notWant: []string{"focus"}}.run(t, f.e)
	// The list of one bot's matches marks its seats: two matches, one
	// seat each.
	scenario{name: "a bot's matches", url: "/matches?game=foodfight&bot=hider", status: 200,
		want: []string{`class="name focus" href="/bots/foodfight/hider"`, fmt.Sprintf(`class="outcome %s focus" title="hider:`, three.Result.Players[1].Outcome)}}.run(t, f.e)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/matches?game=foodfight&bot=hider", nil)
	req.Host = testAddr
	f.e.ServeHTTP(rec, req)
	if got := strings.Count(rec.Body.String(), `class="name focus"`); got != 2 {
		t.Errorf("marked names: got %d, want 2 (hider's seat in each match)", got)
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 200000: "200,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}
