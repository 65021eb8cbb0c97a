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
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/replaylab/replaylab/sim"
)

// Process is an external bot: a program speaking JSON lines. Each turn the
// recorder writes one line {"turn":N,"player":P,"view":{...}} to its
// standard input. The bot's answer is the first line it prints after that
// request which is either
//
//   - the JSON form {"turn":N,"command":"..."} (or {"command":"..."});
//     "command":null is no command, as in the original games' protocols;
//   - a line that starts with { and names "command" but is not that form
//     (broken JSON, a command that is not a string): the line itself is
//     played, so the game reports it as an invalid command rather than the
//     bot timing out;
//   - any line at all, as long as the bot has never answered in the JSON
//     form: the line is the command.
//
// So a bot may print debug lines freely once it has answered in the JSON
// form (before that, its first line after the request is its answer), and
// a plain-text bot's answer is its first line after the request. Every
// other line (a JSON answer to another turn, a plain line of a JSON bot, a
// line printed between turns) is kept as the turn's output with the bot's
// standard error, never played. An answer longer than MaxCommandBytes is
// cut at a UTF-8 boundary and noted sim.EventOversize.
//
// The bot runs in a process group of its own, which Close ends whole.
type Process struct {
	cmd          *exec.Cmd
	stdin        *os.File // write end of the bot's standard input
	stdout       *os.File // read ends of its output pipes
	stderr       *os.File
	stderrConn   syscall.RawConn
	seat         int
	limit, first time.Duration // first: the limit of the first turn

	exited  chan struct{} // closed once the bot's own process has exited
	outDone chan struct{} // closed when readStdout returns
	errDone chan struct{} // closed when readStderr returns
	wake    chan struct{} // capacity 1: readStdout found an answer or the end

	mu       sync.Mutex // guards the fields below, shared with readStdout
	awaiting int        // turn whose request is out and answer is not, or 0
	answer   *Answer    // the answer to awaiting, once read
	jsonBot  bool       // the bot has answered in the JSON form
	eof      bool       // the bot's standard output has ended
	out      capture    // stray stdout lines since the last answer

	errMu  sync.Mutex // guards errOut and errBuf, shared with readStderr
	errOut capture
	errBuf []byte

	answered bool // the bot has answered once (its start-up is over)
	dead     bool
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

const (
	// maxStdoutLine bounds the part of a stdout line the recorder holds: room for
	// a JSON answer whose command is MaxCommandBytes long even if every
	// byte of it is escaped. The rest of a longer line is read and dropped.
	maxStdoutLine = 8*MaxCommandBytes + 256
	// maxTurnOutput and maxMatchOutput bound the output kept per stream of
	// a bot, per turn and over the match.
	maxTurnOutput  = 16 << 10
	maxMatchOutput = 1 << 20
	// lastWords is how long the recorder waits for the output of a bot
	// that died, or for the answer of one whose process has just exited.
	lastWords = 200 * time.Millisecond
	// exitGrace is how long Close waits for the bot to exit once its input
	// is closed, and termGrace how long after SIGTERM, before SIGKILL.
	exitGrace = time.Second
	termGrace = 500 * time.Millisecond
	// pipeGrace is how long Close waits for the output pipes to end once
	// the process group is killed; a process that left the group may keep
	// them open, then the recorder closes them itself.
	pipeGrace = 500 * time.Millisecond
)

// StartProcess starts argv[0] with the remaining arguments (no shell is
// involved) in a new process group. When ctx is cancelled the group gets
// SIGTERM; Close ends it for good.
func StartProcess(ctx context.Context, argv []string, opt ProcessOptions) (*Process, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty bot command")
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = opt.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return signalGroup(cmd.Process.Pid, syscall.SIGTERM) }
	// Pipes of our own rather than exec's: exec's are closed by Wait, which
	// here runs as soon as the bot's own process exits, while its children
	// may still write.
	var parent, child [3]*os.File
	for i := range parent {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(parent[:i], child[:i])
			return nil, fmt.Errorf("start bot %q: %w", argv[0], err)
		}
		if i == 0 {
			parent[i], child[i] = w, r
		} else {
			parent[i], child[i] = r, w
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = child[0], child[1], child[2]
	conn, err := parent[2].SyscallConn()
	if err == nil {
		err = cmd.Start()
	}
	closeAll(child[:])
	if err != nil {
		closeAll(parent[:])
		return nil, fmt.Errorf("start bot %q: %w", argv[0], err)
	}
	p := &Process{
		cmd: cmd, stdin: parent[0], stdout: parent[1], stderr: parent[2], stderrConn: conn,
		seat: opt.Seat, limit: opt.TurnLimit, first: max(opt.StartLimit, opt.TurnLimit),
		exited: make(chan struct{}), outDone: make(chan struct{}), errDone: make(chan struct{}),
		wake: make(chan struct{}, 1), errBuf: make([]byte, 32<<10),
	}
	go func() {
		cmd.Wait() // its status says nothing the notes do not
		close(p.exited)
	}()
	go p.readStdout()
	go p.readStderr()
	return p, nil
}

func closeAll(groups ...[]*os.File) {
	for _, files := range groups {
		for _, f := range files {
			f.Close()
		}
	}
}

// readStdout reads the bot's standard output line by line until it ends,
// sorting each line into an answer or output. It never waits for the match:
// what it keeps is bounded by maxStdoutLine and the output caps.
func (p *Process) readStdout() {
	defer close(p.outDone)
	br := bufio.NewReaderSize(p.stdout, maxStdoutLine)
	for {
		line, err := br.ReadSlice('\n')
		dropped := 0
		if errors.Is(err, bufio.ErrBufferFull) {
			line = bytes.Clone(line)
			for errors.Is(err, bufio.ErrBufferFull) {
				var more []byte
				more, err = br.ReadSlice('\n')
				dropped += len(more)
			}
		}
		if len(line) > 0 {
			p.sortLine(line, dropped)
		}
		if err != nil {
			p.mu.Lock()
			p.eof = true
			p.mu.Unlock()
			p.signal()
			return
		}
	}
}

// signal wakes Act without ever blocking.
func (p *Process) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// sortLine takes a stdout line as the awaited answer or keeps it as
// output. dropped counts the bytes of the line past maxStdoutLine, already
// discarded.
func (p *Process) sortLine(raw []byte, dropped int) {
	line := strings.TrimSuffix(strings.TrimSuffix(string(raw), "\n"), "\r")
	p.mu.Lock()
	defer p.mu.Unlock()
	cmd, turn, form := parseJSONAnswer(line, dropped)
	isJSON := form == jsonAnswer
	p.jsonBot = p.jsonBot || isJSON
	answers := p.awaiting > 0 && p.answer == nil &&
		(isJSON && (turn == nil || *turn == p.awaiting) || form == brokenAnswer || !p.jsonBot)
	if !answers {
		p.out.writeLine(line+"\n", dropped)
		return
	}
	if !isJSON {
		cmd = line
	}
	a := Answer{Command: cutUTF8(cmd, MaxCommandBytes)}
	if len(a.Command) < len(cmd) || !isJSON && dropped > 0 {
		a.Note = sim.EventOversize
	}
	a.Stdout = p.out.take()
	p.answer = &a
	p.signal()
}

type response struct {
	Turn    *int            `json:"turn"`
	Command json.RawMessage `json:"command"`
}

// answerForm is how a stdout line reads as an answer.
type answerForm int

const (
	notAnswer    answerForm = iota // any other line
	jsonAnswer                     // the JSON form
	brokenAnswer                   // starts with { and names "command", but is not the JSON form
)

// parseJSONAnswer reports whether line is an answer in the JSON form, or a
// broken attempt at one, and returns the JSON form's command and turn. A
// line cut at maxStdoutLine (dropped > 0) never is one.
func parseJSONAnswer(line string, dropped int) (cmd string, turn *int, form answerForm) {
	trimmed := strings.TrimSpace(line)
	if dropped > 0 || !strings.HasPrefix(trimmed, "{") {
		return "", nil, notAnswer
	}
	var r response
	if err := json.Unmarshal([]byte(trimmed), &r); err != nil || r.Command == nil {
		if strings.Contains(trimmed, `"command"`) {
			return "", nil, brokenAnswer
		}
		return "", nil, notAnswer
	}
	if string(r.Command) == "null" {
		return "", r.Turn, jsonAnswer
	}
	if json.Unmarshal(r.Command, &cmd) != nil {
		return "", nil, brokenAnswer
	}
	return cmd, r.Turn, jsonAnswer
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// readStderr keeps what the bot writes to standard error from its start
// to its end, so a bot that logs a lot never stalls on a full pipe. Reads
// happen under errMu, so takeStderr can empty the pipe itself and miss
// nothing that was written before the answer.
func (p *Process) readStderr() {
	defer close(p.errDone)
	for ended := false; !ended; {
		err := p.stderrConn.Read(func(fd uintptr) bool {
			p.errMu.Lock()
			defer p.errMu.Unlock()
			n, err := readFD(fd, p.errBuf)
			if errors.Is(err, syscall.EAGAIN) {
				return false // wait until readable
			}
			p.errOut.write(string(p.errBuf[:max(n, 0)]), 0)
			ended = n <= 0 || err != nil
			return true
		})
		if err != nil {
			return // closed by Close
		}
	}
}

// readFD reads once from a non-blocking descriptor, retrying interrupted
// reads.
func readFD(fd uintptr, buf []byte) (int, error) {
	for {
		n, err := syscall.Read(int(fd), buf)
		if !errors.Is(err, syscall.EINTR) {
			return n, err
		}
	}
}

// takeStderr returns the standard error written since the last call. It
// first empties the pipe (at most a few of its fills, for a bot that never
// stops writing), so all that was written before the answer is in.
func (p *Process) takeStderr() string {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	p.stderrConn.Control(func(fd uintptr) {
		for range 64 {
			n, err := readFD(fd, p.errBuf)
			if n <= 0 || err != nil {
				return
			}
			p.errOut.write(string(p.errBuf[:n]), 0)
		}
	})
	return p.errOut.take()
}

type request struct {
	Turn   int `json:"turn"`
	Player int `json:"player"`
	View   any `json:"view"`
}

// WriteRequest writes the line an external bot in seat reads before turn:
// {"turn":N,"player":P,"view":{...}} and a newline. Process writes its
// requests with it, and `replaylab view` prints one, so a sample shown to
// bot authors is byte for byte what their bots receive.
func WriteRequest(w io.Writer, turn, seat int, view any) error {
	return json.NewEncoder(w).Encode(request{Turn: turn, Player: seat, View: view})
}

// Act sends the view and waits for the answer within the turn limit. A bot
// that does not read its input within the limit, whose output has ended or
// whose process has exited is declared crashed and silent from then on.
func (p *Process) Act(ctx context.Context, turn int, view any) Answer {
	if p.dead {
		return Answer{}
	}
	p.writeBuf.Reset()
	if err := WriteRequest(&p.writeBuf, turn, p.seat, view); err != nil {
		// Views are the game's own JSON-able structs, so this is a bug.
		panic(fmt.Sprintf("replay: encode view: %v", err))
	}
	limit := p.limit
	if !p.answered {
		limit = p.first
	}
	deadline := time.Now().Add(limit)
	p.mu.Lock()
	p.awaiting, p.answer = turn, nil
	p.mu.Unlock()
	p.stdin.SetWriteDeadline(deadline)
	if _, err := p.stdin.Write(p.writeBuf.Bytes()); err != nil {
		return p.crash()
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	exited, gone := p.exited, false
	for over := false; ; {
		switch a, ended := p.result(over); {
		case a != nil:
			p.answered = true
			a.Stderr = p.takeStderr()
			return *a
		case ended || over && gone:
			return p.crash()
		case over:
			return p.timeout()
		}
		select {
		case <-p.wake:
		case <-exited:
			// Its answer may still be on the way through the pipe.
			exited, gone = nil, true
			timer.Reset(min(time.Until(deadline), lastWords))
		case <-timer.C:
			over = true
		case <-ctx.Done():
			over = true
		}
	}
}

// result returns the awaited answer once it is in, or whether the bot's
// output has ended; either closes the turn, and so does over (the time
// is up): an answer read after that is output.
func (p *Process) result(over bool) (*Answer, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.answer != nil || p.eof || over {
		p.awaiting = 0
	}
	return p.answer, p.eof
}

// closeTurn ends the awaited turn without an answer and returns the
// output of the turn.
func (p *Process) closeTurn() Output {
	p.mu.Lock()
	p.awaiting = 0
	out := p.out.take()
	p.mu.Unlock()
	return Output{Stdout: out, Stderr: p.takeStderr()}
}

func (p *Process) timeout() Answer {
	p.answered = true
	return Answer{Note: sim.EventTimeout, Output: p.closeTurn()}
}

func (p *Process) crash() Answer {
	p.dead = true
	// Give the process a moment to finish writing its last words.
	select {
	case <-p.exited:
	case <-time.After(lastWords):
	}
	return Answer{Note: sim.EventCrash, Output: p.closeTurn()}
}

// Close closes the bot's input and ends its process group: it waits
// exitGrace for the group to exit by itself, sends SIGTERM, waits
// termGrace, then sends SIGKILL. It returns within a few seconds whatever
// the bot does, with all its goroutines ended, and returns the output the
// bot wrote after its last answer.
func (p *Process) Close() Output {
	p.stdin.Close()
	pid := p.cmd.Process.Pid
	if !p.waitGone(exitGrace) {
		signalGroup(pid, syscall.SIGTERM)
		if !p.waitGone(termGrace) {
			signalGroup(pid, syscall.SIGKILL)
			p.cmd.Process.Kill() // in case it left its group
		}
	}
	<-p.exited
	if !waitAll(pipeGrace, p.outDone, p.errDone) {
		p.stdout.Close()
		p.stderr.Close()
	}
	<-p.outDone
	<-p.errDone
	p.mu.Lock()
	out := p.out.take()
	p.mu.Unlock()
	p.errMu.Lock()
	errOut := p.errOut.take()
	p.errMu.Unlock()
	p.stdout.Close()
	p.stderr.Close()
	return Output{Stdout: out, Stderr: errOut}
}

// waitGone waits at most d for the bot's process to exit, its output
// pipes to end and its process group to be empty.
func (p *Process) waitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	if !waitAll(d, p.exited, p.outDone, p.errDone) {
		return false
	}
	for groupAlive(p.cmd.Process.Pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// waitAll waits at most d for all of chans to be closed.
func waitAll(d time.Duration, chans ...chan struct{}) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for _, c := range chans {
		select {
		case <-c:
		case <-timer.C:
			return false
		}
	}
	return true
}

// signalGroup sends sig to every process of the group led by pid.
func signalGroup(pid int, sig syscall.Signal) error {
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// groupAlive reports whether a process of the group led by pid is left
// (a zombie not yet reaped by its new parent counts).
func groupAlive(pid int) bool {
	return syscall.Kill(-pid, 0) == nil
}

// capture keeps what a bot wrote to one stream: at most maxTurnOutput bytes
// a turn and maxMatchOutput over the match. It counts what it drops.
type capture struct {
	text    []byte
	dropped int
	kept    int // over the match
}

// write keeps what it can of s and counts the rest, plus more bytes that
// were dropped before.
func (c *capture) write(s string, more int) {
	n := max(0, min(len(s), maxTurnOutput-len(c.text), maxMatchOutput-c.kept))
	c.text = append(c.text, s[:n]...)
	c.kept += n
	c.dropped += len(s) - n + more
}

// writeLine keeps a stdout line whole or drops it, unless it is the first
// of the turn: then it keeps what fits.
func (c *capture) writeLine(s string, more int) {
	if len(c.text) > 0 && len(s) > min(maxTurnOutput-len(c.text), maxMatchOutput-c.kept) {
		c.dropped += len(s) + more
		return
	}
	c.write(s, more)
}

// take returns the text since the last take, ending with a line
// "[N bytes truncated]" when some was dropped.
func (c *capture) take() string {
	s := string(c.text)
	if c.dropped > 0 {
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		s += fmt.Sprintf("[%d bytes truncated]\n", c.dropped)
	}
	c.text, c.dropped = c.text[:0], 0
	return s
}
