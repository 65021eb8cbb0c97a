package web

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/analytics"
)

// TestDeleteMatch deletes matches over HTTP: refused without the token,
// from another site or for a foreign Host, 404 for an unknown id; once
// deleted, the match is gone from every page the server had kept (its
// summary, its inspector cursor, the leaderboards) and its ruleset is
// refitted.
func TestDeleteMatch(t *testing.T) {
	const token = "s3cret-token"
	var refit *analytics.Refitter
	f := newFixture(t, func(c *Config) {
		c.UploadToken = token
		refit = analytics.NewRefitter(c.DB, slog.New(slog.DiscardHandler))
		c.Refitter = refit
	})
	ctx := context.Background()
	if err := refit.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	bearer := map[string]string{"Authorization": "Bearer " + token}
	with := func(h map[string]string) map[string]string {
		out := map[string]string{"Authorization": "Bearer " + token}
		for k, v := range h {
			out[k] = v
		}
		return out
	}
	lost := "/api/v1/matches/" + f.lost
	// What the server keeps of the match before it goes: its summary under
	// a short id, its inspector cursor and the leaderboard naming its bot.
	for _, sc := range []scenario{
		{name: "summary", url: "/api/v1/matches/" + shortID(f.lost), status: 200},
		{name: "turn", url: lost + "/turns/3", status: 200},
		{name: "leaderboard", url: "/api/v1/bots", status: 200, want: []string{`"name":"random"`}},
	} {
		t.Run("before/"+sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
	for _, sc := range []scenario{
		{name: "cross-site", method: http.MethodDelete, url: lost, header: with(map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}),
			status: 403, want: []string{"cross-site request refused"}},
		{name: "foreign origin", method: http.MethodDelete, url: lost, header: with(map[string]string{"Origin": "http://evil.example"}), status: 403},
		{name: "foreign host", method: http.MethodDelete, url: lost, header: with(map[string]string{"Host": "evil.example:8080"}), status: 421},
		{name: "no token", method: http.MethodDelete, url: lost, status: 401, want: []string{"deleting a match needs the server's upload token"},
			wantHeaders: map[string]string{"WWW-Authenticate": "Bearer"}},
		{name: "wrong token", method: http.MethodDelete, url: lost, header: map[string]string{"Authorization": "Bearer guess"}, status: 401, want: []string{"wrong upload token"}},
		{name: "unknown", method: http.MethodDelete, url: "/api/v1/matches/" + strings.Repeat("0", 64), header: bearer, status: 404, want: []string{"not found"}},
		{name: "not an id", method: http.MethodDelete, url: "/api/v1/matches/nonsense", header: bearer, status: 400},
		{name: "still there", url: lost, status: 200},
		{name: "deleted", method: http.MethodDelete, url: "/api/v1/matches/" + shortID(f.lost), header: with(map[string]string{"Origin": "http://" + testAddr}),
			status: 200, want: []string{`"id":"` + f.lost + `"`, `"game":"toad"`, `"deleted":true`}},
		{name: "again", method: http.MethodDelete, url: lost, header: bearer, status: 404},
		{name: "summary gone", url: "/api/v1/matches/" + shortID(f.lost), status: 404},
		{name: "turn gone", url: lost + "/turns/3", status: 404},
		{name: "page gone", url: "/matches/" + shortID(f.lost), status: 404},
		{name: "leaderboard without it", url: "/api/v1/bots", status: 200, want: []string{`"name":"astar"`}, notWant: []string{`"name":"random"`}},
		{name: "replay gone", url: lost + "/replay.rpl", status: 404},
		{name: "others stay", url: "/api/v1/matches/" + f.won, status: 200},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
	if err := refit.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	boards, err := f.db.Ratings(ctx, "toad", "")
	if err != nil || len(boards) != 1 || boards[0].Matches != 2 {
		t.Errorf("rating fits after the delete: got %+v, %v; want one over the 2 matches left", boards, err)
	}
}

// TestDeleteByAnotherProcess deletes a match the server has kept the
// summary of, as 'replaylab delete' on the same file would: the server
// answers 404 for it at once.
func TestDeleteByAnotherProcess(t *testing.T) {
	f := newFixture(t, nil)
	url := "/api/v1/matches/" + shortID(f.won)
	(scenario{name: "kept", url: url, status: 200}).run(t, f.e)
	(scenario{name: "inspector kept", url: url + "/turns/2", status: 200}).run(t, f.e)
	if _, err := f.db.DeleteMatches(context.Background(), []string{f.won}); err != nil {
		t.Fatal(err)
	}
	(scenario{name: "gone", url: url, status: 404}).run(t, f.e)
	(scenario{name: "inspector gone", url: url + "/turns/2", status: 404}).run(t, f.e)
}

// TestUploadOutputOfStoredMatch uploads a stored match's replay with its
// bot output, through the API and the form: the first attaches it, the
// next say it was not changed, and the inspector shows it.
func TestUploadOutputOfStoredMatch(t *testing.T) {
	f := newFixture(t, nil)
	replayOf := func(id string) []byte {
		b, err := f.db.Replay(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	output := []byte(`{"turn":2,"seat":0,"stream":"stderr","text":"thinking hard"}` + "\n")
	other := []byte(`{"turn":1,"seat":0,"stream":"stdout","text":"other run"}` + "\n")
	late := []byte(`{"turn":9999,"seat":0,"stream":"stdout","text":"late"}` + "\n")
	form := func(id string, out []byte) ([]byte, map[string]string) {
		fields := []field{{"replay", replayOf(id)}}
		if out != nil {
			fields = append(fields, field{"output", out})
		}
		body, typ := multipartBody(t, fields...)
		return body, map[string]string{"Content-Type": typ}
	}
	post := func(name, url, id string, out []byte, status int, want ...string) scenario {
		body, header := form(id, out)
		return scenario{name: name, method: http.MethodPost, url: url, body: body, header: header, status: status, want: want}
	}
	withLocation := func(sc scenario, location string) scenario {
		sc.wantHeaders = map[string]string{"Location": location}
		return sc
	}
	for _, sc := range []scenario{
		post("without output", "/api/v1/replays", f.won, nil, 200, `"duplicate":true`, `"output":"none"`),
		post("output past the end", "/api/v1/replays", f.won, late, 400, "turn 9999"),
		post("attached", "/api/v1/replays", f.won, output, 200, `"duplicate":true`, `"output":"attached"`),
		{name: "inspector shows it", url: "/api/v1/matches/" + f.won + "/turns/2", status: 200, want: []string{"thinking hard"}},
		post("again", "/api/v1/replays", f.won, output, 200, `"output":"unchanged"`),
		post("another file", "/api/v1/replays", f.won, other, 200, `"output":"unchanged"`),
		{name: "inspector keeps the first", url: "/api/v1/matches/" + f.won + "/turns/1", status: 200, notWant: []string{"other run"}},
		withLocation(post("form attaches", "/upload", f.lost, output, 303), "/duplicate?output=attached"),
		{name: "its page", url: matchURL(f.lost) + "/duplicate?output=attached", status: 200, want: []string{"<h1>Already stored</h1>", "now attached"}},
		withLocation(post("form again", "/upload", f.lost, output, 303), "/duplicate?output=unchanged"),
		{name: "its page again", url: matchURL(f.lost) + "/duplicate?output=unchanged", status: 200, want: []string{"bot output already, which was not changed"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
	enc, _ := f.encodeFresh(t)
	body, typ := multipartBody(t, field{"replay", enc.Bytes}, field{"output", output})
	(scenario{name: "new match with output", method: http.MethodPost, url: "/api/v1/replays", body: body,
		header: map[string]string{"Content-Type": typ}, status: 201, want: []string{`"duplicate":false`, `"output":"attached"`}}).run(t, f.e)
	if got, err := f.db.BotOutputAt(context.Background(), enc.ID, 2); len(got) != 1 || err != nil {
		t.Errorf("output of the new match at turn 2: got %+v, %v; want the uploaded piece", got, err)
	}
}
