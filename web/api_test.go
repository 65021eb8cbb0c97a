package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/sim/careerfair"
	"github.com/replaylab/replaylab/store"
)

// scenario is one request through the real router, middleware and error
// handler, and what its answer must hold.
type scenario struct {
	name        string
	method      string // GET when empty
	url         string
	body        []byte
	header      map[string]string
	status      int
	want        []string          // substrings of the body
	notWant     []string          // substrings the body must not have
	wantHeaders map[string]string // header name → substring of its value
}

func (sc scenario) run(t *testing.T, e *echo.Echo) {
	t.Helper()
	method := sc.method
	if method == "" {
		method = http.MethodGet
	}
	req := httptest.NewRequest(method, sc.url, bytes.NewReader(sc.body))
	req.Host = testAddr
	for k, v := range sc.header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	body := rec.Body.String()
	if rec.Code != sc.status {
		t.Errorf("%s %s: got status %d, want %d; body %.300s", method, sc.url, rec.Code, sc.status, body)
	}
	for _, w := range sc.want {
		if !strings.Contains(body, w) {
			t.Errorf("%s %s: body lacks %q; body %.300s", method, sc.url, w, body)
		}
	}
	for _, w := range sc.notWant {
		if strings.Contains(body, w) {
			t.Errorf("%s %s: body has %q", method, sc.url, w)
		}
	}
	for k, v := range sc.wantHeaders {
		if got := rec.Header().Get(k); !strings.Contains(got, v) {
			t.Errorf("%s %s: header %s is %q, want it to contain %q", method, sc.url, k, got, v)
		}
	}
}

// field is one field of a multipart form.
type field struct {
	name  string
	value []byte
}

// multipartBody builds a form with the given fields in order; the
// "replay" field is sent as a file.
func multipartBody(t *testing.T, fields ...field) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, f := range fields {
		var part interface{ Write([]byte) (int, error) }
		var err error
		if f.name == "replay" {
			part, err = w.CreateFormFile(f.name, "match.rpl")
		} else {
			part, err = w.CreateFormField(f.name)
		}
		if err != nil {
			t.Fatal(err)
		}
		part.Write(f.value)
	}
	w.Close()
	return b.Bytes(), w.FormDataContentType()
}

func TestPages(t *testing.T) {
	f := newFixture(t, nil)
	won, hostile := shortID(f.won), shortID(f.hostile)
	missing := "deadbeef" + strings.Repeat("0", 8)
	for _, sc := range []scenario{
		{name: "overview", url: "/", status: 200,
			want:        []string{"River Toad", "Recent matches", `action="/upload"`, won, "astar"},
			wantHeaders: map[string]string{"Content-Security-Policy": "script-src 'self';", "X-Content-Type-Options": "nosniff", "X-Request-Id": ""}},
		{name: "matches", url: "/matches", status: 200, want: []string{"Matches 1–3 of 3", won}},
		{name: "matches of a game", url: "/matches?game=toad", status: 200, want: []string{"of 3"}},
		{name: "matches a bot won", url: "/matches?bot=astar&result=win", status: 200, want: []string{won}, notWant: []string{shortID(f.lost)}},
		{name: "paging", url: "/matches?limit=1&offset=1", status: 200, want: []string{"Matches 2–2 of 3", `rel="prev"`, `rel="next"`}},
		{name: "result without bot", url: "/matches?result=win", status: 400,
			want: []string{`<p class="error">a version, outcome or rank filter needs a bot</p>`, `<form class="filters"`, `<option value="win" selected>`}},
		{name: "bad limit", url: "/matches?limit=ten", status: 400, want: []string{"limit"}},
		{name: "bad offset", url: "/matches?offset=-1", status: 400, want: []string{"offset"}},
		{name: "match", url: "/matches/" + won, status: 200,
			want:    []string{"survived all 30 rolls", `class="chart-option"`, "chart-hp", `class="more-chart"`, "Not drawn: ", "Score (HP, 0 once dead) (same as HP)", "/static/vendor/echarts/echarts.min.js", "/static/js/charts.js", f.won},
			notWant: []string{`id="chart-score"`}},
		{name: "match chart drawn when opened", url: "/matches/" + won + "/charts/hp_spent", status: 200, want: []string{`{"option":{`, `"data":[[`}},
		{name: "match chart of no metric", url: "/matches/" + won + "/charts/nope", status: 404, want: []string{"no metric"}},
		{name: "match by full id", url: "/matches/" + f.won, status: 200, want: []string{"chart-hp"}},
		{name: "match not found", url: "/matches/" + missing, status: 404, want: []string{"not found"}},
		{name: "match id malformed", url: "/matches/xyz", status: 400, want: []string{"hex digits"}},
		{name: "inspector", url: "/matches/" + won + "/turns/5", status: 200,
			want: []string{"turn <span id=\"turn-number\">5</span>", `id="inspector-meta"`, `id="inspector-turn"`, "/static/js/render/toad.js", "/static/js/inspector.js"}},
		{name: "inspector turn 0", url: "/matches/" + won + "/turns/0", status: 200},
		{name: "inspector past the end", url: "/matches/" + won + "/turns/31", status: 404, want: []string{"past the end"}},
		{name: "inspector bad turn", url: "/matches/" + won + "/turns/x", status: 400, want: []string{"whole number"}},
		{name: "bots", url: "/bots", status: 200, want: []string{"River Toad", "/bots/toad/astar", "95% interval"}},
		{name: "bot", url: "/bots/toad/astar", status: 200, want: []string{"Versions", won}},
		{name: "bot unknown", url: "/bots/toad/nobody", status: 404, want: []string{"no bot"}},
		{name: "unknown page", url: "/nowhere", status: 404, want: []string{"<h1>404 Not Found</h1>"}},
		{name: "wrong method", method: http.MethodPost, url: "/matches", status: 405},
		{name: "healthz", url: "/healthz", status: 200, want: []string{"ok"}},
		{name: "static asset", url: "/static/js/inspector.js?v=" + staticVersion(), status: 200, want: []string{"replaceState"}, wantHeaders: map[string]string{"Cache-Control": "immutable"}},
		{name: "static asset unversioned", url: "/static/js/inspector.js", status: 200, want: []string{"replaceState"}, wantHeaders: map[string]string{"Cache-Control": "no-cache"}},
		{name: "static asset of another build", url: "/static/js/inspector.js?v=0123456789abcdef", status: 200, wantHeaders: map[string]string{"Cache-Control": "no-cache"}},
		{name: "echarts licence", url: "/static/vendor/echarts/LICENSE", status: 200, want: []string{"Apache License"}},
		{name: "static missing", url: "/static/nope.js", status: 404},
		// A hostile bot name is escaped in HTML and in the chart options.
		{name: "escaped in match page", url: "/matches/" + hostile, status: 200,
			want: []string{"&lt;img src=x onerror=alert(1)&gt;", `\u003cimg src=x onerror=alert(1)\u003e`}, notWant: []string{xssName}},
		{name: "escaped in inspector", url: "/matches/" + hostile + "/turns/1", status: 200, notWant: []string{xssName}},
		{name: "escaped in lists", url: "/matches", status: 200, notWant: []string{xssName}},
		{name: "escaped in bot page", url: "/bots/toad/" + "%3Cimg%20src=x%20onerror=alert(1)%3E", status: 200, notWant: []string{xssName}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}

func TestAPI(t *testing.T) {
	f := newFixture(t, nil)
	won := shortID(f.won)
	api := "/api/v1/matches/" + won
	for _, sc := range []scenario{
		{name: "games", url: "/api/v1/games", status: 200, want: []string{`"name":"toad"`, `"matches":3`, `"name":"flies"`, `"name":"astar"`, `"name":"energy","label":"Energy","unit":"energy","per_unit":false,"kind":"gauge","integer":false,"resolution":0.01`}},
		{name: "matches", url: "/api/v1/matches", status: 200, want: []string{`"total":3`, `"limit":50`, f.won}},
		{name: "matches filtered", url: "/api/v1/matches?game=toad&bot=random&result=loss&limit=1", status: 200, want: []string{`"total":1`, f.lost}, notWant: []string{f.won}},
		{name: "matches of nobody", url: "/api/v1/matches?bot=nobody", status: 200, want: []string{`"total":0`, `"matches":[]`}},
		{name: "matches bad result", url: "/api/v1/matches?bot=astar&result=maybe", status: 400, want: []string{`"error":"outcome`}},
		{name: "matches limit too big", url: "/api/v1/matches?limit=100000", status: 400, want: []string{"at most"}},
		{name: "match", url: api, status: 200, want: []string{`"id":"` + f.won, `"turns":30`, `"reason":"survived all 30 rolls"`, `"metrics":[{"name":"hp"`, `"players":[{"seat":0,"name":"astar","version":"v1"`}},
		{name: "match missing", url: "/api/v1/matches/0123456789abcdef", status: 404, want: []string{`"error":"match 0123456789abcdef not found"`}},
		{name: "match ambiguous or short", url: "/api/v1/matches/abc", status: 400, want: []string{`"error"`}},
		{name: "series", url: api + "/series/hp", status: 200, want: []string{`"metric":{"name":"hp","label":"HP"`, `"turns":30`, `"points":2000`, `"values":[20,`}, notWant: []string{`"turns":[`}},
		{name: "series downsampled", url: api + "/series/hp?points=4", status: 200, want: []string{`"points":4`, `"turns":[`}},
		{name: "series points too few", url: api + "/series/hp?points=1", status: 400, want: []string{"want 2 to 100000"}},
		{name: "series points too many", url: api + "/series/hp?points=100001", status: 400, want: []string{"want 2 to 100000"}},
		{name: "series points all", url: api + "/series/hp?points=all", status: 400, want: []string{"whole number"}},
		{name: "series extra metric", url: api + "/series/flies", status: 200, want: []string{`"name":"flies"`}},
		{name: "series unknown metric", url: api + "/series/mana", status: 404, want: []string{`no metric \"mana\"`}},
		{name: "turn", url: api + "/turns/5", status: 200, want: []string{`"turn":5`, `"last_turn":30`, `"frame":{"turn":5,"commands":[`, `"board":[`, `"stats":[{"seat":0,"unit":-1`, `"events":[`}},
		{name: "turn 0", url: api + "/turns/0", status: 200, want: []string{`"commands":[]`}},
		{name: "turn past the end", url: api + "/turns/31", status: 404, want: []string{"past the end"}},
		{name: "turn negative", url: api + "/turns/-1", status: 400},
		{name: "events", url: api + "/events", status: 200, want: []string{`{"events":[{"turn":1,`, `"kind":"spawn"`, `"kind":"win"`, `"next":null}`}},
		{name: "events page", url: api + "/events?limit=1", status: 200, want: []string{`{"events":[{"turn":1,`, `"next":"1.0"}`}},
		{name: "events next page", url: api + "/events?limit=1&after=1.0", status: 200, notWant: []string{`"next":null`, `"next":"1.0"`}},
		{name: "events limit 0", url: api + "/events?limit=0", status: 400, want: []string{"want 1 to 10000"}},
		{name: "events limit too big", url: api + "/events?limit=10001", status: 400, want: []string{"want 1 to 10000"}},
		{name: "events bad cursor", url: api + "/events?after=x", status: 400, want: []string{"cursor"}},
		{name: "events range", url: api + "/events?from=30&to=30", status: 200, want: []string{`"kind":"win"`}, notWant: []string{`"turn":29`}},
		{name: "events empty range", url: api + "/events?from=9&to=2", status: 400, want: []string{"empty range"}},
		{name: "events bad from", url: api + "/events?from=x", status: 400},
		{name: "replay binary", url: api + "/replay.rpl", status: 200, want: []string{"RPL\x02"},
			wantHeaders: map[string]string{"Content-Disposition": `attachment; filename="` + won + `.rpl"`, "Content-Type": "application/octet-stream"}},
		{name: "replay text", url: api + "/replay.rlog", status: 200, want: []string{`{"format":"replaylab/2","game":"toad"`, "#hash\t10\t"},
			wantHeaders: map[string]string{"Content-Disposition": won + `.rlog"`, "Content-Type": "text/plain"}},
		{name: "replay missing", url: "/api/v1/matches/0123456789abcdef/replay.rpl", status: 404},
		{name: "csv", url: api + "/turns.csv", status: 200, want: []string{"turn,seat,unit,alive,hp,score,collisions,flies,snakes,danger,hp_spent\n0,1,,true,20,20,0,0,0,5,0\n"},
			wantHeaders: map[string]string{"Content-Type": "text/csv", "Content-Disposition": won + `.csv"`}},
		{name: "csv missing", url: "/api/v1/matches/0123456789abcdef/turns.csv", status: 404, want: []string{`"error"`}},
		{name: "bots", url: "/api/v1/bots", status: 200, want: []string{`"toad":[`, `"name":"astar"`, `"win_rate_ci95":[`, `"url":"/bots/toad/astar"`}},
		{name: "bots of a game", url: "/api/v1/bots?game=toad", status: 200, want: []string{`"name":"random"`}},
		{name: "bots of no game", url: "/api/v1/bots?game=chess", status: 200, want: []string{`{}`}},
		{name: "bot", url: "/api/v1/bots/toad/astar", status: 200, want: []string{`"name":"astar"`, `"versions":[{`, `"matches":1`, f.won}},
		{name: "bot unknown", url: "/api/v1/bots/toad/nobody", status: 404, want: []string{`"error":"no bot \"nobody\" has played toad"`}},
		{name: "unknown endpoint", url: "/api/v1/nothing", status: 404, want: []string{`{"error":"Not Found"}`}},
		{name: "wrong method", method: http.MethodPut, url: api, status: 405, want: []string{`"error"`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}

func TestUpload(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxUpload = 64 << 10 })
	enc, text := f.encodeFresh(t)
	// The recorded hash of turn 10 changed: regeneration must diverge there.
	diverging := regexp.MustCompile("(?m)^#hash\t10\t[0-9a-f]{16}$").ReplaceAll(text, []byte("#hash\t10\t0000000000000000"))
	unknownGame := strings.Replace(string(text), `"game":"toad"`, `"game":"chess"`, 1)
	form, formType := multipartBody(t, field{"replay", enc.Bytes})
	emptyForm, emptyType := multipartBody(t, field{"other", []byte("x")})
	stored := recordToad(t, 1, "astar", "astar", `{"turns":30}`) // the fixture's won match
	storedText, _ := stored.EncodeText()
	short := shortID(enc.ID)

	for _, sc := range []scenario{
		{name: "binary", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, status: 201,
			want: []string{`"id":"` + enc.ID + `"`, `"url":"/matches/` + short + `"`, `"duplicate":false`}, wantHeaders: map[string]string{"Location": "/matches/" + short}},
		{name: "same again", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, status: 200, want: []string{enc.ID, `"duplicate":true`}},
		{name: "same as text", method: http.MethodPost, url: "/api/v1/replays", body: text, status: 200, want: []string{enc.ID}},
		{name: "stored match as text", method: http.MethodPost, url: "/api/v1/replays", body: storedText, status: 200, want: []string{f.won}},
		{name: "multipart", method: http.MethodPost, url: "/api/v1/replays", body: form, header: map[string]string{"Content-Type": formType}, status: 200, want: []string{enc.ID}},
		{name: "multipart without replay", method: http.MethodPost, url: "/api/v1/replays", body: emptyForm, header: map[string]string{"Content-Type": emptyType}, status: 400, want: []string{`no \"replay\" file field`}},
		{name: "not a replay", method: http.MethodPost, url: "/api/v1/replays", body: []byte("hello"), status: 400, want: []string{`"error":"neither a binary replay`}},
		{name: "empty body", method: http.MethodPost, url: "/api/v1/replays", status: 400},
		{name: "unknown game", method: http.MethodPost, url: "/api/v1/replays", body: []byte(unknownGame), status: 422, want: []string{`unknown game \"chess\"`, `"line":1`}},
		{name: "diverging hash", method: http.MethodPost, url: "/api/v1/replays", body: diverging, status: 422, want: []string{"diverged", `"turn":10`}},
		{name: "truncated binary", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes[:len(enc.Bytes)/2], status: 422, want: []string{`"error"`}},
		{name: "too large", method: http.MethodPost, url: "/api/v1/replays", body: bytes.Repeat([]byte("x"), 65<<10), status: 413, want: []string{`"error":"replays are limited to 64 KiB`}},
		{name: "form too large", method: http.MethodPost, url: "/upload", body: bytes.Repeat([]byte("x"), 65<<10), status: 413,
			want: []string{"<h1>413 Request Entity Too Large</h1>", "replays are limited to 64 KiB"}},
		// A redirect, so that a reload does not post the file again.
		{name: "form upload of a stored replay", method: http.MethodPost, url: "/upload", body: form, header: map[string]string{"Content-Type": formType}, status: 303,
			wantHeaders: map[string]string{"Location": "/matches/" + short + "/duplicate?output=none"}},
		{name: "the page it leads to", url: "/matches/" + short + "/duplicate?output=none", status: 200,
			want: []string{"<h1>Already stored</h1>", `href="/matches/` + short + `"`, "Nothing was added"}},
		{name: "that page with a made-up word", url: "/matches/" + short + "/duplicate?output=<b>", status: 400, want: []string{"want attached, unchanged or none"}},
		{name: "that page of no match", url: "/matches/00000000aaaa/duplicate?output=none", status: 404},
		{name: "form upload refused", method: http.MethodPost, url: "/upload", body: []byte(unknownGame), status: 422,
			want: []string{"<h1>422 Unprocessable Entity</h1>", "Line 1 of the replay"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
	if strings.Contains(f.log.String(), "level=ERROR") {
		t.Errorf("bad input was logged as a server error:\n%s", f.log.String())
	}
}

func TestUploadToken(t *testing.T) {
	const token = "s3cret-token"
	f := newFixture(t, func(c *Config) { c.UploadToken = token })
	enc, _ := f.encodeFresh(t)
	withToken, withType := multipartBody(t, field{"token", []byte(token)}, field{"replay", enc.Bytes})
	wrongToken, wrongType := multipartBody(t, field{"token", []byte("guess")}, field{"replay", enc.Bytes})
	for _, sc := range []scenario{
		{name: "no token", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, status: 401,
			want: []string{"need a token"}, wantHeaders: map[string]string{"WWW-Authenticate": "Bearer"}},
		{name: "wrong bearer", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, header: map[string]string{"Authorization": "Bearer guess"}, status: 401, want: []string{"wrong upload token"}},
		{name: "basic auth", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, header: map[string]string{"Authorization": "Basic " + token}, status: 401},
		{name: "wrong form token", method: http.MethodPost, url: "/api/v1/replays", body: wrongToken, header: map[string]string{"Content-Type": wrongType}, status: 401},
		{name: "form token", method: http.MethodPost, url: "/upload", body: withToken, header: map[string]string{"Content-Type": withType}, status: 303,
			wantHeaders: map[string]string{"Location": matchURL(enc.ID)}},
		{name: "bearer", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, header: map[string]string{"Authorization": "Bearer " + token}, status: 200},
		{name: "form asks for the token", url: "/", status: 200, want: []string{`name="token"`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}

// TestServerFault checks the central handler's answer to an unexpected
// error or a panic: a 500 with a generic text, the detail only in the log.
func TestServerFault(t *testing.T) {
	f := newFixture(t, nil)
	f.e.GET("/api/v1/fail", func(echo.Context) error { return errors.New("disk on fire at /secret/path") })
	f.e.GET("/fail", func(echo.Context) error { panic("secret panic detail") })
	for _, sc := range []scenario{
		{name: "api error", url: "/api/v1/fail", status: 500, want: []string{`"error":"internal error`}, notWant: []string{"secret"}},
		{name: "page panic", url: "/fail", status: 500, want: []string{"<h1>500 Internal Server Error</h1>"}, notWant: []string{"secret"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
	log := f.log.String()
	for _, want := range []string{"disk on fire at /secret/path", "secret panic detail", "request_id="} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

func TestTemplatesRegistered(t *testing.T) {
	tpl, err := parseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	if len(tpl.pages) != len(pages) {
		t.Errorf("got %d pages, want %d", len(tpl.pages), len(pages))
	}
}

// TestUploadKeepsBotOutput uploads a replay with the bot output file
// record saves beside it, as the form's "output" field: refused whole
// when the file is malformed or does not fit the match, stored with the
// match otherwise.
func TestUploadKeepsBotOutput(t *testing.T) {
	f := newFixture(t, nil)
	enc, _ := f.encodeFresh(t)
	var file bytes.Buffer
	if err := store.WriteBotOutput(&file, []store.BotOutput{{Turn: 3, Seat: 0, Stream: store.Stderr, Text: "thinking about turn 3\n"}}); err != nil {
		t.Fatal(err)
	}
	upload := func(fields ...field) scenario {
		body, contentType := multipartBody(t, fields...)
		return scenario{method: http.MethodPost, url: "/api/v1/replays", body: body, header: map[string]string{"Content-Type": contentType}}
	}
	replayField := field{"replay", enc.Bytes}
	for _, tt := range []struct {
		name   string
		fields []field
		want   string
	}{
		{"not JSON lines", []field{replayField, {"output", []byte("thinking\n")}}, `bot output: line 1`},
		{"a seat the match lacks", []field{replayField, {"output", []byte(`{"turn":3,"seat":5,"stream":"stderr","text":"x"}`)}}, `seat index 5`},
		{"a turn past the end", []field{replayField, {"output", []byte(`{"turn":99,"seat":0,"stream":"stderr","text":"x"}`)}}, `turn 99`},
		{"a turn's stream twice", []field{replayField, {"output", bytes.Repeat(file.Bytes(), 2)}}, `line 2: turn 3, Seat 1: stderr again`},
		{"two files", []field{replayField, {"output", file.Bytes()}, {"output", file.Bytes()}}, `more than one \"output\"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc := upload(tt.fields...)
			sc.status, sc.want = 400, []string{tt.want}
			sc.run(t, f.e)
			if _, err := f.db.Match(context.Background(), enc.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("after a refused upload: got %v looking the match up, want it not stored", err)
			}
		})
	}
	sc := upload(replayField, field{"output", file.Bytes()})
	sc.status, sc.want = 201, []string{enc.ID}
	sc.run(t, f.e)
	got, err := f.db.BotOutputAt(context.Background(), enc.ID, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := []store.BotOutput{{Turn: 3, Seat: 0, Stream: store.Stderr, Text: "thinking about turn 3\n"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("turn 3 output: got %+v, want %+v", got, want)
	}
}

// TestMatchesCursor pages through the match list by the cursor the API
// gives as next and the page's older link carries: the same matches as
// one page of them all, the last page's next null, the page numbered as
// the link counted it, with a newer link back.
func TestMatchesCursor(t *testing.T) {
	f := newFixture(t, nil)
	type page struct {
		Next    *int64 `json:"next"`
		Matches []struct {
			ID string `json:"id"`
		} `json:"matches"`
	}
	var all page
	getJSON(t, f.e, "/api/v1/matches?limit=10", http.StatusOK, &all)
	var want, got []string
	for _, m := range all.Matches {
		want = append(want, m.ID)
	}
	url := "/api/v1/matches?limit=1"
	for range len(want) + 1 {
		var p page
		getJSON(t, f.e, url, http.StatusOK, &p)
		for _, m := range p.Matches {
			got = append(got, m.ID)
		}
		if p.Next == nil {
			break
		}
		url = fmt.Sprintf("/api/v1/matches?limit=1&before=%d", *p.Next)
	}
	if len(want) != 3 || !slices.Equal(got, want) {
		t.Errorf("paged by cursor %v, want the 3 of one page %v", got, want)
	}

	var first page
	getJSON(t, f.e, "/api/v1/matches?limit=1", http.StatusOK, &first)
	older := fmt.Sprintf("/matches?at=2&amp;before=%d&amp;limit=1", *first.Next)
	for _, sc := range []scenario{
		{name: "first page", url: "/matches?limit=1", status: 200, want: []string{"Matches 1–1 of 3", `rel="next" href="` + older + `"`}, notWant: []string{`rel="prev"`}},
		{name: "older page", url: strings.ReplaceAll(older, "&amp;", "&"), status: 200,
			want: []string{"Matches 2–2 of 3", `rel="prev" href="/matches?limit=1"`, `rel="next" href="/matches?at=3&amp;before=`, shortID(want[1])}},
		{name: "cursor without a position", url: fmt.Sprintf("/matches?before=%d", *first.Next), status: 200,
			want: []string{"2 matches of 3", `rel="prev" href="/matches"`}, notWant: []string{`rel="next"`}},
		{name: "bad cursor", url: "/api/v1/matches?before=-5", status: 400, want: []string{"before"}},
		{name: "bad cursor on the page", url: "/matches?before=x", status: 400, want: []string{"before"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}

// TestTurnCompressed: the turn API compresses for a client that accepts
// gzip, its errors too (written inside the compressing writer, with
// their status), and answers others plainly.
func TestTurnCompressed(t *testing.T) {
	f := newFixture(t, nil)
	// A career fair turn is 24 KB; the fixture's toad turns are below the
	// size worth compressing.
	rec, err := regen.Build(context.Background(), longestMatch(t, careerfair.Game))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Ingest(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	api := "/api/v1/matches/" + shortID(rec.ID) + "/turns/"
	for _, tc := range []struct {
		turn, want string
		status     int
		gzip       bool
	}{
		{"5", `"frame":{"turn":5,`, 200, true},
		{"311", "past the end", 404, true},
		{"x", `"error"`, 400, true},
		{"5", `"frame":{"turn":5,`, 200, false},
	} {
		req := httptest.NewRequest(http.MethodGet, api+tc.turn, nil)
		req.Host = testAddr
		if tc.gzip {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		w := httptest.NewRecorder()
		f.e.ServeHTTP(w, req)
		body := w.Body.Bytes()
		if enc := w.Header().Get("Content-Encoding"); tc.status == 200 && (enc == "gzip") != tc.gzip {
			t.Errorf("turn %s, gzip %v: Content-Encoding %q, %d bytes", tc.turn, tc.gzip, enc, len(body))
		}
		if w.Header().Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("turn %s: %v", tc.turn, err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatalf("turn %s: %v", tc.turn, err)
			}
		}
		if w.Code != tc.status || !bytes.Contains(body, []byte(tc.want)) {
			t.Errorf("turn %s, gzip %v: status %d, body %.200s; want %d and %q", tc.turn, tc.gzip, w.Code, body, tc.status, tc.want)
		}
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("turn %s, gzip %v: Content-Type %q", tc.turn, tc.gzip, ct)
		}
	}
}
