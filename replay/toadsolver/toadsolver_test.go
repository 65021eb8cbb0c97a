package toadsolver_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/replaytest"
	"github.com/replaylab/replaylab/replay/toadsolver"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/toad"
)

func header() replay.Header {
	h := replay.NewHeader(toad.Game, "classic", 5, []byte(`{"turns":40}`))
	h.Players = []replay.Player{{Name: "solver"}}
	return h
}

// record records header's match with a and returns the log and the
// output of every turn.
func record(t *testing.T, a replay.Agent) (*replay.Log, replaytest.Outputs) {
	t.Helper()
	replaytest.CheckGoroutines(t)
	l, outputs := replaytest.Record(t, &replay.Recorder{Header: header(), Agents: []replay.Agent{a}})
	return l, outputs[0]
}

// astarPlan records the match with the astar built-in bot and writes its
// letters to a file of dir (with extra appended), which the test solvers
// print as their plan.
func astarPlan(t *testing.T, dir, extra string) (*replay.Log, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("real solver processes")
	}
	h := header()
	a, err := replay.NewBuiltin(toad.Game, "astar", h.Setup(), 0)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := record(t, a)
	var plan strings.Builder
	for _, cmds := range l.Turns {
		plan.WriteString(cmds[0])
	}
	path := filepath.Join(dir, "plan.txt")
	if err := os.WriteFile(path, []byte(plan.String()+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	return l, path
}

func solver(t *testing.T, limit time.Duration, argv ...string) *toadsolver.Agent {
	t.Helper()
	a, err := toadsolver.New(argv, limit)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func checkSame(t *testing.T, got, want *replay.Log, turns int) {
	t.Helper()
	for i := range min(turns, len(want.Turns)) {
		if i >= len(got.Turns) || got.Turns[i][0] != want.Turns[i][0] {
			t.Fatalf("turn %d: got commands %q, want astar's %q", i+1, got.Turns, want.Turns)
		}
	}
}

func checkNotes(t *testing.T, l *replay.Log, want ...replay.Note) {
	t.Helper()
	if fmt.Sprint(l.Notes) != fmt.Sprint(want) {
		t.Errorf("got notes %+v, want %+v", l.Notes, want)
	}
}

func TestStdio(t *testing.T) {
	dir := t.TempDir()
	want, plan := astarPlan(t, dir, "")
	l, output := record(t, solver(t, 10*time.Second, "/bin/sh", "testdata/solver.sh", plan))
	checkSame(t, l, want, len(want.Turns))
	if len(l.Turns) != len(want.Turns) {
		t.Errorf("got %d turns, want %d", len(l.Turns), len(want.Turns))
	}
	checkNotes(t, l)
	if got, want := output[1].Stdout, "7\n#     #\n"; got != want {
		t.Errorf("turn 1: got stdout %q, want the lines after the plan %q", got, want)
	}
}

// TestFileArgs: a course solver, run as "puzzle.py INPUT OUTPUT", plays
// unchanged.
func TestFileArgs(t *testing.T) {
	dir := t.TempDir()
	want, _ := astarPlan(t, dir, "")
	script, err := os.ReadFile("testdata/puzzle.py")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "puzzle.py"), script, 0o644)
	l, output := record(t, solver(t, 10*time.Second, "python3", filepath.Join(dir, "puzzle.py"), toadsolver.InputArg, toadsolver.OutputArg))
	checkSame(t, l, want, len(want.Turns))
	checkNotes(t, l)
	if got, want := output[1].Stderr, "solved 40 rolls\n"; got != want {
		t.Errorf("turn 1: got stderr %q, want its console %q", got, want)
	}
}

func TestMisbehaviour(t *testing.T) {
	t.Run("chatter", func(t *testing.T) {
		dir := t.TempDir()
		want, plan := astarPlan(t, dir, "")
		l, output := record(t, solver(t, 10*time.Second, "/bin/sh", "testdata/solver.sh", plan, "chatter"))
		checkSame(t, l, want, len(want.Turns))
		checkNotes(t, l)
		if got := output[1].Stderr; got != "solving 40 rolls\n" {
			t.Errorf("turn 1: got stderr %q", got)
		}
	})
	t.Run("short", func(t *testing.T) {
		dir := t.TempDir()
		want, plan := astarPlan(t, dir, "")
		l, _ := record(t, solver(t, 10*time.Second, "/bin/sh", "testdata/solver.sh", plan, "short"))
		checkSame(t, l, want, 3)
		for i, n := range l.Notes {
			if n.Turn != 4+i || n.Kind != sim.EventTimeout {
				t.Fatalf("got notes %+v, want a time-out every turn from 4", l.Notes)
			}
		}
		if len(l.Notes) != len(l.Turns)-3 {
			t.Errorf("got %d notes for %d turns, want one a turn past the plan", len(l.Notes), len(l.Turns))
		}
	})
	t.Run("crash", func(t *testing.T) {
		dir := t.TempDir()
		want, plan := astarPlan(t, dir, "")
		l, output := record(t, solver(t, 10*time.Second, "/bin/sh", "testdata/solver.sh", plan, "crash"))
		checkSame(t, l, want, 3)
		checkNotes(t, l, replay.Note{Turn: 4, Seat: 0, Kind: sim.EventCrash})
		if !strings.Contains(output[1].Stderr, "the solver failed: exit status 1") {
			t.Errorf("turn 1: got stderr %q, want the exit status", output[1].Stderr)
		}
	})
	t.Run("slow", func(t *testing.T) {
		dir := t.TempDir()
		astarPlan(t, dir, "")
		l, output := record(t, solver(t, 500*time.Millisecond, "/bin/sh", "testdata/solver.sh", filepath.Join(dir, "plan.txt"), "slow"))
		checkNotes(t, l, replay.Note{Turn: 1, Seat: 0, Kind: sim.EventCrash})
		if !strings.Contains(output[1].Stderr, "did not finish within 500ms") {
			t.Errorf("turn 1: got stderr %q, want the time limit", output[1].Stderr)
		}
	})
	t.Run("flood", func(t *testing.T) {
		dir := t.TempDir()
		want, plan := astarPlan(t, dir, "")
		l, output := record(t, solver(t, 10*time.Second, "/bin/sh", "testdata/solver.sh", plan, "flood"))
		checkSame(t, l, want, len(want.Turns))
		checkNotes(t, l)
		if o := output[1].Stderr; !strings.Contains(o, "bytes truncated]") || len(o) > 2*replay.MaxOutputBytes {
			t.Errorf("turn 1: got %d bytes of stderr, want it cut near %d", len(o), replay.MaxOutputBytes)
		}
	})
	t.Run("long", func(t *testing.T) {
		dir := t.TempDir()
		want, plan := astarPlan(t, dir, strings.Repeat("D", 3<<20))
		l, _ := record(t, solver(t, 10*time.Second, "/bin/sh", "testdata/solver.sh", plan))
		checkSame(t, l, want, len(want.Turns))
		checkNotes(t, l)
	})
	t.Run("child", func(t *testing.T) {
		dir := t.TempDir()
		want, plan := astarPlan(t, dir, "")
		pidFile := filepath.Join(dir, "child.pid")
		l, _ := record(t, solver(t, 10*time.Second, "/bin/sh", "testdata/solver.sh", plan, "child", pidFile))
		checkSame(t, l, want, len(want.Turns))
		checkNotes(t, l)
		replaytest.CheckDead(t, pidFile)
	})
}

func TestInput(t *testing.T) {
	if got, want := string(toadsolver.Input([]int{21, 21, 10, 14, 27})), "5\n21\n21\n10\n14\n27\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	rolls, err := toad.ParseRolls(strings.NewReader(string(toadsolver.Input([]int{0, 33, 32}))))
	if err != nil || fmt.Sprint(rolls) != "[0 33 32]" {
		t.Errorf("ParseRolls(Input) = %v, %v; want the rolls back", rolls, err)
	}
}

var update = flag.Bool("update", false, "rewrite the golden input in testdata/golden")

// TestGoldenInput compares the input a solver reads for header's match
// with the golden, which is in the course's format: the count, then a
// roll a line, which toad.ParseRolls reads back.
func TestGoldenInput(t *testing.T) {
	h := header()
	m, err := toad.Game.New(h.Setup())
	if err != nil {
		t.Fatal(err)
	}
	rolls := m.View(0).(*toad.View).Rolls
	got := toadsolver.Input(rolls)
	path := filepath.Join("testdata", "golden", "input.txt")
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("the input differs from %s (run with -update if the change is meant)", path)
	}
	back, err := toad.ParseRolls(strings.NewReader(string(got)))
	if err != nil || fmt.Sprint(back) != fmt.Sprint(rolls) {
		t.Errorf("ParseRolls(input) = %v, %v; want the match's %d rolls", back, err, len(rolls))
	}
}
