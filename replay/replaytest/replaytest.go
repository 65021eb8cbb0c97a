// Package replaytest holds helpers for the tests of external bots, shared
// by replay and its protocol adapters.
package replaytest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
)

// CheckDead fails t unless the process whose pid is in file has ended (a
// zombie not yet reaped by its new parent has).
func CheckDead(t testing.TB, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return // gone meanwhile
	}
	// The state follows the command name in parentheses.
	if fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); fields[0] != "Z" {
		t.Errorf("process %d still runs after Close (state %s)", pid, fields[0])
	}
}

// Outputs gathers a bot's output by turn, as a Recorder's OnOutput and
// the agent's Close hand it over.
type Outputs map[int]replay.Output

// Add appends o to the output of turn.
func (os Outputs) Add(turn int, o replay.Output) {
	had := os[turn]
	os[turn] = replay.Output{Stdout: had.Stdout + o.Stdout, Stderr: had.Stderr + o.Stderr}
}

// KeyPaths returns the path of every object key in the JSON value v
// decoded into any: keys joined by ".", "[]" for a list's items.
func KeyPaths(v any) map[string]bool {
	paths := map[string]bool{}
	keyPaths(v, "", paths)
	return paths
}

func keyPaths(v any, prefix string, paths map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := strings.TrimPrefix(prefix+"."+k, ".")
			paths[p] = true
			keyPaths(e, p, paths)
		}
	case []any:
		for _, e := range v {
			keyPaths(e, prefix+"[]", paths)
		}
	}
}

// BenchTurns asks a the turns of b's loop, each with view, and closes it;
// an answer with a note fails b.
func BenchTurns(b *testing.B, a replay.Agent, view any) {
	b.Helper()
	defer a.Close()
	turn := 0
	for b.Loop() {
		turn++
		if ans := a.Act(context.Background(), turn, view); ans.Note != "" {
			b.Fatalf("turn %d: %s", turn, ans.Note)
		}
	}
}

// PlayTurns plays b.N turns of seat 0 with a, in as many matches from
// newMatch (two seats; seat 1 sends nothing) as it takes, so the views
// change as in a real match; an answer with a note or a refused step
// fails b.
func PlayTurns(b *testing.B, a replay.Agent, newMatch func(testing.TB) sim.Match) {
	b.Helper()
	m := newMatch(b)
	turn := 0
	b.ResetTimer()
	for range b.N {
		if m.Over() {
			m = newMatch(b)
		}
		turn++
		ans := a.Act(context.Background(), turn, m.View(0))
		if ans.Note != "" {
			b.Fatalf("turn %d: note %q", turn, ans.Note)
		}
		if err := m.Step([]string{ans.Command, ""}); err != nil {
			b.Fatal(err)
		}
	}
}

// Record records r's match, closes its agents and returns the log and
// every seat's output by turn, the last turn's with what Close returned;
// r keeps what Record sets (answer times, debug drawings, the result).
func Record(t testing.TB, r *replay.Recorder) (*replay.Log, []Outputs) {
	t.Helper()
	outputs := make([]Outputs, len(r.Agents))
	for s := range outputs {
		outputs[s] = Outputs{}
	}
	r.OnOutput = func(turn, seat int, o replay.Output) { outputs[seat].Add(turn, o) }
	l, err := r.Record(context.Background())
	for s, a := range r.Agents {
		last := a.Close()
		if l != nil {
			outputs[s].Add(len(l.Turns), last)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return l, outputs
}

// CheckGoroutines fails t if, once it ends, more goroutines run than now
// (after a grace for those about to end).
func CheckGoroutines(t testing.TB) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(2 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if got := runtime.NumGoroutine(); got > before {
			t.Errorf("got %d goroutines after Close, want at most %d as before", got, before)
		}
	})
}
