package replay

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// The text encoding (.rlog): the JSON header on line 1, then one line per
// turn, "<turn>\t<command of seat 0>\t<command of seat 1>...", with
// directive lines between them:
//
//	#hash	<turn>	<16 hex digits>   state hash after <turn> (0 = initial)
//	#timeout	<turn>	<seat>        the bot answered too late
//	#crash	<turn>	<seat>          the bot process died
//
// Commands are raw text; a backslash, tab, newline or carriage return in one
// is written as \\, \t, \n or \r so any text survives. Trailing empty
// commands may be left out (editors strip trailing tabs). Blank lines are
// ignored and a CR before a line's end is dropped.

// maxLine bounds one line of a text replay: above the header limit and a
// turn of the largest game (15 seats) whose every command is as long as
// allowed and doubled by escaping.
const maxLine = 1 << 20

// Directive names of the text encoding.
const (
	dirHash     = "#hash"
	dirTimeout  = "#timeout"
	dirCrash    = "#crash"
	dirOversize = "#oversize"
)

// noteKinds lists the recorder's note kinds; the binary encoding stores a
// note's index here, so append only.
var noteKinds = []string{sim.EventTimeout, sim.EventCrash, sim.EventOversize}

// Check validates the whole log against its game: the header (see
// Header.Check, which also canonicalises it), one command per seat in every
// turn, hashes and notes in increasing order and in range.
func (l *Log) Check() (*sim.Game, error) {
	g, _, err := l.check()
	return g, err
}

// check is Check returning the started match too (see Header.start).
func (l *Log) check() (*sim.Game, sim.Match, error) {
	g, m, err := l.Header.start()
	if err != nil {
		return nil, nil, err
	}
	if len(l.Turns) > MaxTurns {
		return nil, nil, &Error{Reason: fmt.Sprintf("%d turns, at most %d", len(l.Turns), MaxTurns)}
	}
	seats := len(l.Header.Players)
	for i, cmds := range l.Turns {
		if len(cmds) != seats {
			return nil, nil, &Error{Turn: i + 1, Reason: fmt.Sprintf("%d commands for %d players", len(cmds), seats)}
		}
		for s, c := range cmds {
			if len(c) > MaxCommandBytes {
				return nil, nil, &Error{Turn: i + 1, Reason: fmt.Sprintf("seat %d: command of %d bytes, at most %d", s, len(c), MaxCommandBytes)}
			}
		}
	}
	for i, h := range l.Hashes {
		if h.Turn < 0 || h.Turn > len(l.Turns) {
			return nil, nil, &Error{Turn: h.Turn, Reason: fmt.Sprintf("hash for turn %d, but the log has %d turns", h.Turn, len(l.Turns))}
		}
		if i > 0 && h.Turn <= l.Hashes[i-1].Turn {
			return nil, nil, &Error{Turn: h.Turn, Reason: fmt.Sprintf("hash for turn %d after one for turn %d", h.Turn, l.Hashes[i-1].Turn)}
		}
	}
	for i, n := range l.Notes {
		if n.Turn < 1 || n.Turn > len(l.Turns) {
			return nil, nil, &Error{Turn: n.Turn, Reason: fmt.Sprintf("%s note for turn %d, but the log has %d turns", n.Kind, n.Turn, len(l.Turns))}
		}
		if n.Seat < 0 || n.Seat >= seats {
			return nil, nil, &Error{Turn: n.Turn, Reason: fmt.Sprintf("%s note for seat %d of %d", n.Kind, n.Seat, seats)}
		}
		if noteKind(n.Kind) < 0 {
			return nil, nil, &Error{Turn: n.Turn, Reason: fmt.Sprintf("unknown note kind %q", n.Kind)}
		}
		if i > 0 {
			p := l.Notes[i-1]
			if n.Turn < p.Turn || n.Turn == p.Turn && n.Seat <= p.Seat {
				return nil, nil, &Error{Turn: n.Turn, Reason: "notes out of order or repeated"}
			}
		}
	}
	return g, m, nil
}

func noteKind(kind string) int {
	for i, k := range noteKinds {
		if k == kind {
			return i
		}
	}
	return -1
}

// EncodeText returns the text encoding of a log. The log is checked first.
func (l *Log) EncodeText() ([]byte, error) {
	if _, err := l.Check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(encodeHeader(&l.Header))
	b.WriteByte('\n')
	hi, ni := 0, 0
	writeHash := func(turn int) {
		for hi < len(l.Hashes) && l.Hashes[hi].Turn == turn {
			fmt.Fprintf(&b, "%s\t%d\t%016x\n", dirHash, turn, l.Hashes[hi].Sum)
			hi++
		}
	}
	writeHash(0)
	for i, cmds := range l.Turns {
		turn := i + 1
		b.WriteString(strconv.Itoa(turn))
		for _, c := range cmds {
			b.WriteByte('\t')
			escape(&b, c)
		}
		b.WriteByte('\n')
		for ni < len(l.Notes) && l.Notes[ni].Turn == turn {
			fmt.Fprintf(&b, "#%s\t%d\t%d\n", l.Notes[ni].Kind, turn, l.Notes[ni].Seat)
			ni++
		}
		writeHash(turn)
	}
	return b.Bytes(), nil
}

func escape(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteByte(c)
		}
	}
}

func unescape(s string) (string, error) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			return "", fmt.Errorf("command ends with a lone backslash")
		}
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		default:
			return "", fmt.Errorf("unknown escape \\%c in a command (write a backslash as \\\\)", s[i])
		}
	}
	return b.String(), nil
}

// DecodeText reads a text replay and checks it (see Log.Check). Errors are
// *Error values naming the line and, where there is one, the turn.
func DecodeText(r io.Reader) (*Log, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	l := &Log{}
	var seats int
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if line == 1 {
			h, err := decodeHeader([]byte(text))
			if err != nil {
				return nil, atLine(err, 1)
			}
			l.Header = h
			if _, err := l.Header.Check(); err != nil {
				return nil, atLine(err, 1)
			}
			seats = len(h.Players)
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if err := l.decodeLine(text, seats); err != nil {
			err.Line = line
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &Error{Line: line + 1, Reason: "read: " + err.Error(), Err: err}
	}
	if line == 0 {
		return nil, &Error{Line: 1, Reason: "empty replay: no header", Err: ErrNotReplay}
	}
	if _, err := l.Check(); err != nil {
		return nil, err
	}
	return l, nil
}

// atLine sets the line of a replay *Error.
func atLine(err error, line int) error {
	var re *Error
	if errors.As(err, &re) {
		re.Line = line
	}
	return err
}

// decodeLine parses one turn or directive line into l.
func (l *Log) decodeLine(text string, seats int) *Error {
	fields := strings.Split(text, "\t")
	if strings.HasPrefix(fields[0], "#") {
		return l.decodeDirective(fields, seats)
	}
	want := len(l.Turns) + 1
	turn, err := strconv.Atoi(fields[0])
	if err != nil {
		return &Error{Turn: want, Reason: fmt.Sprintf("turn number %q is not an integer", clip(fields[0]))}
	}
	if turn != want {
		return &Error{Turn: turn, Reason: fmt.Sprintf("turn %d out of order: expected turn %d", turn, want)}
	}
	if len(l.Turns) >= MaxTurns {
		return &Error{Turn: turn, Reason: fmt.Sprintf("more than %d turns", MaxTurns)}
	}
	if len(fields)-1 > seats {
		return &Error{Turn: turn, Reason: fmt.Sprintf("%d commands for %d players", len(fields)-1, seats)}
	}
	cmds := make([]string, seats)
	for s, f := range fields[1:] {
		c, err := unescape(f)
		if err != nil {
			return &Error{Turn: turn, Reason: fmt.Sprintf("seat %d: %v", s, err)}
		}
		cmds[s] = c
	}
	l.Turns = append(l.Turns, cmds)
	return nil
}

func (l *Log) decodeDirective(fields []string, seats int) *Error {
	if len(fields) != 3 {
		return &Error{Reason: fmt.Sprintf("directive %q takes 2 fields, got %d", clip(fields[0]), len(fields)-1)}
	}
	turn, err := strconv.Atoi(fields[1])
	if err != nil || turn < 0 {
		return &Error{Reason: fmt.Sprintf("%s: turn %q is not a non-negative integer", clip(fields[0]), clip(fields[1]))}
	}
	if turn > len(l.Turns) {
		return &Error{Turn: turn, Reason: fmt.Sprintf("%s for turn %d comes before that turn's line", clip(fields[0]), turn)}
	}
	switch fields[0] {
	case dirHash:
		sum, err := strconv.ParseUint(fields[2], 16, 64)
		if err != nil || len(fields[2]) != 16 {
			return &Error{Turn: turn, Reason: fmt.Sprintf("#hash %q is not 16 hex digits", clip(fields[2]))}
		}
		l.Hashes = append(l.Hashes, Hash{Turn: turn, Sum: sum})
	case dirTimeout, dirCrash, dirOversize:
		seat, err := strconv.Atoi(fields[2])
		if err != nil {
			return &Error{Turn: turn, Reason: fmt.Sprintf("%s: seat %q is not an integer", fields[0], clip(fields[2]))}
		}
		l.Notes = append(l.Notes, Note{Turn: turn, Seat: seat, Kind: fields[0][1:]})
	default:
		return &Error{Turn: turn, Reason: fmt.Sprintf("unknown directive %q (want #hash, #timeout, #crash or #oversize)", clip(fields[0]))}
	}
	return nil
}

// clip shortens hostile input before it is quoted in an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
