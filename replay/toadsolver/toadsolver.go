// Package toadsolver plays a River Toad solver as the course ran one: the
// program reads the original input (the number of rolls, then one roll a
// line) and prints its plan, a line of action letters, once for the whole
// match. The recorder then plays one letter a turn.
package toadsolver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/toad"
)

const (
	// maxPlan bounds what is read of the solver's plan (standard output or
	// its output file): a letter for each of the most turns a match has,
	// and room for the HP and board lines after them.
	maxPlan = 1 << 20
	// waitPipes is how long the solver's children may hold its output
	// open once it has exited, before the recorder closes it.
	waitPipes = time.Second
)

// Placeholders in the command line: the course ran solvers as
// "python3 puzzle4.py INPUT OUTPUT", so a command naming {input} gets
// the path of a file holding the input (which standard input has too),
// and one naming {output} is read from the file at that path rather than
// from standard output.
const (
	InputArg  = "{input}"
	OutputArg = "{output}"
)

// Agent is a solver, run on its first turn.
type Agent struct {
	argv  []string
	limit time.Duration
	ran   bool
	plan  []string // one command per turn
	// failed: the solver did not end well (exit status, signal, time
	// limit); the turn after its plan is its crash.
	failed bool
	out    replay.Output // for the first turn
}

// New returns the solver that argv starts (no shell), which has limit
// for its whole solve.
func New(argv []string, limit time.Duration) (*Agent, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty solver command")
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return nil, err
	}
	return &Agent{argv: argv, limit: limit}, nil
}

// Act runs the solver on the first call, with the rolls of view (a
// River Toad view), then plays its plan: the turn's letter. A turn past
// the plan's end is a time-out, or the solver's crash for the first such
// turn when it failed (the rest are then silent).
func (a *Agent) Act(ctx context.Context, turn int, view any) replay.Answer {
	var ans replay.Answer
	if !a.ran {
		v, ok := view.(*toad.View)
		if !ok {
			// The recorder hands a River Toad match's own views; anything
			// else is a bug.
			panic(fmt.Sprintf("toadsolver: view %T is not a River Toad view", view))
		}
		a.ran = true
		start := time.Now()
		a.solve(ctx, v.Rolls)
		// The solver answers every turn at once: its time is the first
		// turn's, the later ones are not timed.
		ans.Time = max(time.Since(start), time.Microsecond)
		ans.Output = a.out
	}
	switch {
	case turn >= 1 && turn <= len(a.plan):
		ans.Command = a.plan[turn-1]
	case !a.failed:
		ans.Note = sim.EventTimeout
	case turn == len(a.plan)+1:
		ans.Note = sim.EventCrash
	}
	return ans
}

// Close has nothing to end: the solver ended on the first turn.
func (a *Agent) Close() replay.Output { return replay.Output{} }

// Input returns the original input file of rolls: their number, then one
// roll a line.
func Input(rolls []int) []byte {
	b := strconv.AppendInt(nil, int64(len(rolls)), 10)
	b = append(b, '\n')
	for _, r := range rolls {
		b = strconv.AppendInt(b, int64(r), 10)
		b = append(b, '\n')
	}
	return b
}

// solve runs the solver and keeps its plan and its output.
func (a *Agent) solve(ctx context.Context, rolls []int) {
	var stdout, stderr bounded
	stdout.max, stderr.max = maxPlan, replay.MaxOutputBytes
	problem := a.run(ctx, Input(rolls), &stdout, &stderr)
	if problem != "" {
		a.failed = true
		stderr.b = append(stderr.b, "replaylab: the solver "+problem+"\n"...)
	}
	planText, rest, _ := strings.Cut(string(stdout.b), "\n")
	a.plan = letters(planText)
	a.out = replay.Output{
		Stdout: replay.CutOutput(rest, stdout.dropped),
		Stderr: replay.CutOutput(string(stderr.b), stderr.dropped),
	}
}

// run runs the solver in a process group of its own, which it ends whole
// once the solver has exited, and returns what went wrong, if anything.
// The plan goes to stdout: read from the output file when the command
// names one.
func (a *Agent) run(ctx context.Context, input []byte, stdout, stderr *bounded) string {
	tmp, err := os.MkdirTemp("", "replaylab-toad-*")
	if err != nil {
		return "got no temporary directory: " + err.Error()
	}
	defer os.RemoveAll(tmp)
	inPath, outPath := filepath.Join(tmp, "input.txt"), filepath.Join(tmp, "output.txt")
	argv, toFile := make([]string, len(a.argv)), false
	for i, arg := range a.argv {
		argv[i] = strings.ReplaceAll(strings.ReplaceAll(arg, InputArg, inPath), OutputArg, outPath)
		toFile = toFile || strings.Contains(arg, OutputArg)
	}
	if err := os.WriteFile(inPath, input, 0o644); err != nil {
		return "got no input file: " + err.Error()
	}

	ctx, cancel := context.WithTimeout(ctx, a.limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitPipes
	cmd.Stdin = bytes.NewReader(input)
	cmd.Stderr = stderr
	var console bounded // its stdout when the plan is in the file
	console.max = replay.MaxOutputBytes
	cmd.Stdout = stdout
	if toFile {
		cmd.Stdout = &console
	}
	err = cmd.Run()
	if cmd.Process != nil {
		replay.EndGroup(cmd.Process.Pid, time.Second) // children left behind
	}
	if toFile {
		readPlan(outPath, stdout)
		stderr.Write(console.b) // what it printed is output all the same
		stderr.dropped += console.dropped
	}
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Sprintf("did not finish within %s and was killed", a.limit)
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return "failed: " + err.Error()
	}
	return ""
}

// readPlan reads at most w's bound of the output file into w.
func readPlan(path string, w *bounded) {
	f, err := os.Open(path)
	if err != nil {
		return // no plan: every turn times out
	}
	defer f.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := f.Read(buf)
		w.Write(buf[:n])
		if err != nil || n == 0 || w.dropped > 0 {
			return // what is past the bound is not counted
		}
	}
}

// letters splits a plan line into one command per turn: each character
// but spaces and a carriage return, invalid ones included (the game
// notes them as invalid commands).
func letters(line string) []string {
	line = strings.TrimRight(line, "\r")
	var plan []string
	for _, r := range line {
		if r != ' ' && r != '\t' {
			plan = append(plan, string(r))
		}
	}
	return plan
}

// bounded keeps the first max bytes written to it and counts the rest.
type bounded struct {
	b            []byte
	max, dropped int
}

func (w *bounded) Write(p []byte) (int, error) {
	n := min(len(p), max(0, w.max-len(w.b)))
	w.b = append(w.b, p[:n]...)
	w.dropped += len(p) - n
	return len(p), nil
}
