package replay_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/toad"
)

// botSource is an external bot: it reads the recorder's JSON lines and
// answers "D" (stay), misbehaving as its first argument says:
//
//	json   answer in the JSON form
//	slow   answer turn 3 after 450 ms (past the limit), then carry on; in
//	       the JSON form, which is how a bot lets the recorder drop a late
//	       answer instead of taking it for the next turn's
//	crash  exit without answering at turn 4
//	noisy  write to stderr every turn
const botSource = `package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

func main() {
	mode := os.Args[1]
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var req struct {
			Turn   int             ` + "`json:\"turn\"`" + `
			Player int             ` + "`json:\"player\"`" + `
			View   json.RawMessage ` + "`json:\"view\"`" + `
		}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil || len(req.View) == 0 {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			os.Exit(2)
		}
		switch {
		case mode == "slow" && req.Turn == 3:
			time.Sleep(450 * time.Millisecond)
		case mode == "crash" && req.Turn == 4:
			fmt.Fprintln(os.Stderr, "giving up")
			os.Exit(1)
		case mode == "noisy":
			fmt.Fprintf(os.Stderr, "thinking about turn %d\n", req.Turn)
		}
		if mode == "json" || mode == "slow" {
			fmt.Printf("{\"turn\":%d,\"command\":\"D\"}\n", req.Turn)
		} else {
			fmt.Println("D")
		}
	}
}
`

var (
	buildBotOnce sync.Once
	botPath      string
	botErr       error
)

// buildBot compiles botSource once per test run.
func buildBot(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go tool to build the external bot")
	}
	buildBotOnce.Do(func() {
		dir, err := os.MkdirTemp("", "replaylab-bot")
		if err != nil {
			botErr = err
			return
		}
		src := filepath.Join(dir, "main.go")
		if botErr = os.WriteFile(src, []byte(botSource), 0o644); botErr != nil {
			return
		}
		botPath = filepath.Join(dir, "bot")
		out, err := exec.Command("go", "build", "-o", botPath, src).CombinedOutput()
		if err != nil {
			botErr = err
			botPath = string(out)
		}
	})
	if botErr != nil {
		t.Fatalf("build bot: %v\n%s", botErr, botPath)
	}
	return botPath
}

// hangGuard bounds a test recording: only a hang takes that long.
const hangGuard = 20 * time.Second

// recordHeader is a toad match whose rolls never put a snake in River 3, so
// a bot that always stays ("D") survives all 8 turns.
func recordHeader() replay.Header {
	return replay.Header{Format: replay.Format, Game: "toad", Seed: 9, Config: []byte(`{"rolls":[0,32,33,1,2,16,8,17]}`), Players: []replay.Player{{Name: "bot"}}}
}

// longHeader is recordHeader's match with its rolls repeated 5 times: 40
// turns that a bot that always stays survives.
func longHeader() replay.Header {
	h := recordHeader()
	h.Config = []byte(`{"rolls":[` + strings.Repeat("0,32,33,1,2,16,8,17,", 4) + `0,32,33,1,2,16,8,17]}`)
	return h
}

// recordWith records recordHeader's match with agent; see recordMatch.
func recordWith(t *testing.T, agent replay.Agent) (*replay.Log, map[int]replay.Output) {
	t.Helper()
	return recordMatch(t, recordHeader(), agent)
}

// recordMatch records the match of h with agent, closes the agent and
// returns the log and each turn's output (what came after the last answer
// counts for the last turn). The whole must end within hangGuard, and no
// turn may get two pieces of one stream.
func recordMatch(t *testing.T, h replay.Header, agent replay.Agent) (*replay.Log, map[int]replay.Output) {
	t.Helper()
	output := map[int]replay.Output{}
	var twice []string
	add := func(turn int, o replay.Output) {
		had := output[turn]
		if had.Stdout != "" && o.Stdout != "" || had.Stderr != "" && o.Stderr != "" {
			twice = append(twice, fmt.Sprintf("turn %d", turn))
		}
		output[turn] = replay.Output{Stdout: had.Stdout + o.Stdout, Stderr: had.Stderr + o.Stderr}
	}
	r := replay.Recorder{
		Header:    h,
		Agents:    []replay.Agent{agent},
		HashEvery: 1,
		OnOutput:  func(turn, _ int, o replay.Output) { add(turn, o) },
	}
	done := make(chan struct{})
	var l *replay.Log
	var err error
	go func() {
		defer close(done)
		l, err = r.Record(context.Background())
		if err == nil {
			add(len(l.Turns), agent.Close())
		}
	}()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatalf("recording and closing took over %v", hangGuard)
	}
	if err != nil {
		agent.Close()
		t.Fatal(err)
	}
	if len(twice) > 0 {
		t.Errorf("got two pieces of a stream's output at %s, want one per turn", strings.Join(twice, ", "))
	}
	if _, err := replay.Run(context.Background(), l, nil); err != nil {
		t.Fatalf("the recorded log does not regenerate: %v", err)
	}
	return l, output
}

func TestRecordExternalBot(t *testing.T) {
	bot := buildBot(t)
	tests := []struct {
		mode      string
		wantNotes []replay.Note
		silentAt  []int // turns with no command
		stderrAt  int   // a turn whose stderr must be captured (0 = none)
	}{
		{mode: "plain"},
		{mode: "json"},
		{mode: "slow", wantNotes: []replay.Note{{Turn: 3, Seat: 0, Kind: sim.EventTimeout}}, silentAt: []int{3}},
		{mode: "crash", wantNotes: []replay.Note{{Turn: 4, Seat: 0, Kind: sim.EventCrash}}, silentAt: []int{4, 5, 6, 7, 8}, stderrAt: 4},
		{mode: "noisy", stderrAt: 5},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			p, err := replay.StartProcess(context.Background(), []string{bot, tt.mode},
				replay.ProcessOptions{TurnLimit: 300 * time.Millisecond, StartLimit: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			l, output := recordWith(t, p)
			if len(l.Turns) != 8 {
				t.Fatalf("got %d turns, want 8", len(l.Turns))
			}
			if !equalNotes(l.Notes, tt.wantNotes) {
				t.Errorf("notes %+v, want %+v", l.Notes, tt.wantNotes)
			}
			silent := map[int]bool{}
			for _, s := range tt.silentAt {
				silent[s] = true
			}
			for i, cmds := range l.Turns {
				want := "D"
				if silent[i+1] {
					want = ""
				}
				// A slow answer to turn 3 must not be taken as turn 4's.
				if cmds[0] != want {
					t.Errorf("turn %d: command %q, want %q", i+1, cmds[0], want)
				}
			}
			if tt.stderrAt > 0 && output[tt.stderrAt].Stderr == "" {
				t.Errorf("no stderr captured at turn %d (have %v)", tt.stderrAt, output)
			}
			if tt.mode == "noisy" && !strings.Contains(output[5].Stderr, "turn 5") {
				t.Errorf("stderr of turn 5 = %q, want it to mention turn 5", output[5].Stderr)
			}
			if tt.mode == "noisy" && strings.Contains(output[6].Stderr, "turn 5") {
				t.Errorf("stderr of turn 6 = %q, want nothing of turn 5", output[6].Stderr)
			}
		})
	}
}

func equalNotes(a, b []replay.Note) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRecordBuiltinAStarWins(t *testing.T) {
	h := recordHeader()
	a, err := replay.NewBuiltin(toad.Game, "astar", h.Setup(), 0)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := recordWith(t, a)
	m, err := replay.Run(context.Background(), l, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Result(); r.Winner != 0 {
		t.Errorf("astar lost a seeded (always solvable) game: %+v", r)
	}
	if _, err := replay.NewBuiltin(toad.Game, "nobody", h.Setup(), 0); err == nil || !strings.Contains(err.Error(), "have") {
		t.Errorf("unknown bot: got %v, want an error listing the bots", err)
	}
}
