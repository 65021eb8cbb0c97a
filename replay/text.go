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
//	#oversize	<turn>	<seat>       the bot's answer was cut to MaxCommandBytes
//
// and, as the last line of a replaylab/2 replay, the end record:
//
//	#end	<turns>	<final state hash>	<digest>
//
// where the hash and the digest are 16 hex digits, the digest being the
// first 16 hex digits of the match id (see the binary format comment). A
// replay that lost any of its last lines has no end record and is reported
// as truncated; one with a line changed, added or dropped before the end
// record fails the digest. replaylab/1 replays have no end record.
//
// Commands are raw text; a backslash, tab, newline or carriage return in one
// is written as \\, \t, \n or \r so any text survives. Trailing empty
// commands may be left out (editors strip trailing tabs). Blank lines are
// ignored and a CR before a line's end is dropped.

// maxLine bounds one line of a text replay: above the header limit and a
// turn of the largest game (15 seats) whose every command is as long as
// allowed and doubled by escaping.
const maxLine = 1 << 20

// maxText bounds a whole text replay: every command byte a log may hold,
// doubled by escaping, plus room for the turn numbers, notes and hashes of
// the longest legal match.
const maxText = 2*MaxLogCommandBytes + 16<<20

// Directive names of the text encoding.
const (
	dirHash     = "#hash"
	dirTimeout  = "#timeout"
	dirCrash    = "#crash"
	dirOversize = "#oversize"
	dirEnd      = "#end"
)

// noteKinds lists the recorder's note kinds; the binary encoding stores a
// note's index here, so append only.
var noteKinds = []string{sim.EventTimeout, sim.EventCrash, sim.EventOversize}

// Check validates the whole log against its game: the header (see
// Header.Check, which also canonicalises it), the turn count within the
// match's limit, one command per seat in every turn, the command bytes
// within their limits, hashes and notes in increasing order and in range,
// and the end record that a replaylab/2 log must have.
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
	if err := l.checkContent(m); err != nil {
		return nil, nil, err
	}
	return g, m, nil
}

// checkContent is check after the header: the turns, hashes, notes and end
// record against the log's started match m.
func (l *Log) checkContent(m sim.Match) error {
	if err := checkTurnCount(len(l.Turns), m); err != nil {
		return err
	}
	seats := len(l.Header.Players)
	total := 0
	for i, cmds := range l.Turns {
		if len(cmds) != seats {
			return &Error{Turn: i + 1, Reason: fmt.Sprintf("%d commands for %d players", len(cmds), seats)}
		}
		for s, c := range cmds {
			if len(c) > MaxCommandBytes {
				return &Error{Turn: i + 1, Reason: fmt.Sprintf("%s: command of %d bytes, at most %d", sim.SeatName(s), len(c), MaxCommandBytes)}
			}
			if total += len(c); total > MaxLogCommandBytes {
				return commandBytesError()
			}
		}
	}
	for i, h := range l.Hashes {
		if h.Turn < 0 || h.Turn > len(l.Turns) {
			return &Error{Reason: fmt.Sprintf("hash for turn %d, but the log has %d turns", h.Turn, len(l.Turns))}
		}
		if i > 0 && h.Turn <= l.Hashes[i-1].Turn {
			return &Error{Turn: h.Turn, Reason: fmt.Sprintf("hash for turn %d after one for turn %d", h.Turn, l.Hashes[i-1].Turn)}
		}
	}
	for i, n := range l.Notes {
		if n.Turn < 1 || n.Turn > len(l.Turns) {
			return &Error{Reason: fmt.Sprintf("%s note for turn %d, but the log has %d turns", quote(n.Kind), n.Turn, len(l.Turns))}
		}
		if n.Seat < 0 || n.Seat >= seats {
			return &Error{Turn: n.Turn, Reason: fmt.Sprintf("%s note for %s of a match of %d seats", quote(n.Kind), sim.SeatName(n.Seat), seats)}
		}
		if noteKind(n.Kind) < 0 {
			return &Error{Turn: n.Turn, Reason: fmt.Sprintf("unknown note kind %s", quote(n.Kind))}
		}
		if i > 0 {
			p := l.Notes[i-1]
			if n.Turn < p.Turn || n.Turn == p.Turn && n.Seat <= p.Seat {
				return &Error{Turn: n.Turn, Reason: "notes out of order or repeated"}
			}
		}
	}
	return l.checkEnd()
}

// checkEnd checks the end record against the format and the turns.
func (l *Log) checkEnd() error {
	if l.Header.Format == FormatV1 {
		if l.End != nil {
			return &Error{Reason: fmt.Sprintf("an end record in a %s log (end records start with %s)", FormatV1, Format)}
		}
		return nil
	}
	if l.End == nil {
		return truncatedError(len(l.Turns))
	}
	if l.End.Turn != len(l.Turns) {
		return kindErrorf(ErrCorrupt, "the end record says %d turns, the replay has %d", l.End.Turn, len(l.Turns))
	}
	if n := len(l.Hashes); n > 0 && l.Hashes[n-1].Turn == l.End.Turn && l.Hashes[n-1].Sum != l.End.Sum {
		return kindErrorf(ErrCorrupt, "the end record's final hash %016x differs from the hash of turn %d, %016x", l.End.Sum, l.End.Turn, l.Hashes[n-1].Sum)
	}
	return nil
}

// turnLimit is the most turns a log of match m may hold.
func turnLimit(m sim.Match) int { return min(MaxTurns, m.MaxTurns()) }

// checkTurnCount refuses a turn count above the match's limit.
func checkTurnCount(n int, m sim.Match) error {
	if limit := turnLimit(m); n > limit {
		return kindErrorf(ErrTooLarge, "%d turns, but this match ends within %d", n, limit)
	}
	return nil
}

// commandBytesError reports a log whose commands total too many bytes.
func commandBytesError() *Error {
	return kindErrorf(ErrTooLarge, "the commands total more than %d MiB", MaxLogCommandBytes>>20)
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
	var b bytes.Buffer
	if err := l.WriteText(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteText writes the text encoding of a log to w, as it goes: a log may
// hold 64 MiB of commands, and its text escaped twice that. The log is
// checked before anything is written.
func (l *Log) WriteText(w io.Writer) error {
	g, err := l.Check()
	if err != nil {
		return err
	}
	b := bufio.NewWriter(w)
	b.Write(encodeHeader(&l.Header))
	b.WriteByte('\n')
	hi, ni := 0, 0
	writeHash := func(turn int) {
		for hi < len(l.Hashes) && l.Hashes[hi].Turn == turn {
			fmt.Fprintf(b, "%s\t%d\t%016x\n", dirHash, turn, l.Hashes[hi].Sum)
			hi++
		}
	}
	writeHash(0)
	for i, cmds := range l.Turns {
		turn := i + 1
		b.WriteString(strconv.Itoa(turn))
		for _, c := range cmds {
			b.WriteByte('\t')
			escape(b, c)
		}
		b.WriteByte('\n')
		for ni < len(l.Notes) && l.Notes[ni].Turn == turn {
			fmt.Fprintf(b, "#%s\t%d\t%d\n", l.Notes[ni].Kind, turn, l.Notes[ni].Seat)
			ni++
		}
		writeHash(turn)
	}
	if l.End != nil {
		fmt.Fprintf(b, "%s\t%d\t%016x\t%016x\n", dirEnd, l.End.Turn, l.End.Sum, l.digest(g.Alphabet))
	}
	return b.Flush()
}

func escape(b *bufio.Writer, s string) {
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
// *Error values naming the line and, where there is one, the turn. It reads
// at most maxText bytes, and stops at the first turn past the match's limit.
func DecodeText(r io.Reader) (*Log, error) {
	l, _, err := decodeText(r)
	return l, err
}

// decodeText is DecodeText, returning the id when it computed it.
func decodeText(r io.Reader) (*Log, string, error) {
	lr := &io.LimitedReader{R: r, N: maxText + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	d := textDecoder{l: &Log{}}
	for sc.Scan() {
		d.line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if d.line == 1 {
			if err := d.header(text); err != nil {
				return nil, "", atLine(err, 1)
			}
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if err := d.decodeLine(text); err != nil {
			err.Line = d.line
			return nil, "", err
		}
	}
	if lr.N <= 0 {
		return nil, "", kindErrorf(ErrTooLarge, "more than %d MiB of text", maxText>>20)
	}
	if err := sc.Err(); err != nil {
		return nil, "", &Error{Line: d.line + 1, Reason: "read: " + err.Error(), Err: err}
	}
	if d.line == 0 {
		return nil, "", &Error{Line: 1, Reason: "empty replay: no header", Err: ErrNotReplay}
	}
	l := d.l
	if l.Header.Format == Format && l.End == nil {
		return nil, "", truncatedError(len(l.Turns))
	}
	id, err := l.finish(d.g, d.m, d.digest, "")
	if err != nil {
		return nil, "", err
	}
	return l, id, nil
}

// textDecoder is the state of DecodeText between lines.
type textDecoder struct {
	l        *Log
	line     int
	seats    int
	limit    int    // the match's turn limit
	cmdBytes int    // the commands so far
	digest   uint64 // the end record's digest
	g        *sim.Game
	m        sim.Match // started from the header, for the final check
}

// header decodes and checks line 1.
func (d *textDecoder) header(text string) error {
	h, err := decodeHeader([]byte(text))
	if err != nil {
		return err
	}
	d.l.Header = h
	g, m, err := d.l.Header.start()
	if err != nil {
		return err
	}
	d.g, d.m = g, m
	d.seats, d.limit = len(h.Players), turnLimit(m)
	return nil
}

// atLine sets the line of a replay *Error.
func atLine(err error, line int) error {
	var re *Error
	if errors.As(err, &re) {
		re.Line = line
	}
	return err
}

// decodeLine parses one turn or directive line. Hashes and notes are
// checked for order as they come, so their number stays bounded by the
// turns.
func (d *textDecoder) decodeLine(text string) *Error {
	l := d.l
	if l.End != nil {
		return &Error{Reason: "a line after the end record"}
	}
	fields := strings.Split(text, "\t")
	if strings.HasPrefix(fields[0], "#") {
		return d.decodeDirective(fields)
	}
	want := len(l.Turns) + 1
	turn, err := strconv.Atoi(fields[0])
	if err != nil {
		return &Error{Turn: want, Reason: fmt.Sprintf("turn number %s is not an integer", quote(fields[0]))}
	}
	if turn != want {
		return &Error{Turn: want, Reason: fmt.Sprintf("turn %d out of order: expected turn %d", turn, want)}
	}
	if len(l.Turns) >= d.limit {
		return kindErrorf(ErrTooLarge, "more than %d turns: this match ends within %d", d.limit, d.limit)
	}
	if len(fields)-1 > d.seats {
		return &Error{Turn: turn, Reason: fmt.Sprintf("%d commands for %d players", len(fields)-1, d.seats)}
	}
	cmds := make([]string, d.seats)
	for s, f := range fields[1:] {
		c, err := unescape(f)
		if err != nil {
			return &Error{Turn: turn, Reason: fmt.Sprintf("%s: %v", sim.SeatName(s), err)}
		}
		if len(c) > MaxCommandBytes {
			return &Error{Turn: turn, Reason: fmt.Sprintf("%s: command of %d bytes, at most %d", sim.SeatName(s), len(c), MaxCommandBytes)}
		}
		if d.cmdBytes += len(c); d.cmdBytes > MaxLogCommandBytes {
			return commandBytesError()
		}
		cmds[s] = c
	}
	l.Turns = append(l.Turns, cmds)
	return nil
}

func (d *textDecoder) decodeDirective(fields []string) *Error {
	l := d.l
	name := fields[0]
	if name == dirEnd {
		return d.decodeEnd(fields)
	}
	if len(fields) != 3 {
		return &Error{Reason: fmt.Sprintf("directive %s takes 2 fields, got %d", quote(name), len(fields)-1)}
	}
	turn, err := strconv.Atoi(fields[1])
	if err != nil || turn < 0 {
		return &Error{Reason: fmt.Sprintf("%s: turn %s is not a non-negative integer", quote(name), quote(fields[1]))}
	}
	if turn > len(l.Turns) {
		return &Error{Reason: fmt.Sprintf("%s for turn %d comes before that turn's line", quote(name), turn)}
	}
	switch name {
	case dirHash:
		sum, err := parseHex(fields[2])
		if err != nil {
			return &Error{Turn: turn, Reason: "#hash " + err.Error()}
		}
		if n := len(l.Hashes); n > 0 && turn <= l.Hashes[n-1].Turn {
			return &Error{Turn: turn, Reason: fmt.Sprintf("hash for turn %d after one for turn %d", turn, l.Hashes[n-1].Turn)}
		}
		l.Hashes = append(l.Hashes, Hash{Turn: turn, Sum: sum})
	case dirTimeout, dirCrash, dirOversize:
		seat, err := strconv.Atoi(fields[2])
		if err != nil || seat < 0 || seat >= d.seats {
			return &Error{Turn: turn, Reason: fmt.Sprintf("%s: seat index %s is not from 0 to %d (the seats of a log count from 0)", name, quote(fields[2]), d.seats-1)}
		}
		if turn == 0 {
			return &Error{Reason: fmt.Sprintf("%s for turn 0: notes are for turns from 1", name)}
		}
		if n := len(l.Notes); n > 0 {
			p := l.Notes[n-1]
			if turn < p.Turn || turn == p.Turn && seat <= p.Seat {
				return &Error{Turn: turn, Reason: "notes out of order or repeated"}
			}
		}
		l.Notes = append(l.Notes, Note{Turn: turn, Seat: seat, Kind: name[1:]})
	default:
		return &Error{Turn: turn, Reason: fmt.Sprintf("unknown directive %s (want #hash, #timeout, #crash, #oversize or #end)", quote(name))}
	}
	return nil
}

// decodeEnd parses the end record, the last line of a replaylab/2 replay.
func (d *textDecoder) decodeEnd(fields []string) *Error {
	l := d.l
	if l.Header.Format != Format {
		return &Error{Reason: fmt.Sprintf("an end record in a %s replay (end records start with %s)", FormatV1, Format)}
	}
	if len(fields) != 4 {
		return &Error{Reason: fmt.Sprintf("#end takes 3 fields, got %d", len(fields)-1)}
	}
	turns, err := strconv.Atoi(fields[1])
	if err != nil || turns != len(l.Turns) {
		return kindErrorf(ErrCorrupt, "#end: turn count %s, the replay has %d turns", quote(fields[1]), len(l.Turns))
	}
	sum, err := parseHex(fields[2])
	if err != nil {
		return &Error{Reason: "#end: final hash " + err.Error()}
	}
	digest, err := parseHex(fields[3])
	if err != nil {
		return &Error{Reason: "#end: digest " + err.Error()}
	}
	l.End, d.digest = &Hash{Turn: turns, Sum: sum}, digest
	return nil
}

// parseHex parses exactly 16 hex digits.
func parseHex(s string) (uint64, error) {
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil || len(s) != 16 {
		return 0, fmt.Errorf("%s is not 16 hex digits", quote(s))
	}
	return v, nil
}
