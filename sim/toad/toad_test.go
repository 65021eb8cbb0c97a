package toad

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// start builds a match from a JSON config with seed 1.
func start(t testing.TB, cfg string) *match {
	t.Helper()
	m, err := Game.New(sim.Setup{Players: 1, Seed: 1, Config: json.RawMessage(cfg)})
	if err != nil {
		t.Fatalf("New(%s): %v", cfg, err)
	}
	return m.(*match)
}

// play steps m through cmds, failing on any Step error.
func play(t testing.TB, m *match, cmds ...string) {
	t.Helper()
	for i, c := range cmds {
		if err := m.Step([]string{c}); err != nil {
			t.Fatalf("step %d (%q): %v", i+1, c, err)
		}
	}
}

// kinds lists the kinds of the last turn's events.
func kinds(m *match) []string {
	var out []string
	for _, e := range m.Events() {
		out = append(out, e.Kind)
	}
	return out
}

func exampleRolls(t testing.TB) []int {
	t.Helper()
	f, err := os.Open("testdata/example.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rolls, err := ParseRolls(f)
	if err != nil {
		t.Fatal(err)
	}
	return rolls
}

// TestWorkedExample plays the published example (A4): rolls 21 21 10 14 27,
// plan GAGAF, a win with 7 HP and this exact board.
func TestWorkedExample(t *testing.T) {
	rolls := exampleRolls(t)
	if want := []int{21, 21, 10, 14, 27}; !slices.Equal(rolls, want) {
		t.Fatalf("example rolls = %v, want %v", rolls, want)
	}
	cfg, _ := json.Marshal(map[string]any{"rolls": rolls})
	m := start(t, string(cfg))
	play(t, m, strings.Split("GAGAF", "")...)
	f := m.Frame().(*Frame)
	want := [numRows]string{
		"#SS SS#",
		"# SSS #",
		"# S S #",
		"#S S S#",
		"#   T #",
	}
	if f.Board != want {
		t.Errorf("board:\n%s\nwant:\n%s", strings.Join(f.Board[:], "\n"), strings.Join(want[:], "\n"))
	}
	if f.HP != 7 || f.Status != "won" || f.Column != 4 || f.Action != "F" || f.Roll != 27 {
		t.Errorf("frame = %+v, want HP 7, won, column 4, action F, roll 27", f)
	}
	r := m.Result()
	if r.Winner != 0 || r.Reason != "survived all 5 rolls" || r.Players[0] != (sim.PlayerResult{Rank: 1, Score: 7, Outcome: sim.Win}) {
		t.Errorf("result = %+v", r)
	}
	if got, want := m.Render(), strings.Join(want[:], "\n")+"\nturn 5/5  HP 7  won\n"; got != want {
		t.Errorf("Render:\n%q\nwant\n%q", got, want)
	}
	if err := m.Step([]string{"D"}); !errors.Is(err, sim.ErrOver) {
		t.Errorf("Step after the end: %v, want ErrOver", err)
	}
}

func ExampleGame() {
	m, _ := Game.New(sim.Setup{Players: 1, Config: json.RawMessage(`{"rolls":[21,21,10,14,27]}`)})
	for _, c := range "GAGAF" {
		m.Step([]string{string(c)})
	}
	fmt.Print(m.(sim.Renderer).Render())
	// Output:
	// #SS SS#
	// # SSS #
	// # S S #
	// #S S S#
	// #   T #
	// turn 5/5  HP 7  won
}

func TestRules(t *testing.T) {
	tests := []struct {
		name       string
		cfg        string
		cmds       string // one letter per turn, "_" for no command
		wantCol    int
		wantHP     int
		wantStatus string
		wantEvents []string // kinds of the last turn's events
		wantReason string
	}{
		{"off the left bank", `{"rolls":[0,0]}`, "AS", 1, 17, "won", []string{"invalid", "win"}, "survived all 2 rolls"},
		{"two off the left", `{"rolls":[0,0]}`, "SA", 2, 19, "won", []string{"invalid", "win"}, ""},
		{"off the right bank", `{"rolls":[0,0,0]}`, "GFG", 5, 17, "won", []string{"invalid", "win"}, ""},
		{"costs", `{"rolls":[0,0,0,0,0]}`, "ADFGS", 3, 12, "won", []string{"win"}, ""},
		{"no command is stay", `{"rolls":[0]}`, "_", 3, 20, "won", []string{"win"}, ""},
		{"hp floor", `{"rolls":[0,0],"start_hp":2}`, "A", 1, 0, "dead", []string{"death"}, "starved on turn 1"},
		{"last hp", `{"rolls":[0],"start_hp":2}`, "S", 2, 1, "won", []string{"win"}, ""},
		{"fly eaten left", `{"rolls":[32,0,0,0,0]}`, "ADDDD", 1, 22, "won", []string{"eat", "win"}, ""},
		{"fly eaten right", `{"rolls":[33,0,0,0,0]}`, "GDDDD", 5, 22, "won", []string{"eat", "win"}, ""},
		{"fly missed", `{"rolls":[32,0,0,0,0]}`, "DDDDD", 3, 20, "won", []string{"fly_missed", "win"}, ""},
		{"fly not diagonal", `{"rolls":[32,0,0,0,0]}`, "DDDDS", 2, 19, "won", []string{"fly_missed", "win"}, ""},
		{"fly on the other bank", `{"rolls":[33,0,0,0,0]}`, "ADDDD", 1, 17, "won", []string{"fly_missed", "win"}, ""},
		{"no catch before turn 5", `{"rolls":[4,0,0,0,0]}`, "DDDD", 3, 20, "alive", nil, ""},
		{"catch on turn 5", `{"rolls":[4,0,0,0,31,0]}`, "DDDDD", 3, 20, "dead", []string{"collision", "spawn", "death"}, "caught by a snake on turn 5"},
		{"dodge on turn 5", `{"rolls":[4,0,0,0,0]}`, "DDDDF", 4, 19, "won", []string{"win"}, ""},
		{"snake beside is harmless", `{"rolls":[27,0,0,0,0]}`, "DDDDD", 3, 20, "won", []string{"win"}, ""},
		{"caught on the last turn", `{"rolls":[4,0,0,0,0]}`, "DDDDD", 3, 20, "dead", []string{"collision", "death"}, "caught by a snake on turn 5"},
		{"rescued at 0 hp", `{"rolls":[32,0,0,0,0],"start_hp":3}`, "DDDDA", 1, 5, "won", []string{"eat", "win"}, ""},
		{"strict: no rescue", `{"rolls":[32,0,0,0,0],"start_hp":3,"strict_hp":true}`, "DDDDA", 1, 0, "dead", []string{"death", "fly_missed"}, "starved on turn 5"},
		{"strict: 1 hp left", `{"rolls":[32,0,0,0,0],"start_hp":4,"strict_hp":true}`, "DDDDA", 1, 6, "won", []string{"eat", "win"}, ""},
		{"starved without a fly", `{"rolls":[0,0,0,0,0],"start_hp":3}`, "DDDDA", 1, 0, "dead", []string{"death"}, "starved on turn 5"},
		{"caught at 0 hp", `{"rolls":[16,0,0,0,0],"start_hp":3}`, "DDDDA", 1, 0, "dead", []string{"collision", "death"}, "caught by a snake on turn 5"},
		{"caught in column 1", `{"rolls":[16,32,0,0,0,0]}`, "ADDDD", 1, 17, "dead", []string{"collision", "death"}, "caught by a snake on turn 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := start(t, tt.cfg)
			cmds := strings.Split(tt.cmds, "")
			for i, c := range cmds {
				if c == "_" {
					cmds[i] = ""
				}
			}
			play(t, m, cmds...)
			f := m.Frame().(*Frame)
			if f.Column != tt.wantCol || f.HP != tt.wantHP || f.Status != tt.wantStatus {
				t.Errorf("got column %d, HP %d, %s; want %d, %d, %s", f.Column, f.HP, f.Status, tt.wantCol, tt.wantHP, tt.wantStatus)
			}
			if got := kinds(m); !slices.Equal(got, tt.wantEvents) {
				t.Errorf("events %v, want %v", got, tt.wantEvents)
			}
			if r := m.Result(); tt.wantReason != "" && r.Reason != tt.wantReason {
				t.Errorf("reason %q, want %q", r.Reason, tt.wantReason)
			}
			if m.Over() != (tt.wantStatus != "alive") {
				t.Errorf("Over() = %v with status %s", m.Over(), tt.wantStatus)
			}
			if tt.wantStatus == "dead" {
				r := m.Result()
				if r.Winner != -1 || r.Players[0].Score != 0 || r.Players[0].Outcome != sim.Loss || !strings.Contains(f.Board[toadRow], "X") {
					t.Errorf("dead toad: result %+v, bottom row %q", r, f.Board[toadRow])
				}
			}
		})
	}
}

// TestCatchBoard checks that the turn of a catch still moves the flies and
// spawns (A7: phases 3 and 4 run after a catch).
func TestCatchBoard(t *testing.T) {
	m := start(t, `{"rolls":[4,32,0,0,31]}`)
	play(t, m, "D", "D", "D", "D", "D")
	want := [numRows]string{"#SSSSS#", "#     #", "#     #", "F     #", "#  X  #"}
	if got := m.Frame().(*Frame).Board; got != want {
		t.Errorf("board %q, want %q", got, want)
	}
	var st []sim.Stat
	st = m.AppendStats(st)
	if s, v := st[0], st[0].Values; s.Alive || v[metricCollisions] != 1 || v[metricScore] != 0 || v[metricHP] != 20 || v[metricSnakes] != 5 {
		t.Errorf("stats %+v", s)
	}
}

func TestCommands(t *testing.T) {
	tests := []struct {
		cmd     string
		want    string // the letter played
		invalid bool
	}{
		{"A", "A", false}, {"s", "S", false}, {"d", "D", false}, {"F", "F", false}, {"g", "G", false},
		{"L2", "A", false}, {"l1", "S", false}, {"STAY", "D", false}, {"Stay", "D", false}, {"r1", "F", false}, {"R2", "G", false},
		{" g ", "G", false}, {"\tA\r\n", "A", false}, {"  sTaY\n", "D", false},
		{"", "D", false}, {"   ", "D", true},
		{"jump", "D", true}, {"GG", "D", true}, {"L3", "D", true}, {"H", "D", true}, {"G A", "D", true}, {"\x00", "D", true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.cmd), func(t *testing.T) {
			m := start(t, `{"rolls":[0,0]}`)
			play(t, m, tt.cmd)
			f := m.Frame().(*Frame)
			if f.Action != tt.want {
				t.Errorf("played %s, want %s", f.Action, tt.want)
			}
			ev := m.Events()
			if got := len(ev) > 0 && ev[0].Kind == sim.EventInvalid; got != tt.invalid {
				t.Fatalf("invalid event %v, want %v (events %+v)", got, tt.invalid, ev)
			}
			if tt.invalid && (ev[0].Seat != 0 || ev[0].Unit != sim.NoUnit || ev[0].Target != -1 || !strings.Contains(ev[0].Detail, fmt.Sprintf("%q", tt.cmd))) {
				t.Errorf("invalid event %+v", ev[0])
			}
		})
	}
}

func TestInvalidDetailIsShort(t *testing.T) {
	m := start(t, `{"rolls":[0]}`)
	play(t, m, strings.Repeat("é", 500))
	d := m.Events()[0].Detail
	if len(d) > 100 || !strings.HasSuffix(d, `"...`) || strings.Contains(d, `\x`) {
		t.Errorf("detail %q: want under 100 bytes, cut on a character boundary", d)
	}
}

func TestEvents(t *testing.T) {
	m := start(t, `{"rolls":[21,32,0,0,0]}`)
	play(t, m, "D")
	want := sim.Event{Seat: -1, Unit: sim.NoUnit, Kind: "spawn", Target: -1, Amount: 3, Detail: "roll 21"}
	if ev := m.Events(); len(ev) != 1 || ev[0] != want {
		t.Errorf("turn 1 events %+v, want %+v", ev, want)
	}
	play(t, m, "A", "D", "D", "D") // turn 5: roll 1 lands on River 1, 3 and 5
	want = sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: "collision", Target: -1, Amount: 1, X: 1, Y: toadRow, Detail: "caught by a snake"}
	if ev := m.Events(); len(ev) != 2 || ev[0] != want || ev[1].Kind != "death" || ev[1].Detail != "caught" || ev[1].Seat != 0 {
		t.Errorf("turn 5 events %+v, want %+v then a death", ev, want)
	}
	m = start(t, `{"rolls":[32,0,0,0,0]}`)
	play(t, m, "A", "D", "D", "D", "D")
	want = sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: "eat", Target: -1, Amount: 5, X: 0, Y: toadRow, Detail: "ate a fly"}
	if ev := m.Events(); len(ev) != 2 || ev[0] != want || ev[1].Kind != "win" || ev[1].Seat != 0 {
		t.Errorf("eat events %+v, want %+v then a win", ev, want)
	}
}

func TestSetupErrors(t *testing.T) {
	tests := []struct {
		name    string
		setup   sim.Setup
		field   string
		contain string
	}{
		{"unknown field", sim.Setup{Players: 1, Config: json.RawMessage(`{"colour":"red"}`)}, "config", "colour"},
		{"bad json", sim.Setup{Players: 1, Config: json.RawMessage(`{"turns":`)}, "config", ""},
		{"roll 34", sim.Setup{Players: 1, Config: json.RawMessage(`{"rolls":[1,34]}`)}, "config.rolls", "rolls[1] = 34"},
		{"negative roll", sim.Setup{Players: 1, Config: json.RawMessage(`{"rolls":[-1]}`)}, "config.rolls", "rolls[0] = -1"},
		{"empty rolls", sim.Setup{Players: 1, Config: json.RawMessage(`{"rolls":[]}`)}, "config.rolls", "empty"},
		{"rolls and turns", sim.Setup{Players: 1, Config: json.RawMessage(`{"rolls":[1],"turns":1}`)}, "config", "not both"},
		{"turns 0", sim.Setup{Players: 1, Config: json.RawMessage(`{"turns":0}`)}, "config.turns", "0 is outside"},
		{"turns too many", sim.Setup{Players: 1, Config: json.RawMessage(`{"turns":100001}`)}, "config.turns", "outside"},
		{"start_hp 0", sim.Setup{Players: 1, Config: json.RawMessage(`{"start_hp":0}`)}, "config.start_hp", "outside"},
		{"players 2", sim.Setup{Players: 2}, "players", "takes 1 players, got 2"},
		{"players 0", sim.Setup{Players: 0}, "players", ""},
		{"unknown ruleset", sim.Setup{Players: 1, Ruleset: "modern"}, "ruleset", `"modern"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Game.New(tt.setup)
			var se *sim.SetupError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *sim.SetupError", err)
			}
			if se.Field != tt.field || !strings.Contains(se.Reason, tt.contain) {
				t.Errorf("got %v, want field %s and a reason containing %q", err, tt.field, tt.contain)
			}
		})
	}
	for _, cfg := range []string{``, `{}`, `{"rolls":null}`, `{"turns":100000}`, `{"start_hp":1,"strict_hp":true}`} {
		if _, err := Game.New(sim.Setup{Players: 1, Ruleset: "classic", Config: json.RawMessage(cfg)}); err != nil {
			t.Errorf("config %q: %v", cfg, err)
		}
	}
}

func TestStepErrors(t *testing.T) {
	m := start(t, `{"rolls":[0]}`)
	for _, cmds := range [][]string{nil, {"D", "D"}} {
		if err := m.Step(cmds); err == nil || errors.Is(err, sim.ErrOver) {
			t.Errorf("Step(%q) = %v, want an error about the command count", cmds, err)
		}
	}
	if m.Turn() != 0 {
		t.Errorf("a refused step advanced to turn %d", m.Turn())
	}
	play(t, m, "D")
	if err := m.Step([]string{"D"}); !errors.Is(err, sim.ErrOver) {
		t.Errorf("Step after the end = %v, want ErrOver", err)
	}
}

func TestDefaults(t *testing.T) {
	m := start(t, ``)
	f := m.Frame().(*Frame)
	if f.Rolls != defaultTurns || f.HP != 20 || f.Column != 3 || f.Roll != -1 || f.Action != "" || f.Status != "alive" {
		t.Errorf("turn 0 frame %+v", f)
	}
	if f.Board != [numRows]string{"#     #", "#     #", "#     #", "#     #", "#  T  #"} {
		t.Errorf("turn 0 board %q", f.Board)
	}
	r := m.Result()
	if r.Winner != -1 || r.Reason != "" || r.Players[0] != (sim.PlayerResult{Rank: 1, Score: 20, Outcome: sim.Pending}) {
		t.Errorf("turn 0 result %+v", r)
	}
}

func TestGameDefinition(t *testing.T) {
	if Game.Start == nil || Game.Name != "toad" || !slices.Equal(Game.Rulesets, []string{"classic"}) {
		t.Fatalf("Game = %+v", Game)
	}
	for i, a := range actions {
		if Game.Alphabet[i] != a.letter {
			t.Errorf("Alphabet[%d] = %s, want %s", i, Game.Alphabet[i], a.letter)
		}
	}
	for _, md := range Game.Metrics {
		if md.Label == "" {
			t.Errorf("metric %+v: no label", md)
		}
	}
	for _, name := range []string{"random", "astar"} {
		if _, ok := Game.Bot(name); !ok {
			t.Errorf("no bot %s", name)
		}
	}
}

func TestStats(t *testing.T) {
	m := start(t, `{"rolls":[16,8,32,0,0,0,0,0]}`)
	play(t, m, "A", "D", "F") // column 2 after turn 3; rows 0..2 hold 32, 8, 16
	s := m.AppendStats(nil)
	if len(s) != 1 {
		t.Fatalf("%d stats, want 1", len(s))
	}
	want := sim.Stat{Seat: 0, Unit: sim.NoUnit, Alive: true, Values: []float64{16, 16, 0, 0, 2, 5, 4}}
	if !reflect.DeepEqual(s[0], want) {
		t.Errorf("turn 3 stats %+v, want %+v", s[0], want)
	}
	play(t, m, "D") // row 3 holds River 1: one column away
	if d := m.AppendStats(nil)[0].Values[metricDanger]; d != 1 {
		t.Errorf("danger %v, want 1", d)
	}
	play(t, m, "D", "S", "D") // River 1 lands, dodge River 2 into column 1, eat the fly
	s = m.AppendStats(nil)
	if v := s[0].Values; v[metricFlies] != 1 || v[metricHP] != 20 || v[metricSpent] != 5 {
		t.Errorf("after the fly: %+v, want 1 fly, HP 20, 5 spent", s[0])
	}
}

// TestSurviveMatchesStep checks the search model (survive) against the
// match for every column, action, landing row and a range of HP.
func TestSurviveMatchesStep(t *testing.T) {
	for _, strict := range []bool{false, true} {
		for roll := 0; roll <= maxRoll; roll++ {
			for col := river1; col <= river5; col++ {
				for hp := 1; hp <= 5; hp++ {
					for a := range actions {
						m := start(t, fmt.Sprintf(`{"rolls":[0,0],"strict_hp":%v}`, strict))
						m.rows, m.col, m.hp = uint32(spawnMask(roll))<<24, col, hp
						play(t, m, actions[a].letter)
						gc, ghp, live := survive(col, hp, a, spawnMask(roll), strict)
						if c := col + actions[a].delta; c < river1 || c > river5 {
							if live {
								t.Errorf("survive allows leaving the river: col %d action %s", col, actions[a].letter)
							}
							continue
						}
						if gc != m.col || live != (m.status == alive) || live && ghp != m.hp {
							t.Errorf("strict %v roll %d col %d hp %d %s: survive (%d, %d, %v), Step (%d, %d, %s)",
								strict, roll, col, hp, actions[a].letter, gc, ghp, live, m.col, m.hp, m.status)
						}
					}
				}
			}
		}
	}
}

func TestSpawnMask(t *testing.T) {
	for roll, want := range map[int]string{0: "#     #", 16: "#S    #", 1: "#    S#", 21: "#S S S#", 31: "#SSSSS#", 10: "# S S #", 32: "F     #", 33: "#     F"} {
		m := start(t, fmt.Sprintf(`{"rolls":[%d,0]}`, roll))
		play(t, m, "D")
		if got := m.Frame().(*Frame).Board[0]; got != want {
			t.Errorf("roll %d spawns %q, want %q", roll, got, want)
		}
	}
}

func TestHashCoversState(t *testing.T) {
	base := start(t, `{"rolls":[21,0,0]}`)
	h := base.Hash()
	if h != base.Hash() {
		t.Fatal("Hash is not stable")
	}
	changes := map[string]func(m *match){
		"turn": func(m *match) { m.turn++ }, "col": func(m *match) { m.col++ }, "hp": func(m *match) { m.hp++ },
		"rows": func(m *match) { m.rows ^= 1 << 9 }, "status": func(m *match) { m.status = won },
		"caught": func(m *match) { m.caught = true }, "starved": func(m *match) { m.starved = true },
		"flies": func(m *match) { m.flies++ }, "spent": func(m *match) { m.spent++ },
	}
	for name, change := range changes {
		m := *base
		change(&m)
		if m.Hash() == h {
			t.Errorf("changing %s keeps the hash", name)
		}
	}
	if other := start(t, `{"rolls":[21,0,1]}`); other.Hash() == h {
		t.Error("a different future roll keeps the turn-0 hash")
	}
	if other := start(t, `{"rolls":[21,0,0],"strict_hp":true}`); other.Hash() == h {
		t.Error("strict_hp keeps the hash")
	}
	if other := start(t, `{"rolls":[21,0,0],"start_hp":21}`); other.Hash() == h {
		t.Error("a different HP keeps the hash")
	}
}

func TestStepDoesNotAllocate(t *testing.T) {
	const cfg = `{"turns":2000}`
	plan := planFor(t, cfg)
	m := start(t, cfg)
	allocs := testing.AllocsPerRun(1000, func() { m.Step(plan[m.turn]) })
	if m.Over() || m.Turn() < 1000 {
		t.Fatalf("the plan ended at turn %d", m.Turn())
	}
	if allocs != 0 {
		t.Errorf("Step allocates %v times per turn, want 0", allocs)
	}
}

// FuzzStep drives matches from arbitrary configs and commands: no panic,
// and the invariants of the rules hold after every turn.
func FuzzStep(f *testing.F) {
	f.Add([]byte(`{"rolls":[21,21,10,14,27]}`), "G\nA\nG\nA\nF", uint64(0))
	f.Add([]byte(`{"turns":30,"start_hp":3}`), "A\nG\nl2\n\n  r1 \njump\nG\nG\nG\nG", uint64(7))
	f.Add([]byte(`{"rolls":[32,33,32,33,31,31,31],"strict_hp":true}`), "A\nA\nA\nA\nA\nA\nA", uint64(1))
	f.Add([]byte(`{"turns":0}`), "", uint64(2))
	f.Add([]byte(`not json`), "D", uint64(3))
	f.Fuzz(func(t *testing.T, cfg []byte, cmds string, seed uint64) {
		m, err := Game.New(sim.Setup{Players: 1, Seed: seed, Config: cfg})
		if err != nil {
			var se *sim.SetupError
			if !errors.As(err, &se) {
				t.Fatalf("New error %v is not a *sim.SetupError", err)
			}
			return
		}
		lines := strings.Split(cmds, "\n")
		for i := 0; i < 200; i++ {
			over := m.Over()
			err := m.Step([]string{lines[i%len(lines)]})
			if over != errors.Is(err, sim.ErrOver) || err != nil && !over {
				t.Fatalf("turn %d: over %v, Step error %v", i+1, over, err)
			}
			if over {
				if !m.Over() {
					t.Fatal("Over went from true to false")
				}
				return
			}
			checkInvariants(t, m.(*match))
		}
	})
}

func checkInvariants(t *testing.T, m *match) {
	t.Helper()
	f := m.Frame().(*Frame)
	if f.HP < 0 || f.Column < river1 || f.Column > river5 || f.Turn != m.Turn() {
		t.Fatalf("frame %+v: HP below 0, column out of the river or wrong turn", f)
	}
	for r, line := range f.Board {
		if len(line) != numCols {
			t.Fatalf("row %d = %q, want %d cells", r, line, numCols)
		}
		for c := range numCols {
			ch := line[c]
			bank := c == leftBank || c == rightBank
			ok := bank && (ch == '#' || ch == 'F' && r < toadRow) ||
				!bank && (ch == ' ' || ch == 'S' && r < toadRow || r == toadRow && c == f.Column && (ch == 'T' || ch == 'X'))
			if !ok || r == toadRow && c == f.Column && ch != 'T' && ch != 'X' {
				t.Fatalf("row %d column %d holds %q: %q", r, c, ch, f.Board)
			}
		}
	}
	if m.Hash() != m.Hash() {
		t.Fatal("Hash is not stable")
	}
}

// BenchmarkStep plays a long seeded game from the A* plan, turn by turn.
func BenchmarkStep(b *testing.B) {
	const turns = 100_000
	cfg := fmt.Sprintf(`{"turns":%d}`, turns)
	plan := planFor(b, cfg)
	m := start(b, cfg)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m.Over() {
			b.StopTimer()
			m = start(b, cfg)
			b.StartTimer()
		}
		m.Step(plan[m.turn])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}

// BenchmarkMatch builds a default 50-roll match (rolls drawn and checked)
// and plays it to the end from the A* plan.
func BenchmarkMatch(b *testing.B) {
	plan := planFor(b, ``)
	b.ReportAllocs()
	for b.Loop() {
		m, _ := Game.New(sim.Setup{Players: 1, Seed: 1})
		for _, c := range plan {
			m.Step(c)
		}
		if !m.Over() {
			b.Fatal("match not over")
		}
	}
}
