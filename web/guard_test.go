package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"

	"github.com/labstack/echo/v4"
)

func TestHostGuardServes(t *testing.T) {
	tests := []struct {
		addr   string
		public []string
		host   string
		want   bool
	}{
		{"127.0.0.1:8080", nil, "127.0.0.1:8080", true},
		{"127.0.0.1:8080", nil, "localhost:8080", true},
		{"127.0.0.1:8080", nil, "LOCALHOST:8080", true},
		{"127.0.0.1:8080", nil, "[::1]:8080", true},
		{"127.0.0.1:8080", nil, "127.0.0.1:9090", false},
		{"127.0.0.1:8080", nil, "evil.example:8080", false},
		{"127.0.0.1:8080", nil, "localhost.:8080", false},
		{"127.0.0.1:8080", nil, "", false},
		{"127.0.0.2:8080", nil, "127.0.0.2:8080", true},
		{"[::1]:8080", nil, "127.0.0.1:8080", true},
		{"localhost:8080", nil, "localhost:8080", true},
		// A browser leaves out port 80 or 443.
		{"127.0.0.1:80", nil, "localhost", true},
		{"127.0.0.1:80", nil, "[::1]", true},
		{"127.0.0.1:8080", nil, "localhost", false},
		{"192.168.1.10:8080", nil, "192.168.1.10:8080", true},
		{"192.168.1.10:8080", nil, "localhost:8080", false},
		{"192.168.1.10:8080", nil, "192.168.1.11:8080", false},
		// A wildcard listener serves the loopback names and any address.
		{"0.0.0.0:8080", nil, "localhost:8080", true},
		{"0.0.0.0:8080", nil, "10.1.2.3:8080", true},
		{"[::]:8080", nil, "[fe80::1]:8080", true},
		{":8080", nil, "10.1.2.3:8080", true},
		{"0.0.0.0:8080", nil, "10.1.2.3:9090", false},
		{"0.0.0.0:8080", nil, "replays.example.org:8080", false},
		{"0.0.0.0:8080", []string{"http://replays.example.org:8080"}, "replays.example.org:8080", true},
		{"0.0.0.0:8080", []string{"http://replays.example.org:8080"}, "replays.example.org:9090", false},
		// Behind a proxy: the public URL's port, implicit or not.
		{"127.0.0.1:8080", []string{"https://Replays.example.org"}, "replays.example.org", true},
		{"127.0.0.1:8080", []string{"https://replays.example.org"}, "replays.example.org:443", true},
		{"127.0.0.1:8080", []string{"https://replays.example.org/"}, "other.example.org", false},
	}
	for _, tt := range tests {
		g, err := newHostGuard(tt.addr, tt.public)
		if err != nil {
			t.Fatalf("newHostGuard(%q, %q): %v", tt.addr, tt.public, err)
		}
		if got := g.serves(tt.host); got != tt.want {
			t.Errorf("listening on %s with public URLs %q: serves(%q) got %v, want %v", tt.addr, tt.public, tt.host, got, tt.want)
		}
	}
}

func TestHostGuardRefusesConfig(t *testing.T) {
	tests := []struct {
		addr   string
		public []string
	}{
		{"", nil},
		{"nowhere", nil},
		{"127.0.0.1:8080", []string{"replays.example.org"}},
		{"127.0.0.1:8080", []string{"ftp://replays.example.org"}},
		{"127.0.0.1:8080", []string{"https://replays.example.org/dashboard"}},
		{"127.0.0.1:8080", []string{"https://user@replays.example.org"}},
		{"127.0.0.1:8080", []string{"https://replays.example.org?x=1"}},
		{"127.0.0.1:8080", []string{"https://"}},
	}
	for _, tt := range tests {
		if _, err := newHostGuard(tt.addr, tt.public); err == nil {
			t.Errorf("newHostGuard(%q, %q): got no error, want one", tt.addr, tt.public)
		}
	}
}

// TestHosts serves only the listener's names and the public URLs': a DNS
// rebinding page (Host evil.example) reads nothing.
func TestHosts(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.PublicURLs = []string{"https://replays.example.org"} })
	enc, _ := f.encodeFresh(t)
	for _, sc := range []scenario{
		{name: "evil host page", url: "/", header: map[string]string{"Host": "evil.example:8080"}, status: 421,
			want: []string{"<h1>421 Misdirected Request</h1>", "--public-url"}, notWant: []string{"River Toad"}},
		{name: "evil host api", url: "/api/v1/matches", header: map[string]string{"Host": "evil.example"}, status: 421,
			want: []string{`"error":"this server does not answer for the host \"evil.example\"`}, notWant: []string{f.won}},
		{name: "evil host upload", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, header: map[string]string{"Host": "evil.example:8080"}, status: 421},
		{name: "evil host escaped", url: "/api/v1/games", header: map[string]string{"Host": "evil\x7f.example"}, status: 421,
			want: []string{`\\x7f`}, notWant: []string{"\x7f"}},
		{name: "other port", url: "/api/v1/games", header: map[string]string{"Host": "127.0.0.1:9999"}, status: 421},
		{name: "localhost", url: "/api/v1/games", header: map[string]string{"Host": "localhost:8080"}, status: 200, want: []string{`"name":"toad"`}},
		{name: "127.0.0.1", url: "/", header: map[string]string{"Host": "127.0.0.1:8080"}, status: 200, want: []string{"River Toad"}},
		{name: "ipv6 loopback", url: "/healthz", header: map[string]string{"Host": "[::1]:8080"}, status: 200},
		{name: "public url", url: "/api/v1/matches", header: map[string]string{"Host": "replays.example.org"}, status: 200, want: []string{f.won}},
		{name: "public url not stored", url: "/api/v1/matches/" + shortID(enc.ID), status: 404},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}

// TestCrossSiteWrites refuses uploads sent by another site's page and
// accepts those of the dashboard's own page, curl's and the CLI's.
func TestCrossSiteWrites(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.PublicURLs = []string{"https://replays.example.org"} })
	enc, text := f.encodeFresh(t)
	form, formType := multipartBody(t, field{"replay", enc.Bytes})
	post := func(name, url string, header map[string]string, status int, want ...string) scenario {
		body := enc.Bytes
		if url == "/upload" {
			body = form
			header["Content-Type"] = formType
		}
		return scenario{name: name, method: http.MethodPost, url: url, body: body, header: header, status: status, want: want}
	}
	const own = "http://" + testAddr
	for _, sc := range []scenario{
		post("cross-site api", "/api/v1/replays", map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, 403,
			`"error":"cross-site request refused: Sec-Fetch-Site is \"cross-site\"`),
		post("cross-site form", "/upload", map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, 403,
			"<h1>403 Forbidden</h1>", "cross-site request refused"),
		post("same-site form", "/upload", map[string]string{"Origin": "http://localhost:3000", "Sec-Fetch-Site": "same-site"}, 403, "same-site"),
		post("foreign origin only", "/api/v1/replays", map[string]string{"Origin": "http://evil.example"}, 403,
			`cross-origin request refused: Origin \"http://evil.example\"`, "--public-url"),
		post("other port", "/api/v1/replays", map[string]string{"Origin": "http://127.0.0.1:8081"}, 403),
		post("other scheme", "/api/v1/replays", map[string]string{"Origin": "https://" + testAddr}, 403),
		post("null origin", "/upload", map[string]string{"Origin": "null"}, 403),
		post("unknown fetch site", "/api/v1/replays", map[string]string{"Sec-Fetch-Site": "elsewhere"}, 403),
		{name: "nothing stored", url: "/api/v1/matches/" + shortID(enc.ID), status: 404},
		// Reads stay open: the browser keeps their answers from the page.
		{name: "cross-site read", url: "/api/v1/games", header: map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, status: 200},
		post("own form", "/upload", map[string]string{"Origin": own, "Sec-Fetch-Site": "same-origin"}, 303),
		post("own fetch", "/api/v1/replays", map[string]string{"Origin": own, "Sec-Fetch-Site": "same-origin"}, 200, enc.ID),
		post("own origin by name", "/api/v1/replays", map[string]string{"Host": "localhost:8080", "Origin": "http://localhost:8080"}, 200),
		post("typed address", "/api/v1/replays", map[string]string{"Sec-Fetch-Site": "none"}, 200),
		post("curl", "/api/v1/replays", map[string]string{}, 200),
		post("public url", "/api/v1/replays", map[string]string{"Host": "replays.example.org", "Origin": "https://replays.example.org", "Sec-Fetch-Site": "same-origin"}, 200),
		{name: "text from curl", method: http.MethodPost, url: "/api/v1/replays", body: text, status: 200},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}

// spyReader is a request body that counts the bytes read from it.
type spyReader struct {
	r    io.Reader
	read int
}

func (s *spyReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.read += n
	return n, err
}

// TestTokenBeforeBody checks the token before reading the replay, and
// reads no more than the limit of a body sent without a length.
func TestTokenBeforeBody(t *testing.T) {
	const token, limit = "s3cret-token", 64 << 10
	f := newFixture(t, func(c *Config) { c.UploadToken = token; c.MaxUpload = limit })
	// A text replay's opening, so the server reads on to the limit.
	big := append([]byte("{"), bytes.Repeat([]byte("x"), 4*limit)...)
	replayFirst, replayFirstType := multipartBody(t, field{"replay", big}, field{"token", []byte(token)})
	wrongFirst, wrongFirstType := multipartBody(t, field{"token", []byte("guess")}, field{"replay", big})
	rightFirst, rightFirstType := multipartBody(t, field{"token", []byte(token)}, field{"replay", big})
	const tooLarge = "replays are limited to 64 KiB (the server's --max-upload)"
	tests := []struct {
		name     string
		body     []byte
		header   map[string]string
		chunked  bool // no Content-Length
		status   int
		want     string
		mostRead int // bytes of the body the server may read
	}{
		{"no token", big, nil, true, 401, "need a token", 0},
		{"wrong bearer", big, map[string]string{"Authorization": "Bearer guess"}, true, 401, "wrong upload token", 0},
		{"wrong bearer on a form", rightFirst, map[string]string{"Authorization": "Bearer guess", "Content-Type": rightFirstType}, true, 401, "wrong upload token", 0},
		{"form replay before token", replayFirst, map[string]string{"Content-Type": replayFirstType}, true, 401, "before the replay file", 8 << 10},
		{"form wrong token", wrongFirst, map[string]string{"Content-Type": wrongFirstType}, true, 401, "wrong upload token", 8 << 10},
		{"declared too large", big, map[string]string{"Authorization": "Bearer " + token}, false, 413, tooLarge, 0},
		{"streamed too large", big, map[string]string{"Authorization": "Bearer " + token}, true, 413, tooLarge, limit + 8<<10},
		{"form too large", rightFirst, map[string]string{"Content-Type": rightFirstType}, true, 413, tooLarge, limit + 8<<10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spy := &spyReader{r: bytes.NewReader(tt.body)}
			req := httptest.NewRequest(http.MethodPost, "/api/v1/replays", spy)
			req.Host = testAddr
			req.ContentLength = int64(len(tt.body))
			if tt.chunked {
				req.ContentLength = -1
			}
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			f.e.ServeHTTP(rec, req)
			if rec.Code != tt.status || !strings.Contains(rec.Body.String(), tt.want) {
				t.Errorf("got %d %s, want %d with %q", rec.Code, rec.Body, tt.status, tt.want)
			}
			if spy.read > tt.mostRead {
				t.Errorf("read %d bytes of the body, want at most %d", spy.read, tt.mostRead)
			}
		})
	}
}

// TestRegenerationLimit answers 503 with Retry-After while the only
// regeneration slot is taken, and stores the upload once it is free.
func TestRegenerationLimit(t *testing.T) {
	held := make(slots, 1)
	f := newFixture(t, func(c *Config) { c.regenerations = held })
	stored := recordToad(t, 1, "astar", "astar", `{"turns":30}`) // the fixture's won match
	storedText, err := stored.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	release, err := held.take()
	if err != nil {
		t.Fatal(err)
	}
	busy := scenario{name: "busy", method: http.MethodPost, url: "/api/v1/replays", body: storedText, status: 503,
		want: []string{"--max-regenerations"}, wantHeaders: map[string]string{"Retry-After": "1"}}
	busy.run(t, f.e)
	release()
	scenario{name: "slot free again", method: http.MethodPost, url: "/api/v1/replays", body: storedText, status: 200}.run(t, f.e)
	if log := f.log.String(); !strings.Contains(log, "level=WARN msg=request") || strings.Contains(log, "level=ERROR") {
		t.Errorf("a busy server's 503 should be logged as a warning, not an error:\n%s", log)
	}
}

// failingReader is a body whose client went away after some bytes.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestClientAbort logs a request whose client went away at debug level,
// with status 499, never as a server error.
func TestClientAbort(t *testing.T) {
	f := newFixture(t, nil)
	f.e.GET("/api/v1/broken-pipe", func(echo.Context) error {
		return fmt.Errorf("write answer: %w", syscall.EPIPE)
	})
	enc, _ := f.encodeFresh(t)
	form, formType := multipartBody(t, field{"replay", enc.Bytes})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		url    string
		ctx    context.Context
		body   io.Reader
		header map[string]string
	}{
		{"cancelled upload", "/api/v1/replays", cancelled, bytes.NewReader(enc.Bytes), nil},
		{"cancelled form", "/upload", cancelled, bytes.NewReader(form), map[string]string{"Content-Type": formType}},
		{"reset connection", "/api/v1/replays", context.Background(),
			&failingReader{enc.Bytes[:len(enc.Bytes)/2], fmt.Errorf("read tcp: %w", syscall.ECONNRESET)}, nil},
		{"form cut short", "/upload", context.Background(),
			&failingReader{form[:len(form)/2], io.ErrUnexpectedEOF}, map[string]string{"Content-Type": formType}},
		{"broken pipe", "/api/v1/broken-pipe", context.Background(), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.log.Reset()
			method := http.MethodPost
			if tt.body == nil {
				method = http.MethodGet
			}
			req := httptest.NewRequestWithContext(tt.ctx, method, tt.url, tt.body)
			req.Host = testAddr
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			f.e.ServeHTTP(rec, req)
			if rec.Code != statusClientClosed {
				t.Errorf("got status %d, want %d", rec.Code, statusClientClosed)
			}
			log := f.log.String()
			for _, want := range []string{`level=DEBUG msg="request aborted by the client"`, "level=DEBUG msg=request", "status=499"} {
				if n := strings.Count(log, want); n != 1 {
					t.Errorf("log has %q %d times, want once:\n%s", want, n, log)
				}
			}
			if strings.Contains(log, "level=ERROR") || strings.Contains(log, "level=WARN") {
				t.Errorf("an abort was logged as a fault:\n%s", log)
			}
		})
	}
	scenario{name: "nothing stored", url: "/api/v1/matches/" + shortID(enc.ID), status: 404}.run(t, f.e)
}

// TestAccessLogLevels keeps a normal run quiet: answered requests at
// debug level, refused ones at info, faults at error.
func TestAccessLogLevels(t *testing.T) {
	f := newFixture(t, nil)
	f.e.GET("/api/v1/fail", func(echo.Context) error { return fmt.Errorf("disk on fire") })
	tests := []struct {
		url  string
		want string
	}{
		{"/", "level=DEBUG msg=request method=GET uri=/ status=200"},
		{"/nowhere", "level=INFO msg=request method=GET uri=/nowhere status=404"},
		{"/api/v1/fail", "level=ERROR msg=request method=GET uri=/api/v1/fail status=500"},
	}
	for _, tt := range tests {
		f.log.Reset()
		req := httptest.NewRequest(http.MethodGet, tt.url, nil)
		req.Host = testAddr
		f.e.ServeHTTP(httptest.NewRecorder(), req)
		if log := f.log.String(); !strings.Contains(log, tt.want) {
			t.Errorf("GET %s: log lacks %q:\n%s", tt.url, tt.want, log)
		}
	}
}
