package web

import (
	"context"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// troubledAgent plays its built-in bot, but answers text River Toad
// rejects on turn 2, too late on turn 3 and dies at turn 5, silent from
// then on: as the recorder notes an external bot that does so.
type troubledAgent struct {
	replay.Agent
	dead bool
}

func (a *troubledAgent) Act(ctx context.Context, turn int, view any) replay.Answer {
	switch {
	case a.dead:
		return replay.Answer{}
	case turn == 2:
		return replay.Answer{Command: "!?"}
	case turn == 3:
		return replay.Answer{Note: sim.EventTimeout}
	case turn == 5:
		a.dead = true
		return replay.Answer{Note: sim.EventCrash}
	}
	return a.Agent.Act(ctx, turn, view)
}

// TestTrouble: a match in which the bot crashed says so in a banner whose
// facts link to their turns, the match lists select it by its trouble,
// the API gives its trouble per seat and the bot page and API its rates.
func TestTrouble(t *testing.T) {
	f := newFixture(t, nil)
	l := recordToadWith(t, 5, "astar", "troubled", `{"turns":30}`, func(a replay.Agent) replay.Agent { return &troubledAgent{Agent: a} })
	id := shortID(ingest(t, f.db, l))
	won := shortID(f.won)
	for _, sc := range []scenario{
		{name: "banner", url: "/matches/" + id, status: 200, want: []string{
			"What went wrong", "Seat 1 · troubled v1: ",
			`<a href="/matches/` + id + `/turns/5">crashed at turn 5</a>`,
			`<a href="/matches/` + id + `/turns/3">1 time-out at turn 3</a>`,
			`<a href="/matches/` + id + `/turns/2">1 invalid command at turn 2</a>`}},
		{name: "no banner without trouble", url: "/matches/" + won, status: 200, notWant: []string{"What went wrong"}},
		{name: "list marks it", url: "/matches", status: 200, want: []string{"⚠ trouble", `title="Seat 1: crashed at turn 5, 1 time-out at turn 3`}},
		{name: "list of crashes", url: "/matches?trouble=crash", status: 200,
			want: []string{"Matches 1–1 of 1", id, `<option value="crash" selected>`}, notWant: []string{won}},
		{name: "list of any trouble of a bot", url: "/matches?trouble=any&bot=troubled", status: 200, want: []string{"Matches 1–1 of 1", id}},
		{name: "list of another bot's trouble", url: "/matches?trouble=any&bot=astar", status: 200, want: []string{"No matches yet."}, notWant: []string{id}},
		{name: "list of oversize", url: "/matches?trouble=oversize", status: 200, notWant: []string{id}},
		{name: "list of bad trouble", url: "/matches?trouble=fire", status: 400,
			want: []string{`trouble &#34;fire&#34;: want one of any, crash, timeout, invalid, oversize`, `<form class="filters"`}},
		{name: "api match", url: "/api/v1/matches/" + id, status: 200, want: []string{
			`"trouble":[{"seat_index":0,"crash_turn":5,"timeouts":1,"first_timeout_turn":3,"invalid_commands":1,"first_invalid_turn":2,"oversize_answers":0,"first_oversize_turn":0}]`}},
		{name: "api match without trouble", url: "/api/v1/matches/" + won, status: 200, want: []string{`"trouble":[]`}},
		{name: "api list of timeouts", url: "/api/v1/matches?trouble=timeout", status: 200, want: []string{`"total":1`, id}},
		{name: "api list of bad trouble", url: "/api/v1/matches?trouble=fire", status: 400, want: []string{"want one of"}},
		{name: "bot page rates", url: "/bots/toad/troubled", status: 200, want: []string{
			"Failures", `<td class="num">100% <a class="muted" href="/matches?bot=troubled&amp;game=toad&amp;ruleset=classic&amp;trouble=crash&amp;version=v1">(1)</a>`,
			`trouble=timeout&amp;version=v1">(1)</a></td>`, `trouble=invalid&amp;version=v1">(1)</a></td>`}},
		{name: "bot page without trouble", url: "/bots/toad/astar", status: 200, want: []string{"0% <a"}},
		{name: "api bot rates", url: "/api/v1/bots/toad/troubled", status: 200, want: []string{
			`"crashed_seats":1,"timed_out_seats":1,"invalid_seats":1,"crash_rate":1,"timeout_rate":1,"invalid_rate":1,"timeouts":1,"invalid_commands":1`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
	// The pager's links keep the filter.
	if got := matchesURL(store.MatchFilter{Trouble: store.TroubleCrash}, 25); got != "/matches?offset=25&trouble=crash" {
		t.Errorf("matchesURL: got %q, want the trouble kept", got)
	}
}
