package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
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
	// A hang guard, not a speed check: --demo fills the database before it
	// listens, which takes minutes under the race detector on a busy machine.
	deadline := time.Now().Add(5 * time.Minute)
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
	var list struct{ Total int }
	getJSON(t, base+"/api/v1/matches", &list)
	if want := len(demoPlan()); list.Total != want {
		t.Errorf("demo stored %d matches, want %d", list.Total, want)
	}
	var bots map[string][]struct {
		Name    string
		Matches int
	}
	getJSON(t, base+"/api/v1/bots?game=toad", &bots)
	if len(bots["toad"]) != 2 {
		t.Errorf("toad leaderboard: got %+v, want both built-in bots", bots["toad"])
	}
	if !strings.Contains(stdout.String(), "demo: stored") {
		t.Errorf("no demo progress on stdout: %s", stdout.String())
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
	getJSON(t, base+"/api/v1/matches", &list)
	if want := len(demoPlan()); list.Total != want {
		t.Errorf("second --demo: %d matches, want still %d", list.Total, want)
	}
	if !strings.Contains(stdout.String(), "left unchanged") {
		t.Errorf("second --demo did not say it left the database alone: %s", stdout.String())
	}
	stop()
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
