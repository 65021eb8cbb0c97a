// Package toad simulates the River Toad game (rules: shared/rules/toad.md,
// sections A2 to A10): Mr. Toad sits in the bottom row of a 5x7 board, one
// roll per turn spawns snakes or a fly in the top row, everything falls one
// row per turn, and the toad must survive every roll. Moving costs HP, a fly
// eaten from the bank beside him gives 5.
//
// The setup config is a JSON object, every field optional, rolls and turns
// exclusive:
//
//	{"rolls": [21, 21, 10, 14, 27]}  explicit rolls, one turn each (0..33)
//	{"turns": 50}                    rolls drawn from the seed (default 50)
//	{"start_hp": 20}                 starting HP (default 20)
//	{"strict_hp": true}              the toad dies as soon as a move leaves him at 0 HP
//
// Commands are the action letters A S D F G (left 2, left 1, stay, right 1,
// right 2) or their long forms L2 L1 STAY R1 R2, in any case and with
// surrounding spaces. See ParseRolls for the original input-file format.
package toad

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// The board (A2, A3). Each row is a 7-bit mask, bit c set when column c
// holds an entity: banks (columns 0 and 6) only ever hold flies and the
// river (columns 1..5) only ever holds snakes, so one mask says everything.
const (
	numRows  = 5
	numCols  = 7
	toadRow  = numRows - 1
	leftBank = 0
	river1   = 1
	river5   = 5
	// rightBank is the last column; a 33 fly lands here (A5 reads the
	// table's "River 5" as a typo, flies live on banks).
	rightBank = numCols - 1
	startCol  = 3

	riverBits uint8 = 0x3E // columns 1..5
	bankBits  uint8 = 0x41 // columns 0 and 6

	// The four rows above the toad's row live in one word, row r in byte r,
	// so "everything moves down one row" is a shift by 8: the byte of row 3
	// falls off the top of the word exactly when its entities would enter
	// the bottom row, where they are removed.
	snakeWord uint32 = 0x3E3E3E3E
	flyWord   uint32 = 0x41414141
)

// The numbers (A3, A5).
const (
	defaultStartHP = 20
	maxStartHP     = 1_000_000_000 // keeps HP far from overflow however many flies he eats
	flyBonus       = 5
	defaultTurns   = 50
	maxTurns       = 100_000 // bounds the work a hostile config can ask for
	maxRoll        = 33
	rollLeftFly    = 32
	rollRightFly   = 33
)

// action is one of the five moves (A3): its letter, long form, column
// change and HP cost.
type action struct {
	letter string
	long   string
	delta  int
	cost   int
}

// actions lists the moves in keyboard order A S D F G, the order of
// Game.Alphabet.
var actions = [...]action{
	{"A", "L2", -2, 3},
	{"S", "L1", -1, 1},
	{"D", "STAY", 0, 0},
	{"F", "R1", +1, 1},
	{"G", "R2", +2, 3},
}

// stay is the index of Stay in actions, played for no or invalid commands.
const stay = 2

// spawnMask is the row a roll puts at the top of the board (A5): rolls
// 0..31 are a 5-bit mask with 16 = River 1 down to 1 = River 5, which
// reversed and shifted lands River c on bit c; 32 and 33 put a fly on the
// left and the right bank.
func spawnMask(roll int) uint8 {
	switch roll {
	case rollLeftFly:
		return 1 << leftBank
	case rollRightFly:
		return 1 << rightBank
	}
	return bits.Reverse8(uint8(roll)) >> 2
}

// beside reports whether a fly on bank (column 0 or 6) of the bottom row is
// next to a toad in column col, so he eats it (A7.3, A10 "adjacent").
func beside(bank, col int) bool {
	return bank == leftBank && col == river1 || bank == rightBank && col == river5
}

// Game is River Toad: one toad, one turn per roll.
var Game = &sim.Game{
	Name:           "toad",
	Title:          "River Toad",
	Rulesets:       []string{"classic"},
	MinPlayers:     1,
	MaxPlayers:     1,
	DefaultPlayers: 1,
	Alphabet:       []string{"A", "S", "D", "F", "G"},
	// In the order of the metric indexes below.
	Metrics: []sim.MetricDef{
		{Name: "hp", Label: "HP", Unit: "HP", Kind: sim.Gauge, Integer: true, Key: true},
		{Name: "score", Label: "Score (HP, 0 once dead)", Unit: "points", Kind: sim.Gauge, Integer: true, Short: "Score", Key: true},
		{Name: "collisions", Label: "Caught by a snake", Kind: sim.Counter, Integer: true, Short: "Caught"},
		{Name: "flies", Label: "Flies eaten", Kind: sim.Counter, Integer: true, Short: "Flies"},
		{Name: "snakes", Label: "Snakes on the board", Kind: sim.Gauge, Integer: true, Short: "Snakes"},
		{Name: "danger", Label: "Columns to the nearest snake about to land", Unit: "columns", Kind: sim.Gauge, Integer: true, Short: "Danger", Key: true},
		{Name: "hp_spent", Label: "HP spent on moves", Unit: "HP", Kind: sim.Counter, Integer: true, Short: "HP spent"},
	},
	Bots: []sim.BotDef{
		{Name: "random", Description: "a uniformly random move that stays in the river", New: newRandom},
		{Name: "astar", Description: "A* over (turn, column, HP) with the known rolls: a win with the most HP left whenever one exists", New: newAStar},
	},
	View:  viewDoc,
	Start: newMatch,
}

// The indexes of the metrics in Game.Metrics.
const (
	metricHP = iota
	metricScore
	metricCollisions
	metricFlies
	metricSnakes
	metricDanger
	metricSpent
)

// config is the JSON object in Setup.Config. Pointers tell "absent" from
// an explicit zero, which is an error.
type config struct {
	Rolls    []int `json:"rolls"`
	Turns    *int  `json:"turns"`
	StartHP  *int  `json:"start_hp"`
	StrictHP bool  `json:"strict_hp"`
}

// status is where the match stands.
type status uint8

const (
	alive status = iota
	dead
	won
)

func (s status) String() string {
	switch s {
	case dead:
		return "dead"
	case won:
		return "won"
	}
	return "alive"
}

// match is the state of one game. Everything after the rolls changes every
// turn; Hash documents which fields the future depends on.
type match struct {
	rolls   []int
	redraws int // rolls redrawn by the seeded generator to stay solvable
	strict  bool
	base    sim.Hasher // seeded with the domain, every roll and strict

	turn    int
	col     int
	hp      int
	rows    uint32 // rows 0..3, row r in byte r (see snakeWord)
	caught  bool
	starved bool
	status  status
	flies   int // eaten so far
	spent   int // HP lost to moves so far

	// What the last turn did, for Frame.
	act       int
	colBefore int
	hpMoved   int // after phase 1
	hpFed     int // after phase 3
	exited    int // snakes that left the board

	events []sim.Event
}

// newMatch starts a match (Game.Start) from a checked setup. The rolls
// come from the config or, when it names none, from the seed (see
// generateRolls).
func newMatch(setup sim.Setup) (sim.Match, error) {
	var cfg config
	if err := sim.DecodeConfig(setup.Config, &cfg); err != nil {
		return nil, err
	}
	m := &match{hp: defaultStartHP, strict: cfg.StrictHP}
	if cfg.StartHP != nil {
		if *cfg.StartHP < 1 || *cfg.StartHP > maxStartHP {
			return nil, &sim.SetupError{Field: "config.start_hp", Reason: fmt.Sprintf("%d is outside 1..%d", *cfg.StartHP, maxStartHP)}
		}
		m.hp = *cfg.StartHP
	}
	switch {
	case cfg.Rolls != nil && cfg.Turns != nil:
		return nil, &sim.SetupError{Field: "config", Reason: "give rolls or turns, not both"}
	case cfg.Rolls != nil:
		if err := checkRolls(cfg.Rolls); err != nil {
			return nil, err
		}
		m.rolls = append([]int(nil), cfg.Rolls...)
	default:
		n := defaultTurns
		if cfg.Turns != nil {
			n = *cfg.Turns
			if n < 1 || n > maxTurns {
				return nil, &sim.SetupError{Field: "config.turns", Reason: fmt.Sprintf("%d is outside 1..%d", n, maxTurns)}
			}
		}
		m.rolls, m.redraws = generateRolls(setup.Seed, n, m.hp, m.strict)
	}
	m.base = sim.NewHasher("toad/" + setup.Ruleset)
	m.base.Int(len(m.rolls))
	for _, r := range m.rolls {
		m.base.Int(r)
	}
	m.base.Bool(m.strict)
	m.col = startCol
	m.act, m.colBefore, m.hpMoved, m.hpFed = -1, m.col, m.hp, m.hp
	m.events = make([]sim.Event, 0, 8)
	return m, nil
}

// checkRolls validates an explicit roll list.
func checkRolls(rolls []int) error {
	if len(rolls) == 0 {
		return &sim.SetupError{Field: "config.rolls", Reason: "empty list: a game needs at least one roll"}
	}
	if len(rolls) > maxTurns {
		return &sim.SetupError{Field: "config.rolls", Reason: fmt.Sprintf("%d rolls, at most %d", len(rolls), maxTurns)}
	}
	for i, r := range rolls {
		if r < 0 || r > maxRoll {
			return &sim.SetupError{Field: "config.rolls", Reason: fmt.Sprintf("rolls[%d] = %d is outside 0..%d", i, r, maxRoll)}
		}
	}
	return nil
}

// Clone copies the match (sim.Cloner); the rolls never change once drawn
// and are shared.
func (m *match) Clone() sim.Match {
	c := *m
	c.events = append(make([]sim.Event, 0, cap(m.events)), m.events...)
	return &c
}

// Step plays one turn: the five phases of A7 in order.
func (m *match) Step(cmds []string) error {
	if m.status != alive {
		return sim.ErrOver
	}
	if len(cmds) != 1 {
		return fmt.Errorf("toad takes 1 command per turn, got %d", len(cmds))
	}
	m.events = m.events[:0]
	m.turn++
	m.moveToad(cmds[0])
	m.snakesDown()
	m.fliesDown()
	m.spawn()
	m.evaluate()
	return nil
}

// moveToad is phase 1: the toad plays his action and pays for it, HP
// floored at 0. A command that is not an action, or a move out of the
// river, is played as Stay and reported (A10). With strict_hp the toad
// starves at once when the move leaves him at 0 HP.
func (m *match) moveToad(cmd string) {
	m.colBefore = m.col
	a, ok := parseAction(cmd)
	if !ok {
		m.invalid("unknown command " + sim.QuoteCommand(cmd))
		a = stay
	} else if c := m.col + actions[a].delta; c < river1 || c > river5 {
		m.invalid(actions[a].long + " from column " + strconv.Itoa(m.col) + " leaves the river: " + sim.QuoteCommand(cmd))
		a = stay
	}
	m.act = a
	m.col += actions[a].delta
	paid := min(m.hp, actions[a].cost)
	m.hp -= paid
	m.spent += paid
	m.hpMoved = m.hp
	if m.strict && m.hp == 0 {
		m.die(false)
	}
}

// parseAction reads a command: a letter or a long form, any case, spaces
// around it ignored. Empty (no command) is Stay; blank text is no action.
func parseAction(cmd string) (int, bool) {
	if cmd == "" {
		return stay, true
	}
	s := strings.TrimSpace(cmd)
	if len(s) == 1 { // the common case, without EqualFold's general path
		for i := range actions {
			if s[0]&^0x20 == actions[i].letter[0] { // ASCII upper-casing
				return i, true
			}
		}
		return 0, false
	}
	for i := range actions {
		if strings.EqualFold(s, actions[i].long) {
			return i, true
		}
	}
	return 0, false
}

func (m *match) invalid(detail string) {
	m.events = append(m.events, sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: sim.EventInvalid, Target: -1, X: m.col, Y: toadRow, Detail: detail})
}

// snakesDown is phase 2: every snake falls one row, and those leaving row 3
// enter the bottom row and are removed, catching the toad if he is in
// their column. The match goes on to phases 3 and 4 regardless.
func (m *match) snakesDown() {
	landing := uint8(m.rows>>24) & riverBits
	m.rows = m.rows&^snakeWord | (m.rows&snakeWord)<<8
	m.exited = bits.OnesCount8(landing)
	if landing&(1<<m.col) != 0 && m.status == alive {
		m.caught = true
		m.events = append(m.events, sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: "collision", Target: -1, Amount: 1, X: m.col, Y: toadRow, Detail: "caught by a snake"})
	}
}

// fliesDown is phase 3: every fly falls one row; one entering the bottom
// row is removed, eaten (+5 HP) when it lands beside the toad.
func (m *match) fliesDown() {
	landing := uint8(m.rows>>24) & bankBits
	m.rows = m.rows&^flyWord | (m.rows&flyWord)<<8
	for _, bank := range [2]int{leftBank, rightBank} {
		if landing&(1<<bank) == 0 {
			continue
		}
		if beside(bank, m.col) && m.status == alive {
			m.hp += flyBonus
			m.flies++
			m.events = append(m.events, sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: "eat", Target: -1, Amount: flyBonus, X: bank, Y: toadRow, Detail: "ate a fly"})
		} else {
			m.events = append(m.events, sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: "fly_missed", Target: -1, X: bank, Y: toadRow, Detail: "a fly landed out of reach"})
		}
	}
	m.hpFed = m.hp
}

// spawn is phase 4: this turn's roll puts its snakes or fly in row 0.
func (m *match) spawn() {
	roll := m.rolls[m.turn-1]
	mask := spawnMask(roll)
	m.rows |= uint32(mask)
	if mask != 0 {
		m.events = append(m.events, sim.Event{Seat: -1, Unit: sim.NoUnit, Kind: "spawn", Target: -1, Amount: float64(bits.OnesCount8(mask)), Detail: "roll " + strconv.Itoa(roll)})
	}
}

// evaluate is phase 5: caught or at 0 HP is a loss, otherwise surviving the
// last roll is a win.
func (m *match) evaluate() {
	switch {
	case m.status != alive: // starved in phase 1 (strict_hp)
	case m.caught:
		m.die(true)
	case m.hp == 0:
		m.die(false)
	case m.turn == len(m.rolls):
		m.status = won
		m.events = append(m.events, sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: "win", Target: -1, X: m.col, Y: toadRow, Detail: "survived every roll"})
	}
}

func (m *match) die(caught bool) {
	m.status = dead
	m.starved = !caught
	detail := "starved"
	if caught {
		detail = "caught"
	}
	m.events = append(m.events, sim.Event{Seat: 0, Unit: sim.NoUnit, Kind: "death", Target: -1, X: m.col, Y: toadRow, Detail: detail})
}

// survive is one turn of the rules reduced to what a search needs: the
// toad in column col with hp plays action a while the row arriving (the
// roll spawned four turns ago) enters the bottom row. It returns his new
// column and HP and whether he is alive after phase 5; a move out of the
// river reports false, as searches simply skip it (Stay is always there).
// It must agree with Step, which TestSurviveMatchesStep checks.
func survive(col, hp, a int, arriving uint8, strict bool) (int, int, bool) {
	col += actions[a].delta
	if col < river1 || col > river5 {
		return col, hp, false
	}
	hp = max(0, hp-actions[a].cost)
	if strict && hp == 0 || arriving&(1<<col) != 0 {
		return col, hp, false
	}
	// At most one fly can be beside him: he is in one column.
	if arriving&(1<<leftBank) != 0 && beside(leftBank, col) || arriving&(1<<rightBank) != 0 && beside(rightBank, col) {
		hp += flyBonus
	}
	return col, hp, hp > 0
}

// arrival is the row entering the bottom row on turn k (1-based): the one
// spawned on turn k-4, nothing before turn 5.
func arrival(rolls []int, k int) uint8 {
	if k <= 4 || k-5 >= len(rolls) {
		return 0
	}
	return spawnMask(rolls[k-5])
}

// Over reports whether the toad has died or survived the last roll.
func (m *match) Over() bool { return m.status != alive }

// Turn is the number of rolls played.
func (m *match) Turn() int { return m.turn }

// MaxTurns is the number of rolls: the toad dies or survives the last one.
func (m *match) MaxTurns() int { return len(m.rolls) }

// Events are the events of the last turn, in phase order.
func (m *match) Events() []sim.Event { return m.events }

// score is the toad's score: his HP while alive, 0 once dead.
func (m *match) score() int {
	if m.status == dead {
		return 0
	}
	return m.hp
}

// Result is the outcome so far.
func (m *match) Result() sim.Result {
	r := sim.Result{Winner: -1, Players: []sim.PlayerResult{{Rank: 1, Score: float64(m.score()), Outcome: sim.Pending}}}
	switch {
	case m.status == won:
		r.Winner, r.Players[0].Outcome = 0, sim.Win
		r.Reason = fmt.Sprintf("survived all %d rolls", len(m.rolls))
	case m.caught:
		r.Players[0].Outcome = sim.Loss
		r.Reason = fmt.Sprintf("caught by a snake on turn %d", m.turn)
	case m.starved:
		r.Players[0].Outcome = sim.Loss
		r.Reason = fmt.Sprintf("starved on turn %d", m.turn)
	}
	return r
}

// Hash digests the state in this order: the domain "toad/<ruleset>", the
// number of rolls, every roll and strict_hp (hashed once in New), then the
// turn (which is also the index of the next roll), column, HP, the rows
// word, status, caught, starved, flies eaten and HP spent. Start HP and
// the last turn's frame details are not in it: they do not affect the
// future. Hashing the whole roll list, not only the index, makes a change
// in the roll generator show at turn 0 rather than turns later.
func (m *match) Hash() uint64 {
	h := m.base
	h.Int(m.turn)
	h.Int(m.col)
	h.Int(m.hp)
	h.Uint64(uint64(m.rows))
	h.Uint64(uint64(m.status))
	h.Bool(m.caught)
	h.Bool(m.starved)
	h.Int(m.flies)
	h.Int(m.spent)
	return h.Sum()
}

// AppendStats appends the toad's numbers (seat 0, no units).
func (m *match) AppendStats(dst []sim.Stat) []sim.Stat {
	dst, v := sim.AppendStat(dst, len(Game.Metrics), 0, sim.NoUnit, m.status != dead)
	v[metricHP] = float64(m.hp)
	v[metricScore] = float64(m.score())
	if m.caught {
		v[metricCollisions] = 1
	}
	v[metricFlies] = float64(m.flies)
	v[metricSnakes] = float64(bits.OnesCount32(m.rows & snakeWord))
	v[metricDanger] = float64(m.danger())
	v[metricSpent] = float64(m.spent)
	return dst
}

// danger is the column distance from the toad to the nearest snake in row
// 3, the row that lands next turn; 5 when there is none.
func (m *match) danger() int {
	row3 := uint8(m.rows>>24) & riverBits
	d := 5
	for c := river1; c <= river5; c++ {
		if row3&(1<<c) != 0 {
			d = min(d, max(c-m.col, m.col-c))
		}
	}
	return d
}

// board draws the five rows in the original symbols (A6): '#' bank, ' '
// river, 'S' snake, 'F' fly, 'T' toad, 'X' dead toad.
func (m *match) board() [numRows]string {
	var out [numRows]string
	var line [numCols]byte
	for r := range numRows {
		var mask uint8
		if r < toadRow {
			mask = uint8(m.rows >> (8 * r))
		}
		for c := range numCols {
			bank := c == leftBank || c == rightBank
			switch {
			case mask&(1<<c) != 0 && bank:
				line[c] = 'F'
			case mask&(1<<c) != 0:
				line[c] = 'S'
			case bank:
				line[c] = '#'
			default:
				line[c] = ' '
			}
		}
		if r == toadRow {
			line[m.col] = 'T'
			if m.status == dead {
				line[m.col] = 'X'
			}
		}
		out[r] = string(line[:])
	}
	return out
}

// Frame is the inspector's snapshot of a River Toad match after a turn
// (A9).
type Frame struct {
	Turn         int    `json:"turn"`
	Roll         int    `json:"roll"`   // the roll spawned this turn; -1 at turn 0
	Action       string `json:"action"` // the letter played ("D" for no or an invalid command); "" at turn 0
	ColumnBefore int    `json:"column_before"`
	Column       int    `json:"column"`
	HPAfterMove  int    `json:"hp_after_move"` // after phase 1
	HPAfterEat   int    `json:"hp_after_eat"`  // after phase 3
	HP           int    `json:"hp"`
	Caught       bool   `json:"caught"`
	SnakesExited int    `json:"snakes_exited"` // snakes that reached the bottom row this turn
	// Board is the 5x7 grid, top row first, in the original symbols.
	Board      [numRows]string `json:"board"`
	Status     string          `json:"status"` // alive, dead or won
	FliesEaten int             `json:"flies_eaten"`
	Redraws    int             `json:"redraws"` // rolls the seeded generator redrew to keep the game solvable
	Rolls      int             `json:"rolls"`   // total rolls, which is the number of turns
}

// Frame returns a *Frame.
func (m *match) Frame() any {
	f := &Frame{
		Turn: m.turn, Roll: -1, ColumnBefore: m.colBefore, Column: m.col,
		HPAfterMove: m.hpMoved, HPAfterEat: m.hpFed, HP: m.hp, Caught: m.caught, SnakesExited: m.exited,
		Board: m.board(), Status: m.status.String(), FliesEaten: m.flies, Redraws: m.redraws, Rolls: len(m.rolls),
	}
	if m.turn > 0 {
		f.Roll = m.rolls[m.turn-1]
		f.Action = actions[m.act].letter
	}
	return f
}

// Action is one entry of the action legend in a View.
type Action struct {
	Letter string `json:"letter"` // the command letter
	Name   string `json:"name"`   // the long form, also accepted as a command
	Move   int    `json:"move"`   // column change
	Cost   int    `json:"cost"`   // HP cost
}

// View is what a bot sees before each turn. The original solver reads the
// whole input file, so it is shown every roll, past and future.
type View struct {
	Turn     int             `json:"turn"`  // turns played so far
	Rolls    []int           `json:"rolls"` // every roll of the match in order; read only
	Next     int             `json:"next"`  // index in Rolls of the roll the coming turn spawns
	HP       int             `json:"hp"`
	Column   int             `json:"column"` // 1..5
	StrictHP bool            `json:"strict_hp"`
	Board    [numRows]string `json:"board"`
	Actions  [5]Action       `json:"actions"`
}

// viewDoc explains View to bot authors; the numbers come from the rules'
// constants, so a change of rule changes the text.
var viewDoc = sim.ViewDoc{
	Fields: []sim.ViewField{
		{Path: "turn", Meaning: "Turns played so far: 0 before the first."},
		{Path: "rolls", Meaning: "Every roll of the match in order, past and future, as the original solver reads them all from its input file. One turn per roll: the match lasts len(rolls) turns."},
		{Path: "rolls[]", Meaning: fmt.Sprintf("A roll, 0 to %d. 0 to 31 is a mask of the river columns where snakes appear in the top row: 16 is column 1, 8 column 2, 4 column 3, 2 column 4, 1 column 5 (21 = columns 1, 3 and 5; 0 nothing). %d puts a fly on the left bank (column 0), %d on the right bank (column 6).", maxRoll, rollLeftFly, rollRightFly)},
		{Path: "next", Meaning: "Index in rolls of the roll the coming turn spawns (equal to turn)."},
		{Path: "hp", Meaning: fmt.Sprintf("The toad's HP. A move costs its action's cost (floored at 0); a fly reaching the bottom row beside him gives +%d. He dies with 0 HP at the end of a turn, or as soon as a move leaves him at 0 when strict_hp is true.", flyBonus)},
		{Path: "column", Meaning: fmt.Sprintf("The toad's column, %d to %d (the river); he is always in the bottom row.", river1, river5)},
		{Path: "strict_hp", Meaning: "The config's strict_hp: true when a move that leaves the toad at 0 HP kills him at once, before a fly can feed him."},
		{Path: "board", Meaning: fmt.Sprintf("The board, %d rows of %d glyphs, top row (where rolls spawn) first, bottom row (the toad's) last; everything moves down one row per turn. Column 0 is the left bank, %d to %d the river, %d the right bank. A snake landing in the toad's column catches him; a fly landing on the bank beside him (column 0 with the toad in column 1, column 6 with him in column 5) is eaten.", numRows, numCols, river1, river5, rightBank)},
		{Path: "board[]", Meaning: "One row of the board, as the original prints it (see the legend)."},
		{Path: "actions", Meaning: "The five moves, in the order of their letters A S D F G."},
		{Path: "actions[]", Meaning: "One move; a move that would leave the river is played as stay (an invalid command)."},
		{Path: "actions[].letter", Meaning: "The command letter."},
		{Path: "actions[].name", Meaning: "The long form (L2, L1, STAY, R1, R2), also accepted as a command."},
		{Path: "actions[].move", Meaning: "Column change: negative is left."},
		{Path: "actions[].cost", Meaning: "HP the move costs."},
	},
	Board: "board[]",
	Glyphs: []sim.Glyph{
		{Glyph: "#", Meaning: "a bank cell with nothing on it"},
		{Glyph: " ", Meaning: "a river cell with nothing on it"},
		{Glyph: "S", Meaning: "a snake"},
		{Glyph: "F", Meaning: "a fly (on a bank)"},
		{Glyph: "T", Meaning: "the toad"},
		{Glyph: "X", Meaning: "the toad, dead"},
	},
}

// View returns a *View. Its Rolls share the match's slice.
func (m *match) View(seat int) any {
	v := &View{Turn: m.turn, Rolls: m.rolls, Next: m.turn, HP: m.hp, Column: m.col, StrictHP: m.strict, Board: m.board()}
	for i, a := range actions {
		v.Actions[i] = Action{Letter: a.letter, Name: a.long, Move: a.delta, Cost: a.cost}
	}
	return v
}

// Render draws the board in the original symbols and a status line.
func (m *match) Render() string {
	var b strings.Builder
	for _, line := range m.board() {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "turn %d/%d  HP %d  %s\n", m.turn, len(m.rolls), m.hp, m.status)
	return b.String()
}

// Alternatives lists the five letters: the toad may always play any.
func (m *match) Alternatives(int) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.letter
	}
	return out
}
