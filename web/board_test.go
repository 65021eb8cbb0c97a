package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/foodfight"
	"github.com/replaylab/replaylab/store"
)

// seat is one seat of a league match: its bot and how it ended.
type seat struct {
	bot     string
	rank    int
	outcome sim.Outcome
}

// leagueMatch is a stored match of the league fixture. teams holds each
// seat's sim.PlayerResult.Team; nil is every seat alone.
type leagueMatch struct {
	game, ruleset string
	seats         []seat
	teams         []int
}

// league is Worms under both rulesets, where tactical wins under base and
// loses under final, and a 5-seat Snake match in which greedy sits in two
// seats, winning in one and coming fourth in the other.
var league = []leagueMatch{
	{"worms", "base", []seat{{"tactical", 1, sim.Win}, {"random", 2, sim.Loss}}, nil},
	{"worms", "final", []seat{{"tactical", 2, sim.Loss}, {"random", 1, sim.Win}}, nil},
	{"worms", "final", []seat{{"random", 1, sim.Win}, {"tactical", 2, sim.Loss}}, nil},
	{"snake", "codebattle2020", []seat{{"greedy", 4, sim.Loss}, {"random", 2, sim.Loss}, {"astar", 3, sim.Loss},
		{"greedy", 1, sim.Win}, {"random", 5, sim.Loss}}, nil},
}

// newLeague returns a server over the league's matches.
func newLeague(t *testing.T) *echo.Echo {
	t.Helper()
	return serveMatches(t, league)
}

// serveMatches returns a server over the given matches.
func serveMatches(t *testing.T, matches []leagueMatch) *echo.Echo {
	t.Helper()
	e, err := New(Config{DB: matchesDB(t, matches), Addr: testAddr})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// leagueDB returns a database of the league's matches.
func leagueDB(t *testing.T) *store.DB {
	t.Helper()
	return matchesDB(t, league)
}

// matchesDB returns a database of the given matches. The records are
// built directly: leaderboards, ratings and filters read no replay.
func matchesDB(t *testing.T, matches []leagueMatch) *store.DB {
	t.Helper()
	db := openDB(t)
	for i, m := range matches {
		sum := sha256.Sum256([]byte{byte(i)})
		rec := &store.Record{ID: hex.EncodeToString(sum[:]), Game: m.game, Ruleset: m.ruleset, Config: json.RawMessage(`{}`),
			Encoded: []byte("not decoded"), Turns: 3, EngineVersion: "test", Result: sim.Result{Winner: -1, Reason: "league"}}
		for i, s := range m.seats {
			rec.Players = append(rec.Players, store.Player{Name: s.bot, Version: "v1"})
			rec.Result.Players = append(rec.Result.Players, sim.PlayerResult{Rank: s.rank, Score: float64(10 - s.rank), Outcome: s.outcome})
			if m.teams != nil {
				rec.Result.Players[i].Team = m.teams[i]
			}
			if s.outcome == sim.Win {
				rec.Result.Winner = i
			}
		}
		if _, err := db.Ingest(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestBoardsPerRuleset(t *testing.T) {
	e := newLeague(t)
	// Added together, tactical's Worms record would be 1 win in 3 matches.
	base := `"ruleset":"base","name":"tactical","version":"v1","url":"/bots/worms/tactical","matches":1,"seats":1,"wins":1,"draws":0,"losses":0`
	final := `"ruleset":"final","name":"tactical","version":"v1","url":"/bots/worms/tactical","matches":2,"seats":2,"wins":0,"draws":0,"losses":2`
	mixed := `"name":"tactical","version":"v1","url":"/bots/worms/tactical","matches":3`
	for _, sc := range []scenario{
		{name: "api bots", url: "/api/v1/bots", status: 200, want: []string{base, final, `"ruleset":"codebattle2020"`}, notWant: []string{mixed}},
		{name: "api bots of a ruleset", url: "/api/v1/bots?game=worms&ruleset=final", status: 200, want: []string{final}, notWant: []string{base, `"snake"`}},
		{name: "api bots of a ruleset of another game", url: "/api/v1/bots?game=snake&ruleset=final", status: 200, want: []string{`{}`}},
		{name: "api bot", url: "/api/v1/bots/worms/tactical", status: 200, want: []string{`"versions":[{"game":"worms",` + base, final, `"matches":3`}},
		{name: "api bots as csv", url: "/api/v1/bots?game=worms&ruleset=final&format=csv", status: 200,
			want:    []string{"game,ruleset,rank,name,version,rating,", "\nworms,final,1,random,v1,,,,2,2,2,0,0,1,", "\nworms,final,2,tactical,v1,,,,2,2,0,0,2,0,0,"},
			notWant: []string{"worms,base"}},
		{name: "api bots in another format", url: "/api/v1/bots?format=xml", status: 400, want: []string{`format \"xml\"`}},
		{name: "bots page", url: "/bots", status: 200,
			want: []string{`id="worms-base"`, `id="worms-final"`, `id="snake-codebattle2020"`, `href="/matches?bot=tactical&amp;game=worms&amp;ruleset=final&amp;version=v1"`}},
		{name: "bot page", url: "/bots/worms/tactical", status: 200, want: []string{`id="worms-base"`, `id="worms-final"`}},
		{name: "overview", url: "/", status: 200, want: []string{`id="worms-base"`, `id="worms-final"`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}
}

func TestMatchesFilterOwnSeat(t *testing.T) {
	e := newLeague(t)
	for _, sc := range []scenario{
		// greedy won the Snake match in seat 3: it is not also a loss.
		{name: "a win in another seat is no loss", url: "/api/v1/matches?bot=greedy&result=loss", status: 200, want: []string{`"total":0`}},
		{name: "win", url: "/api/v1/matches?bot=greedy&result=win", status: 200, want: []string{`"total":1`}},
		{name: "best rank", url: "/api/v1/matches?bot=greedy&rank=1", status: 200, want: []string{`"total":1`}},
		{name: "a worse seat's rank", url: "/api/v1/matches?bot=greedy&rank=4", status: 200, want: []string{`"total":0`}},
		{name: "rank of a loss", url: "/api/v1/matches?game=snake&bot=astar&rank=3&result=loss", status: 200, want: []string{`"total":1`}},
		{name: "rank without bot", url: "/api/v1/matches?rank=1", status: 400, want: []string{"needs a bot"}},
		{name: "rank not a number", url: "/api/v1/matches?bot=greedy&rank=first", status: 400, want: []string{"rank"}},
		{name: "ruleset", url: "/api/v1/matches?game=worms&ruleset=final", status: 200, want: []string{`"total":2`}, notWant: []string{`"ruleset":"base"`}},
		{name: "ruleset and result", url: "/api/v1/matches?ruleset=base&bot=tactical&result=win", status: 200, want: []string{`"total":1`}},
		{name: "page keeps every filter", url: "/matches?game=worms&ruleset=final&bot=random&version=v1&result=win&rank=1&limit=1", status: 200,
			want: []string{`href="/matches?at=2&amp;before=`, `&amp;bot=random&amp;game=worms&amp;limit=1&amp;rank=1&amp;result=win&amp;ruleset=final&amp;version=v1"`,
				`<option value="final" selected>`, `name="rank" type="number" min="1" value="1"`, `name="version" value="v1"`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}
}

// TestIssueScenarios are the two cases of issue 22 through the real
// router: a Snake bot holding two or three of five seats that wins every
// match, and FoodFight TEAM matches of thrower and dummy against random
// bots, where team-mates must not meet.
func TestIssueScenarios(t *testing.T) {
	var ms []leagueMatch
	for i := range 3 {
		seats := []seat{{"hog", 1, sim.Win}, {"hog", 3, sim.Loss}, {"random", 2, sim.Loss}, {"greedy", 4, sim.Loss}, {"hog", 5, sim.Loss}}
		if i == 2 { // two seats only
			seats[4].bot = "random"
		}
		ms = append(ms, leagueMatch{"snake", "codebattle2020", seats, nil})
	}
	for range 2 {
		ms = append(ms, leagueMatch{"foodfight", "bitbrawl2018",
			[]seat{{"thrower", 1, sim.Win}, {"dummy", 1, sim.Win}, {"random", 2, sim.Loss}, {"greedy", 2, sim.Loss}}, []int{1, 1, 2, 2}})
	}
	e := serveMatches(t, ms)
	for _, sc := range []scenario{
		{name: "the hog won every match", url: "/api/v1/bots?game=snake", status: 200,
			want: []string{`"name":"hog","version":"v1","url":"/bots/snake/hog","matches":3,"seats":8,"wins":3,"draws":0,"losses":0,"win_rate":1`}},
		{name: "the page says it too", url: "/bots?game=snake", status: 200,
			want: []string{`>3</a> <span class="muted seats"`, `(8 seats)</span>`}},
		{name: "csv says the same", url: "/api/v1/bots?game=snake&format=csv", status: 200,
			want: []string{"\nsnake,codebattle2020,1,hog,v1,,,,3,8,3,0,0,1,"}},
		{name: "team-mates never meet", url: "/api/v1/headtohead?game=foodfight&ruleset=bitbrawl2018&format=csv", status: 200,
			want:    []string{"foodfight,bitbrawl2018,thrower,v1,random,v1,2,2,0,0,", "foodfight,bitbrawl2018,dummy,v1,greedy,v1,2,2,0,0,"},
			notWant: []string{"thrower,v1,dummy", "dummy,v1,thrower", "random,v1,greedy", "greedy,v1,random"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}
}

// TestMatchPageTeams shows a TEAM match's teams on its page and marks
// every seat of the winning team as a winner; a match without teams has
// no team column.
func TestMatchPageTeams(t *testing.T) {
	f := newFixture(t, nil)
	bots := []string{"thrower", "dummy", "random", "dummy"}
	var id string
	for seed := uint64(1); id == ""; seed++ {
		if seed > 20 {
			t.Fatal("no decided TEAM match in 20 seeds")
		}
		rec := build(t, f.db, recordBuiltin(t, foodfight.Game, "bitbrawl2018", `{"match_type":"TEAM"}`, seed, bots, nil))
		if rec.Result.Winner >= 0 {
			id = rec.ID
		}
	}
	status, body := serveGet(t, f.e, matchURL(id))
	page := string(body)
	if status != http.StatusOK {
		t.Fatalf("match page: got %d", status)
	}
	if got := strings.Count(page, `class="crown"`); got != 2 {
		t.Errorf("got %d seats marked winner, want the winning team's 2", got)
	}
	for _, want := range []string{"<th>Team</th>", `<td class="team" data-label="Team">Seats 1 and 2</td>`, `<td class="team" data-label="Team">Seats 3 and 4</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("match page lacks %s", want)
		}
	}
	var api struct {
		Players []struct {
			Seat int `json:"seat"`
			Team int `json:"team_seat_index"`
		} `json:"players"`
	}
	getJSON(t, f.e, "/api/v1"+matchURL(id), http.StatusOK, &api)
	for _, p := range api.Players {
		if want := p.Seat / 2 * 2; p.Team != want {
			t.Errorf("API: seat index %d has team_seat_index %d, want %d", p.Seat, p.Team, want)
		}
	}
	if _, body := serveGet(t, f.e, matchURL(f.won)); strings.Contains(string(body), "<th>Team</th>") {
		t.Error("a match without teams has a team column")
	}
}

// TestOverviewLeaders shows each ruleset's first leadersShown versions on
// the overview, then how many more the leaderboard has.
func TestOverviewLeaders(t *testing.T) {
	var seats []seat
	for i := range leadersShown + 2 {
		outcome := sim.Loss
		if i == 0 {
			outcome = sim.Win
		}
		seats = append(seats, seat{fmt.Sprintf("bot%d", i+1), i + 1, outcome})
	}
	e := serveMatches(t, []leagueMatch{{"snake", "codebattle2020", seats, nil}})
	body := getOK(t, e, "/").Body.String()
	// The leaders, not the recent matches below them.
	body, _, _ = strings.Cut(body, "Recent matches")
	for i := range seats {
		link := `href="/bots/snake/bot` + strconv.Itoa(i+1) + `"`
		if shown := strings.Contains(body, link); shown != (i < leadersShown) {
			t.Errorf("bot%d: shown %v, want %v", i+1, shown, i < leadersShown)
		}
	}
	if want := "2 more on the leaderboard"; !strings.Contains(body, want) {
		t.Errorf("the overview lacks %q", want)
	}
}

// TestMatchesFilterNames types a bot's name in another case: the list
// finds its matches and shows the name as stored; the form suggests the
// game's bot names, and each seat's score follows its result.
func TestMatchesFilterNames(t *testing.T) {
	e := serveMatches(t, []leagueMatch{{"snake", "codenjoy", []seat{{"GreedyBot", 1, sim.Win}, {"random", 2, sim.Loss}}, nil}})
	for _, sc := range []scenario{
		{name: "another case", url: "/matches?game=snake&bot=greedybot", status: 200,
			want: []string{`name="bot" value="GreedyBot"`, "Matches 1–1 of 1", `<datalist id="bot-names"><option value="GreedyBot"></option><option value="random"></option></datalist>`,
				`<span class="score" title="score">`}},
		{name: "api", url: "/api/v1/matches?game=snake&bot=GREEDYBOT", status: 200, want: []string{`"total":1`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
	}
}
