package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestIsLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"127.1.2.3:80", true},
		{"[::1]:8080", true},
		{"localhost:8080", true},
		{":8080", false},
		{"0.0.0.0:8080", false},
		{"[::]:8080", false},
		{"192.168.1.10:8080", false},
		{"example.com:80", false},
	}
	for _, tt := range tests {
		got, err := isLoopback(tt.addr)
		if err != nil || got != tt.want {
			t.Errorf("isLoopback(%q): got %v, %v; want %v", tt.addr, got, err, tt.want)
		}
	}
	if _, err := isLoopback("8080"); err == nil {
		t.Error("isLoopback(\"8080\"): want an error for an address without a port")
	}
}

func TestServeRefuses(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"open address without token", []string{"--addr", "0.0.0.0:0"}, "--upload-token"},
		{"bad upload limit", []string{"--max-upload", "lots"}, "--max-upload"},
		{"bad address", []string{"--addr", "nowhere"}, "--addr"},
		{"bad log level", []string{"--log-level", "loud"}, "--log-level"},
		{"no regeneration", []string{"--max-regenerations", "0"}, "--max-regenerations"},
		{"no fork time", []string{"--fork-time-limit", "0s"}, "--fork-time-limit 0s: want a positive duration"},
		{"too little memory", []string{"--max-memory", "100MiB"}, "--max-memory"},
		{"bad memory bound", []string{"--max-memory", "lots"}, "--max-memory"},
		{"public url with a path", []string{"--public-url", "https://replays.example.org/dash"}, "--public-url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"serve", "--db", filepath.Join(dir, "x.db")}, tt.args...)
			if code := run(context.Background(), args, nil, &stdout, &stderr); code != 1 {
				t.Fatalf("exit %d, want 1; stderr %s", code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.want)
			}
		})
	}
}

// lockedBuffer collects a command's output while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServe runs "replaylab serve" until the returned stop is called, and
// returns the URL it listens on.
func startServe(t *testing.T, args ...string) (base string, stdout, stderr *lockedBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr = &lockedBuffer{}, &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), nil, stdout, stderr)
	}()
	listening := regexp.MustCompile(`dashboard on (http://\S+/)`)
	// A hang guard, not a speed check: restoring stored replays comes
	// before serving, which takes long under the race detector.
	deadline := time.Now().Add(time.Minute)
	for {
		if m := listening.FindStringSubmatch(stdout.String()); m != nil {
			base = strings.TrimSuffix(m[1], "/")
			break
		}
		select {
		case code := <-done:
			cancel()
			t.Fatalf("serve exited with %d before listening; stderr %s", code, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve did not start; stdout %s stderr %s", stdout.String(), stderr.String())
		}
	}
	return base, stdout, stderr, func() int {
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(15 * time.Second):
			t.Fatal("serve did not stop after its context was cancelled")
			return -1
		}
	}
}

// getPage returns the body of a page that answers 200.
func getPage(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s, %v", url, res.Status, err)
	}
	return string(body)
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func TestServeDemo(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	base, stdout, _, stop := startServe(t, "--demo", "--db", db)
	// The server answers at once; the overview shows the fill's progress
	// (the demo takes seconds, this request milliseconds).
	if page := getPage(t, base+"/"); !strings.Contains(page, "Loading demo matches: ") {
		t.Errorf("the overview does not show the demo's progress:\n%s", page)
	}
	var list struct{ Total int }
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		getJSON(t, base+"/api/v1/matches", &list)
		if list.Total == len(demoPlan()) && strings.Contains(stdout.String(), "demo: stored") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("demo stored %d matches in 5 minutes, want %d; stdout %s", list.Total, len(demoPlan()), stdout.String())
		}
	}
	if page := getPage(t, base+"/"); strings.Contains(page, "Loading demo matches") {
		t.Errorf("the overview shows the progress of a finished demo")
	}
	var bots map[string][]struct {
		Name    string
		Matches int
	}
	getJSON(t, base+"/api/v1/bots?game=toad", &bots)
	if len(bots["toad"]) != 2 {
		t.Errorf("toad leaderboard: got %+v, want both built-in bots", bots["toad"])
	}
	// The refitter rates the demo in the background: every match ends up
	// in a fit, and some game is rated.
	var fits []struct {
		Matches int
		Ratings []struct{ Rating float64 }
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		getJSON(t, base+"/api/v1/ratings", &fits)
		fitted, rated := 0, 0
		for _, f := range fits {
			fitted += f.Matches
			rated += len(f.Ratings)
		}
		if fitted == len(demoPlan()) && rated > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ratings after a minute: got %+v, want fits over all %d demo matches", fits, len(demoPlan()))
		}
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exited with %d after a graceful shutdown, want 0", code)
	}

	// A database with matches is never touched by --demo.
	base, stdout, _, stop = startServe(t, "--demo", "--db", db)
	defer stop()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(stdout.String(), "left unchanged"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("second --demo did not say it left the database alone: %s", stdout.String())
		}
	}
	getJSON(t, base+"/api/v1/matches", &list)
	if want := len(demoPlan()); list.Total != want {
		t.Errorf("second --demo: %d matches, want still %d", list.Total, want)
	}
}

// TestServeDemoStops stops the server while the demo fills: serve exits
// cleanly, says how far the demo got, and leaves no goroutine behind.
func TestServeDemoStops(t *testing.T) {
	before := runtime.NumGoroutine()
	base, stdout, _, stop := startServe(t, "--demo", "--db", filepath.Join(t.TempDir(), "stop.db"))
	getPage(t, base+"/")
	http.DefaultClient.CloseIdleConnections()
	if code := stop(); code != 0 {
		t.Fatalf("serve exited with %d when stopped during the demo, want 0", code)
	}
	if out := stdout.String(); !strings.Contains(out, "demo: stopped after storing") {
		t.Errorf("serve did not say the demo stopped:\n%s", out)
	}
	// Goroutines of the test's own HTTP client and of the runtime may take
	// a moment to end.
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines left running, %d before serve:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
	}
}

// TestServeBusyPort fails at once on a port another process holds,
// naming the address, before it opens or fills the database.
func TestServeBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	db := filepath.Join(t.TempDir(), "busy.db")
	var stdout, stderr bytes.Buffer
	start := time.Now()
	if code := run(context.Background(), []string{"serve", "--demo", "--db", db, "--addr", addr}, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr.String())
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v to fail, want at once", took)
	}
	for _, want := range []string{"listen on " + addr, "in use by another process", "--addr"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q lacks %q", stderr.String(), want)
		}
	}
	if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the database was opened before the port: stat %s: %v", db, err)
	}
}

// TestServeWildcardURL prints an address a browser can open for a server
// listening on every interface, and serves it.
func TestServeWildcardURL(t *testing.T) {
	base, stdout, _, stop := startServe(t, "--addr", "0.0.0.0:0", "--allow-anonymous-upload", "--db", filepath.Join(t.TempDir(), "w.db"))
	defer stop()
	if !strings.HasPrefix(base, "http://localhost:") {
		t.Errorf("printed %q, want a localhost URL; stdout %s", base, stdout.String())
	}
	var games []any
	getJSON(t, base+"/api/v1/games", &games)
}

func TestPrintURLs(t *testing.T) {
	tests := []struct {
		addr *net.TCPAddr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "http://localhost:8080/"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "http://localhost:8080/"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}, "http://127.0.0.1:80/"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, "http://[::1]:8080/"},
		{&net.TCPAddr{IP: net.IPv4(192, 168, 1, 10), Port: 9000}, "http://192.168.1.10:9000/"},
	}
	for _, tt := range tests {
		t.Run(tt.addr.String(), func(t *testing.T) {
			var b bytes.Buffer
			printURLs(&b, tt.addr, "x.db")
			out := b.String()
			first, _, _ := strings.Cut(out, "\n")
			if want := "dashboard on " + tt.want + " "; !strings.Contains(first, want) {
				t.Errorf("got %q, want it to contain %q", first, want)
			}
			for _, bad := range []string{"[::]", "0.0.0.0"} {
				if strings.Contains(out, bad) {
					t.Errorf("got %q, which names the wildcard address %s", out, bad)
				}
			}
		})
	}
}

func TestServeUploadTokenFromEnv(t *testing.T) {
	t.Setenv(tokenEnv, "from-env")
	base, _, _, stop := startServe(t, "--db", filepath.Join(t.TempDir(), "t.db"))
	defer stop()
	res, err := http.Post(base+"/api/v1/replays", "application/octet-stream", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("upload without the token: got %s, want 401", res.Status)
	}
}

// TestServeHosts serves the listener's names and --public-url's only,
// refuses a cross-site upload, and logs requests at debug level only.
func TestServeHosts(t *testing.T) {
	base, _, stderr, stop := startServe(t, "--db", filepath.Join(t.TempDir(), "h.db"), "--public-url", "https://replays.example.org")
	defer stop()
	port := base[strings.LastIndex(base, ":")+1:]
	tests := []struct {
		name, method, host string
		header             map[string]string
		want               int
	}{
		{"evil host", http.MethodGet, "evil.example:" + port, nil, http.StatusMisdirectedRequest},
		{"evil host without port", http.MethodGet, "evil.example", nil, http.StatusMisdirectedRequest},
		{"localhost", http.MethodGet, "localhost:" + port, nil, http.StatusOK},
		{"127.0.0.1", http.MethodGet, "127.0.0.1:" + port, nil, http.StatusOK},
		{"public url", http.MethodGet, "replays.example.org", nil, http.StatusOK},
		{"cross-site upload", http.MethodPost, "127.0.0.1:" + port,
			map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := base + "/api/v1/games"
			if tt.method == http.MethodPost {
				url = base + "/api/v1/replays"
			}
			req, err := http.NewRequest(tt.method, url, strings.NewReader("x"))
			if err != nil {
				t.Fatal(err)
			}
			req.Host = tt.host
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tt.want {
				t.Errorf("%s with Host %s: got %s, want %d", tt.method, tt.host, res.Status, tt.want)
			}
		})
	}
	log := stderr.String()
	if strings.Contains(log, "status=200") {
		t.Errorf("answered requests were logged at the default level:\n%s", log)
	}
	if !strings.Contains(log, "level=INFO msg=request method=GET uri=/api/v1/games status=421") {
		t.Errorf("a refused request was not logged at info level:\n%s", log)
	}
}

func TestServeLogLevelDebug(t *testing.T) {
	base, _, stderr, stop := startServe(t, "--db", filepath.Join(t.TempDir(), "d.db"), "--log-level", "debug")
	defer stop()
	var games []any
	getJSON(t, base+"/api/v1/games", &games)
	if log := stderr.String(); !strings.Contains(log, "level=DEBUG msg=request method=GET uri=/api/v1/games status=200") {
		t.Errorf("--log-level debug did not log the request:\n%s", log)
	}
}

// TestServeRestoresMatches opens a database that kept its replays but lost
// their matches (as the upgrade from schema version 1 leaves it): serve
// regenerates them before it answers, so the dashboard shows them all.
func TestServeRestoresMatches(t *testing.T) {
	dir := t.TempDir()
	db, rpl := filepath.Join(dir, "old.db"), filepath.Join(dir, "m.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "3", "--bot", "builtin:astar", "-o", rpl)
	mustCLI(t, "import", "--db", db, rpl)
	dropMatches(t, db)
	base, stdout, _, stop := startServe(t, "--db", db)
	defer stop()
	if out := stdout.String(); !strings.Contains(out, "1 stored replays have no match") || !strings.Contains(out, "imported 1 new matches") {
		t.Errorf("serve did not say it regenerated the stored replay:\n%s", out)
	}
	var list struct{ Total int }
	getJSON(t, base+"/api/v1/matches", &list)
	if list.Total != 1 {
		t.Errorf("after the restore: %d matches, want 1", list.Total)
	}
}
