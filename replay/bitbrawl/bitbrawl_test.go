package bitbrawl_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/bitbrawl"
	"github.com/replaylab/replaylab/replay/replaytest"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/foodfight"
)

const turns = 8

// want is what the stand-in runner plays at each turn: ACTIONS in
// runner.py by turn number.
func want(turn int) string {
	return [...]string{"moveForward", "turnLeft", "moveForward", "turnRight", "duck", "null"}[turn%6]
}

// start starts testdata/runner.py with args as the runner of Seat 1.
func start(t *testing.T, bank time.Duration, args ...string) *bitbrawl.Agent {
	t.Helper()
	if testing.Short() {
		t.Skip("real runner processes")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	replaytest.CheckGoroutines(t)
	argv := append([]string{"python3", filepath.Join("testdata", "runner.py")}, args...)
	a, err := bitbrawl.Start(context.Background(), argv, bank, replay.ProcessOptions{StartLimit: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// record plays turns turns of a DUEL, the runner in Seat 1 against the
// random built-in bot, and returns the log and Seat 1's output per turn.
func record(t *testing.T, a *bitbrawl.Agent) (*replay.Log, replaytest.Outputs) {
	t.Helper()
	h := replay.NewHeader(foodfight.Game, "", 4, nil)
	h.Players = []replay.Player{{Name: "runner"}, {Name: "random", Version: replay.BuiltinVersion}}
	b, err := replay.NewBuiltin(foodfight.Game, "random", h.Setup(), 1)
	if err != nil {
		t.Fatal(err)
	}
	l, outputs := replaytest.Record(t, &replay.Recorder{Header: h, Agents: []replay.Agent{a, b}, Until: turns})
	return l, outputs[0]
}

// checkCommands compares Seat 1's commands with want's, but for the
// turns of except.
func checkCommands(t *testing.T, l *replay.Log, except map[int]string) {
	t.Helper()
	if len(l.Turns) != turns {
		t.Fatalf("got %d turns, want %d", len(l.Turns), turns)
	}
	for i, cmds := range l.Turns {
		w, ok := except[i+1]
		if !ok {
			w = want(i + 1)
		}
		if cmds[0] != w {
			t.Errorf("turn %d: got command %.40q, want %q", i+1, cmds[0], w)
		}
	}
}

func checkNotes(t *testing.T, l *replay.Log, want ...replay.Note) {
	t.Helper()
	if fmt.Sprint(l.Notes) != fmt.Sprint(want) {
		t.Errorf("got notes %+v, want %+v", l.Notes, want)
	}
}

func TestPlays(t *testing.T) {
	l, output := record(t, start(t, bitbrawl.Bank))
	checkNotes(t, l)
	checkCommands(t, l, nil)
	for turn, o := range output {
		if o.Stdout != "" || o.Stderr != "" {
			t.Errorf("turn %d: got output %+v, want none", turn, o)
		}
	}
}

func TestMisbehaviour(t *testing.T) {
	t.Run("chatter", func(t *testing.T) {
		l, output := record(t, start(t, bitbrawl.Bank, "chatter"))
		checkNotes(t, l)
		checkCommands(t, l, nil)
		for turn := 1; turn <= turns; turn++ {
			o := output[turn]
			if w := fmt.Sprintf("debug%d\n", turn); !strings.Contains(o.Stdout, w) {
				t.Errorf("turn %d: stdout %q lacks %q", turn, o.Stdout, w)
			}
			if w := fmt.Sprintf("turn %d: at [", turn); !strings.Contains(o.Stderr, w) {
				t.Errorf("turn %d: stderr %q lacks %q", turn, o.Stderr, w)
			}
		}
	})
	t.Run("late", func(t *testing.T) {
		// The bank runs out on turn 3: that turn and every one after are
		// null, the late answer output.
		l, output := record(t, start(t, 100*time.Millisecond, "late", "3"))
		except := map[int]string{}
		var notes []replay.Note
		for turn := 3; turn <= turns; turn++ {
			except[turn] = ""
			notes = append(notes, replay.Note{Turn: turn, Seat: 0, Kind: sim.EventTimeout})
		}
		checkNotes(t, l, notes...)
		checkCommands(t, l, except)
		var all string
		for turn := 3; turn <= turns; turn++ {
			all += output[turn].Stdout
		}
		if !strings.Contains(all, strconv.Quote(want(3))) {
			t.Errorf("got stdout %q after turn 3, want the late answer", all)
		}
	})
	t.Run("crash", func(t *testing.T) {
		l, _ := record(t, start(t, bitbrawl.Bank, "crash"))
		checkNotes(t, l, replay.Note{Turn: 3, Seat: 0, Kind: sim.EventCrash})
		checkCommands(t, l, map[int]string{3: "", 4: "", 5: "", 6: "", 7: "", 8: ""})
	})
	t.Run("flood", func(t *testing.T) {
		l, output := record(t, start(t, bitbrawl.Bank, "flood"))
		checkNotes(t, l)
		checkCommands(t, l, nil)
		if o := output[2].Stdout; !strings.Contains(o, "bytes truncated]") || len(o) > 2*replay.MaxOutputBytes {
			t.Errorf("turn 2: got %d bytes of stdout, want it cut near %d", len(o), replay.MaxOutputBytes)
		}
	})
	t.Run("long", func(t *testing.T) {
		l, _ := record(t, start(t, bitbrawl.Bank, "long"))
		checkNotes(t, l, replay.Note{Turn: 2, Seat: 0, Kind: sim.EventOversize})
		if got := len(l.Turns[1][0]); got > replay.MaxCommandBytes {
			t.Errorf("turn 2: got a command of %d bytes, want at most %d", got, replay.MaxCommandBytes)
		}
	})
	t.Run("child", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "child.pid")
		l, _ := record(t, start(t, bitbrawl.Bank, "child", pidFile))
		checkNotes(t, l)
		checkCommands(t, l, nil)
		replaytest.CheckDead(t, pidFile)
	})
}
