package worms

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Commands (rules §7.1): how the engine reads a player's text.

// kind is a command's type. The order of the action kinds is their
// execution priority (rules §7.2): nothing and invalid, move, dig, banana,
// shoot, snowball.
type kind uint8

const (
	cmdNothing kind = iota
	cmdInvalid
	cmdMove
	cmdDig
	cmdBanana
	cmdShoot
	cmdSnowball
	cmdSelect
)

// priority is the engine's execution order of a command kind.
func (k kind) priority() int {
	switch k {
	case cmdMove:
		return 1
	case cmdDig:
		return 2
	case cmdBanana:
		return 3
	case cmdShoot:
		return 4
	case cmdSnowball:
		return 5
	}
	return 0
}

// command is one parsed command: x, y for move, dig, banana and snowball,
// dir for shoot, x for select (the worm id). reason says why an invalid
// command is invalid.
type command struct {
	kind   kind
	x, y   int
	dir    int
	reason string
}

// noCommand is what the runner submits when a bot stays silent.
const noCommand = "No Command"

// parseTurn reads one player's raw text for round as the runner and the
// engine do. A text starting with "C;" is framed as the runner frames a
// bot's line: only "C;<round>;" with this round's number (no sign, no
// leading zero) is accepted and stripped; any other prefix, or nothing
// after it, is the runner's "No Command". Unframed text is taken as it
// is, replaylab's own bots' way of answering. An empty text is a
// time-out: "No Command" as well.
//
// The base runner hands the rest to the engine as one command, untrimmed
// (phase 1). The final runner splits it on ';', trims the parts and drops
// empty ones; the last select and the last other command are played, and
// with no other command the worm does nothing, without penalty.
func parseTurn(raw string, final bool, round int) (sel command, hasSel bool, act command) {
	if len(raw) >= 2 && raw[0] == 'C' && raw[1] == ';' {
		raw = stripPrefix(raw, round)
	}
	if raw == "" {
		raw = noCommand
	}
	if !final {
		return sel, false, parseCommand(raw, false)
	}
	act = command{kind: cmdNothing, reason: "no command received for player"}
	for len(raw) > 0 {
		part := raw
		if i := strings.IndexByte(raw, ';'); i >= 0 {
			part, raw = raw[:i], raw[i+1:]
		} else {
			raw = ""
		}
		part = javaTrim(part)
		if part == "" {
			continue
		}
		c := parseCommand(part, final)
		if c.kind == cmdSelect {
			sel, hasSel = c, true
		} else {
			act = c
		}
	}
	return sel, hasSel, act
}

// stripPrefix removes the runner's "C;<round>;" from s, which starts with
// "C;". The runner ignores a line with any other prefix, so those give
// "" (no command), as does the prefix alone.
func stripPrefix(s string, round int) string {
	i, n := 2, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' && n <= round {
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == 2 || s[2] == '0' || n != round || i == len(s) || s[i] != ';' {
		return ""
	}
	return s[i+1:]
}

// javaTrim is Java's String.trim: it strips every char <= ' ' at both ends.
func javaTrim(s string) string {
	for len(s) > 0 && s[0] <= ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] <= ' ' {
		s = s[:len(s)-1]
	}
	return s
}

// parseCommand reads one command as the engine's CommandParser does: split
// on single spaces into at most 4 parts (the phase-1 engine has no limit,
// but any count above 3 is wrong either way), the keyword in any case,
// exact part counts, Kotlin integers. Banana, snowball and select are
// unknown words in the base ruleset (the phase-1 engine had no such
// commands).
func parseCommand(s string, final bool) command {
	var parts [4]string
	n := 0
	for n < 3 {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			break
		}
		parts[n], s = s[:i], s[i+1:]
		n++
	}
	parts[n] = s
	n++
	k, ok := keyword(parts[0], final)
	if !ok {
		return command{kind: cmdInvalid, reason: "unknown command"}
	}
	switch k {
	case cmdNothing:
		return command{kind: cmdNothing, reason: "player chose to do nothing"}
	case cmdShoot:
		if n != 2 {
			return command{kind: cmdInvalid, reason: "cannot parse shoot command: expected 2 parts"}
		}
		d, ok := direction(parts[1], final)
		if !ok {
			return command{kind: cmdInvalid, reason: "cannot parse direction"}
		}
		return command{kind: cmdShoot, dir: d}
	case cmdSelect:
		if n != 2 {
			return command{kind: cmdInvalid, reason: "cannot parse select command: expected 2 parts"}
		}
		id, ok := kotlinInt(parts[1])
		if !ok {
			return command{kind: cmdInvalid, reason: "cannot parse worm id as a number"}
		}
		return command{kind: cmdSelect, x: id}
	}
	if n != 3 {
		return command{kind: cmdInvalid, reason: "cannot parse command: expected 3 parts"}
	}
	x, okx := kotlinInt(parts[1])
	y, oky := kotlinInt(parts[2])
	if !okx || !oky {
		return command{kind: cmdInvalid, reason: "cannot parse coordinates as numbers"}
	}
	return command{kind: k, x: x, y: y}
}

// keywords of the commands, lower case.
var keywords = [...]struct {
	word  string
	kind  kind
	final bool // only in the final ruleset
}{
	{"move", cmdMove, false}, {"dig", cmdDig, false}, {"shoot", cmdShoot, false},
	{"nothing", cmdNothing, false}, {"banana", cmdBanana, true}, {"snowball", cmdSnowball, true},
	{"select", cmdSelect, true},
}

// keyword matches w case-insensitively. Only ASCII letters fold: Java's
// toLowerCase maps no other character onto a letter of these words.
func keyword(w string, final bool) (kind, bool) {
	for _, k := range keywords {
		if (final || !k.final) && asciiFoldEqual(w, k.word) {
			return k.kind, true
		}
	}
	return 0, false
}

// asciiFoldEqual reports whether s upper- or lower-cases to lower, which
// is ASCII lower case.
func asciiFoldEqual(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// direction reads a shoot direction as the engine does (toUpperCase,
// then one of the 8 names; the phase-1 engine also takes U, UR, R, DR, D,
// DL, L, UL). Java upper-cases 'ſ' (U+017F, long s) to 'S', so "ſ" and
// "ſe" are directions there and here.
func direction(s string, final bool) (int, bool) {
	var up [2]byte
	n := 0
	for _, r := range s {
		if n == len(up) {
			return 0, false
		}
		switch {
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		case r == 'ſ':
			r = 'S'
		}
		if r > 'Z' {
			return 0, false
		}
		up[n] = byte(r)
		n++
	}
	name := string(up[:n])
	for i := range directions {
		if d := &directions[i]; d.name == name || !final && d.vertical == name {
			return i, true
		}
	}
	return 0, false
}

// kotlinInt is Kotlin's String.toIntOrNull on the JVM: an optional sign
// ('+' or '-', not alone), then decimal digits of any script, within the
// 32-bit range.
func kotlinInt(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	neg := false
	if s[0] == '+' || s[0] == '-' {
		if len(s) == 1 {
			return 0, false
		}
		neg = s[0] == '-'
		s = s[1:]
	}
	v := 0
	for i := 0; i < len(s); {
		d := int(s[i]) - '0'
		if s[i] < utf8.RuneSelf {
			i++
		} else {
			r, n := utf8.DecodeRuneInString(s[i:])
			d = javaDigit(r)
			i += n
		}
		if d < 0 || d > 9 {
			return 0, false
		}
		v = v*10 + d
		if v > 1<<31 {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	if v > 1<<31-1 {
		return 0, false
	}
	return v, true
}

// javaDigit is Java's Character.digit(c, 10) as Kotlin calls it, once per
// UTF-16 char: the value of a decimal digit (general category Nd) of the
// Basic Multilingual Plane, else -1. A digit beyond the BMP is two
// surrogate chars, neither a digit, and so is not one either; invalid
// UTF-8 decodes to U+FFFD, not a digit. Every BMP Nd range of Go's
// tables is one script's 0 to 9, the same set as JDK 17's (TestJavaDigit).
func javaDigit(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < utf8.RuneSelf || r > 0xFFFF {
		return -1
	}
	nd := unicode.Nd.R16
	i := sort.Search(len(nd), func(i int) bool { return rune(nd[i].Hi) >= r })
	if i == len(nd) || rune(nd[i].Lo) > r {
		return -1
	}
	return int(r-rune(nd[i].Lo)) % 10
}
