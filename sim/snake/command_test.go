package snake

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// TestCommands reads commands under the CodeBattle seed rules
// (codebattle2020).
func TestCommands(t *testing.T) {
	tests := []struct {
		raw     string
		want    command
		invalid bool
	}{
		{"", command{dir: noDir}, false},
		{"UP", command{dir: up}, false},
		{" left ", command{dir: left}, false},
		{"ACT", command{dir: noDir, actBefore: true}, false},
		{"ACT,DOWN", command{dir: down, actBefore: true}, false},
		{"DOWN, ACT", command{dir: down, actAfter: true}, false},
		{"ACT(0)", command{dir: noDir, suicide: true}, false},
		{"ACT(1,2),RIGHT", command{dir: right, actBefore: true}, false},
		{"ACT,ACT", command{}, true},
		{"LEFT,UP", command{}, true},
		{"LEFT,ACT,UP", command{}, true},
		{"JUMP", command{}, true},
		{"ACT(x)", command{}, true},
		{" \t", command{}, true},
	}
	for _, tc := range tests {
		got := parseCommand(tc.raw)
		if got.invalid != tc.invalid || !tc.invalid && (got.dir != tc.want.dir || got.actBefore != tc.want.actBefore || got.actAfter != tc.want.actAfter || got.suicide != tc.want.suicide) {
			t.Errorf("%q = %+v, want %+v (invalid %v)", tc.raw, got, tc.want, tc.invalid)
		}
	}
}

// readKeywords lists the actions keywords finds in raw.
func readKeywords(raw string) []string {
	names := [...]string{opUp: "UP", opDown: "DOWN", opLeft: "LEFT", opRight: "RIGHT", opAct: "ACT", opSuicide: "ACT(0)", opBadAct: "bad ACT", opMessage: "message"}
	var out []string
	k := newKeywords(raw)
	for o, ok := k.next(); ok; o, ok = k.next() {
		out = append(out, names[o])
	}
	return out
}

// TestKeywords reads commands as codenjoy's server does. The expectations
// of the first block were checked against the original PlayerCommand run on
// a recording joystick; "bad ACT" is an ACT the original drops (its
// parameters fail Integer.parseInt), reported invalid here.
func TestKeywords(t *testing.T) {
	tests := []struct {
		raw  string
		want []string
	}{
		{"LEFT ACT", []string{"LEFT", "ACT"}},
		{"LEFTACT", []string{"LEFT", "ACT"}},
		{"MOVE LEFT", []string{"LEFT"}},
		{"ACT(-0)", []string{"ACT(0)"}},
		{"ACT(00)", []string{"ACT(0)"}},
		{"ACT(0,)", []string{"ACT(0)"}},
		{"ACT(0 ,)", []string{"ACT(0)"}},
		{"act(0)", []string{"ACT(0)"}},
		{"ACT( 0 )", []string{"ACT"}},
		{"ACT()", []string{"ACT"}},
		{"ACT (0)", []string{"ACT"}},
		{"ACT(٠)", []string{"ACT"}},
		{"ACT(0,1)", []string{"ACT"}},
		{"ACT(,0)", []string{"bad ACT"}},
		{"ACT(-)", []string{"bad ACT"}},
		{"ACT(1-)", []string{"bad ACT"}},
		{"ACT(--0)", []string{"bad ACT"}},
		{"ACT(99999999999)", []string{"bad ACT"}},
		{"SUPER", []string{"UP"}},
		{"UPDOWN", []string{"UP", "DOWN"}},
		{"message('a') LEFT message('b')", []string{"message"}},
		{"MESSAGE('x') LEFT", []string{"message", "LEFT"}},
		{"ACT,ACT(0)", []string{"ACT", "ACT(0)"}},
		{"RİGHT", nil},
		{"left , act", []string{"LEFT", "ACT"}},

		{"", nil},
		{"\r\n", nil},
		{"ACT(,)", []string{"ACT"}},
		{"ACT(0,,)", []string{"ACT(0)"}},
		{"ACT(2147483647)", []string{"ACT"}},
		{"ACT(-2147483648,0)", []string{"ACT"}},
		{"ACT(2147483648)", []string{"bad ACT"}},
		{"ACT(0)(0)ACT(0)", []string{"ACT(0)", "ACT(0)"}},
		{"ACTION", []string{"ACT"}},
		{"ACT(-1", []string{"ACT"}},
		{"ACT(0, ,1)", []string{"bad ACT"}},
		{"ACT(1 ,  0)", []string{"ACT"}},
		{"DOWNLOAD, BRIGHT", []string{"DOWN", "RIGHT"}},
		{"message('a\nLEFT')", []string{"message"}},          // at the start: line breaks escaped
		{" message('a\nLEFT')", []string{"message", "LEFT"}}, // else "." stops at the break
		{"message('x')\rIGHT", []string{"message", "RIGHT"}}, // "\r" becomes \ and r
		{"message('a\u2028') LEFT')", []string{"message", "LEFT"}},
		{"message(') UP", []string{"message", "UP"}},
		{"message('a')\u0085LEFT')", []string{"message", "LEFT"}},
		{"\xffLEFT\xc0", []string{"LEFT"}},
	}
	for _, tc := range tests {
		if got := readKeywords(tc.raw); !slices.Equal(got, tc.want) {
			t.Errorf("%q reads as %v, want %v", tc.raw, got, tc.want)
		}
	}
}

// TestEngineCommands plays one tick of a command in the codenjoy ruleset:
// A carries a stone, its tail on a free cell; it moves right unless told
// otherwise.
func TestEngineCommands(t *testing.T) {
	asleep := [2]int{-1, -1} // re-created on a start floor after dying
	tests := []struct {
		raw         string
		wantStone   bool // on A's old tail cell (2,1)
		wantDeaths  int
		wantHead    [2]int
		wantInvalid bool
	}{
		{"DOWN ACT", true, 0, [2]int{4, 2}, false},
		{"MOVE DOWN", false, 0, [2]int{4, 2}, false},
		{"UPDOWN", false, 0, [2]int{4, 2}, false},
		{"ACT,ACT(0)", true, 1, asleep, false},
		{"ACT(0),ACT", false, 1, asleep, false},
		{"ACT(-0)", false, 1, asleep, false},
		{"ACT(00)", false, 1, asleep, false},
		{"ACT(0 ,)", false, 1, asleep, false},
		{"ACT( 0 )", true, 0, [2]int{5, 1}, false},
		{"ACT()", true, 0, [2]int{5, 1}, false},
		{"ACT(,0)", false, 0, [2]int{5, 1}, true},
		{"message('x') DOWN message('y')", false, 0, [2]int{5, 1}, false},
		{"JUMP", false, 0, [2]int{5, 1}, true},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			m := scenarioIn(t, "codenjoy", 10, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA         ☼", "☼        b    ☼", "☼        B    ☼", pens)
			a := &m.snakes[0]
			a.stones = 1
			step(t, m, tc.raw, "")
			if got := m.grid[m.cell(2, 1)] == stone; got != tc.wantStone {
				t.Errorf("stone on (2,1) %v, want %v", got, tc.wantStone)
			}
			head := asleep
			if a.active {
				x, y := m.xy(a.head())
				head = [2]int{x, y}
			}
			if a.deaths != tc.wantDeaths || !a.alive || head != tc.wantHead {
				t.Errorf("deaths %d alive %v head %v, want %d deaths and head %v", a.deaths, a.alive, head, tc.wantDeaths, tc.wantHead)
			}
			invalid := slices.ContainsFunc(m.Events(), func(e sim.Event) bool { return e.Kind == sim.EventInvalid })
			if invalid != tc.wantInvalid {
				t.Errorf("invalid event %v, want %v (events %v)", invalid, tc.wantInvalid, kinds(m))
			}
		})
	}
}

// javaPattern is PlayerCommand's pattern in Go's syntax, spelled out for
// Java's semantics: ASCII-only case folding (Go's (?i) also folds ſ and K)
// and "." without line terminators. Go's regexp picks the match a
// backtracking engine like Java's would.
var javaPattern = regexp.MustCompile(`([lL][eE][fF][tT]|[rR][iI][gG][hH][tT]|[uU][pP]|[dD][oO][wW][nN]|([aA][cC][tT](\((-?[0-9]*,?)+\))?)|([mM][eE][sS][sS][aA][gG][eE](\('([^\n\r\x{85}\x{2028}\x{2029}]*)'\))?))`)

// The normalisations PlayerCommand applies before matching.
var spacesAfterComma, spacesBeforeComma = regexp.MustCompile(", +"), regexp.MustCompile(" +,")

// patternKeywords is readKeywords done with javaPattern and Java's
// replaceAll calls, as a slow reference.
func patternKeywords(raw string) []string {
	if strings.HasPrefix(raw, "message('") {
		raw = strings.ReplaceAll(strings.ReplaceAll(raw, "\n", `\n`), "\r", `\r`)
	} else {
		raw = spacesAfterComma.ReplaceAllString(raw, ",")
		raw = spacesBeforeComma.ReplaceAllString(raw, ",")
	}
	var out []string
	for _, g := range javaPattern.FindAllStringSubmatchIndex(raw, -1) {
		word := strings.ToLower(raw[g[0]:g[1]])
		switch {
		case strings.HasPrefix(word, "act") && g[6] >= 0:
			out = append(out, map[op]string{opAct: "ACT", opSuicide: "ACT(0)", opBadAct: "bad ACT"}[actParams(raw[g[6]+1:g[7]-1])])
		case strings.HasPrefix(word, "act"):
			out = append(out, "ACT")
		case strings.HasPrefix(word, "message"):
			out = append(out, "message")
		default:
			out = append(out, strings.ToUpper(word))
		}
	}
	return out
}

// FuzzKeywords: the scanner finds what the pattern finds.
func FuzzKeywords(f *testing.F) {
	for _, s := range []string{"LEFT ACT", "ACT(0 ,)", "message('a') LEFT message('b')", "a , ,b ACT(1, 0)", "message('x')\rIGHT", "ACT(--0)UPDOWN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if got, want := readKeywords(raw), patternKeywords(raw); !slices.Equal(got, want) {
			t.Errorf("%q reads as %v, the pattern finds %v", raw, got, want)
		}
	})
}
