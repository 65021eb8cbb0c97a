package codenjoy_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/codenjoy"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/snake"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// botPath is the test bot (testdata/bot), built once for the package;
// "" in short mode, where the tests that run bots are skipped (CI runs the
// short tests under an emulator).
var botPath string

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "codenjoy-bot")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	botPath = filepath.Join(dir, "bot")
	build := exec.Command("go", "build", "-o", botPath, "./testdata/bot")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build the test bot:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needBots skips the test in short mode.
func needBots(t testing.TB) {
	t.Helper()
	if botPath == "" {
		t.Skip("runs bot processes")
	}
}

func start(t testing.TB, limit time.Duration, args ...string) *codenjoy.Bot {
	t.Helper()
	needBots(t)
	b, err := codenjoy.Start(context.Background(), codenjoy.Options{
		TurnLimit: limit, StartLimit: 20 * time.Second,
		Argv: append([]string{botPath}, args...),
	})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { b.Close() }) // for a test that stops before play closes it
	return b
}

func newMatch(t testing.TB) sim.Match {
	t.Helper()
	m, err := snake.Game.New(sim.Setup{Seed: 7, Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// play plays turns turns of a Snake match, seat 1 by the bot and seat 2
// standing still, and returns the bot's answers, the last one with the
// output Close gives for it, whole.
func play(t testing.TB, b *codenjoy.Bot, turns int) []replay.Answer {
	t.Helper()
	m := newMatch(t)
	var answers []replay.Answer
	for turn := 1; turn <= turns; turn++ {
		a := b.Act(context.Background(), turn, m.View(0))
		answers = append(answers, a)
		if err := m.Step([]string{a.Command, ""}); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
	}
	answers[len(answers)-1].Output = b.Close()
	return answers
}

var directions = map[string]bool{"UP": true, "DOWN": true, "LEFT": true, "RIGHT": true}

func TestWalk(t *testing.T) {
	needBots(t)
	before := runtime.NumGoroutine()
	defer func() {
		// Close ends every goroutine a Bot starts; the runtime may take a
		// moment to count them out.
		for end := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(end); {
			time.Sleep(10 * time.Millisecond)
		}
		if got := runtime.NumGoroutine(); got > before {
			t.Errorf("%d goroutines after Close, want at most %d as before", got, before)
		}
	}()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"url argument", []string{"-mode", "walk", "{url}"}},
		{"url variable", []string{"-mode", "walk"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs [2][]string
			for i := range runs {
				answers := play(t, start(t, 5*time.Second, tc.args...), 30)
				for turn, a := range answers {
					if a.Note != "" || !directions[a.Command] {
						t.Fatalf("turn %d: got %q (note %q), want a direction", turn+1, a.Command, a.Note)
					}
					if want := fmt.Sprintf("board %d\n", turn+1); !strings.Contains(a.Stderr, want) {
						t.Errorf("turn %d: stderr %q lacks %q", turn+1, a.Stderr, want)
					}
					runs[i] = append(runs[i], a.Command)
				}
			}
			if strings.Join(runs[0], " ") != strings.Join(runs[1], " ") {
				t.Errorf("the same bot played differently:\n%v\n%v", runs[0], runs[1])
			}
		})
	}
}

func TestMisbehaviours(t *testing.T) {
	t.Run("chatter", func(t *testing.T) {
		answers := play(t, start(t, 5*time.Second, "-mode", "chatter", "{url}"), 5)
		for turn, a := range answers {
			n := turn + 1
			if a.Note != "" || !directions[a.Command] {
				t.Errorf("turn %d: got %q (note %q), want a direction", n, a.Command, a.Note)
			}
			if want := fmt.Sprintf("thinking about board %d\n", n); !strings.Contains(a.Stdout, want) {
				t.Errorf("turn %d: stdout %q lacks %q", n, a.Stdout, want)
			}
			if want := fmt.Sprintf("debug %d\n", n); !strings.Contains(a.Stderr, want) {
				t.Errorf("turn %d: stderr %q lacks %q", n, a.Stderr, want)
			}
		}
	})
	t.Run("late answer", func(t *testing.T) {
		// The answer to board 2 comes in turn 4: turns 2 and 3 time out,
		// no board goes out in turns 3 and 4, and turn 4 plays it.
		answers := play(t, start(t, time.Second, "-mode", "late", "-sleep", "2500ms", "{url}"), 6)
		notes := make([]string, len(answers))
		boards := 0
		for i, a := range answers {
			notes[i] = a.Note
			boards += strings.Count(a.Stderr, "board ")
		}
		if got, want := strings.Join(notes, ","), ",timeout,timeout,,,"; got != want {
			t.Errorf("notes %q, want %q", got, want)
		}
		if !directions[answers[3].Command] {
			t.Errorf("turn 4: got %q, want the late answer", answers[3].Command)
		}
		if boards != 4 {
			t.Errorf("the bot got %d boards in 6 turns, want 4", boards)
		}
	})
	t.Run("flood", func(t *testing.T) {
		for turn, a := range play(t, start(t, 5*time.Second, "-mode", "flood", "{url}"), 10) {
			if a.Note != "" || !directions[a.Command] {
				t.Errorf("turn %d: got %q (note %q), want a direction", turn+1, a.Command, a.Note)
			}
		}
	})
	t.Run("oversize", func(t *testing.T) {
		answers := play(t, start(t, 5*time.Second, "-mode", "oversize", "{url}"), 5)
		if a := answers[1]; a.Note != sim.EventOversize || len(a.Command) != replay.MaxCommandBytes || !strings.HasPrefix(a.Command, "UP ") {
			t.Errorf("turn 2: got %d bytes (note %q), want %d, oversize", len(a.Command), a.Note, replay.MaxCommandBytes)
		}
		if a := answers[2]; a.Note != sim.EventCrash {
			t.Errorf("turn 3 (a frame over the limit): got note %q, want a crash", a.Note)
		}
		if a := answers[3]; a.Note != "" || a.Command != "" {
			t.Errorf("turn 4: got %q (note %q), want silence", a.Command, a.Note)
		}
	})
	t.Run("crash", func(t *testing.T) {
		answers := play(t, start(t, 5*time.Second, "-mode", "crash", "{url}"), 6)
		notes := make([]string, len(answers))
		for i, a := range answers {
			notes[i] = a.Note
		}
		if got, want := strings.Join(notes, ","), ",,,crash,,"; got != want {
			t.Errorf("notes %q, want %q", got, want)
		}
	})
	t.Run("child left behind", func(t *testing.T) {
		pidfile := filepath.Join(t.TempDir(), "pid")
		play(t, start(t, 5*time.Second, "-mode", "child", "-pidfile", pidfile, "{url}"), 3)
		data, err := os.ReadFile(pidfile)
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		// Close has reaped the group; the child, reparented, may linger
		// as a zombie only until init reaps it.
		if err := syscall.Kill(pid, 0); err == nil && !zombie(pid) {
			t.Errorf("the bot's child %d is still running after Close", pid)
		}
	})
}

// zombie reports whether process pid has exited but not been reaped.
func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // gone meanwhile
	}
	_, after, _ := strings.Cut(string(data), ") ")
	return strings.HasPrefix(after, "Z")
}

func TestStartErrors(t *testing.T) {
	needBots(t)
	for _, tc := range []struct {
		name string
		argv []string
		want string
	}{
		{"never connects", []string{"sh", "-c", "echo starting >&2; sleep 30"}, "no codenjoy bot connected"},
		{"wrong code", []string{botPath, "-mode", "wrongcode", "{url}"}, "exited without connecting"},
		{"no such program", []string{"./no-such-bot", "{url}"}, "no-such-bot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := codenjoy.Start(context.Background(), codenjoy.Options{
				TurnLimit: time.Second, StartLimit: time.Second, Argv: tc.argv,
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestListen connects by hand, as a bot started from an IDE: a wrong
// code and a second connection are refused, and boards go to the one
// that connected.
func TestListen(t *testing.T) {
	var announce bytes.Buffer
	dialed := make(chan *websocket.Conn, 1)
	errs := make(chan error, 3)
	started := make(chan *codenjoy.Bot, 1)
	go func() {
		b, err := codenjoy.Start(context.Background(), codenjoy.Options{
			Seat: 1, TurnLimit: 5 * time.Second, StartLimit: 20 * time.Second, Announce: &lockedWriter{buf: &announce, dialed: dialed, errs: errs},
		})
		if err != nil {
			errs <- err
		}
		started <- b
	}()
	b := <-started
	if b == nil {
		t.Fatal(<-errs)
	}
	defer b.Close()
	c := <-dialed
	if c == nil {
		t.Fatal(<-errs)
	}
	defer c.CloseNow()
	if !strings.Contains(announce.String(), "Seat 2: waiting") || !strings.Contains(announce.String(), b.URL()) {
		t.Errorf("announced %q, want Seat 2 and %s", announce.String(), b.URL())
	}
	if _, _, err := websocket.Dial(context.Background(), wsURL(b.URL()), nil); err == nil {
		t.Error("a second connection was accepted")
	}
	m := newMatch(t)
	done := make(chan replay.Answer, 1)
	go func() { done <- b.Act(context.Background(), 1, m.View(1)) }()
	_, data, err := c.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := codenjoy.Frame(m.View(1).(*snake.View)); string(data) != want {
		t.Errorf("got frame %q, want %q", data, want)
	}
	c.Write(context.Background(), websocket.MessageText, []byte("act,left"))
	if a := <-done; a.Command != "act,left" || a.Note != "" {
		t.Errorf("got %q (note %q), want \"act,left\"", a.Command, a.Note)
	}
}

// lockedWriter is the Announce of TestListen: on the announcement it
// dials with a wrong code (which must fail), then with the right one.
type lockedWriter struct {
	buf    *bytes.Buffer
	dialed chan *websocket.Conn
	errs   chan error
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	url := strings.Fields(string(p))
	board := url[len(url)-1]
	go func() {
		ctx := context.Background()
		if c, _, err := websocket.Dial(ctx, wsURL(board+"x"), nil); err == nil {
			c.CloseNow()
			w.errs <- fmt.Errorf("a wrong code was accepted")
			w.dialed <- nil
			return
		}
		c, _, err := websocket.Dial(ctx, wsURL(board), nil)
		if err != nil {
			w.errs <- err
		}
		w.dialed <- c
	}()
	return len(p), nil
}

// wsURL turns a board URL into the websocket address, as the clients do.
func wsURL(board string) string {
	s := strings.Replace(board, "http", "ws", 1)
	s = strings.Replace(s, "board/player/", "ws?user=", 1)
	return strings.Replace(s, "?code=", "&code=", 1)
}

// TestFrameGolden locks the frame each seat gets at a fixed seed and
// turn against testdata/frames.txt, and checks its form against the
// original server's: "board=", then size×size glyphs of the game's
// legend, the seat's own snake in own glyphs and the other in enemy ones.
func TestFrameGolden(t *testing.T) {
	m := newMatch(t)
	for range 9 { // into round 1: both snakes awake and moving
		if err := m.Step([]string{"RIGHT", "RIGHT"}); err != nil {
			t.Fatal(err)
		}
	}
	legend := map[rune]string{}
	for _, g := range snake.Game.View.Glyphs {
		r, _ := utf8.DecodeRuneInString(g.Glyph)
		legend[r] = g.Meaning
	}
	var got strings.Builder
	for seat := range 2 {
		frame := codenjoy.Frame(m.View(seat).(*snake.View))
		fmt.Fprintf(&got, "%s\n", frame)
		board, ok := strings.CutPrefix(frame, "board=")
		if !ok {
			t.Fatalf("seat %d: frame %q does not start with board=", seat, frame)
		}
		if n := utf8.RuneCountInString(board); n != 30*30 {
			t.Errorf("seat %d: %d glyphs, want 30×30", seat, n)
		}
		own, enemy := 0, 0
		for _, r := range board {
			meaning, ok := legend[r]
			if !ok {
				t.Fatalf("seat %d: glyph %q is not in the legend", seat, r)
			}
			own += b2i(strings.HasPrefix(meaning, "own snake"))
			enemy += b2i(strings.HasPrefix(meaning, "enemy snake"))
		}
		if own == 0 || enemy == 0 {
			t.Errorf("seat %d: %d own and %d enemy glyphs, want both", seat, own, enemy)
		}
	}
	path := filepath.Join("testdata", "frames.txt")
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("frames differ from %s (-update to rewrite):\n%s", path, got.String())
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
