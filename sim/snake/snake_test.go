package snake

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// scenario builds a match on a small map drawn in map glyphs plus snakes:
// the capital letter A, B, ... is the head of seat 0, 1, ... and the same
// lower-case letter marks its body, traced from the head through adjacent
// cells (draw bodies that never touch themselves ambiguously). The snakes
// are awake and the round has run roundTime ticks. Every map needs one
// start floor per seat. Wall rows below the drawing make the map square.
func scenario(t testing.TB, roundTime int, rows ...string) *match {
	t.Helper()
	return scenarioIn(t, "", roundTime, rows...)
}

// scenarioIn is scenario in the named ruleset.
func scenarioIn(t testing.TB, ruleset string, roundTime int, rows ...string) *match {
	t.Helper()
	var clean []string
	heads := map[int][2]int{}
	bodies := map[int]map[[2]int]bool{}
	for y, row := range rows {
		var b strings.Builder
		x := 0
		for _, r := range row {
			switch {
			case r >= 'A' && r <= 'O':
				heads[int(r-'A')] = [2]int{x, y}
				r = ' '
			case r >= 'a' && r <= 'o':
				seat := int(r - 'a')
				if bodies[seat] == nil {
					bodies[seat] = map[[2]int]bool{}
				}
				bodies[seat][[2]int{x, y}] = true
				r = ' '
			}
			b.WriteRune(r)
			x++
		}
		clean = append(clean, b.String())
	}
	for w := len([]rune(clean[0])); len(clean) < w; {
		clean = append(clean, strings.Repeat("☼", w))
	}
	cfg, _ := json.Marshal(config{Map: clean})
	mm, err := Game.New(sim.Setup{Ruleset: ruleset, Players: len(heads), Seed: 1, Config: cfg})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	m := mm.(*match)
	for seat := range len(heads) {
		h, ok := heads[seat]
		if !ok {
			t.Fatalf("no head for seat %d", seat)
		}
		cells := [][2]int{h}
		cur := h
		for {
			found := false
			for _, d := range [4][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
				n := [2]int{cur[0] + d[0], cur[1] + d[1]}
				if bodies[seat][n] {
					delete(bodies[seat], n)
					cells = append(cells, n)
					cur, found = n, true
					break
				}
			}
			if !found {
				break
			}
		}
		if len(cells) < 2 || len(bodies[seat]) > 0 {
			t.Fatalf("seat %d: body of %d cells, %d cells left over", seat, len(cells), len(bodies[seat]))
		}
		s := &m.snakes[seat]
		s.body = s.body[:0]
		for i := len(cells) - 1; i >= 0; i-- {
			s.body = append(s.body, m.cell(cells[i][0], cells[i][1]))
		}
		s.lastTail = s.body[0]
		for d := range m.deltas {
			if s.body[len(s.body)-2]+m.deltas[d] == s.head() {
				s.dir = int8(d)
			}
		}
		s.active = true
	}
	m.round = 1
	m.startTimer, m.winnerTimer = -1, -1
	m.roundTimer = roundTicks - roundTime
	m.view.valid = false
	return m
}

// step plays one tick, failing on a Step error.
func step(t testing.TB, m *match, cmds ...string) {
	t.Helper()
	if err := m.Step(cmds); err != nil {
		t.Fatalf("turn %d: %v", m.turn+1, err)
	}
}

// kinds lists the last tick's events as "kind:seat" (or "kind" for the
// game's own).
func kinds(m *match) []string {
	var out []string
	for _, e := range m.Events() {
		if e.Kind == "respawn" {
			continue
		}
		k := e.Kind
		if e.Seat >= 0 {
			k += ":" + string(rune('A'+e.Seat))
		}
		out = append(out, k)
	}
	return out
}

// bodyOf lists seat's cells from the tail as (x, y).
func bodyOf(m *match, seat int) [][2]int {
	var out [][2]int
	for _, c := range m.snakes[seat].body {
		x, y := m.xy(c)
		out = append(out, [2]int{x, y})
	}
	return out
}

// The pen row "☼#" gives each seat its start floor.
const pens = "☼#    ☼#    ☼#☼"

func TestHeadOn(t *testing.T) {
	tests := []struct {
		name       string
		rows       []string
		fury       [2]int
		wantAlive  [2]bool
		wantScore  [2]int
		wantLength [2]int // after the next tick, for survivors
	}{
		{
			name:      "equal lengths meet in a cell: both die",
			rows:      []string{"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼  aaA Bbb    ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼"},
			wantAlive: [2]bool{false, false},
		},
		{
			name:      "lengths 3 and 4 differ by one: both die",
			rows:      []string{"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼  aaA Bbbb   ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼"},
			wantAlive: [2]bool{false, false},
		},
		{
			name:       "heads swap through the necks: the longer survives and loses the shorter's length next tick",
			rows:       []string{"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼aaaaaABbb    ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼"},
			wantAlive:  [2]bool{true, false},
			wantScore:  [2]int{30, 0},
			wantLength: [2]int{3},
		},
		{
			name:       "fury beats length",
			rows:       []string{"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼  aaA Bbbbbb ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼"},
			fury:       [2]int{5, 0},
			wantAlive:  [2]bool{true, false},
			wantScore:  [2]int{60, 0},
			wantLength: [2]int{3},
		},
		{
			name:      "both in fury: the usual rule",
			rows:      []string{"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼  aaA Bbbbbb ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼"},
			fury:      [2]int{5, 5},
			wantAlive: [2]bool{false, true},
			wantScore: [2]int{0, 30},
			// B has 6 cells and owes 3: it keeps 3 after its next move.
			wantLength: [2]int{0, 3},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := scenario(t, 10, tc.rows...)
			m.snakes[0].fury, m.snakes[1].fury = tc.fury[0], tc.fury[1]
			step(t, m, "", "")
			if !slices.Contains(kinds(m), "headon:A") {
				t.Errorf("events %v, want a head-on", kinds(m))
			}
			for i := range 2 {
				s := &m.snakes[i]
				if s.alive != tc.wantAlive[i] || s.score != tc.wantScore[i] {
					t.Errorf("seat %d: alive %v score %d, want %v %d", i, s.alive, s.score, tc.wantAlive[i], tc.wantScore[i])
				}
			}
			step(t, m, "", "")
			for i := range 2 {
				if s := &m.snakes[i]; tc.wantAlive[i] && len(s.body) != tc.wantLength[i] {
					t.Errorf("seat %d: length %d after the next move, want %d", i, len(s.body), tc.wantLength[i])
				}
			}
		})
	}
}

// TestCutOwedAfterStone: A survives a head-on with B (3 cells) owing a cut
// of 3, then eats a stone (3 cells fewer). On its next move the cut takes
// what is owed: a snake left with 1 cell lives on, as in the engine; one
// that owes more than it has dies and still moves a cell, as in the engine;
// one that owes exactly what it has dies too (the engine fails there).
func TestCutOwedAfterStone(t *testing.T) {
	for _, tc := range []struct {
		row       string
		wantAlive bool
		wantBody  [][2]int
		wantGlyph rune // the observer's at A's head
	}{
		{"☼aaaaaaA●     ☼", true, [][2]int{{9, 1}}, '>'},
		{"☼  aaaaA●     ☼", false, [][2]int{{8, 1}, {9, 1}}, '☺'},
		{"☼ aaaaaA●     ☼", false, [][2]int{{7, 1}, {8, 1}, {9, 1}}, '☺'},
	} {
		m := scenario(t, 10, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", tc.row, "☼      Bbb    ☼", pens)
		m.rand = drawFunc(func(n int) int { return n - 1 }) // objects find no free cell: none appears
		a := &m.snakes[0]
		was := len(a.body)
		step(t, m, "", "UP") // B's head on A's neck; A's head on the stone
		if !a.alive || a.shrink != 3 || len(a.body) != was-3 || m.snakes[1].alive {
			t.Fatalf("%d cells: A alive %v owes %d length %d, B alive %v; want A alive owing 3 with %d cells, B dead", was, a.alive, a.shrink, len(a.body), m.snakes[1].alive, was-3)
		}
		step(t, m, "", "")
		if got := bodyOf(m, 0); a.alive != tc.wantAlive || !slices.Equal(got, tc.wantBody) {
			t.Errorf("%d cells: A alive %v body %v, want alive %v body %v", was, a.alive, got, tc.wantAlive, tc.wantBody)
		}
		if got := glyphAt(t, m, -1, 9, 1); got != tc.wantGlyph {
			t.Errorf("%d cells: observer sees %q at (9,1), want %q", was, got, tc.wantGlyph)
		}
	}
}

func TestBites(t *testing.T) {
	rows := []string{
		"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
		"☼     a       ☼",
		"☼     A       ☼",
		"☼   bbbbbB    ☼",
		pens,
	}
	t.Run("without fury the biter dies and the bitten is credited", func(t *testing.T) {
		m := scenario(t, 10, rows...)
		step(t, m, "DOWN", "")
		if m.snakes[0].alive || !m.snakes[1].alive || m.snakes[1].score != 20 {
			t.Errorf("A alive %v, B alive %v score %d; want A dead, B alive with 20", m.snakes[0].alive, m.snakes[1].alive, m.snakes[1].score)
		}
	})
	t.Run("in fury the biter cuts from the tail through the bitten cell", func(t *testing.T) {
		m := scenario(t, 10, rows...)
		m.snakes[0].fury = 3
		// B moves right to (5,3)..(10,3); A bites (6,3), B's second cell.
		step(t, m, "DOWN", "")
		a, b := &m.snakes[0], &m.snakes[1]
		if !a.alive || !b.alive || a.score != 20 {
			t.Fatalf("A alive %v score %d, B alive %v; want both alive, A +20", a.alive, a.score, b.alive)
		}
		if got, want := bodyOf(m, 1), [][2]int{{7, 3}, {8, 3}, {9, 3}, {10, 3}}; !slices.Equal(got, want) {
			t.Errorf("B = %v, want %v", got, want)
		}
		if a.fury != 2 {
			t.Errorf("A fury %d, want 2 (one tick used)", a.fury)
		}
	})
	t.Run("entering a neck is a head-on, and fury wins it", func(t *testing.T) {
		m := scenario(t, 10,
			"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
			"☼        a    ☼",
			"☼        A    ☼",
			"☼   bbbbbB    ☼",
			pens)
		m.snakes[0].fury = 3
		step(t, m, "DOWN", "")
		if m.snakes[1].alive || m.snakes[0].score != 60 {
			t.Errorf("B alive %v, A score %d; want B dead, A +60: %v", m.snakes[1].alive, m.snakes[0].score, kinds(m))
		}
	})
}

func TestSelfBite(t *testing.T) {
	m := scenario(t, 10, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA         ☼", "☼        B    ☼", "☼        b    ☼", pens)
	// A loop, tail first, with the head at (4,2) moving left; UP enters
	// (4,1), the body cell at index 4.
	a := &m.snakes[0]
	a.body = a.body[:0]
	for _, p := range [][2]int{{2, 3}, {2, 2}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {5, 2}, {4, 2}} {
		a.body = append(a.body, m.cell(p[0], p[1]))
	}
	a.dir = left
	step(t, m, "UP", "")
	if got, want := bodyOf(m, 0), [][2]int{{5, 1}, {5, 2}, {4, 2}, {4, 1}}; !a.alive || !slices.Equal(got, want) {
		t.Errorf("A alive %v body %v, want alive with %v", a.alive, got, want)
	}
	if !slices.Contains(kinds(m), "self_bite:A") {
		t.Errorf("events %v, want a self-bite", kinds(m))
	}
}

func TestStones(t *testing.T) {
	tests := []struct {
		name       string
		length     string
		fury       int
		wantAlive  bool
		wantLength int
		wantScore  int
	}{
		{"long snake shrinks by 3", "aaaaaA", 0, true, 3, 5},
		{"snake of 5 keeps 2", "aaaaA", 0, true, 2, 5},
		{"snake of 4 dies", "aaaA", 0, false, 4, 0},
		{"fury eats it whole", "aaaA", 3, true, 4, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			row := "☼" + tc.length + "●"
			row += strings.Repeat(" ", 14-len([]rune(row))) + "☼"
			m := scenario(t, 50, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", row, "☼        B    ☼", "☼        b    ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼")
			m.snakes[0].fury = tc.fury
			step(t, m, "", "UP")
			a := &m.snakes[0]
			if a.alive != tc.wantAlive || len(a.body) != tc.wantLength || a.score != tc.wantScore || a.stones != 1 {
				t.Errorf("alive %v length %d score %d stones %d, want %v %d %d 1", a.alive, len(a.body), a.score, a.stones, tc.wantAlive, tc.wantLength, tc.wantScore)
			}
		})
	}
}

func TestDrop(t *testing.T) {
	rows := []string{"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA         ☼", "☼        B    ☼", "☼        b    ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼"}
	tests := []struct {
		cmd     string
		ruleset string
		want    [2]int // where the stone lands
	}{
		{"ACT", "", [2]int{2, 1}},
		{"ACT,RIGHT", "", [2]int{2, 1}},
		{"RIGHT,ACT", "", [2]int{3, 1}},
		{"right, act", "", [2]int{3, 1}},
		{"RIGHT,ACT", "codenjoy", [2]int{2, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.cmd+"/"+tc.ruleset, func(t *testing.T) {
			m := scenario(t, 50, rows...)
			if tc.ruleset == "codenjoy" {
				m.rules = rulesets[1]
			}
			m.snakes[0].stones = 1
			step(t, m, tc.cmd, "UP")
			if got := m.grid[m.cell(tc.want[0], tc.want[1])]; got != stone || m.snakes[0].stones != 0 {
				t.Errorf("cell %v holds %d, stones left %d; want a stone and 0", tc.want, got, m.snakes[0].stones)
			}
			if !slices.Contains(kinds(m), "drop:A") {
				t.Errorf("events %v, want a drop", kinds(m))
			}
		})
	}
	t.Run("no stones, no drop", func(t *testing.T) {
		m := scenario(t, 50, rows...)
		step(t, m, "ACT", "UP")
		if slices.Contains(kinds(m), "drop:A") {
			t.Error("dropped a stone it did not carry")
		}
	})
}

func TestLoneSurvivor(t *testing.T) {
	rows := []string{"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA         ☼", "☼        B    ☼", "☼        b    ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼"}
	for _, tc := range []struct {
		roundTime int
		win       bool
	}{{38, false}, {39, true}, {200, true}} {
		m := scenario(t, tc.roundTime, rows...)
		step(t, m, "UP", "") // A hits the top wall on round tick roundTime+1
		if got := slices.Contains(kinds(m), "win:B"); got != tc.win {
			t.Errorf("round tick %d: WIN %v, want %v (events %v)", tc.roundTime+1, got, tc.win, kinds(m))
		}
		if tc.win && m.snakes[1].score != 110 {
			t.Errorf("winner score %d, want 110", m.snakes[1].score)
		}
		// The survivor moves once more, then the round ends.
		step(t, m, "", "")
		if m.startTimer >= 0 || m.snakes[1].head() != m.cell(9, 0) {
			t.Errorf("extra tick: start timer %d, B head %v", m.startTimer, bodyOf(m, 1))
		}
		step(t, m, "", "")
		if !slices.Contains(kinds(m), "round_end") || m.snakes[1].active {
			t.Errorf("events %v, B active %v; want the round over and B asleep", kinds(m), m.snakes[1].active)
		}
	}
}

func TestTimeOut(t *testing.T) {
	m := scenario(t, roundTicks-1,
		"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
		"☼ aaA  cccC   ☼",
		"☼        B    ☼",
		"☼        b    ☼",
		"☼#    ☼#    ☼#☼",
		"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼")
	step(t, m, "", "", "")
	if got, want := kinds(m), []string{"win:C", "round_end"}; !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	for i := range m.snakes {
		if s := &m.snakes[i]; s.active || len(s.body) != 2 {
			t.Errorf("seat %d active %v length %d, want a fresh sleeping snake", i, s.active, len(s.body))
		}
	}
	if m.startTimer != startCountdown {
		t.Errorf("start timer %d, want %d", m.startTimer, startCountdown)
	}
}

func TestEating(t *testing.T) {
	m := scenario(t, 10, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA○$®      ☼", "☼        B    ☼", "☼        b    ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼")
	a := &m.snakes[0]
	step(t, m, "", "UP")
	if len(a.body) != 4 || a.score != 1 {
		t.Errorf("apple: length %d score %d, want 4 and 1", len(a.body), a.score)
	}
	step(t, m, "", "LEFT")
	if a.score != 11 {
		t.Errorf("gold: score %d, want 11", a.score)
	}
	step(t, m, "", "DOWN")
	if a.fury != furyTicks {
		t.Errorf("fury pill: fury %d, want %d", a.fury, furyTicks)
	}
	// B circles out of the way while A goes down into the start floor at (7,4).
	step(t, m, "DOWN", "RIGHT")
	step(t, m, "", "")
	step(t, m, "", "")
	if a.alive {
		t.Error("A entered a start floor and lives")
	}
}

func TestSuicide(t *testing.T) {
	m := scenario(t, 50, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA         ☼", "☼        B    ☼", "☼        b    ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼")
	step(t, m, "act(0)", "")
	a := &m.snakes[0]
	// Dead at step 0, re-created asleep at step 1, never drawn dead.
	if !a.alive || a.active || a.deaths != 1 {
		t.Errorf("alive %v active %v deaths %d, want a fresh sleeping snake after one death", a.alive, a.active, a.deaths)
	}
	if m.nApple != 0 && m.grid[m.cell(3, 1)] == apple {
		t.Error("the corpse turned into apples")
	}
}

func TestReverseIgnored(t *testing.T) {
	m := scenario(t, 50, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA         ☼", "☼        B    ☼", "☼        b    ☼", pens, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼")
	step(t, m, "LEFT", "")
	if x, _ := m.xy(m.snakes[0].head()); x != 5 {
		t.Errorf("head x %d after a reverse, want 5 (kept going right)", x)
	}
}

// TestMatchClock plays a whole match with no commands: every round shows
// its start and end, and the match ends after the third.
func TestMatchClock(t *testing.T) {
	m := newDefault(t, 1)
	var starts, ends []int
	for !m.Over() {
		step(t, m, make([]string, 5)...)
		for _, e := range m.Events() {
			switch e.Kind {
			case "round_start":
				starts = append(starts, m.Turn())
			case "round_end":
				ends = append(ends, m.Turn())
			}
		}
	}
	if len(starts) != 3 || len(ends) != 3 || starts[0] != startCountdown {
		t.Errorf("round starts at %v, ends at %v; want 3 of each, the first start at turn %d", starts, ends, startCountdown)
	}
	if err := m.Step(make([]string, 5)); !errors.Is(err, sim.ErrOver) {
		t.Errorf("Step after the end: %v, want ErrOver", err)
	}
}

func newDefault(t testing.TB, seed uint64) *match {
	t.Helper()
	m, err := Game.New(sim.Setup{Players: 5, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return m.(*match)
}

func TestSetupErrors(t *testing.T) {
	for _, tc := range []struct {
		setup sim.Setup
		field string
	}{
		{sim.Setup{Players: 1}, "players"},
		{sim.Setup{Players: 16}, "players"},
		{sim.Setup{Players: 5, Ruleset: "late"}, "ruleset"},
		{sim.Setup{Players: 5, Config: json.RawMessage(`{"rounds":3}`)}, "config"},
		{sim.Setup{Players: 5, Config: json.RawMessage(`{"map":["☼☼☼","☼#☼"]}`)}, "config.map"},
		{sim.Setup{Players: 2, Config: json.RawMessage(`{"map":["☼☼☼","☼#☼","☼☼☼"]}`)}, "config.map"},
		{sim.Setup{Players: 2, Config: json.RawMessage(`{"map":["☼☼☼","☼#X","☼#☼"]}`)}, "config.map"},
	} {
		_, err := Game.New(tc.setup)
		var se *sim.SetupError
		if !errors.As(err, &se) || se.Field != tc.field {
			t.Errorf("New(%+v) = %v, want a SetupError on %s", tc.setup, err, tc.field)
		}
	}
	m := newDefault(t, 1)
	if err := m.Step([]string{"UP"}); err == nil || errors.Is(err, sim.ErrOver) {
		t.Errorf("Step with 1 command: %v, want an error", err)
	}
}

func TestGameDefinition(t *testing.T) {
	for _, a := range Game.Alphabet {
		if cmd := parseCommand(a); cmd.invalid {
			t.Errorf("codebattle2020: alphabet entry %q is invalid", a)
		}
		if got := readKeywords(a); len(got) == 0 || slices.Contains(got, "bad ACT") {
			t.Errorf("codenjoy: alphabet entry %q reads as %v", a, got)
		}
	}
}

// TestViewPerspective: each seat sees its own snake in own glyphs and the
// others in enemy glyphs; the observer sees only enemy glyphs.
func TestViewPerspective(t *testing.T) {
	m := scenario(t, 10, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA         ☼", "☼        B    ☼", "☼        b    ☼", pens)
	row := func(board string, y int) string { return string([]rune(board)[y*15 : y*15+15]) }
	v0 := m.View(0).(*View).Board.String()
	if got, want := row(v0, 1), "☼ ╘═►         ☼"; got != want {
		t.Errorf("seat 0 row 1 = %q, want %q", got, want)
	}
	if got, want := row(v0, 2), "☼        ˄    ☼"; got != want {
		t.Errorf("seat 0 row 2 = %q, want %q", got, want)
	}
	v1 := m.View(1).(*View).Board.String()
	if got, want := row(v1, 1)+row(v1, 3), "☼ ×─>         ☼☼        ╙    ☼"; got != want {
		t.Errorf("seat 1 rows 1 and 3 = %q, want %q", got, want)
	}
	if got := m.board(-1)[1]; got != "☼ ×─>         ☼" {
		t.Errorf("observer row 1 = %q", got)
	}
	raw, err := json.Marshal(m.View(0))
	if err != nil || !strings.HasPrefix(string(raw), `{"board":"☼☼☼`) {
		t.Errorf("view JSON %s, %v", raw, err)
	}
}

func TestFrameStatsRender(t *testing.T) {
	m := scenario(t, 10, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA○        ☼", "☼        B    ☼", "☼        b    ☼", pens)
	step(t, m, "", "")
	f := m.Frame().(*Frame)
	if _, err := json.Marshal(f); err != nil {
		t.Fatal(err)
	}
	if f.Round != 1 || f.RoundTime != 11 || f.Countdown != 0 || len(f.Board) != 15 || f.Snakes[0].Length != 4 || f.Snakes[0].Score != 1 {
		t.Errorf("frame %+v", f)
	}
	st := m.AppendStats(nil)
	if len(st) != 2 || st[0].Values[metricScore] != 1 || st[0].Values[metricLength] != 4 || st[0].Values[metricRound] != 1 || !st[0].Alive {
		t.Errorf("stats %+v", st)
	}
	if lines := strings.Count(m.Render(), "\n"); lines != 15+1+2 {
		t.Errorf("render has %d lines, want board + status + one per snake", lines)
	}
}

// TestHashCoversState: changing any piece of state changes the hash.
func TestHashCoversState(t *testing.T) {
	base := scenario(t, 10, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA○        ☼", "☼        B    ☼", "☼        b    ☼", pens)
	h := base.Hash()
	for name, mutate := range map[string]func(m *match){
		"stones":  func(m *match) { m.snakes[0].stones++ },
		"fury":    func(m *match) { m.snakes[1].fury++ },
		"shrink":  func(m *match) { m.snakes[1].shrink = 2 },
		"dir":     func(m *match) { m.snakes[0].next = up },
		"score":   func(m *match) { m.snakes[0].score++ },
		"object":  func(m *match) { m.grid[m.cell(6, 1)] = gold },
		"timer":   func(m *match) { m.roundTimer-- },
		"draws":   func(m *match) { m.draws++ },
		"active":  func(m *match) { m.snakes[1].active = false },
		"body":    func(m *match) { m.snakes[0].body[0]++ },
		"pending": func(m *match) { m.diedSinceCheck = true },
		"leaves":  func(m *match) { m.snakes[1].leaves = true },
		"left":    func(m *match) { m.snakes[1].left = true },
	} {
		m := scenario(t, 10, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA○        ☼", "☼        B    ☼", "☼        b    ☼", pens)
		mutate(m)
		if m.Hash() == h {
			t.Errorf("changing %s keeps the hash", name)
		}
	}
}

// drawLog is a random source that records the bound of every draw, so a
// test can count spawn passes (draws of rand(50)).
type drawLog struct {
	src intSource
	ns  []int
}

func (d *drawLog) IntN(n int) int {
	d.ns = append(d.ns, n)
	return d.src.IntN(n)
}

// logDraws makes m record its draws from now on.
func logDraws(m *match) *drawLog {
	d := &drawLog{src: m.rand}
	m.rand = d
	return d
}

// spawnPasses counts the spawn passes among the draws recorded since
// draw from.
func (d *drawLog) spawnPasses(from int) int {
	n := 0
	for _, b := range d.ns[from:] {
		if b == spawnDice {
			n++
		}
	}
	return n
}

// drawFunc is a random source answering every draw with a function.
type drawFunc func(n int) int

func (f drawFunc) IntN(n int) int { return f(n) }

// TestNoFreeStart: when every start floor is covered, a new snake goes to
// the engine's pt(0, 0), our bottom-left cell, with its tail off the board.
func TestNoFreeStart(t *testing.T) {
	cfg := `{"map":["☼☼☼☼☼☼☼☼","☼#     ☼","☼      ☼","☼#     ☼","☼      ☼","☼      ☼","☼      ☼","☼☼☼☼☼☼☼☼"]}`
	mm, err := Game.New(sim.Setup{Players: 2, Seed: 3, Config: []byte(cfg)})
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*match)
	// Asleep on its start, seat 1 kills itself: the other start holds seat
	// 0's head and its own start still its old head.
	step(t, m, "", "ACT(0)")
	b := &m.snakes[1]
	if got, want := bodyOf(m, 1), [][2]int{{-1, 7}, {0, 7}}; !slices.Equal(got, want) || !b.alive || b.active {
		t.Fatalf("seat 1 body %v alive %v active %v, want %v asleep", got, b.alive, b.active, want)
	}
	if got := glyphAt(t, m, 1, 0, 7); got != '&' {
		t.Errorf("seat 1 sees %q at (0,7), want its sleeping head '&' over the wall", got)
	}
	if got := glyphAt(t, m, 0, 0, 7); got != 'ø' {
		t.Errorf("seat 0 sees %q at (0,7), want the enemy's sleeping head 'ø'", got)
	}
	if got := glyphAt(t, m, 1, 7, 6); got != '☼' {
		t.Errorf("seat 1 sees %q at (7,6), want the wall: the tail off the board is not drawn", got)
	}
	for m.round == 0 {
		step(t, m, "", "")
	}
	// Awake, it moves right into the wall of the bottom row.
	step(t, m, "", "")
	if b.alive || !slices.Contains(kinds(m), "death:B") {
		t.Errorf("seat 1 alive %v, events %v; want it dead on the wall at (1,7)", b.alive, kinds(m))
	}
}

// TestAct0WhileDead: ACT(0) from a snake that died on the last tick (and is
// replaced on this one) counts as a death for step 8: a lone survivor wins
// again and objects get a second spawn pass.
func TestAct0WhileDead(t *testing.T) {
	rows := []string{
		"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
		"☼ aaA         ☼",
		"☼        b    ☼",
		"☼        B    ☼",
		"☼   Cc        ☼",
		pens,
	}
	for _, tc := range []struct {
		cmd        string
		wantWin    bool
		wantPasses int
	}{{"ACT(0)", true, 2}, {"", false, 1}} {
		m := scenarioIn(t, "codenjoy", 50, rows...)
		m.snakes[2].active = false // C sleeps in the pen
		d := logDraws(m)
		step(t, m, "UP", "", "") // A hits the wall: B is the last moving snake
		if !slices.Contains(kinds(m), "win:B") || m.snakes[1].score != 50 {
			t.Fatalf("events %v, B score %d; want B's WIN", kinds(m), m.snakes[1].score)
		}
		from := len(d.ns)
		step(t, m, tc.cmd, "", "")
		if got := slices.Contains(kinds(m), "win:B"); got != tc.wantWin {
			t.Errorf("%q from dead A: WIN %v, want %v (events %v)", tc.cmd, got, tc.wantWin, kinds(m))
		}
		if got := d.spawnPasses(from); got != tc.wantPasses {
			t.Errorf("%q from dead A: %d spawn passes, want %d", tc.cmd, got, tc.wantPasses)
		}
		if a := &m.snakes[0]; !a.alive || a.active || a.deaths != 1 {
			t.Errorf("%q: A alive %v active %v deaths %d, want re-created asleep after one death", tc.cmd, a.alive, a.active, a.deaths)
		}
	}
}

// TestFreeCellSearch: the search draws up to 101 cells, x then y counted
// from the bottom row, accepts a free one within the first 100, and else
// places at the engine's pt(0, 0), our bottom-left cell, when that is free.
func TestFreeCellSearch(t *testing.T) {
	// (5, 0) is a wall: the draw pair (5, 5) as the engine's y counts from
	// the bottom. The pair (2, 3) is the free cell (2, 2).
	misses := func(n int) []int { return slices.Repeat([]int{5, 5}, n) }
	for _, tc := range []struct {
		name      string
		draws     []int // then (5, 5) forever
		leftTaken bool  // a wall on the bottom-left cell
		want      [2]int
		wantDraws int
	}{
		{"a find at the second draw", append(misses(1), 2, 3), false, [2]int{2, 2}, 4},
		{"a find at the 100th draw", append(misses(99), 2, 3), false, [2]int{2, 2}, 200},
		{"a find at the 101st draw is refused", append(misses(100), 2, 3), false, [2]int{0, 5}, 202},
		{"101 misses", nil, false, [2]int{0, 5}, 202},
		{"101 misses, the bottom-left cell taken", nil, true, [2]int{-1, -1}, 202},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := `{"map":["☼☼☼☼☼☼","☼#   ☼","☼#   ☼","☼    ☼","☼    ☼","  ☼☼☼☼"]}`
			mm, err := Game.New(sim.Setup{Players: 2, Seed: 1, Config: []byte(cfg)})
			if err != nil {
				t.Fatal(err)
			}
			m := mm.(*match)
			if tc.leftTaken {
				m.grid[m.cell(0, 5)] = wall
			}
			k := 0
			m.rand = drawFunc(func(int) int {
				k++
				if k <= len(tc.draws) {
					return tc.draws[k-1]
				}
				return 5
			})
			m.put(apple)
			got := [2]int{-1, -1}
			for c, o := range m.grid {
				if o == apple {
					x, y := m.xy(int32(c))
					got = [2]int{x, y}
				}
			}
			if got != tc.want || k != tc.wantDraws {
				t.Errorf("apple at %v after %d draws, want %v after %d", got, k, tc.want, tc.wantDraws)
			}
		})
	}
}

// lastRound is scenarioIn in the last round.
func lastRound(t *testing.T, ruleset string, roundTime int, rows ...string) *match {
	t.Helper()
	m := scenarioIn(t, ruleset, roundTime, rows...)
	m.round = roundsPerMatch
	return m
}

// TestLastRoundLeave: in the last round a dead snake is not re-created: at
// the next tick it leaves the match, which gives a lone survivor another
// WIN; the round's end leaves the survivor dead in place, with no draws.
func TestLastRoundLeave(t *testing.T) {
	m := lastRound(t, "codenjoy", 50, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA         ☼", "☼        b    ☼", "☼        B    ☼", pens)
	a, b := &m.snakes[0], &m.snakes[1]
	step(t, m, "UP", "") // A hits the top wall
	if !slices.Contains(kinds(m), "win:B") || b.score != 50 {
		t.Fatalf("events %v, B score %d; want B's WIN", kinds(m), b.score)
	}
	step(t, m, "", "LEFT")
	if got, want := kinds(m), []string{"leave:A", "win:B"}; !slices.Equal(got, want) || b.score != 100 {
		t.Errorf("events %v, B score %d; want %v and 100", got, b.score, want)
	}
	if !a.left || len(a.body) != 0 || glyphAt(t, m, 1, 3, 1) != ' ' {
		t.Errorf("A left %v body %v, B sees %q at (3,1); want A gone from the board", a.left, bodyOf(m, 0), glyphAt(t, m, 1, 3, 1))
	}
	if got, want := bodyOf(m, 1), [][2]int{{9, 4}, {8, 4}}; !slices.Equal(got, want) {
		t.Errorf("B body %v, want %v: it still moves this tick", got, want)
	}
	d := logDraws(m)
	step(t, m, "ACT(0)", "") // the winner's extra tick is over; A's seat is ignored
	if !m.Over() || !slices.Equal(kinds(m), []string{"round_end"}) || len(d.ns) != 0 {
		t.Fatalf("over %v, events %v, %d draws; want the match over with no draws", m.Over(), kinds(m), len(d.ns))
	}
	if b.alive || !b.active || len(b.body) != 2 {
		t.Errorf("B alive %v active %v length %d, want dead in place", b.alive, b.active, len(b.body))
	}
	if got := glyphAt(t, m, 1, 8, 4); got != '☻' {
		t.Errorf("B sees %q at its head (8,4), want its dead head '☻'", got)
	}
	if r := m.Result(); r.Winner != 1 || r.Players[0].Score != 0 || r.Players[1].Score != 100 {
		t.Errorf("result %+v, want B the winner on 100", r)
	}
}

// TestLastRoundAct0: ACT(0) in the last round makes the snake leave on the
// same tick; the leave's check gives the WIN with no spawn pass, and step 8
// has no death left to see. In the first round the same command re-creates
// the snake and step 8 makes a second spawn pass.
func TestLastRoundAct0(t *testing.T) {
	for _, tc := range []struct {
		round      int
		wantEvents []string
		wantPasses int
	}{
		{1, []string{"death:A", "win:B"}, 2},
		{roundsPerMatch, []string{"death:A", "leave:A", "win:B"}, 1},
	} {
		m := scenarioIn(t, "codenjoy", 50, "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼", "☼ aaA         ☼", "☼        b    ☼", "☼        B    ☼", pens)
		m.round = tc.round
		d := logDraws(m)
		step(t, m, "ACT(0)", "")
		if got := kinds(m); !slices.Equal(got, tc.wantEvents) {
			t.Errorf("round %d: events %v, want %v", tc.round, got, tc.wantEvents)
		}
		if got := d.spawnPasses(0); got != tc.wantPasses {
			t.Errorf("round %d: %d spawn passes, want %d", tc.round, got, tc.wantPasses)
		}
	}
}

// TestLastRoundTimeOut: a time-out in the last round leaves the survivors
// dead where they are, with no draws, and ends the match.
func TestLastRoundTimeOut(t *testing.T) {
	m := lastRound(t, "", roundTicks-1,
		"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
		"☼ aaA  cccC   ☼",
		"☼        B    ☼",
		"☼        b    ☼",
		pens)
	d := logDraws(m)
	step(t, m, "", "", "")
	if got, want := kinds(m), []string{"win:C", "round_end"}; !slices.Equal(got, want) || !m.Over() || len(d.ns) != 0 {
		t.Errorf("events %v over %v draws %d, want %v, over, no draws", got, m.Over(), len(d.ns), want)
	}
	for i, want := range []int{3, 2, 4} {
		if s := &m.snakes[i]; s.alive || len(s.body) != want {
			t.Errorf("seat %d alive %v length %d, want dead in place with %d cells", i, s.alive, len(s.body), want)
		}
	}
	if got := m.board(-1)[1]; got != "☼ ×─☺  ×──☺   ☼" {
		t.Errorf("observer row 1 = %q, want dead heads in place", got)
	}
}

// TestLastRoundSpawnLimit: the object limits (players/2 + 1) count only the
// snakes still in the match.
func TestLastRoundSpawnLimit(t *testing.T) {
	rows := []string{
		"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
		"☼ aA  bB  cC  ☼",
		"☼ dD  eE      ☼",
		"☼ ○○○○        ☼",
		"☼             ☼",
		"☼#☼#☼#☼#☼#    ☼",
	}
	for _, tc := range []struct {
		leave      bool
		wantApples int
	}{{true, 4}, {false, 5}} {
		m := lastRound(t, "", 10, rows...)
		if tc.leave { // D and E died on the last tick
			for i := 3; i < 5; i++ {
				m.snakes[i].alive, m.snakes[i].leaves = false, true
			}
		}
		src := m.rand
		m.rand = drawFunc(func(n int) int {
			if n == spawnDice {
				return spawnDice - 1 // a roll that spawns only what is short
			}
			return src.IntN(n)
		})
		step(t, m, "", "", "", "", "")
		// 3 snakes left: at most 2 per kind, apples topped up to 2*2; 5
		// snakes: 3 per kind, apples to 6.
		if m.nApple != tc.wantApples {
			t.Errorf("leave %v: %d apples, want %d", tc.leave, m.nApple, tc.wantApples)
		}
	}
}
