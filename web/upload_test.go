package web

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/replaylab/replaylab/store"
)

// TestSlowBodiesHoldNoSlot sends uploads whose bodies trickle in over real
// connections, one byte every 100 ms, to a server with one regeneration
// slot: uploads sent meanwhile are stored, and each slow one is cut off
// with 408 once it falls behind the pace.
func TestSlowBodiesHoldNoSlot(t *testing.T) {
	f := newFixture(t, func(c *Config) {
		c.MaxRegenerations = 1
		c.pace = pace{grace: 2 * time.Second, rate: 1 << 10}
	})
	srv := httptest.NewServer(f.e)
	defer srv.Close()
	enc, _ := f.encodeFresh(t)
	stored := recordToad(t, 1, "astar", "astar", `{"turns":30}`) // the fixture's won match
	storedText, err := stored.EncodeText()
	if err != nil {
		t.Fatal(err)
	}

	const slow = 3
	answers := make(chan string, slow)
	var trickling sync.WaitGroup
	trickling.Add(slow)
	for range slow {
		go func() {
			answers <- trickle(t, srv.Listener.Addr().String(), enc.Bytes, &trickling)
		}()
	}
	trickling.Wait() // every slow upload is in its handler, its first byte sent

	for i := range 6 {
		body := storedText
		if i == 0 {
			body = enc.Bytes
		}
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/replays", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = testAddr
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusCreated {
			t.Errorf("upload %d beside %d slow ones: got %d %s, want 200 or 201", i+1, slow, res.StatusCode, got)
		}
	}
	for range slow {
		if got := <-answers; !strings.HasPrefix(got, "HTTP/1.1 408 ") || !strings.Contains(got, "arrived too slowly") {
			t.Errorf("slow upload: got %q, want 408 saying it arrived too slowly", got)
		}
	}
	if log := f.log.String(); strings.Contains(log, "level=ERROR") {
		t.Errorf("slow uploads are the client's fault, not errors:\n%s", log)
	}
}

// trickle sends an upload of body over a new connection to addr, one byte
// every 100 ms, marking started once its first byte is out, and returns
// the status line and body of the answer.
func trickle(t *testing.T, addr string, body []byte, started *sync.WaitGroup) string {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		started.Done()
		return err.Error()
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Minute)) // a hang fails the test, not the run
	fmt.Fprintf(conn, "POST /api/v1/replays HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n%c", testAddr, len(body), body[0])
	started.Done()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for _, b := range body[1:] {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := conn.Write([]byte{b}); err != nil {
				return
			}
		}
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return err.Error()
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	return res.Proto + " " + res.Status + " " + string(got)
}

// TestUnterminatedForm refuses, with 400 and the reason, a form whose
// replay or output part never reaches its closing boundary, and logs no
// error: the body is bad input, not a server fault.
func TestUnterminatedForm(t *testing.T) {
	f := newFixture(t, nil)
	enc, _ := f.encodeFresh(t)
	form, formType := multipartBody(t, field{"replay", enc.Bytes})
	withOutput, withOutputType := multipartBody(t, field{"replay", enc.Bytes}, field{"output", []byte(`{"turn":1,"seat":0,"stream":"stderr","text":"hi"}` + "\n")})
	end := bytes.LastIndex(form, []byte("\r\n--"))
	outputEnd := bytes.LastIndex(withOutput, []byte("\r\n--"))
	for _, sc := range []scenario{
		{name: "no closing boundary", body: form[:end], header: map[string]string{"Content-Type": formType}},
		{name: "cut inside the replay", body: form[:end-len(enc.Bytes)/2], header: map[string]string{"Content-Type": formType}},
		{name: "output with no closing boundary", body: withOutput[:outputEnd], header: map[string]string{"Content-Type": withOutputType}},
	} {
		sc.method, sc.url, sc.status = http.MethodPost, "/api/v1/replays", http.StatusBadRequest
		sc.want = []string{"malformed multipart form"}
		t.Run(sc.name, func(t *testing.T) {
			f.log.Reset()
			sc.run(t, f.e)
			if log := f.log.String(); strings.Contains(log, "level=ERROR") {
				t.Errorf("a malformed form is no server fault:\n%s", log)
			}
		})
	}
}

// endless is a body of a replay's opening bytes followed by zeros without
// end.
type endless struct{ head []byte }

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.head)
	e.head = e.head[n:]
	clear(p[n:])
	return len(p), nil
}

// TestOversizeRefusedEarly refuses a body over the replay format's own
// limit as soon as it passes it, even when --max-upload would take far
// more, instead of buffering it whole.
func TestOversizeRefusedEarly(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxUpload = 1 << 30 })
	for _, tt := range []struct {
		name string
		head string
	}{
		{"binary", "RPL\x02\x00"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spy := &spyReader{r: &endless{head: []byte(tt.head)}}
			req := httptest.NewRequest(http.MethodPost, "/api/v1/replays", spy)
			req.Host = testAddr
			req.ContentLength = -1
			rec := httptest.NewRecorder()
			f.e.ServeHTTP(rec, req)
			if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "too large") {
				t.Errorf("got %d %s, want 413 saying it is too large", rec.Code, rec.Body)
			}
			if most := 80 << 20; spy.read > most {
				t.Errorf("read %d MiB of the body, want at most %d MiB", spy.read>>20, most>>20)
			}
		})
	}
}

// holdLockEnv names the database TestHoldWriteLock locks, in the child
// process TestUploadWhileLocked starts.
const holdLockEnv = "REPLAYLAB_TEST_HOLD_WRITE_LOCK"

// TestHoldWriteLock is not a test of its own: run as a child process with
// holdLockEnv set, it takes the write lock of that database, says "held",
// and keeps the lock until its standard input ends.
func TestHoldWriteLock(t *testing.T) {
	path := os.Getenv(holdLockEnv)
	if path == "" {
		t.Skip("run by TestUploadWhileLocked as another program")
	}
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	fmt.Println("held")
	io.Copy(io.Discard, os.Stdin)
}

// TestUploadWhileLocked uploads while another program holds the
// database's write lock for longer than the store waits: the answer is
// 503 with Retry-After, logged as a warning, and the same upload is stored
// once the lock is let go.
func TestUploadWhileLocked(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the store's busy timeout; not in -short")
	}
	path := filepath.Join(t.TempDir(), "web.db")
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	log := &syncBuffer{}
	e, err := New(Config{DB: db, Addr: testAddr, Log: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	text, err := recordToad(t, 4, "astar", "astar", `{"turns":25}`).EncodeText()
	if err != nil {
		t.Fatal(err)
	}

	holder := exec.Command(os.Args[0], "-test.run=^TestHoldWriteLock$")
	holder.Env = append(os.Environ(), holdLockEnv+"="+path)
	release, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Wait()
	defer release.Close()
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "held\n" {
		t.Fatalf("the lock holder said %q (%v), want held", line, err)
	}

	scenario{name: "locked", method: http.MethodPost, url: "/api/v1/replays", body: text, status: 503,
		want: []string{"database is busy", "retry shortly"}, wantHeaders: map[string]string{"Retry-After": busyRetryAfter}}.run(t, e)
	if got := log.String(); strings.Contains(got, "level=ERROR") || !strings.Contains(got, "level=WARN") {
		t.Errorf("a locked database is logged as a warning, not an error:\n%s", got)
	}
	release.Close()
	if err := holder.Wait(); err != nil {
		t.Fatalf("lock holder: %v", err)
	}
	scenario{name: "unlocked", method: http.MethodPost, url: "/api/v1/replays", body: text, status: 201}.run(t, e)
}
