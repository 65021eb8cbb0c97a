package replay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// Agent plays one seat of a recorded match.
type Agent interface {
	// Act returns the seat's answer for turn given its view.
	Act(ctx context.Context, turn int, view any) Answer
	// Close releases the agent (stops a process) and returns any output it
	// produced after its last answer.
	Close() (stderr string, err error)
}

// Answer is what an agent did in one turn.
type Answer struct {
	Command string
	// Note is "" for a normal answer, sim.EventTimeout when the answer was
	// late (Command is then "") or sim.EventCrash the turn the agent died.
	Note string
	// Stderr is what the agent wrote to its standard error since its last
	// answer (external processes only).
	Stderr string
}

// builtin adapts a game's built-in bot.
type builtin struct{ bot sim.Bot }

// NewBuiltin returns an agent for the built-in bot name of game g, seeded
// from the match seed and the seat so each seat's randomness is its own.
func NewBuiltin(g *sim.Game, name string, setup sim.Setup, seat int) (Agent, error) {
	def, ok := g.Bot(name)
	if !ok {
		names := make([]string, len(g.Bots))
		for i, b := range g.Bots {
			names[i] = b.Name
		}
		return nil, fmt.Errorf("game %s has no built-in bot %q (have %s)", g.Name, name, strings.Join(names, ", "))
	}
	bot, err := def.New(setup, seat, rng.SubSeed(setup.Seed, uint64(seat)))
	if err != nil {
		return nil, err
	}
	return builtin{bot}, nil
}

func (b builtin) Act(_ context.Context, _ int, view any) Answer {
	return Answer{Command: b.bot.Act(view)}
}

func (b builtin) Close() (string, error) { return "", nil }

// Process is an external bot: a program speaking JSON lines. Each turn the
// recorder writes one line {"turn":N,"player":P,"view":{...}} to its
// standard input; the bot answers with one line holding its command, either
// the raw text or {"turn":N,"command":"..."}. The JSON form lets the
// recorder tell a late answer to an earlier turn from the current one.
type Process struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	lines    chan string
	stderr   *os.File // read end of the bot's stderr pipe, see takeStderr
	seat     int
	limit    time.Duration
	first    time.Duration // limit for the first turn, which includes start-up
	answered bool
	dead     bool
	waitDone chan struct{}
	waitErr  error
	writeBuf bytes.Buffer
}

// ProcessOptions configure an external bot.
type ProcessOptions struct {
	Seat int
	// TurnLimit is the time the bot has to answer one turn.
	TurnLimit time.Duration
	// StartLimit replaces TurnLimit for the first turn, so start-up (a JVM,
	// a Python import) is not counted as thinking time.
	StartLimit time.Duration
	Dir        string // working directory; "" = the recorder's
}

// maxStderr bounds the standard error kept per turn.
const maxStderr = 16 << 10

// maxAnswer bounds one answer line.
const maxAnswer = MaxCommandBytes + 256

// StartProcess starts argv[0] with the remaining arguments (no shell is
// involved).
func StartProcess(ctx context.Context, argv []string, opt ProcessOptions) (*Process, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty bot command")
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = opt.Dir
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// Stderr goes to a pipe of our own that is read only when a turn's
	// answer is in: whatever the bot wrote before answering is then already
	// in the pipe, so it is attributed to the right turn.
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = errW
	p := &Process{
		cmd: cmd, stdin: stdin, lines: make(chan string, 16), stderr: errR,
		seat: opt.Seat, limit: opt.TurnLimit, first: max(opt.StartLimit, opt.TurnLimit), waitDone: make(chan struct{}),
	}
	err = cmd.Start()
	errW.Close()
	if err != nil {
		errR.Close()
		return nil, fmt.Errorf("start bot %q: %w", argv[0], err)
	}
	go p.readLines(stdout)
	return p, nil
}

func (p *Process) readLines(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxAnswer)
	for sc.Scan() {
		p.lines <- sc.Text()
	}
	close(p.lines)
	p.waitErr = p.cmd.Wait()
	close(p.waitDone)
}

type request struct {
	Turn   int `json:"turn"`
	Player int `json:"player"`
	View   any `json:"view"`
}

type response struct {
	Turn    *int    `json:"turn"`
	Command *string `json:"command"`
}

// Act sends the view and waits for the answer within the turn limit.
func (p *Process) Act(ctx context.Context, turn int, view any) Answer {
	if p.dead {
		return Answer{}
	}
	if !p.drainStale() {
		return p.crash()
	}
	p.writeBuf.Reset()
	if err := json.NewEncoder(&p.writeBuf).Encode(request{Turn: turn, Player: p.seat, View: view}); err != nil {
		// Views are the game's own JSON-able structs, so this is a bug.
		panic(fmt.Sprintf("replay: encode view: %v", err))
	}
	if _, err := p.stdin.Write(p.writeBuf.Bytes()); err != nil {
		return p.crash()
	}
	limit := p.limit
	if !p.answered {
		limit = p.first
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return p.crash()
			}
			cmd, current := parseAnswer(line, turn)
			if !current {
				continue // a late answer to an earlier turn
			}
			p.answered = true
			return Answer{Command: cmd, Stderr: p.takeStderr()}
		case <-timer.C:
			p.answered = true
			return Answer{Note: sim.EventTimeout, Stderr: p.takeStderr()}
		case <-ctx.Done():
			return Answer{Note: sim.EventTimeout, Stderr: p.takeStderr()}
		}
	}
}

// parseAnswer returns the command in an answer line and whether the line
// answers turn (plain-text lines always do).
func parseAnswer(line string, turn int) (string, bool) {
	trimmed := strings.TrimSpace(line)
	if strings.HasPrefix(trimmed, "{") {
		var r response
		if json.Unmarshal([]byte(trimmed), &r) == nil && r.Command != nil {
			return *r.Command, r.Turn == nil || *r.Turn == turn
		}
	}
	return strings.TrimSuffix(line, "\r"), true
}

// drainStale drops answers that arrived after their turn's time-out. It
// reports false when the bot's output has ended (the bot died).
func (p *Process) drainStale() bool {
	for {
		select {
		case _, ok := <-p.lines:
			if !ok {
				return false
			}
		default:
			return true
		}
	}
}

func (p *Process) crash() Answer {
	p.dead = true
	// Give the process a moment to finish writing its last words.
	select {
	case <-p.waitDone:
	case <-time.After(200 * time.Millisecond):
	}
	return Answer{Note: sim.EventCrash, Stderr: p.takeStderr()}
}

// Close closes the bot's input and waits briefly for it to exit, then
// kills it.
func (p *Process) Close() (string, error) {
	p.stdin.Close()
	select {
	case <-p.waitDone:
	case <-time.After(2 * time.Second):
		p.cmd.Process.Kill()
		<-p.waitDone
	}
	rest := p.takeStderr()
	p.stderr.Close()
	var exitErr *exec.ExitError
	if p.waitErr != nil && !errors.As(p.waitErr, &exitErr) {
		return rest, p.waitErr
	}
	return rest, nil
}

// takeStderr returns what the bot has written to stderr since the last
// call, at most maxStderr bytes of it. It waits at most a millisecond for
// more, so a bot that writes without pause cannot stall the match.
func (p *Process) takeStderr() string {
	var b []byte
	dropped := 0
	buf := make([]byte, 4096)
	p.stderr.SetReadDeadline(time.Now().Add(time.Millisecond))
	for {
		n, err := p.stderr.Read(buf)
		keep := min(n, maxStderr-len(b))
		b = append(b, buf[:keep]...)
		dropped += n - keep
		if err != nil {
			break // the deadline, or EOF once the bot has exited
		}
	}
	if dropped > 0 {
		b = fmt.Appendf(b, "\n[%d bytes of stderr dropped]", dropped)
	}
	return string(b)
}
