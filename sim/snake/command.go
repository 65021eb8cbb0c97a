package snake

import (
	"strconv"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// commands is step 0 (B6, B7.0): every seat's command in seat order, read
// under the ruleset's rules. A direction is stored only for a moving snake;
// ACT(0) kills even a sleeping snake, and from a dead one not yet replaced
// it still counts as a death for step 8. The command of a seat whose snake
// has left does nothing, but an invalid one is still reported.
func (m *match) commands(cmds []string) {
	for i, raw := range cmds {
		if m.rules.engineCommands {
			m.engineCommand(i, raw)
		} else {
			m.seedCommand(i, raw)
		}
	}
}

// seedCommand applies a command under the CodeBattle seed rules: ACT(0)
// first, then the direction, a pre-move ACT at once and a post-move one at
// step 9.
func (m *match) seedCommand(i int, raw string) {
	cmd := parseCommand(raw)
	if cmd.invalid {
		m.event(sim.Event{Seat: i, Kind: sim.EventInvalid, Detail: cmd.invalidWhy})
	}
	if m.snakes[i].left {
		return
	}
	if cmd.suicide {
		m.die(i, -1, "act0")
	}
	if s := &m.snakes[i]; cmd.dir != noDir && s.moving() {
		s.next = cmd.dir
	}
	if cmd.actBefore {
		m.drop(i, "before the move")
	}
	m.snakes[i].dropAfter = cmd.actAfter
}

// command is a command read under the CodeBattle seed rules (B6).
type command struct {
	dir        int8
	actBefore  bool
	actAfter   bool
	suicide    bool
	invalid    bool
	invalidWhy string
}

// parseCommand reads a command under the CodeBattle seed rules: one or two
// comma-separated tokens, at most one direction and one ACT.
func parseCommand(raw string) command {
	cmd := command{dir: noDir}
	if raw == "" { // no command (B6); blank text is an unknown token
		return cmd
	}
	var toks [3]token
	n := 0
	for rest := strings.TrimSpace(raw); ; {
		var tok string
		tok, rest = nextToken(rest)
		t, ok := parseToken(tok)
		if !ok {
			return command{dir: noDir, invalid: true, invalidWhy: "unknown token " + sim.QuoteCommand(tok)}
		}
		if n == len(toks) {
			return command{dir: noDir, invalid: true, invalidWhy: "more than two tokens: " + sim.QuoteCommand(raw)}
		}
		toks[n] = t
		n++
		if rest == "" {
			break
		}
	}
	if n == 3 {
		return command{dir: noDir, invalid: true, invalidWhy: "more than two tokens: " + sim.QuoteCommand(raw)}
	}
	t0, t1 := toks[0], toks[1]
	switch {
	case n == 1 && t0.dir != noDir:
		cmd.dir = t0.dir
	case n == 1:
		cmd.actBefore, cmd.suicide = !t0.suicide, t0.suicide
	case t0.dir == noDir && t1.dir != noDir: // ACT,DIR: drop, then move
		cmd.dir, cmd.actBefore, cmd.suicide = t1.dir, !t0.suicide, t0.suicide
	case t0.dir != noDir && t1.dir == noDir: // DIR,ACT: move, then drop on the new tail
		cmd.dir, cmd.actAfter, cmd.suicide = t0.dir, !t1.suicide, t1.suicide
	default:
		return command{dir: noDir, invalid: true, invalidWhy: "two directions or two ACTs: " + sim.QuoteCommand(raw)}
	}
	return cmd
}

// token is one parsed token: a direction, ACT, or ACT(0).
type token struct {
	dir     int8
	suicide bool
}

// nextToken splits off the text up to the first comma outside parentheses.
func nextToken(s string) (tok, rest string) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth <= 0 {
				return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
			}
		}
	}
	return strings.TrimSpace(s), ""
}

// parseToken reads UP, DOWN, LEFT, RIGHT, ACT or ACT(n,...) in any case.
// ACT with the single parameter 0 is the suicide command; other parameters
// act as a plain ACT, as in the engine.
func parseToken(t string) (token, bool) {
	for d, name := range dirNames {
		if strings.EqualFold(t, name) {
			return token{dir: int8(d)}, true
		}
	}
	if len(t) < 3 || !strings.EqualFold(t[:3], "ACT") {
		return token{}, false
	}
	args := strings.TrimSpace(t[3:])
	if args == "" {
		return token{dir: noDir}, true
	}
	if len(args) < 2 || args[0] != '(' || args[len(args)-1] != ')' {
		return token{}, false
	}
	params := strings.Split(args[1:len(args)-1], ",")
	for _, p := range params {
		if _, err := strconv.Atoi(strings.TrimSpace(p)); err != nil {
			return token{}, false
		}
	}
	return token{dir: noDir, suicide: len(params) == 1 && strings.TrimSpace(params[0]) == "0"}, true
}

// engineCommand applies a command as the codenjoy server does: every
// action its text holds, in text order, at once. A direction is kept if
// the snake moves (the last one wins), ACT drops a stone, ACT(0) kills, so
// "ACT,ACT(0)" drops the stone before dying. Once the snake has left, only
// the reports of invalid text remain.
func (m *match) engineCommand(i int, raw string) {
	if raw == "" {
		return
	}
	k := newKeywords(raw)
	found, left := false, m.snakes[i].left
	for o, ok := k.next(); ok; o, ok = k.next() {
		found = true
		switch {
		case o == opBadAct:
			m.event(sim.Event{Seat: i, Kind: sim.EventInvalid, Detail: "ACT with a parameter that is not a 32-bit integer, ignored, in " + sim.QuoteCommand(raw)})
		case left:
		case o == opAct:
			m.drop(i, "before the move")
		case o == opSuicide:
			m.die(i, -1, "act0")
		case o == opMessage:
		default:
			if s := &m.snakes[i]; s.moving() {
				s.next = int8(o)
			}
		}
	}
	if !found {
		m.event(sim.Event{Seat: i, Kind: sim.EventInvalid, Detail: "no command in " + sim.QuoteCommand(raw)})
	}
}

// op is an action found in a command by keywords.
type op uint8

const (
	opUp op = iota // opUp + a direction: the four directions
	opDown
	opLeft
	opRight
	opAct     // ACT, or ACT(...) with parameters other than a single 0
	opSuicide // ACT(0), and ACT(-0), ACT(00), ACT(0,)
	opBadAct  // ACT(...) with a parameter Java cannot read: nothing
	opMessage // message('...'): nothing for a snake
)

// keywords finds the actions in a command as codenjoy's PlayerCommand does
// with the pattern
//
//	(left|right|up|down|(act(\((-?\d*,?)+\))?)|(message(\('(.*)'\))?))
//
// and Java's find loop: every match, leftmost first, anywhere in the text
// (inside words too: "SUPER" holds UP, "LEFTACT" LEFT and ACT), letters
// matched without regard to ASCII case only, \d an ASCII digit, and "."
// any character but a line terminator. Before matching, spaces next to a
// comma are dropped unless the text starts with "message('"; then line
// breaks become the two characters \n and \r instead. A hand-written
// scanner: a regular expression per seat per tick costs too much.
type keywords struct {
	s string
	i int // where the next search starts
}

func newKeywords(raw string) keywords {
	if strings.HasPrefix(raw, "message('") {
		return keywords{s: strings.ReplaceAll(strings.ReplaceAll(raw, "\n", `\n`), "\r", `\r`)}
	}
	return keywords{s: squeezeCommas(raw)}
}

// squeezeCommas drops every run of spaces (U+0020 only) next to a comma,
// as PlayerCommand's replaceAll(", +", ",") then replaceAll(" +,", ",")
// do.
func squeezeCommas(s string) string {
	if !strings.Contains(s, ", ") && !strings.Contains(s, " ,") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j == i {
			b.WriteByte(s[i])
			i++
			continue
		}
		if !(i > 0 && s[i-1] == ',' || j < len(s) && s[j] == ',') {
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

// next returns the next action and true, or false at the end of the text.
func (k *keywords) next() (op, bool) {
	s := k.s
	for i := k.i; i < len(s); i++ {
		var o op
		n := 0
		switch s[i] | 0x20 { // ASCII lower case; no keyword starts with a non-letter
		case 'l':
			o, n = opLeft, keywordAt(s, i, "left")
		case 'r':
			o, n = opRight, keywordAt(s, i, "right")
		case 'u':
			o, n = opUp, keywordAt(s, i, "up")
		case 'd':
			o, n = opDown, keywordAt(s, i, "down")
		case 'a':
			if n = keywordAt(s, i, "act"); n > 0 {
				o, n = actAt(s, i+n)
				n -= i
			}
		case 'm':
			if n = keywordAt(s, i, "message"); n > 0 {
				o, n = opMessage, messageEnd(s, i+n)-i
			}
		}
		if n > 0 {
			k.i = i + n
			return o, true
		}
	}
	k.i = len(s)
	return 0, false
}

// keywordAt is the length of kw (lower case) if s holds it at i in any
// ASCII case, else 0.
func keywordAt(s string, i int, kw string) int {
	if len(s)-i < len(kw) {
		return 0
	}
	for j := range len(kw) {
		c := s[i+j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != kw[j] {
			return 0
		}
	}
	return len(kw)
}

// actAt reads ACT's parameters, if any, from s[j:]: "(", then only -,
// digits and commas, then ")". It returns the action and where the match
// ends.
func actAt(s string, j int) (op, int) {
	if j == len(s) || s[j] != '(' {
		return opAct, j
	}
	e := j + 1
	for e < len(s) && (s[e] == '-' || s[e] == ',' || '0' <= s[e] && s[e] <= '9') {
		e++
	}
	if e == len(s) || s[e] != ')' {
		return opAct, j // "ACT( 0 )", "ACT(x)": a plain ACT, the rest read on
	}
	return actParams(s[j+1 : e]), e + 1
}

// actParams is the action of ACT(p): as Java's split drops the empty
// pieces at the end, "ACT()" and "ACT(0,)" have no parameter and one; then
// every piece must be an int (Integer.parseInt: "-0" and "00" are 0) or the
// ACT does nothing; exactly one parameter 0 is suicide.
func actParams(p string) op {
	p = strings.TrimRight(p, ",")
	if p == "" {
		return opAct
	}
	n, zero := 0, false
	for piece := range strings.SplitSeq(p, ",") {
		v, err := strconv.ParseInt(piece, 10, 32)
		if err != nil {
			return opBadAct
		}
		n, zero = n+1, v == 0
	}
	if n == 1 && zero {
		return opSuicide
	}
	return opAct
}

// messageEnd is where message('...') ends when "message" ends at j: after
// the last "')" before a line terminator, or at j with no such "')".
func messageEnd(s string, j int) int {
	if !strings.HasPrefix(s[j:], "('") {
		return j
	}
	body := s[j+2:]
	if end := strings.IndexAny(body, "\n\r\u0085\u2028\u2029"); end >= 0 {
		body = body[:end]
	}
	if k := strings.LastIndex(body, "')"); k >= 0 {
		return j + 2 + k + 2
	}
	return j
}

// alternatives are the commands a snake may always give: the four
// directions and ACT. Combinations (ACT,LEFT...) are left out: they
// would triple the forks of a critical sweep for what a one-turn
// difference in when a stone drops seldom changes.
var alternatives = [...]string{"UP", "DOWN", "LEFT", "RIGHT", "ACT"}

// Alternatives lists the four directions and ACT.
func (m *match) Alternatives(int) []string { return alternatives[:] }
