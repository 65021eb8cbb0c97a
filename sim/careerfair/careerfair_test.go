package careerfair

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// newCustom starts a match of the ruleset with the config.
func newCustom(t testing.TB, ruleset string, players int, seed uint64, cfg string) *match {
	t.Helper()
	s := sim.Setup{Ruleset: ruleset, Seed: seed, Players: players}
	if cfg != "" {
		s.Config = json.RawMessage(cfg)
	}
	mm, err := Game.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return mm.(*match)
}

// step plays one step and fails the test on an error.
func step(t testing.TB, m *match, cmds ...string) {
	t.Helper()
	if err := m.Step(cmds); err != nil {
		t.Fatal(err)
	}
}

// idleThrough plays the idle steps.
func idleThrough(t testing.TB, m *match) {
	t.Helper()
	for m.idle() {
		step(t, m, make([]string, len(m.teams))...)
	}
}

// services lists the last step's service events.
func services(m *match) []sim.Event {
	var out []sim.Event
	for _, e := range m.Events() {
		if e.Kind == eventService {
			out = append(out, e)
		}
	}
	return out
}

// botAt is the bot at team position pos.
func (m *match) botAt(team, pos int) *bot { return &m.bots[m.teams[team].bots[pos]] }

// The debug board: no crowd, vision 100, start (2,2); company 0's line
// runs from its front (1,1) to its tail (1,0), company 1's from (1,3) to
// (1,2).
const debugCfg = `{"board":"debug"}`

func TestBuiltinBoards(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		rows, cols, slots, bot int
		start                  [2]int
	}{
		{"tiny", 3, 4, 2, 10, [2]int{2, 2}},
		{"debug", 3, 4, 2, 0, [2]int{2, 2}},
		{"sample", 6, 8, 6, 100, [2]int{3, 7}},
		{"gates4", 18, 24, 53, 1000, [2]int{17, 11}},
		{"gates6", 12, 16, 20, 600, [2]int{9, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newCustom(t, "", 2, 1, `{"board":"`+tc.name+`"}`)
			r, c := m.b.rc(m.b.start)
			if m.b.rows != tc.rows || m.b.cols != tc.cols || len(m.lines) != tc.slots || len(m.bots)-m.crowd() != tc.bot || [2]int{r, c} != tc.start {
				t.Errorf("got %dx%d, %d companies, %d crowd, start (%d,%d); want %dx%d, %d, %d, %v",
					m.b.rows, m.b.cols, len(m.lines), len(m.bots)-m.crowd(), r, c, tc.rows, tc.cols, tc.slots, tc.bot, tc.start)
			}
			seen := map[string]bool{}
			for k, co := range m.companies {
				if co.size != m.b.slots[k].size || seen[co.name] {
					t.Errorf("slot %d: company %+v for a booth of size %c (or a repeat)", k, co, m.b.slots[k].size)
				}
				seen[co.name] = true
			}
		})
	}
	if m := newCustom(t, "", 2, 1, ""); m.b.rows != 12 || m.b.cols != 16 {
		t.Errorf("default board is %dx%d, want gates6's 12x16", m.b.rows, m.b.cols)
	}
}

// TestLineOrder: the front of a line is the tile farthest from its E tile.
func TestLineOrder(t *testing.T) {
	m := newCustom(t, "", 2, 1, "")
	for k, want := range map[int][][2]int{
		0:  {{1, 0}, {1, 1}},                   // "0 E0": E to the right of the front
		1:  {{1, 3}, {2, 3}},                   // E1 below
		3:  {{1, 11}, {1, 10}, {1, 9}, {1, 8}}, // E3 on the left, booth above
		16: {{5, 15}, {6, 15}, {7, 15}},
	} {
		got := m.coords(m.lines[k].tiles)
		if len(got) != len(want) {
			t.Fatalf("line %d: got %v, want %v", k, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("line %d: got %v, want %v", k, got, want)
			}
		}
	}
}

func TestBadBoards(t *testing.T) {
	const rows = "S0 S0 S1 S1\nE0 0 E1 1\nF F B F"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"short header", "3 4 2 0", "line 1: header has 4 fields"},
		{"bad number", "3 x 2 0 1\n" + rows, "line 1: cols"},
		{"huge", "3 4000 2 0 1\n" + rows, "line 1: cols"},
		{"missing row", "3 4 2 0 1\nS0 S0 S1 S1\nE0 0 E1 1", "has 2 rows after the header, want 3"},
		{"short row", "3 4 2 0 1\nS0 S0 S1 S1\nE0 0 E1\nF F B F", "line 3: row has 3 tiles, want 4"},
		{"unknown tile", "3 4 2 0 1\nS0 S0 S1 S1\nE0 0 E1 X1\nF F B F", `line 3: tile "X1"`},
		{"slot out of range", "3 4 2 0 1\nS0 S0 S1 S1\nE0 0 E1 5\nF F B F", "line 3: tile \"5\": company 5, but the header has 2"},
		{"mixed sizes", "3 4 2 0 1\nS0 M0 S1 S1\nE0 0 E1 1\nF F B F", "line 2: booth 0 is both S and M"},
		{"no start", "3 4 2 0 1\nS0 S0 S1 S1\nE0 0 E1 1\nF F F F", "no start tile B"},
		{"no booth", "3 4 2 0 1\nF F S1 S1\nE0 0 E1 1\nF F B F", "line 3: company 0: no booth tile"},
		{"no tail", "3 4 2 0 1\nS0 S0 S1 S1\n0 0 E1 1\nF F B F", "line 2: company 0: 0 tail tiles"},
		{"vertical line", "3 4 2 0 1\nS0 S0 S1 S1\nE0 F E1 1\n0 F B F", ""},
		{"broken line", "3 5 2 0 1\nS0 S0 S1 S1 F\nE0 F 0 E1 1\nF F B F F", "line 2: company 0: the line is broken"},
		{"both sides", "3 5 2 0 1\nS0 S0 S1 S1 F\n0 E0 0 E1 1\nF F B F F", "line 2: company 0: the line lies on both sides"},
		{"not straight", "3 4 2 0 1\nS0 S0 S1 S1\nE0 F E1 1\nF 0 B F", "line 2: company 0: the line is not straight"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := json.Marshal(config{BoardText: tc.text})
			_, err := Game.New(sim.Setup{Players: 2, Config: cfg})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("got %v, want a board", err)
				}
				return
			}
			var se *sim.SetupError
			if !errors.As(err, &se) || !strings.Contains(se.Error(), tc.want) {
				t.Fatalf("got %v, want a setup error with %q", err, tc.want)
			}
		})
	}
}

func TestBadCompanies(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"fields", "Acme S 30\nBeta S", "line 2: 2 fields"},
		{"size", "Acme S 30\n\nBeta X 30", `line 3: company "Beta" has size "X"`},
		{"value", "Acme S thirty", `line 1: company "Acme" has value "thirty"`},
		{"duplicate", "Acme S 30\nAcme S 31", `line 2: company "Acme" is already on line 1`},
		{"too few", "Acme S 30", "not enough companies of size S for the board's 2 booths"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := json.Marshal(config{Board: "debug", CompaniesText: tc.text})
			_, err := Game.New(sim.Setup{Players: 2, Config: cfg})
			var se *sim.SetupError
			if !errors.As(err, &se) || !strings.Contains(se.Error(), tc.want) {
				t.Fatalf("got %v, want a setup error with %q", err, tc.want)
			}
		})
	}
}

func TestSetupErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		s       sim.Setup
		wantErr string
	}{
		{"awap2019 alone", sim.Setup{Ruleset: rulesetAWAP, Players: 1}, "players: ruleset awap2019 takes 2 teams"},
		{"unknown board", sim.Setup{Players: 2, Config: json.RawMessage(`{"board":"gates9"}`)}, `unknown board "gates9"`},
		{"both boards", sim.Setup{Players: 2, Config: json.RawMessage(`{"board":"tiny","board_text":"1 1 0 0 0\nB"}`)}, "not both"},
		{"unknown key", sim.Setup{Players: 2, Config: json.RawMessage(`{"map":"tiny"}`)}, `unknown key "map"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Game.New(tc.s)
			var se *sim.SetupError
			if !errors.As(err, &se) || !strings.Contains(se.Error(), tc.wantErr) {
				t.Fatalf("got %v, want a setup error with %q", err, tc.wantErr)
			}
		})
	}
	if _, err := Game.New(sim.Setup{Ruleset: rulesetRunner, Players: 1}); err != nil {
		t.Errorf("runner with one team: %v", err)
	}
}

func TestCommands(t *testing.T) {
	for _, tc := range []struct {
		cmd     string
		want    [teamSize]action
		invalid []int // units of the invalid events (-1 for the extras)
	}{
		{"", [teamSize]action{}, nil},
		{"UP,NONE,ENTER,REPLACE", [teamSize]action{up, none, enter, replace}, nil},
		{" up , Left,down,RIGHT ", [teamSize]action{up, left, down, right}, nil},
		{"UP", [teamSize]action{up}, []int{1, 2, 3}},
		{"UP,jump,,LEFT", [teamSize]action{up, none, none, left}, []int{1, 2}},
		{"UP,UP,UP,UP,UP,UP", [teamSize]action{up, up, up, up}, []int{sim.NoUnit}},
		{" ", [teamSize]action{}, []int{0, 1, 2, 3}},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			m := newCustom(t, "", 2, 1, debugCfg)
			var got [teamSize]action
			m.parseCommand(1, tc.cmd, &got)
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			var units []int
			for _, e := range m.events {
				if e.Kind != sim.EventInvalid || e.Seat != 1 {
					t.Errorf("got event %+v, want invalid events of seat 1", e)
				}
				units = append(units, e.Unit)
			}
			if len(units) != len(tc.invalid) {
				t.Fatalf("got invalid events for units %v, want %v", units, tc.invalid)
			}
			for i := range units {
				if units[i] != tc.invalid[i] {
					t.Fatalf("got invalid events for units %v, want %v", units, tc.invalid)
				}
			}
		})
	}
}

// TestIdleSteps: during the 10 idle steps every team bot stays put
// whatever its seat sends; the first play step moves it.
func TestIdleSteps(t *testing.T) {
	m := newCustom(t, "", 2, 1, debugCfg)
	for range idleSteps {
		step(t, m, "UP,UP,UP,UP", "LEFT,LEFT,LEFT,LEFT")
	}
	for ti := range m.teams {
		for p := range teamSize {
			if b := m.botAt(ti, p); b.loc != m.b.start || b.dir != none {
				t.Fatalf("team %d bot %d moved in the idle steps: %+v", ti, p, *b)
			}
		}
	}
	step(t, m, "UP,NONE,NONE,NONE", "")
	if r, c := m.b.rc(m.botAt(0, 0).loc); r != 1 || c != 2 {
		t.Fatalf("main bot at (%d,%d) after UP, want (1,2)", r, c)
	}
}

// play0 plays a step with cmd for team 0 and "" for any other team.
func play0(t *testing.T, m *match, cmd string) {
	t.Helper()
	cmds := make([]string, len(m.teams))
	cmds[0] = cmd
	step(t, m, cmds...)
}

// walkToFront walks team 0's first n bots from the start to company 1's
// front tile (1,3) on the debug board.
func walkToFront(t *testing.T, m *match, n int) {
	t.Helper()
	idleThrough(t, m)
	for _, a := range []string{"UP", "RIGHT"} {
		cmd := strings.Repeat(a+",", n) + strings.Repeat("NONE,", teamSize-n)
		play0(t, m, cmd[:len(cmd)-1])
	}
	for p := range n {
		if r, c := m.b.rc(m.botAt(0, p).loc); r != 1 || c != 3 {
			t.Fatalf("bot %d at (%d,%d), want (1,3)", p, r, c)
		}
	}
}

// TestLineTiming: ENTER at step s registers the bot at s and serves it at
// s+1; the next bot in line is registered at s+2 and served at s+3.
func TestLineTiming(t *testing.T) {
	m := newCustom(t, rulesetRunner, 1, 1, debugCfg)
	walkToFront(t, m, 2)
	co := m.companies[1]
	play0(t, m, "ENTER,ENTER,NONE,NONE")
	s := m.turn
	if m.lines[1].talker != m.teams[0].bots[0] || len(services(m)) != 0 {
		t.Fatalf("step %d: talker %d, services %v; want the main bot registered", s, m.lines[1].talker, services(m))
	}
	if b := m.botAt(0, 1); b.linePos != 1 || !b.inLine {
		t.Fatalf("helper: line_pos %d in_line %v, want 1 true", b.linePos, b.inLine)
	}
	want := map[int]sim.Event{
		s + 1: {Seat: 0, Unit: 0, Amount: float64(co.value)},
		s + 3: {Seat: 0, Unit: 1, Amount: float64(co.value / 2 / 2)},
	}
	for m.turn < s+4 {
		play0(t, m, "")
		got := services(m)
		w, ok := want[m.turn]
		switch {
		case !ok && len(got) != 0:
			t.Fatalf("step %d: got services %+v, want none", m.turn, got)
		case ok && (len(got) != 1 || got[0].Seat != w.Seat || got[0].Unit != w.Unit || got[0].Amount != w.Amount):
			t.Fatalf("step %d: got services %+v, want %+v", m.turn, got, w)
		}
	}
	if got := m.teams[0].score; got != co.value+co.value/4 {
		t.Errorf("got score %d, want %d", got, co.value+co.value/4)
	}
}

// TestRewardHalving: each service halves both of the team's rewards for
// that company, floored, and only the team's own. A lone bot that joins
// its emptied line again right after its service is served at once (the
// talker stays registered).
func TestRewardHalving(t *testing.T) {
	m := newCustom(t, "", 2, 3, debugCfg)
	walkToFront(t, m, 1)
	v := m.companies[1].value
	step(t, m, "ENTER,NONE,NONE,NONE", "")
	var got []int
	for range 4 {
		step(t, m, "ENTER,NONE,NONE,NONE", "")
		for _, e := range services(m) {
			got = append(got, int(e.Amount))
		}
	}
	want := []int{v, v / 2, v / 4, v / 8}
	if len(got) != len(want) {
		t.Fatalf("got services %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got services %v, want %v", got, want)
		}
	}
	if r := m.teams[0].rewards[1]; r != [2]int{v / 16, v / 2 / 16} {
		t.Errorf("team 0 rewards %v, want %v", r, [2]int{v / 16, v / 2 / 16})
	}
	if r := m.teams[1].rewards[1]; r != [2]int{v, v / 2} {
		t.Errorf("team 1 rewards %v, want untouched %v", r, [2]int{v, v / 2})
	}
}

// TestReplace: a helper holding the front place swaps with the main bot
// on its tile, so the main reward is collected; two helpers with the main
// bot make no swap; a helper's REPLACE alone takes it out of its queue.
func TestReplace(t *testing.T) {
	t.Run("swap", func(t *testing.T) {
		m := newCustom(t, rulesetRunner, 1, 1, debugCfg)
		walkToFront(t, m, 2)
		holder, main := m.teams[0].bots[1], m.teams[0].bots[0]
		play0(t, m, "NONE,ENTER,NONE,NONE")
		play0(t, m, "REPLACE,REPLACE,NONE,NONE")
		if m.teams[0].bots[0] != holder || m.teams[0].bots[1] != main {
			t.Fatalf("team order %v, want the holder %d at 0 and the old main %d at 1", m.teams[0].bots, holder, main)
		}
		got := services(m)
		if len(got) != 1 || got[0].Unit != 0 || got[0].Amount != float64(m.companies[1].value) {
			t.Fatalf("got services %+v, want the main reward for position 0", got)
		}
		var swaps int
		for _, e := range m.Events() {
			if e.Kind == eventReplace && e.Seat == 0 && e.Unit == 1 {
				swaps++
			}
		}
		if swaps != 1 {
			t.Errorf("got %d replace events, want 1: %+v", swaps, m.Events())
		}
	})
	t.Run("two helpers", func(t *testing.T) {
		m := newCustom(t, rulesetRunner, 1, 1, debugCfg)
		walkToFront(t, m, 3)
		before := m.teams[0].bots
		play0(t, m, "REPLACE,REPLACE,REPLACE,NONE")
		if m.teams[0].bots != before {
			t.Fatalf("team order %v, want %v unchanged", m.teams[0].bots, before)
		}
	})
	t.Run("helper alone", func(t *testing.T) {
		m := newCustom(t, rulesetRunner, 1, 1, debugCfg)
		walkToFront(t, m, 3)
		play0(t, m, "ENTER,ENTER,ENTER,NONE")
		play0(t, m, "NONE,NONE,REPLACE,NONE")
		if b := m.botAt(0, 2); b.line >= 0 || b.loc != m.lines[1].tiles[0] {
			t.Fatalf("helper 2: line %d at %d, want out of line on the front tile", b.line, b.loc)
		}
	})
}

// TestThreshold: a tile's threshold follows its population at the end of
// each step, and a move into it takes that many steps of the same
// direction; another command cancels the progress.
func TestThreshold(t *testing.T) {
	for pop, want := range []int32{1, 1, 1, 1, 2, 2, 2, 3, 3, 5, 5, 5} {
		if got := thresholdOf(int32(pop)); got != want {
			t.Errorf("population %d: got threshold %d, want %d", pop, got, want)
		}
	}
	m := newCustom(t, "", 2, 1, debugCfg)
	if got := m.threshold[m.b.start]; got != 1 {
		t.Fatalf("start tile threshold %d before the first step, want 1", got)
	}
	idleThrough(t, m)
	if got := m.threshold[m.b.start]; got != 3 {
		t.Fatalf("start tile threshold %d with 8 bots, want 3", got)
	}
	// Four bots of team 1 move up to (1,2): it then holds 4 bots.
	step(t, m, "", "UP,UP,UP,UP")
	above := m.b.tile(1, 2)
	if got := m.threshold[above]; got != 2 {
		t.Fatalf("(1,2) threshold %d with 4 bots, want 2", got)
	}
	step(t, m, "UP,NONE,NONE,NONE", "")
	if b := m.botAt(0, 0); b.loc == above || b.progress != 1 || b.dir != up {
		t.Fatalf("after one step: %+v, want on the way with progress 1", *b)
	}
	step(t, m, "NONE,NONE,NONE,NONE", "")
	if got := m.teams[0].units[0].wasted; got != 1 {
		t.Fatalf("wasted progress %d, want 1", got)
	}
	step(t, m, "UP,NONE,NONE,NONE", "")
	step(t, m, "UP,NONE,NONE,NONE", "")
	if b := m.botAt(0, 0); b.loc != above {
		t.Fatalf("after two steps of UP: at %d, want %d", b.loc, above)
	}
}

// TestContestedEnd: when both teams ENTER the same end-of-line tile in the
// same step, team 0's bot joins first.
func TestContestedEnd(t *testing.T) {
	m := newCustom(t, "", 2, 1, debugCfg)
	idleThrough(t, m)
	step(t, m, "UP,NONE,NONE,NONE", "UP,NONE,NONE,NONE")
	step(t, m, "RIGHT,NONE,NONE,NONE", "RIGHT,NONE,NONE,NONE")
	step(t, m, "ENTER,NONE,NONE,NONE", "ENTER,NONE,NONE,NONE")
	q := m.lines[1].queue
	if len(q) != 2 || q[0] != m.teams[0].bots[0] || q[1] != m.teams[1].bots[0] {
		t.Fatalf("queue %v, want team 0's main then team 1's", q)
	}
}

// TestView: the view shows live tiles within the vision radius and blank
// ones elsewhere, and the team's states in team order.
func TestView(t *testing.T) {
	m := newCustom(t, "", 2, 1, `{"board":"gates6"}`)
	idleThrough(t, m)
	v, ok := sim.ReadView[View](m.View(1))
	if !ok {
		t.Fatal("ReadView failed")
	}
	sr, sc := m.b.rc(m.b.start)
	visible := 0
	for x, row := range v.Board {
		for y, tv := range row {
			near := max(x-sr, sr-x, y-sc, sc-y) <= m.b.vision
			if tv.Visible != near {
				t.Fatalf("tile (%d,%d): visible %v, want %v", x, y, tv.Visible, near)
			}
			if near {
				visible++
			}
			if !tv.Visible && (tv.NumBots != 0 || tv.EndOfLine || tv.Threshold != 1) {
				t.Fatalf("hidden tile (%d,%d) is not blank: %+v", x, y, tv)
			}
		}
	}
	if got := v.Board[sr][sc].NumBots; got != int(m.population(m.b.start)) {
		t.Errorf("start tile shows %d bots, want %d", got, m.population(m.b.start))
	}
	if len(v.States) != teamSize || v.States[0].ID != 0 || v.States[3].ID != 3 || v.States[0].State != "none" || v.States[0].LinePos != -1 {
		t.Errorf("states %+v", v.States)
	}
	if len(v.CompanyInfo) != 20 || v.Phase != "play" || v.Step != idleSteps {
		t.Errorf("company_info %d entries, phase %s, step %d", len(v.CompanyInfo), v.Phase, v.Step)
	}
	stats := m.AppendStats(nil)
	if got := stats[teamSize+1].Values[metricVisible]; int(got) != visible {
		t.Errorf("visible_tiles %v, want %d", got, visible)
	}
}

// TestRunnerWin: under the runner's rule the match ends once the team's
// score reaches 200; under awap2019 it goes on.
func TestRunnerWin(t *testing.T) {
	for _, tc := range []struct {
		ruleset string
		players int
		over    bool
	}{
		{rulesetRunner, 1, true},
		{rulesetAWAP, 2, false},
	} {
		t.Run(tc.ruleset, func(t *testing.T) {
			m := newCustom(t, tc.ruleset, tc.players, 1, debugCfg)
			idleThrough(t, m)
			m.teams[0].score = winScore - 1
			m.teams[0].rewards[1] = [2]int{1, 0}
			walk := []string{"UP", "RIGHT", "ENTER", "NONE"}
			for _, a := range walk {
				play0(t, m, a)
			}
			if m.Over() != tc.over {
				t.Fatalf("over %v at score %d, want %v", m.Over(), m.teams[0].score, tc.over)
			}
			if tc.over {
				if r := m.Result(); r.Winner != 0 || r.Players[0].Outcome != sim.Win {
					t.Errorf("result %+v, want a win", r)
				}
			}
		})
	}
}

// TestFrame: the frame lists the teams' bots first in team order, and each
// booth's queue names rows of bots queued in that booth's line, the
// talker first.
func TestFrame(t *testing.T) {
	m := newCustom(t, "", 2, 5, "")
	for range 30 {
		step(t, m, "", "")
	}
	f := m.Frame().(*Frame)
	if len(f.Bots) != len(m.bots) || len(f.Population) != m.b.rows*m.b.cols || len(f.Teams) != 2 {
		t.Fatalf("got %d bots, %d tiles, %d teams", len(f.Bots), len(f.Population), len(f.Teams))
	}
	col := func(name string) int { return slices.Index(BotColumns, name) }
	for r, row := range f.Bots {
		team, id, main := row[col("team")], row[col("id")], row[col("main")]
		if r < 2*teamSize && (int(team) != r/teamSize || int(id) != r%teamSize || (main == 1) != (id == 0)) {
			t.Fatalf("row %d: %v, want team %d bot %d", r, row, r/teamSize, r%teamSize)
		}
		if r >= 2*teamSize && (team != -1 || main != 0) {
			t.Fatalf("row %d: %v, want a crowd bot", r, row)
		}
	}
	queued := 0
	for k, b := range f.Booths {
		for pos, r := range b.Queue {
			row := f.Bots[r]
			if int(row[col("line")]) != k || int(row[col("line_pos")]) != pos || row[col("in_line")] != 1 {
				t.Fatalf("booth %d place %d: bot row %v", k, pos, row)
			}
		}
		// A talker still in line is at the front; a served one stays
		// registered, out of line.
		if b.Talker >= 0 && int(f.Bots[b.Talker][col("line")]) == k && b.Queue[0] != b.Talker {
			t.Fatalf("booth %d: talker row %d is in line but not at its front %v", k, b.Talker, b.Queue)
		}
		queued += len(b.Queue)
	}
	stats := m.AppendStats(nil)
	if got := int(stats[0].Values[metricCrowdQueued]); got != queued {
		t.Errorf("crowd_queued %d, frame queues hold %d", got, queued)
	}
}
