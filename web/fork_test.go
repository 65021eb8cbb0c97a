package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/toad"
)

// recordBuiltinToad plays a River Toad match of 30 turns as 'replaylab
// record' writes one with a built-in bot, so the server can play it on.
func recordBuiltinToad(t testing.TB, seed uint64, bot string) *replay.Log {
	t.Helper()
	l := recordToad(t, seed, bot, bot, `{"turns":30}`)
	l.Header.Players[0].Version = replay.BuiltinVersion
	return l
}

// forkBody is a fork request for the API.
func forkBody(turn int, extra string) []byte {
	return fmt.Appendf(nil, `{"turn": %d%s}`, turn, extra)
}

// postFork asks the server to fork match id and decodes its answer.
func postFork(t *testing.T, f *fixture, id string, body []byte, header map[string]string) (int, forkAnswer) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/api/v1/matches/"+id+"/forks", strings.NewReader(string(body)))
	req.Host = testAddr
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	f.e.ServeHTTP(rec, req)
	var a forkAnswer
	if rec.Code < 300 {
		if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
			t.Fatalf("answer %s: %v", rec.Body, err)
		}
	}
	return rec.Code, a
}

// TestForkEndpoint forks a stored match of a built-in bot on the server:
// the fork is stored, names its parent and verifies on its own, and the
// same fork again is the stored one.
func TestForkEndpoint(t *testing.T) {
	f := newFixture(t, nil)
	parent := ingest(t, f.db, recordBuiltinToad(t, 7, "astar"))
	code, a := postFork(t, f, shortID(parent), forkBody(12, `, "bots": [{"seat_index": 0, "bot": "random"}]`), nil)
	if code != http.StatusCreated || a.Duplicate {
		t.Fatalf("fork: got %d %+v, want 201 and a new match", code, a)
	}
	if a.Parent.Match != parent || a.Parent.Turn != 12 || len(a.Agreements) != 1 {
		t.Errorf("answer: got parent %+v, %d agreements; want %s at turn 12 and one seat", a.Parent, len(a.Agreements), parent)
	}
	data, err := f.db.Replay(context.Background(), a.ID)
	if err != nil {
		t.Fatalf("the fork is not stored: %v", err)
	}
	l, err := replay.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Run(context.Background(), l, nil); err != nil {
		t.Errorf("the stored fork does not verify: %v", err)
	}
	if p := l.Header.Parent; p == nil || p.Match != parent || p.Turn != 12 {
		t.Errorf("fork header parent: got %+v, want %s at turn 12", p, parent)
	}
	if got := l.Header.Players[0]; got.Name != "random" || got.Version != replay.BuiltinVersion {
		t.Errorf("fork's seat: got %+v, want the built-in random", got)
	}
	if code, again := postFork(t, f, parent, forkBody(12, `, "bots": [{"seat_index": 0, "bot": "random"}]`), nil); code != http.StatusOK || !again.Duplicate || again.ID != a.ID {
		t.Errorf("same fork again: got %d %+v, want 200, the stored fork %s", code, again, a.ID)
	}
	code, forced := postFork(t, f, parent, forkBody(3, `, "commands": [{"seat_index": 0, "command": "X"}]`), nil)
	if code != http.StatusCreated || forced.ID == a.ID {
		t.Errorf("fork with a forced command: got %d %+v, want a new match", code, forced)
	}
}

// TestForkRefused checks what the fork endpoint refuses, and that it
// stores nothing then.
func TestForkRefused(t *testing.T) {
	held := make(slots, 1)
	f := newFixture(t, func(c *Config) { c.regenerations = held })
	parent := ingest(t, f.db, recordBuiltinToad(t, 7, "astar"))
	url := "/api/v1/matches/" + parent + "/forks"
	post := func(name string, body []byte, header map[string]string, status int, want ...string) scenario {
		if header == nil {
			header = map[string]string{}
		}
		header["Content-Type"] = "application/json"
		return scenario{name: name, method: http.MethodPost, url: url, body: body, header: header, status: status, want: want}
	}
	tests := []scenario{
		post("turn past the end", forkBody(30, ""), nil, 400, "turn 30", "from 1 to 29"),
		post("turn 0", forkBody(0, ""), nil, 400, "from 1 to 29"),
		post("seat the match lacks", forkBody(5, `, "bots": [{"seat_index": 1, "bot": "random"}]`), nil, 400, "seat_index 1", "Seat 1"),
		post("bot of another game", forkBody(5, `, "bots": [{"seat_index": 0, "bot": "greedy-snake"}]`), nil, 400, `no built-in bot \"greedy-snake\"`),
		post("forced command for a seat the match lacks", forkBody(5, `, "commands": [{"seat_index": 2, "command": "X"}]`), nil, 400, "seat_index 2"),
		post("unknown field", forkBody(5, `, "seat": 1`), nil, 400, "unknown field"),
		post("no body", nil, nil, 400, "want a JSON body"),
		{name: "external seats", method: http.MethodPost, url: "/api/v1/matches/" + f.won + "/forks", body: forkBody(5, ""),
			header: map[string]string{"Content-Type": "application/json"}, status: 400,
			want: []string{"not a built-in bot", "Seat 1 (astar v1)", "replaylab fork " + shortID(f.won) + ".rpl --at 5 --bot 1="}},
		post("cross-site", forkBody(5, ""), map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, 403),
		post("foreign host", forkBody(5, ""), map[string]string{"Host": "evil.example:8080"}, 421),
		{name: "unknown match", method: http.MethodPost, url: "/api/v1/matches/" + strings.Repeat("0", 12) + "/forks", body: forkBody(5, ""), status: 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, f.e) })
	}
	release, err := held.take()
	if err != nil {
		t.Fatal(err)
	}
	post("slots busy", forkBody(5, ""), nil, 503, "--max-regenerations").run(t, f.e)
	release()
	lin, err := f.db.Lineage(context.Background(), parent)
	if err != nil || len(lin.Forks) != 0 {
		t.Errorf("after refused forks: got %d forks stored, %v; want none", len(lin.Forks), err)
	}
}

// TestForkToken asks for the upload token when the server has one: in
// the Authorization header or the body's token field.
func TestForkToken(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.UploadToken = "s3cret" })
	parent := ingest(t, f.db, recordBuiltinToad(t, 7, "astar"))
	tests := []struct {
		name   string
		body   []byte
		header map[string]string
		status int
	}{
		{"no token", forkBody(5, ""), nil, 401},
		{"wrong token", forkBody(5, `, "token": "guess"`), nil, 401},
		{"wrong header", forkBody(5, `, "token": "s3cret"`), map[string]string{"Authorization": "Bearer guess"}, 401},
		{"token field", forkBody(5, `, "token": "s3cret"`), nil, 201},
		{"header", forkBody(6, ""), map[string]string{"Authorization": "Bearer s3cret"}, 201},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, a := postFork(t, f, parent, tt.body, tt.header); code != tt.status {
				t.Errorf("got %d %+v, want %d", code, a, tt.status)
			}
		})
	}
}

// TestLineagePages shows a match's forks on its page and in the API, and
// a fork's parent, also when the parent is not stored.
func TestLineagePages(t *testing.T) {
	f := newFixture(t, nil)
	parent := ingest(t, f.db, recordBuiltinToad(t, 7, "astar"))
	_, fork := postFork(t, f, parent, forkBody(12, `, "bots": [{"seat_index": 0, "bot": "random"}]`), nil)
	if fork.ID == "" {
		t.Fatal("the fork was not stored")
	}
	// A fork uploaded without its parent.
	unstored := recordBuiltinToad(t, 8, "astar")
	unstoredID, err := unstored.ID()
	if err != nil {
		t.Fatal(err)
	}
	h, err := replay.Fork(unstored, 4)
	if err != nil {
		t.Fatal(err)
	}
	agent, err := replay.NewBuiltin(toad.Game, "astar", h.Setup(), 0)
	if err != nil {
		t.Fatal(err)
	}
	rec := replay.Recorder{Header: h, Agents: []replay.Agent{agent}, From: unstored, At: 4}
	orphanLog, err := rec.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	orphan := ingest(t, f.db, orphanLog)

	tests := []scenario{
		{name: "parent page lists its fork", url: "/matches/" + shortID(parent), status: 200,
			want: []string{"Branches", `href="/matches/` + shortID(fork.ID) + `"`, "forked at turn 12, caught by a snake on turn 16 · "}},
		{name: "fork page names its parent", url: "/matches/" + shortID(fork.ID), status: 200,
			want: []string{"Forked from", `href="/matches/` + shortID(parent) + `"`, "at turn 12", `href="/matches/` + shortID(parent) + `/turns/12"`}},
		{name: "unstored parent", url: "/matches/" + shortID(orphan), status: 200,
			want: []string{"Forked from", shortID(unstoredID) + `</span> (not stored here) at turn 4`}, notWant: []string{`href="/matches/` + shortID(unstoredID)}},
		{name: "match without branches", url: "/matches/" + shortID(f.won), status: 200, notWant: []string{"Branches"}},
		{name: "api forks", url: "/api/v1/matches/" + parent, status: 200,
			want: []string{`"parent":null`, `"forks":[{"turn":12,"match":{"id":"` + fork.ID + `"`}},
		{name: "api parent", url: "/api/v1/matches/" + fork.ID, status: 200,
			want: []string{`"parent":{"match":"` + parent + `","turn":12,"url":"/matches/` + shortID(parent) + `"}`, `"forks":[]`}},
		{name: "api unstored parent", url: "/api/v1/matches/" + orphan, status: 200,
			want: []string{`"parent":{"match":"` + unstoredID + `","turn":4}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, f.e) })
	}
}

// TestInspectorForkForm shows the fork form for a match of built-in bots
// and the command line for one with external bots.
func TestInspectorForkForm(t *testing.T) {
	f := newFixture(t, nil)
	parent := ingest(t, f.db, recordBuiltinToad(t, 7, "astar"))
	tests := []scenario{
		{name: "built-in bots", url: "/matches/" + shortID(parent) + "/turns/9", status: 200,
			want: []string{`id="fork-form"`, `data-api="/api/v1/matches/` + parent + `/forks"`, `<option value="random">`, "Fork here"}, notWant: []string{"fork-command"}},
		{name: "external bots", url: "/matches/" + shortID(f.won) + "/turns/9", status: 200,
			want: []string{`id="fork-command"`, "replaylab fork " + shortID(f.won) + ".rpl --at 9 --bot 1=&#34;COMMAND OF ASTAR&#34; -o fork.rpl"}, notWant: []string{"fork-form"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, f.e) })
	}
}

// TestForkTimeLimit: a fork still playing at the time limit is stopped,
// answered 503 with the turn it reached, stores nothing and frees its
// slot. The hook waits at turn 12, the last as recorded, until the limit
// has passed, so the fork stops there or before, however fast the machine.
func TestForkTimeLimit(t *testing.T) {
	held := make(slots, 1)
	var last int // the last turn the hook saw
	f := newFixture(t, func(c *Config) {
		c.regenerations, c.ForkTimeLimit = held, time.Millisecond
		c.onForkTurn = func(ctx context.Context, turn int) {
			last = turn
			if turn == 12 {
				<-ctx.Done()
			}
		}
	})
	parent := ingest(t, f.db, recordBuiltinToad(t, 7, "astar"))
	req := httptest.NewRequest(http.MethodPost, "/api/v1/matches/"+parent+"/forks", strings.NewReader(string(forkBody(12, `, "bots": [{"seat_index": 0, "bot": "random"}]`))))
	req.Host = testAddr
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	f.e.ServeHTTP(rec, req)
	var body errorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("answer %s: %v", rec.Body, err)
	}
	if rec.Code != http.StatusServiceUnavailable || body.Turn != last || last > 12 ||
		!strings.Contains(body.Error, "--fork-time-limit of 1ms") || !strings.Contains(body.Error, "nothing was stored") {
		t.Errorf("got %d %+v (the hook saw turn %d); want 503 naming that turn, at most 12, and the limit", rec.Code, body, last)
	}
	if ra := rec.Header().Get("Retry-After"); ra != "" {
		t.Errorf("Retry-After %q: the same fork takes as long again", ra)
	}
	if len(held) != 0 {
		t.Errorf("%d regeneration slots still held", len(held))
	}
	lin, err := f.db.Lineage(context.Background(), parent)
	if err != nil || len(lin.Forks) != 0 {
		t.Errorf("got %d forks stored, %v; want none", len(lin.Forks), err)
	}
	if strings.Contains(f.log.String(), "request failed") {
		t.Errorf("a fork stopped by the limit was logged as a failure:\n%s", f.log)
	}
}

// TestForkTimeLimitBeforePlay: a limit that passes while the parent is
// still being read or decoded is the same 503 (no turn played), not a
// server failure.
func TestForkTimeLimitBeforePlay(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.ForkTimeLimit = time.Nanosecond })
	parent := ingest(t, f.db, recordBuiltinToad(t, 7, "astar"))
	req := httptest.NewRequest(http.MethodPost, "/api/v1/matches/"+parent+"/forks", strings.NewReader(string(forkBody(12, ""))))
	req.Host = testAddr
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	f.e.ServeHTTP(rec, req)
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "--fork-time-limit of 1ns") {
		t.Errorf("got %d %s; want 503 naming the limit", rec.Code, rec.Body)
	}
	if strings.Contains(f.log.String(), "request failed") {
		t.Errorf("a fork stopped by the limit was logged as a failure:\n%s", f.log)
	}
}
