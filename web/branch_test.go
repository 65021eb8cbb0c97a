package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/toad"
)

// forkToad forks a River Toad match of the built-in astar at turn at, as
// the server's fork does: astar plays on, with command forced at turn
// at+1 unless it is empty.
func forkToad(t testing.TB, parent *replay.Log, at int, command string) *replay.Log {
	t.Helper()
	h, err := replay.Fork(parent, at)
	if err != nil {
		t.Fatal(err)
	}
	agent, err := replay.NewBuiltin(toad.Game, "astar", h.Setup(), 0)
	if err != nil {
		t.Fatal(err)
	}
	rec := replay.Recorder{Header: h, Agents: []replay.Agent{agent}, HashEvery: forkHashEvery, From: parent, At: at}
	if command != "" {
		rec.Force = map[int]string{0: command}
	}
	l, err := rec.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// otherToadCommand is a move of River Toad other than cmd.
func otherToadCommand(cmd string) string {
	if cmd == "D" {
		return "S"
	}
	return "D"
}

// getBranch asks for the branch view's JSON.
func getBranch(t *testing.T, f *fixture, id string) (int, branchJSON, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/api/v1/matches/"+id+"/branch", nil)
	req.Host = testAddr
	rec := httptest.NewRecorder()
	f.e.ServeHTTP(rec, req)
	var b branchJSON
	if rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
			t.Fatalf("answer %s: %v", rec.Body, err)
		}
	}
	return rec.Code, b, rec.Body.String()
}

// TestBranchView sets a fork with a forced command beside its parent:
// the page and its JSON twin name the fork turn, the first turn that
// differs with the seat's recorded and forced commands, both outcomes,
// and draw every metric for both.
func TestBranchView(t *testing.T) {
	f := newFixture(t, nil)
	parentLog := recordBuiltinToad(t, 7, "astar")
	parent := ingest(t, f.db, parentLog)
	recorded := parentLog.Turns[12][0] // turn 13's
	forced := otherToadCommand(recorded)
	fork := ingest(t, f.db, forkToad(t, parentLog, 12, forced))

	code, b, body := getBranch(t, f, shortID(fork))
	if code != http.StatusOK {
		t.Fatalf("branch API: got %d %s, want 200", code, body)
	}
	if b.Turn != 12 || b.Parent.ID != parent || b.Fork.ID != fork {
		t.Errorf("branch: got turn %d, parent %s, fork %s; want 12, %s, %s", b.Turn, b.Parent.ID, b.Fork.ID, parent, fork)
	}
	d := b.FirstDifference
	if d == nil || d.Turn == nil || *d.Turn != 13 {
		t.Fatalf("first difference: got %+v, want turn 13", d)
	}
	if want := []commandDiff{{Seat: 0, A: recorded, B: forced}}; !slices.Equal(d.Commands, want) {
		t.Errorf("first difference's commands: got %+v, want %+v", d.Commands, want)
	}
	if d.AURL != turnURL(parent, 13) || d.BURL != turnURL(fork, 13) {
		t.Errorf("first difference's links: got %s and %s, want turn 13 of the parent and the fork", d.AURL, d.BURL)
	}
	if len(b.Seats) != 1 || b.Seats[0].Parent.Name != "astar" || b.Seats[0].Changed == nil {
		t.Errorf("seats: got %+v, want Seat 1 of both", b.Seats)
	}

	tests := []scenario{
		{name: "page", url: "/matches/" + shortID(fork) + "/branch", status: 200, want: []string{
			`<a class="id" href="/matches/` + shortID(parent) + `">`,
			`They first differ at turn <strong>13</strong>`,
			`Seat 1: recorded <code>` + recorded + `</code>, now <code>` + forced + `</code>`,
			`data-action="difference"`, `id="parent-board"`, `id="fork-board"`,
			`id="branch-slider" min="0"`, `value="12"`,
			`id="branch-hp"`, `parent · Seat 1 · astar`, `fork · Seat 1 · astar`, `fork turn 12`,
			`/static/js/render/toad.js`, `/static/js/branch.js`,
			`"first_difference":13`,
		}},
		{name: "fork page links to it", url: "/matches/" + shortID(fork), status: 200,
			want: []string{`href="/matches/` + shortID(fork) + `/branch"`}},
		{name: "parent page links to it", url: "/matches/" + shortID(parent), status: 200,
			want: []string{`href="/matches/` + shortID(fork) + `/branch"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, f.e) })
	}
}

// TestBranchViewSame sets beside its parent a fork whose forced command
// is the recorded one: no turn differs, and the page says so.
func TestBranchViewSame(t *testing.T) {
	f := newFixture(t, nil)
	parentLog := recordBuiltinToad(t, 7, "astar")
	ingest(t, f.db, parentLog)
	fork := ingest(t, f.db, forkToad(t, parentLog, 12, parentLog.Turns[12][0]))
	code, b, body := getBranch(t, f, fork)
	if code != http.StatusOK {
		t.Fatalf("branch API: got %d %s, want 200", code, body)
	}
	if d := b.FirstDifference; d == nil || d.Turn != nil || len(d.Commands) != 0 || d.Note == "" {
		t.Errorf("first difference: got %+v, want none, with a note", d)
	}
	for _, s := range b.Seats {
		if len(s.Changed) != 0 {
			t.Errorf("%d: got changes %v, want none", s.SeatIndex, s.Changed)
		}
	}
	scenario{name: "page", url: "/matches/" + fork + "/branch", status: 200,
		want: []string{"No turn differs: both matches played the same commands every turn"}, notWant: []string{`data-action="difference"`}}.run(t, f.e)
}

// TestBranchViewRefused answers 404, saying why, for a match that is not
// a fork, a fork uploaded without its parent, a fork whose parent was
// deleted, and an unknown match.
func TestBranchViewRefused(t *testing.T) {
	f := newFixture(t, nil)
	unstored := recordBuiltinToad(t, 8, "astar")
	orphan := ingest(t, f.db, forkToad(t, unstored, 4, ""))
	deletedLog := recordBuiltinToad(t, 9, "astar")
	deleted := ingest(t, f.db, deletedLog)
	bereft := ingest(t, f.db, forkToad(t, deletedLog, 5, ""))
	if _, err := f.db.DeleteMatches(context.Background(), []string{deleted}); err != nil {
		t.Fatal(err)
	}
	unknown := strings.Repeat("0", 16)
	var tests []scenario
	for _, prefix := range []string{"/matches/", "/api/v1/matches/"} {
		tests = append(tests,
			scenario{name: prefix + " not a fork", url: prefix + shortID(f.won) + "/branch", status: 404,
				want: []string{"match " + shortID(f.won) + " is not a fork"}},
			scenario{name: prefix + " parent not uploaded", url: prefix + shortID(orphan) + "/branch", status: 404,
				want: []string{"which is not stored here"}},
			scenario{name: prefix + " parent deleted", url: prefix + shortID(bereft) + "/branch", status: 404,
				want: []string{"a fork of match " + shortID(deleted) + " at turn 5, which is not stored here"}},
			scenario{name: prefix + " unknown", url: prefix + unknown + "/branch", status: 404})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, f.e) })
	}
}
