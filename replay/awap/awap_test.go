package awap_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/awap"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/careerfair"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// idle is the number of idle steps, in which the original calls no step.
const idle = 10

// start starts the team testdata/TEAM/team.py. It skips the test in
// short mode, which CI runs under an emulator.
func start(t testing.TB, team string, limit time.Duration, env ...string) *awap.Bot {
	t.Helper()
	if testing.Short() {
		t.Skip("runs Python")
	}
	b, err := awap.Start(context.Background(), filepath.Join("testdata", team, "team.py"),
		replay.ProcessOptions{TurnLimit: limit, StartLimit: 20 * time.Second, Env: env})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { b.Close() }) // for a test that stops before play closes it
	return b
}

func newMatch(t testing.TB) sim.Match {
	t.Helper()
	m, err := careerfair.Game.New(sim.Setup{Seed: 5, Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// play plays turns turns of a career fair, the bot's team against one
// that stands still, and
// returns its answers (the last one's output whole, from Close) and the
// match.
func play(t testing.TB, b *awap.Bot, turns int) ([]replay.Answer, sim.Match) {
	t.Helper()
	m := newMatch(t)
	var answers []replay.Answer
	for turn := 1; turn <= turns && !m.Over(); turn++ {
		a := b.Act(context.Background(), turn, m.View(0))
		answers = append(answers, a)
		if err := m.Step([]string{a.Command, ""}); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
	}
	answers[len(answers)-1].Output = b.Close()
	return answers, m
}

func commands(answers []replay.Answer) []string {
	cmds := make([]string, len(answers))
	for i, a := range answers {
		cmds[i] = a.Command
	}
	return cmds
}

// TestLiner plays the example-style team to the end: idle steps answer
// NONE without a step call, then its bots walk and queue, and it scores.
// Played again it gives the same commands.
func TestLiner(t *testing.T) {
	var runs [2][]string
	for i := range runs {
		answers, m := play(t, start(t, "liner", 5*time.Second), 1000)
		for turn, a := range answers {
			if a.Note != "" {
				t.Fatalf("turn %d: note %q (stderr %q)", turn+1, a.Note, a.Stderr)
			}
			if turn < idle && a.Command != "NONE,NONE,NONE,NONE" {
				t.Errorf("idle turn %d: got %q, want NONE for every bot", turn+1, a.Command)
			}
		}
		for _, e := range m.Events() {
			if e.Kind == sim.EventInvalid {
				t.Errorf("invalid command: %s", e.Detail)
			}
		}
		if !m.Over() {
			t.Fatalf("the match is not over after %d turns", len(answers))
		}
		if r := m.Result(); r.Players[0].Score <= 0 {
			t.Errorf("score %g, want some services", r.Players[0].Score)
		}
		cmds := commands(answers)
		if !strings.Contains(strings.Join(cmds, " "), "ENTER") {
			t.Error("no bot ever entered a line")
		}
		runs[i] = cmds
	}
	if strings.Join(runs[0], " ") != strings.Join(runs[1], " ") {
		t.Error("the same team played differently")
	}
}

func TestMisbehaviours(t *testing.T) {
	const third = idle + 3 // the turn of the third step call
	t.Run("exception", func(t *testing.T) {
		answers, _ := play(t, start(t, "odd", 5*time.Second, "AWAP_TEST_MODE=raise"), third+2)
		if a := answers[third-1]; a.Note != sim.EventCrash || !strings.Contains(a.Stderr, "RuntimeError: step 3 goes wrong") {
			t.Errorf("turn %d: note %q, stderr %q; want a crash with the traceback", third, a.Note, a.Stderr)
		}
		if a := answers[third]; a.Note != "" || a.Command != "" {
			t.Errorf("turn %d: got %q (note %q), want silence", third+1, a.Command, a.Note)
		}
	})
	t.Run("prints", func(t *testing.T) {
		answers, _ := play(t, start(t, "odd", 5*time.Second, "AWAP_TEST_MODE=print"), idle+3)
		if a := answers[0]; !strings.Contains(a.Stderr, "init 4 ") {
			t.Errorf("turn 1: stderr %q, want the line printed in __init__", a.Stderr)
		}
		for turn, a := range answers {
			if a.Note != "" || a.Command != "NONE,NONE,NONE,NONE" {
				t.Errorf("turn %d: got %q (note %q), want NONE for every bot", turn+1, a.Command, a.Note)
			}
		}
		if a := answers[idle]; !strings.Contains(a.Stderr, "step 1 score 0") {
			t.Errorf("turn %d: stderr %q, want the line printed in step", idle+1, a.Stderr)
		}
	})
	t.Run("slow step", func(t *testing.T) {
		// The third step takes 2.5 s against a 1 s limit: turns 13 to 15
		// time out (the host reads no request meanwhile), and it plays on.
		answers, _ := play(t, start(t, "odd", time.Second, "AWAP_TEST_MODE=slow", "AWAP_TEST_SLEEP=2.5"), third+5)
		if a := answers[third-1]; a.Note != sim.EventTimeout {
			t.Errorf("turn %d: note %q, want a time-out", third, a.Note)
		}
		if a := answers[len(answers)-1]; a.Note != "" || a.Command != "NONE,NONE,NONE,NONE" {
			t.Errorf("last turn: got %q (note %q), want the team back", a.Command, a.Note)
		}
	})
	t.Run("garbage", func(t *testing.T) {
		answers, m := play(t, start(t, "odd", 5*time.Second, "AWAP_TEST_MODE=garbage"), third)
		if got, want := answers[third-1].Command, "UP,JUMP,None"; got != want {
			t.Errorf("turn %d: got %q, want %q", third, got, want)
		}
		invalid := 0
		for _, e := range m.Events() {
			invalid += b2i(e.Kind == sim.EventInvalid)
		}
		if invalid != 2 { // JUMP and the missing fourth; None reads as NONE
			t.Errorf("%d invalid actions reported, want 2", invalid)
		}
	})
}

func TestStartErrors(t *testing.T) {
	t.Run("no python", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := awap.Start(context.Background(), "testdata/liner/team.py", replay.ProcessOptions{TurnLimit: time.Second})
		if !errors.Is(err, awap.ErrNoPython) {
			t.Errorf("got %v, want %v", err, awap.ErrNoPython)
		}
	})
	t.Run("no team file", func(t *testing.T) {
		_, err := awap.Start(context.Background(), "testdata/none/team.py", replay.ProcessOptions{TurnLimit: time.Second})
		if err == nil || !strings.Contains(err.Error(), "testdata/none/team.py") {
			t.Errorf("got %v, want an error naming the file", err)
		}
	})
}

// TestHostDirRemoved checks that Close leaves no host files behind.
func TestHostDirRemoved(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	b := start(t, "liner", 5*time.Second)
	b.Act(context.Background(), 1, newMatch(t).View(0))
	b.Close()
	left, err := os.ReadDir(os.Getenv("TMPDIR"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestViewGolden locks the board and states the team sees at its first
// step (testdata/view.txt): the reprs of the original's Tile (BOOTH,
// ENNMM, LNNMM, TNNMM: free and queued bots) and State, its
// get_num_encoding, and an initial board of blank, unseen tiles.
func TestViewGolden(t *testing.T) {
	answers, _ := play(t, start(t, "odd", 5*time.Second, "AWAP_TEST_MODE=dump"), idle+1)
	got := answers[0].Stderr + answers[idle].Stderr
	path := filepath.Join("testdata", "view.txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the view differs from %s (-update to rewrite):\n%s", path, got)
	}
	for _, s := range []string{"initial [[", "visible False", "BOOTH", "ID_00 @", "step 1 score 0"} {
		if !strings.Contains(got, s) {
			t.Errorf("the view lacks %q", s)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
