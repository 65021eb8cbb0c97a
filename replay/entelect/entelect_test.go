package entelect_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/entelect"
	"github.com/replaylab/replaylab/replay/replaytest"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/worms"
)

const rounds = 6

// botDir makes a bot directory holding testdata's file under a bot.json
// of the language, and mode.txt with mode for bot.py.
func botDir(t testing.TB, language, file, mode string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("real bot processes are slow to end")
	}
	if _, err := exec.LookPath("python3"); err != nil && strings.HasSuffix(file, ".py") {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	files := map[string]string{
		"bot.json":     fmt.Sprintf(`{"nickName":"tester","botLocation":"/bin","botFileName":%q,"botLanguage":%q}`, file, language),
		"bin/" + file:  string(data),
		"bin/mode.txt": mode,
	}
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// record plays a short Worms match of the ruleset, the bot of dir in
// Seat 1 against the random built-in bot, and returns the log and Seat
// 1's output per turn.
func record(t testing.TB, dir, ruleset string, limit time.Duration) (*replay.Log, replaytest.Outputs) {
	t.Helper()
	replaytest.CheckGoroutines(t)
	h := replay.NewHeader(worms.Game, ruleset, 3, []byte(fmt.Sprintf(`{"rounds":%d}`, rounds)))
	h.Players = []replay.Player{{Name: "tester"}, {Name: "random", Version: replay.BuiltinVersion}}
	a, err := entelect.Start(context.Background(), dir, ruleset, replay.ProcessOptions{TurnLimit: limit, StartLimit: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	b, err := replay.NewBuiltin(worms.Game, "random", h.Setup(), 1)
	if err != nil {
		t.Fatal(err)
	}
	l, outputs := replaytest.Record(t, &replay.Recorder{Header: h, Agents: []replay.Agent{a, b}})
	return l, outputs[0]
}

func checkNotes(t *testing.T, l *replay.Log, want ...replay.Note) {
	t.Helper()
	if fmt.Sprint(l.Notes) != fmt.Sprint(want) {
		t.Errorf("got notes %+v, want %+v", l.Notes, want)
	}
}

// checkFramed fails t unless Seat 1 answered every turn but those of
// except with the runner's framing of that turn.
func checkFramed(t *testing.T, l *replay.Log, except ...int) {
	t.Helper()
	if len(l.Turns) != rounds {
		t.Fatalf("got %d turns, want %d", len(l.Turns), rounds)
	}
	for i, cmds := range l.Turns {
		framed := strings.HasPrefix(cmds[0], fmt.Sprintf("C;%d;", i+1))
		if want := !contains(except, i+1); framed != want {
			t.Errorf("turn %d: got command %.60q, want framed %v", i+1, cmds[0], want)
		}
	}
}

func contains(s []int, n int) bool {
	for _, v := range s {
		if v == n {
			return true
		}
	}
	return false
}

func TestPlays(t *testing.T) {
	for _, ruleset := range []string{"base", "final"} {
		t.Run(ruleset, func(t *testing.T) {
			dir := botDir(t, map[string]string{"base": "python", "final": "python3"}[ruleset], "bot.py", "good")
			l, _ := record(t, dir, ruleset, 5*time.Second)
			checkNotes(t, l)
			checkFramed(t, l)
			for i, cmds := range l.Turns {
				if strings.HasSuffix(cmds[0], ";nothing") {
					t.Errorf("turn %d: got %q, want the bot's move or dig read from the state", i+1, cmds[0])
				}
			}
			for n := 1; n <= rounds; n++ {
				for _, f := range []string{"state.json", "textMap.txt"} {
					if _, err := os.Stat(filepath.Join(dir, "bin", "rounds", strconv.Itoa(n), f)); err != nil {
						t.Errorf("round %d: %v", n, err)
					}
				}
			}
			// The bot is deterministic: a second match is the same.
			again, _ := record(t, dir, ruleset, 5*time.Second)
			if fmt.Sprint(again.Turns) != fmt.Sprint(l.Turns) {
				t.Errorf("got commands %q in the second match, want %q", again.Turns, l.Turns)
			}
		})
	}
}

// TestShellBot: a compiled bot's language starts ./FILE in the bot's
// directory; its chatter is output.
func TestShellBot(t *testing.T) {
	dir := botDir(t, "cplusplus", "bot.sh", "")
	l, output := record(t, dir, "final", 5*time.Second)
	checkNotes(t, l)
	checkFramed(t, l)
	for turn := 1; turn <= rounds; turn++ {
		if want := fmt.Sprintf("round %d\n", turn); !strings.Contains(output[turn].Stdout, want) {
			t.Errorf("turn %d: stdout %q lacks %q", turn, output[turn].Stdout, want)
		}
	}
}

func TestMisbehaviour(t *testing.T) {
	t.Run("chatter", func(t *testing.T) {
		l, output := record(t, botDir(t, "python3", "bot.py", "chatter"), "final", 5*time.Second)
		checkNotes(t, l)
		checkFramed(t, l)
		for turn := 1; turn <= rounds; turn++ {
			o := output[turn]
			for _, want := range []string{fmt.Sprintf("thinking about round %d\n", turn), fmt.Sprintf("C;%d;invalid", turn+1)} {
				if !strings.Contains(o.Stdout, want) {
					t.Errorf("turn %d: stdout %q lacks %q", turn, o.Stdout, want)
				}
			}
			if want := fmt.Sprintf("stderr of round %d\n", turn); !strings.Contains(o.Stderr, want) {
				t.Errorf("turn %d: stderr %q lacks %q", turn, o.Stderr, want)
			}
		}
	})
	t.Run("late", func(t *testing.T) {
		l, output := record(t, botDir(t, "python3", "bot.py", "late"), "final", time.Second)
		checkNotes(t, l, replay.Note{Turn: 3, Seat: 0, Kind: sim.EventTimeout})
		checkFramed(t, l, 3)
		if !strings.Contains(output[4].Stdout, "C;3;") {
			t.Errorf("turn 4: stdout %q lacks the late answer to round 3", output[4].Stdout)
		}
	})
	t.Run("crash", func(t *testing.T) {
		l, _ := record(t, botDir(t, "python3", "bot.py", "crash"), "final", 5*time.Second)
		checkNotes(t, l, replay.Note{Turn: 3, Seat: 0, Kind: sim.EventCrash})
		checkFramed(t, l, 3, 4, 5, 6)
	})
	t.Run("flood", func(t *testing.T) {
		l, output := record(t, botDir(t, "python3", "bot.py", "flood"), "final", 5*time.Second)
		checkNotes(t, l)
		checkFramed(t, l)
		if o := output[2].Stdout; !strings.Contains(o, "bytes truncated]") || len(o) > 2*replay.MaxOutputBytes {
			t.Errorf("turn 2: got %d bytes of stdout, want it cut near %d", len(o), replay.MaxOutputBytes)
		}
	})
	t.Run("long", func(t *testing.T) {
		l, _ := record(t, botDir(t, "python3", "bot.py", "long"), "final", 5*time.Second)
		checkNotes(t, l, replay.Note{Turn: 2, Seat: 0, Kind: sim.EventOversize})
		checkFramed(t, l)
		if got := len(l.Turns[1][0]); got > replay.MaxCommandBytes {
			t.Errorf("turn 2: got a command of %d bytes, want at most %d", got, replay.MaxCommandBytes)
		}
	})
	t.Run("child", func(t *testing.T) {
		dir := botDir(t, "python3", "bot.py", "child")
		l, _ := record(t, dir, "final", 5*time.Second)
		checkNotes(t, l)
		replaytest.CheckDead(t, filepath.Join(dir, "bin", "child.pid"))
	})
}

// TestSelfPlay: two seats of one bot directory each read their own
// state, never the other's.
func TestSelfPlay(t *testing.T) {
	dir := botDir(t, "python3", "bot.py", "good")
	h := replay.NewHeader(worms.Game, "final", 3, []byte(fmt.Sprintf(`{"rounds":%d}`, rounds)))
	h.Players = []replay.Player{{Name: "a"}, {Name: "b"}}
	var agents []replay.Agent
	for s := range 2 {
		a, err := entelect.Start(context.Background(), dir, "final", replay.ProcessOptions{Seat: s, TurnLimit: 5 * time.Second, StartLimit: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		agents = append(agents, a)
	}
	// The bot prints on stderr which player's state of which round it read.
	l, outputs := replaytest.Record(t, &replay.Recorder{Header: h, Agents: agents})
	checkNotes(t, l)
	for s := range 2 {
		var want strings.Builder
		for n := 1; n <= rounds; n++ {
			fmt.Fprintf(&want, "player %d read round %d\n", s+1, n)
		}
		var got string
		for turn := 1; turn <= len(l.Turns); turn++ {
			got += outputs[s][turn].Stderr
		}
		if got != want.String() {
			t.Errorf("%s: got stderr %q, want %q", sim.SeatName(s), got, want.String())
		}
	}
}

func TestLoad(t *testing.T) {
	for _, tc := range []struct{ name, json, want string }{
		{"language", `{"botLocation":"/","botFileName":"b","botLanguage":"cobol"}`, `botLanguage "cobol" is none the runner knows`},
		{"file", `{"botLocation":"/","botLanguage":"java"}`, "botFileName is empty"},
		{"json", `{"botLocation":`, "unexpected end of JSON input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "bot.json"), []byte(tc.json), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := entelect.Load(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one saying %q", err, tc.want)
			}
		})
	}
	t.Run("haskell", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "bot.json"), []byte(`{"botLocation":"/bin","botFileName":"hs","botLanguage":"haskell","arguments":{"coreCount":2}}`), 0o644)
		b, err := entelect.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		argv, _ := b.Command()
		if got, want := strings.Join(argv, " "), "./hs +RTS -N2 -RTS"; got != want {
			t.Errorf("got command %q, want %q", got, want)
		}
		if got, want := b.Dir, filepath.Join(dir, "bin"); got != want {
			t.Errorf("got directory %s, want %s", got, want)
		}
	})
}
