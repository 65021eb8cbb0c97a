package replay

import (
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
// standard input. The bot's answer is the first line it prints after it
// has read that whole request which is either
//
//   - the JSON form {"turn":N,"command":"..."} (or {"command":"..."},
//     until the bot has answered with a turn once: from then on a line
//     without one is output, as it may be meant for any turn);
//     "command":null is no command, as in the original games' protocols;
//     it may add "debug", shapes to draw over the board (ParseDebug),
//     which are kept with the answer (Answer.Debug) and never played;
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
// line printed before the bot read the request, such as debug lines after
// its previous answer) is kept as the turn's output with the bot's
// standard error, never played. An answer longer than MaxCommandBytes is
// cut at a UTF-8 boundary and noted sim.EventOversize.
//
// "After it has read the request" is exact on Linux: the recorder holds
// back the request's last two bytes, "}\n", until the bot has read the
// rest, and takes all the bot printed until then as output. A bot must
// therefore read up to the newline, the request coming in two pieces, and
// flush what it prints before it reads. Elsewhere a line counts as printed
// after the request once the request is written.
//
// The bot runs in a process group of its own, which Close ends whole.
type Process struct {
	cmd            *exec.Cmd
	stdin          *os.File // write end of the bot's standard input
	stdinConn      syscall.RawConn
	stdout, stderr *outPipe
	seat           int
	limit, first   time.Duration // first: the limit of the first turn

	exited chan struct{} // closed once the bot's own process has exited
	wake   chan struct{} // capacity 1: gotStdout found an answer or the end

	mu          sync.Mutex  // guards the fields below, shared with the stdout pipe
	awaiting    int         // turn whose request is out and answer is not, or 0
	sent        time.Time   // when the awaited turn's request began to go out
	answer      *Answer     // the answer to awaiting, once read
	jsonBot     bool        // the bot has answered in the JSON form
	turnBot     bool        // the bot has answered in the JSON form with a turn
	eof         bool        // the bot's standard output has ended
	out         capture     // stray stdout lines since the last answer
	line        []byte      // the stdout line being read, cut at maxStdoutLine
	lineDropped int         // the bytes of line past maxStdoutLine
	lineEarly   bool        // line began before the request was sent
	debug       debugBudget // the debug shapes kept over the match

	errMu   sync.Mutex // guards errOut and errTail, shared with the stderr pipe
	errOut  capture
	errTail string // the start of a UTF-8 sequence the last read cut short

	answered bool // the bot has answered once (its start-up is over)
	dead     bool
	writeBuf bytes.Buffer
	framing  *Framing // nil: JSON lines
}

// Framing is the protocol of a bot that does not speak JSON lines, such
// as an original game runner's: what it reads before a turn and which
// line of its standard output answers it. The rest of Process holds for
// it as for a JSON-lines bot: the request's final newline is held back
// until the bot has read the rest, the answer is the first line after
// that Answer accepts, every other line and all of standard error are
// output, and the time limits, bounds and notes are the same.
type Framing struct {
	// Request appends to b what the bot reads before turn; it must end
	// with a newline. view is the seat's view of the turn.
	Request func(b []byte, turn int, view any) []byte
	// Hold is how many bytes at the end of a request are held back until
	// the bot has read the rest, 1 (the newline) if 0: enough that the bot
	// cannot act on the request without them.
	Hold int
	// Answer returns the command that a stdout line (without its line
	// end) plays, if the line answers turn. It sees every line, in order,
	// with turn 0 when no turn may take it (none is awaited, or the line
	// began before the bot read the request); it runs on the goroutine
	// that reads the bot's output.
	Answer func(line string, turn int) (string, bool)
	// Ends, if not empty, lists the bytes that end a "line" of standard
	// output instead of the newline, for a bot whose answers are not
	// lines; an empty record between two such bytes is no line at all.
	Ends string
}

// ProcessOptions configure an external bot.
type ProcessOptions struct {
	Seat int
	// TurnLimit is the time the bot has to answer one turn.
	TurnLimit time.Duration
	// StartLimit replaces TurnLimit for the first turn, so start-up (a JVM,
	// a Python import) is not counted as thinking time.
	StartLimit time.Duration
	Dir        string   // working directory; "" = the recorder's
	Framing    *Framing // nil: JSON lines
	// Env holds variables (KEY=value) the bot gets on top of the
	// recorder's environment.
	Env []string
}

const (
	// maxStdoutLine bounds the part of a stdout line the recorder holds: room for
	// a JSON answer whose command is MaxCommandBytes long even if every
	// byte of it is escaped. The rest of a longer line is read and dropped.
	maxStdoutLine = 8*MaxCommandBytes + 256
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
	// spinRead is how long waitRead looks without pause.
	spinRead = 500 * time.Microsecond
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
	if len(opt.Env) > 0 {
		cmd.Env = append(os.Environ(), opt.Env...)
	}
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
	var err error
	p := &Process{
		cmd: cmd, stdin: parent[0],
		seat: opt.Seat, limit: opt.TurnLimit, first: max(opt.StartLimit, opt.TurnLimit), framing: opt.Framing,
		exited: make(chan struct{}), wake: make(chan struct{}, 1),
	}
	// The pipes' handles are taken before the start, when failing leaves no
	// running bot behind.
	p.stdinConn, err = p.stdin.SyscallConn()
	if err == nil {
		p.stdout, err = newOutPipe(parent[1], &p.mu, p.gotStdout)
	}
	if err == nil {
		p.stderr, err = newOutPipe(parent[2], &p.errMu, p.gotStderr)
	}
	if err == nil {
		err = cmd.Start()
	}
	closeAll(child[:])
	if err != nil {
		closeAll(parent[:])
		return nil, fmt.Errorf("start bot %q: %w", argv[0], err)
	}
	go func() {
		cmd.Wait() // its status says nothing the notes do not
		close(p.exited)
	}()
	go p.stdout.read()
	go p.stderr.read()
	return p, nil
}

func closeAll(groups ...[]*os.File) {
	for _, files := range groups {
		for _, f := range files {
			f.Close()
		}
	}
}

// gotStdout sorts each line the bot ends into an answer or output. What it
// keeps is bounded by maxStdoutLine and the output caps: the rest of a
// longer line is counted and dropped.
func (p *Process) gotStdout(b []byte, end bool) {
	ends := "\n"
	if p.framing != nil && p.framing.Ends != "" {
		ends = p.framing.Ends
	}
	for len(b) > 0 {
		part := b
		if i := bytes.IndexAny(b, ends); i >= 0 {
			part = b[:i+1]
		}
		b = b[len(part):]
		n := min(len(part), maxStdoutLine-len(p.line))
		p.line = append(p.line, part[:n]...)
		p.lineDropped += len(part) - n
		if strings.IndexByte(ends, part[len(part)-1]) >= 0 {
			p.endLine()
		}
	}
	if end {
		if len(p.line) > 0 || p.lineDropped > 0 {
			p.endLine()
		}
		p.eof = true
		p.signal()
	}
}

func (p *Process) endLine() {
	p.sortLine(p.line, p.lineDropped, p.lineEarly)
	p.line, p.lineDropped, p.lineEarly = p.line[:0], 0, false
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
// discarded; early says the line began before the request was sent, so
// it cannot answer it.
func (p *Process) sortLine(raw []byte, dropped int, early bool) {
	line := strings.TrimSuffix(strings.TrimSuffix(string(raw), "\n"), "\r")
	if p.framing != nil {
		if p.framing.Ends != "" {
			line = strings.TrimRight(string(raw), p.framing.Ends)
			if line == "" && dropped == 0 {
				return // the space between two records
			}
		}
		p.sortFramed(line, dropped, early)
		return
	}
	cmd, turn, debug, form := parseJSONAnswer(line, dropped)
	isJSON := form == jsonAnswer
	ownTurn := turn == nil && !p.turnBot || turn != nil && *turn == p.awaiting
	p.jsonBot = p.jsonBot || isJSON
	p.turnBot = p.turnBot || isJSON && turn != nil
	answers := p.awaiting > 0 && p.answer == nil && !early &&
		(isJSON && ownTurn || form == brokenAnswer || !p.jsonBot)
	if !answers {
		p.out.writeLine(strings.ToValidUTF8(line, "\uFFFD")+"\n", dropped)
		return
	}
	if !isJSON {
		cmd = line
	}
	p.setAnswer(cmd, !isJSON && dropped > 0, debug)
}

// sortFramed is sortLine for a bot of another framing: a line its Answer
// accepts answers the awaited turn, any other is output.
func (p *Process) sortFramed(line string, dropped int, early bool) {
	turn := 0
	if p.awaiting > 0 && p.answer == nil && !early {
		turn = p.awaiting
	}
	if cmd, ok := p.framing.Answer(line, turn); ok && turn > 0 {
		p.setAnswer(cmd, dropped > 0, nil)
		return
	}
	p.out.writeLine(strings.ToValidUTF8(line, "\uFFFD")+"\n", dropped)
}

// setAnswer makes cmd the awaited answer, cut to MaxCommandBytes; cut
// says the line was cut already. debug is the answer's debug drawing
// (ParseDebug), whose notes go to the turn's stdout output.
func (p *Process) setAnswer(cmd string, cut bool, debug json.RawMessage) {
	a := Answer{Command: cutUTF8(cmd, MaxCommandBytes), Time: max(time.Since(p.sent), time.Microsecond)}
	if len(a.Command) < len(cmd) || cut {
		a.Note = sim.EventOversize
	}
	a.Debug = p.keepDebug(debug)
	a.Stdout = p.out.take()
	p.answer = &a
	p.signal()
}

type response struct {
	Turn    *int            `json:"turn"`
	Command json.RawMessage `json:"command"`
	Debug   json.RawMessage `json:"debug"`
}

// keepDebug returns the shapes of an answer's debug value within the
// seat's bounds, noting in the turn's output what it dropped.
func (p *Process) keepDebug(raw json.RawMessage) string {
	return p.debug.keep(raw, func(note string) { p.out.writeLine(note+"\n", 0) })
}

// debugBudget keeps one seat's debug drawings within their bounds: those
// of ParseDebug per turn, and MaxMatchDebugBytes over the match, past
// which it keeps none and says so once.
type debugBudget struct {
	kept int
	full bool
}

// keep returns the shapes of raw that the seat may keep, passing each
// note on what it dropped to note.
func (d *debugBudget) keep(raw json.RawMessage, note func(string)) string {
	shapes, why := ParseDebug(raw)
	if why != "" {
		note(why)
	}
	switch {
	case shapes == "":
	case d.kept+len(shapes) > MaxMatchDebugBytes:
		if !d.full {
			d.full = true
			note(fmt.Sprintf("[debug: over %d KiB of shapes in the match; no more are kept]", MaxMatchDebugBytes>>10))
		}
		shapes = ""
	default:
		d.kept += len(shapes)
	}
	return shapes
}

// answerForm is how a stdout line reads as an answer.
type answerForm int

const (
	notAnswer    answerForm = iota // any other line
	jsonAnswer                     // the JSON form
	brokenAnswer                   // starts with { and names "command", but is not the JSON form
)

// parseJSONAnswer reports whether line is an answer in the JSON form, or a
// broken attempt at one, and returns the JSON form's command, turn and
// debug value (unchecked). A line cut at maxStdoutLine (dropped > 0)
// never is one.
func parseJSONAnswer(line string, dropped int) (cmd string, turn *int, debug json.RawMessage, form answerForm) {
	trimmed := strings.TrimSpace(line)
	if dropped > 0 || !strings.HasPrefix(trimmed, "{") {
		return "", nil, nil, notAnswer
	}
	var r response
	if err := json.Unmarshal([]byte(trimmed), &r); err != nil || r.Command == nil {
		if strings.Contains(trimmed, `"command"`) {
			return "", nil, nil, brokenAnswer
		}
		return "", nil, nil, notAnswer
	}
	if string(r.Command) == "null" {
		return "", r.Turn, r.Debug, jsonAnswer
	}
	if json.Unmarshal(r.Command, &cmd) != nil {
		return "", nil, nil, brokenAnswer
	}
	return cmd, r.Turn, r.Debug, jsonAnswer
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

// CutCommand cuts an answer to MaxCommandBytes at a UTF-8 boundary, as
// the recorder cuts an over-long one before noting it sim.EventOversize.
func CutCommand(cmd string) string { return cutUTF8(cmd, MaxCommandBytes) }

// partialRune returns how many bytes at the end of s begin a UTF-8
// sequence that s cuts short.
func partialRune(s string) int {
	for i := 1; i <= min(len(s), utf8.UTFMax-1); i++ {
		if utf8.RuneStart(s[len(s)-i]) {
			if utf8.FullRuneInString(s[len(s)-i:]) {
				return 0
			}
			return i
		}
	}
	return 0
}

// gotStderr keeps what the bot writes to standard error, from its start
// to its end, as UTF-8; a sequence a read cuts short waits for the next.
func (p *Process) gotStderr(b []byte, end bool) {
	s := p.errTail + string(b)
	n := len(s)
	if !end {
		n -= partialRune(s)
	}
	p.errTail = s[n:]
	p.errOut.write(strings.ToValidUTF8(s[:n], "\uFFFD"), 0)
}

// takeStderr returns the standard error written since the last call,
// including all the pipe holds: all that was written before the answer.
func (p *Process) takeStderr() string {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	p.stderr.drain()
	return p.errOut.take()
}

// outPipe is the read end of one of the bot's output streams. Its reader
// goroutine reads it as the bot writes, so the bot never stalls on a full
// pipe, and drain empties it at once. Both hand what they read to got
// with mu held, so whoever holds mu after a drain has all the bot wrote
// to the stream before it.
type outPipe struct {
	file *os.File
	conn syscall.RawConn
	mu   *sync.Mutex
	got  func(b []byte, end bool) // end: the stream is over
	buf  []byte
	done chan struct{} // closed when read returns
}

func newOutPipe(file *os.File, mu *sync.Mutex, got func([]byte, bool)) (*outPipe, error) {
	conn, err := file.SyscallConn()
	if err != nil {
		return nil, err
	}
	return &outPipe{file: file, conn: conn, mu: mu, got: got, buf: make([]byte, 32<<10), done: make(chan struct{})}, nil
}

// read reads the pipe until the stream ends or Close closes the pipe.
func (o *outPipe) read() {
	defer close(o.done)
	for ended := false; !ended; {
		err := o.conn.Read(func(fd uintptr) bool {
			o.mu.Lock()
			defer o.mu.Unlock()
			n, err := readFD(fd, o.buf)
			if errors.Is(err, syscall.EAGAIN) {
				return false // wait until readable
			}
			ended = n <= 0 || err != nil
			o.got(o.buf[:max(n, 0)], ended)
			return true
		})
		if err != nil { // closed by Close
			o.mu.Lock()
			o.got(nil, true)
			o.mu.Unlock()
			return
		}
	}
}

// drain hands over what the pipe holds now; o.mu must be held. It reads
// at most a few fills of the pipe, for a bot that never stops writing.
func (o *outPipe) drain() {
	o.conn.Control(func(fd uintptr) {
		for range 64 {
			n, err := readFD(fd, o.buf)
			if n <= 0 || err != nil {
				return
			}
			o.got(o.buf[:n], false)
		}
	})
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
		// The turn has no output: what its children may still write is
		// the last turn's, for Close.
		p.mu.Lock()
		p.out.pass()
		p.mu.Unlock()
		p.errMu.Lock()
		p.errOut.pass()
		p.errMu.Unlock()
		return Answer{}
	}
	p.writeBuf.Reset()
	hold := 2 // "}\n"
	if p.framing != nil {
		p.writeBuf.Write(p.framing.Request(p.writeBuf.AvailableBuffer(), turn, view))
		hold = max(p.framing.Hold, 1)
	} else if err := WriteRequest(&p.writeBuf, turn, p.seat, view); err != nil {
		// Views are the game's own JSON-able structs, so this is a bug.
		panic(fmt.Sprintf("replay: encode view: %v", err))
	}
	limit := p.Limit()
	start := time.Now()
	deadline := start.Add(limit)
	// The request goes out in two writes: all but its last two bytes, and
	// the rest once the bot has read those. A bot cannot answer before it
	// has the whole request, and by the time it reads it has written all
	// it printed before: so everything the pipe and the reader hold at
	// that moment is output, and the answer comes after. For a plain-text
	// bot nothing but this order tells its debug lines from its answer.
	req := p.writeBuf.Bytes()
	head, end := req[:len(req)-hold], req[len(req)-hold:]
	p.stdin.SetWriteDeadline(deadline)
	if _, err := p.stdin.Write(head); err != nil {
		return p.crash(start)
	}
	switch p.waitRead(ctx, deadline) {
	case readGone:
		return p.crash(start)
	case readLate:
		// Complete the request all the same, for the next one to be read
		// as a request.
		if !p.writeNow(end) {
			return p.crash(start)
		}
		return p.timeout(limit)
	}
	p.mu.Lock()
	p.stdout.drain()
	p.lineEarly = len(p.line) > 0 || p.lineDropped > 0 // begun before: not the answer
	p.awaiting, p.answer, p.sent = turn, nil, start
	p.mu.Unlock()
	if !p.writeNow(end) {
		return p.crash(start)
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
			return p.crash(start)
		case over:
			return p.timeout(limit)
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

// Limit returns the time the bot has for its next turn: the start limit
// until it has answered once, then the turn limit.
func (p *Process) Limit() time.Duration {
	if !p.answered {
		return p.first
	}
	return p.limit
}

// readState is how waiting for the bot to read its input ended.
type readState int

const (
	readDone readState = iota // the bot has read all of it
	readLate                  // the time is up (or ctx is done)
	readGone                  // its process has exited or its output ended
)

// waitRead waits until the bot has read all that was written to its
// input, its time is up (or ctx is done), or its process has exited or
// its output ended. Nothing tells when a pipe is emptied, so it looks
// again and again for spinRead, as a bot waiting for its request reads
// it within microseconds, then every millisecond, the runtime's timers
// being no finer.
func (p *Process) waitRead(ctx context.Context, deadline time.Time) readState {
	start := time.Now()
	var timer *time.Timer
	for {
		if unread(p.stdinConn) == 0 {
			return readDone
		}
		p.mu.Lock()
		eof := p.eof
		p.mu.Unlock()
		now := time.Now()
		switch {
		case eof:
			return readGone
		case !now.Before(deadline):
			return readLate
		case now.Sub(start) < spinRead:
			yieldCPU()
			continue
		}
		wait := min(time.Millisecond, deadline.Sub(now))
		if timer == nil {
			timer = time.NewTimer(wait)
			defer timer.Stop()
		} else {
			timer.Reset(wait)
		}
		select {
		case <-timer.C:
		case <-p.exited:
			return readGone
		case <-ctx.Done():
			return readLate
		}
	}
}

// writeNow writes b to the bot's input if the pipe has room for all of it
// now.
func (p *Process) writeNow(b []byte) bool {
	p.stdin.SetWriteDeadline(time.Time{}) // an expired one fails any write
	n := 0
	err := p.stdinConn.Write(func(fd uintptr) bool {
		n, _ = syscall.Write(int(fd), b)
		return true
	})
	return err == nil && n == len(b)
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

// timeout ends a turn the bot did not answer within limit, its time.
func (p *Process) timeout(limit time.Duration) Answer {
	p.answered = true
	return Answer{Note: sim.EventTimeout, Time: limit, Output: p.closeTurn()}
}

// crash ends the bot's play in a turn begun at start; the turn's time is
// until the recorder saw it die.
func (p *Process) crash(start time.Time) Answer {
	took := max(time.Since(start), time.Microsecond)
	p.dead = true
	// Give the process a moment to finish writing its last words.
	select {
	case <-p.exited:
	case <-time.After(lastWords):
	}
	return Answer{Note: sim.EventCrash, Time: took, Output: p.closeTurn()}
}

// Exited returns a channel closed once the bot's own process has exited.
// An adapter that talks to the bot by other means than its standard input
// and output (a websocket) watches it to tell a bot that died from one
// that is slow.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// TakeOutput returns what the bot wrote since the last call, for an
// adapter that never calls Act: every stdout line is then output, and so
// is standard error, under the bounds of one turn. Close returns the last
// take again with what came after it, as it does after Act.
func (p *Process) TakeOutput() Output {
	p.mu.Lock()
	p.stdout.drain()
	out := p.out.take()
	p.mu.Unlock()
	return Output{Stdout: out, Stderr: p.takeStderr()}
}

// Close closes the bot's input and ends its process group: it waits
// exitGrace for the group to exit by itself, sends SIGTERM, waits
// termGrace, then sends SIGKILL. It returns within a few seconds whatever
// the bot does, with all its goroutines ended, and returns the output of
// its last turn whole: what Act returned with it and what the bot wrote
// after, up to its end, under the bounds of one turn.
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
	if !waitAll(pipeGrace, p.stdout.done, p.stderr.done) {
		p.stdout.file.Close()
		p.stderr.file.Close()
	}
	<-p.stdout.done
	<-p.stderr.done
	p.mu.Lock()
	out := p.out.takeLast(true)
	p.mu.Unlock()
	p.errMu.Lock()
	errOut := p.errOut.takeLast(false)
	p.errMu.Unlock()
	p.stdout.file.Close()
	p.stderr.file.Close()
	return Output{Stdout: out, Stderr: errOut}
}

// waitGone waits at most d for the bot's process to exit, its output
// pipes to end and its process group to be empty.
func (p *Process) waitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	if !waitAll(d, p.exited, p.stdout.done, p.stderr.done) {
		return false
	}
	return groupGoneBy(p.cmd.Process.Pid, deadline)
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

// EndGroup kills the process group led by pid and waits up to d for it
// to be gone, as Close does for a bot's group: an adapter that runs a
// program of its own calls it so that no child outlives the agent. It
// reports whether the group was gone in time.
func EndGroup(pid int, d time.Duration) bool {
	signalGroup(pid, syscall.SIGKILL)
	return groupGoneBy(pid, time.Now().Add(d))
}

// groupGoneBy waits until the group led by pid is gone, or deadline.
func groupGoneBy(pid int, deadline time.Time) bool {
	for groupAlive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// groupAlive reports whether a process of the group led by pid is left
// (a zombie not yet reaped by its new parent counts).
func groupAlive(pid int) bool {
	return syscall.Kill(-pid, 0) == nil
}
