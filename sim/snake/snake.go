// Package snake simulates Codenjoy/CodeBattle "Snake Battle" (rules:
// shared/rules/snake.md, part B): up to 15 snakes on a 30x30 map eat apples,
// gold, stones and fury pills, bite and ram each other, over 3 rounds of 300
// ticks. One turn of a match is one server tick, countdown and round-end
// ticks included, so a match whose rounds all time out lasts 3 x 305 = 915
// turns.
//
// Rulesets (B2): "codebattle2020" (default: the CodeBattle seed README on the
// codenjoy May-2020 engine; WIN +110, no flying pills, one command per tick
// with ACT before or after the move) and "codenjoy" (engine defaults: WIN
// +50, flying pills, commands read as codenjoy's server reads them). The
// engine's mechanics, all below, are the same in both.
//
// The setup config is a JSON object, every field optional:
//
//	{"map": ["☼☼☼☼", "☼# ☼", ...]}  a square map, first line the top row,
//	                                 in the map glyphs ☼ # ○ ● $ ® © (B4);
//	                                 the legacy @ and % are empty cells
//
// Commands (B6) are UP, DOWN, LEFT, RIGHT, ACT and ACT(n,...) in any case,
// comma separated: "LEFT", "ACT,LEFT", "LEFT,ACT", "ACT(0)". "" is no
// command: the snake keeps going. In codebattle2020 a command holds one
// direction and one ACT at most, and anything else is invalid. In codenjoy
// every keyword found anywhere in the text is applied, in text order, before
// the tick, as codenjoy's PlayerCommand does: "LEFT ACT", "LEFTACT" and
// "MOVE LEFT" hold LEFT (and ACT), "ACT,ACT(0)" drops a stone and then
// dies, ACT(-0), ACT(00) and ACT(0,) are ACT(0), ACT( 0 ) and ACT() a plain
// ACT, and an ACT whose parameters are not 32-bit integers (ACT(,0)) does
// nothing; text with no keyword is invalid.
//
// Randomness (B7.1, B10) comes from one sim/rng stream seeded with the match
// seed. New places the seats' first snakes in seat order with the start
// draws of B7.1; after that every draw is made in the order of B7.
//
// Where the rules file leaves room, this package follows the engine
// (codenjoy RoundImpl, Timer, SnakeBoard, Hero, BoardUtils):
//   - the round clock is the engine's three timers; the winner's extra tick
//     starts whenever one snake is left, with or without a WIN;
//   - a free-cell search draws up to 101 cells (x, then y counted from the
//     bottom row as the engine's y axis points up) and accepts a find only
//     within the first 100, as BoardUtils does; after that, and for a new
//     snake when no start floor is free, the engine's pt(0, 0) is used: our
//     bottom-left cell, if free for the object;
//   - "covered" for object and start placement counts every snake, dead and
//     sleeping ones included, except at its tail end (freeOfHero);
//   - a fight runs over the snakes that were moving when it began, so one
//     killed earlier in the same fight still bites or is credited;
//   - ACT(0) kills at step 0 wherever it stands in the command; ACT(n,...)
//     with other parameters is a plain ACT; from a snake that died on the
//     last tick, ACT(0) is one more death for step 8 (another lone-survivor
//     check and spawn pass);
//   - in the last round a dead snake is not re-created: it leaves the match
//     at the next tick (off the board, out of the object limits), and each
//     leave runs the lone-survivor check, without a spawn pass; the round's
//     end leaves the survivors dead where they are;
//   - where snake parts share a cell, the part drawn first is shown (dead
//     heads, flying snakes, the others; shorter snakes first);
//   - the match winner is the highest total score over the 3 rounds, a tie
//     at the top a draw.
//
// Deliberate difference from the engine: a deferred head-on cut of every
// cell of a snake (it ate a stone after the head-on) kills it, and it still
// moves on that tick as one that owes more cells than it has does. The
// engine empties the body and then fails on it, ending that tick's field
// update there, and on every later tick until the round ends. A cut can
// leave a single cell, as in the engine: such a snake lives on.
package snake

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// The constants of B3.
const (
	furyTicks      = 10 // FURY_COUNT, additive
	flyingTicks    = 10 // FLYING_COUNT (codenjoy only)
	stoneShrink    = 3  // STONE_REDUCED
	minLength      = 2
	startCountdown = 5   // time before a round starts
	roundTicks     = 300 // time per round
	winnerTicks    = 1   // the extra tick of a lone survivor
	roundsPerMatch = 3
	minTicksForWin = 40

	applePoints = 1
	goldPoints  = 10
	stonePoints = 5
	eatPoints   = 10 // per enemy cell

	spawnDice   = 50  // B10: i = rand(50)
	searchTries = 100 // B10.3: a free cell must turn up within 100 draws
	startPicks  = 10  // B7.1: random start picks before the map-order scan
)

// ruleset holds what differs between the rulesets of B2.
type ruleset struct {
	name     string
	winScore int
	// flying enables flying pills (spawn rule i == 32 and their effects).
	flying bool
	// engineCommands reads commands as the codenjoy server does (every
	// keyword in the text, in order, before the tick); otherwise the
	// CodeBattle seed rules apply: one direction and one ACT at most, ACT
	// after the direction drops after the move.
	engineCommands bool
}

var rulesets = [...]ruleset{
	{name: "codebattle2020", winScore: 110},
	{name: "codenjoy", winScore: 50, flying: true, engineCommands: true},
}

// Game is Snake Battle.
var Game = &sim.Game{
	Name:     "snake",
	Title:    "Snake Battle (CodeBattle 2020)",
	Rulesets: []string{rulesets[0].name, rulesets[1].name},
	// Revision 2 of both (2026-11-23): the engine as codenjoy's server
	// runs it (last-round leaves, a dead snake's ACT(0), the origin
	// fallback, first-added drawing, head-on cuts); codenjoy also reads
	// commands as its server does.
	Revisions:      map[string]int{rulesets[0].name: 2, rulesets[1].name: 2},
	MinPlayers:     2,
	MaxPlayers:     15,
	DefaultPlayers: 5,
	Alphabet: []string{
		"UP", "DOWN", "LEFT", "RIGHT", "ACT",
		"ACT,UP", "ACT,DOWN", "ACT,LEFT", "ACT,RIGHT",
		"UP,ACT", "DOWN,ACT", "LEFT,ACT", "RIGHT,ACT",
		"ACT(0)",
	},
	// In the order of the metric indexes below.
	Metrics: []sim.MetricDef{
		{Name: "score", Label: "Score", Unit: "points", Kind: sim.Gauge, Integer: true, Key: true},
		{Name: "collisions", Label: "Collisions (head-ons + bites given or taken + deaths)", Kind: sim.Counter, Integer: true, Short: "Collisions"},
		{Name: "length", Label: "Length", Unit: "cells", Kind: sim.Gauge, Integer: true, Key: true},
		{Name: "stones", Label: "Stones carried", Kind: sim.Gauge, Integer: true, Short: "Stones"},
		{Name: "fury", Label: "Fury ticks left", Unit: "ticks", Kind: sim.Gauge, Integer: true, Short: "Fury"},
		{Name: "kills", Label: "Kills", Kind: sim.Counter, Integer: true},
		{Name: "deaths", Label: "Deaths", Kind: sim.Counter, Integer: true},
		{Name: "round", Label: "Round", Kind: sim.Gauge, Integer: true},
	},
	Bots: []sim.BotDef{
		{Name: "random", Description: "a random move onto a cell that is free now", New: newRandom},
		{Name: "greedy", Description: "chases apples, gold and fury pills by BFS, avoids walls, bodies and longer snakes, bites enemies in fury", New: newGreedy},
	},
	View:  viewDoc,
	Start: newMatch,
}

// The indexes of the metrics in Game.Metrics.
const (
	metricScore = iota
	metricCollisions
	metricLength
	metricStones
	metricFury
	metricKills
	metricDeaths
	metricRound
)

// config is the JSON object in Setup.Config.
type config struct {
	Map []string `json:"map"`
}

// Directions, in command order. A reverse is d^1.
const (
	up = iota
	down
	left
	right
	noDir = -1
)

var dirNames = [4]string{"UP", "DOWN", "LEFT", "RIGHT"}

// object is what a board cell holds apart from snakes.
type object uint8

const (
	empty object = iota
	wall
	start
	outside // the ring of cells around the board; a barrier like a wall
	apple
	stone
	gold
	furyPill
	flyingPill
)

func (o object) barrier() bool { return o == wall || o == start || o == outside }

// snake is one seat's snake (B5). Cells are indexes into the padded grid.
type snake struct {
	body     []int32 // tail first, head last
	dir      int8
	next     int8 // the pending direction, or noDir
	shrink   int  // cut owed from a head-on, applied at the next move
	stones   int
	fury     int
	flying   int
	alive    bool
	active   bool // false while sleeping in the pen
	lastTail int32
	score    int

	dropAfter bool // a "DIR,ACT" drop waiting for step 9

	// leaves is the engine's "should leave": the snake died in the last
	// round, so it leaves the match at the next tick instead of coming back.
	leaves bool
	// left: the snake has left the match (the engine moves its player to
	// another room); it has no body and its seat's commands go nowhere.
	left bool

	// Counters for the metrics.
	kills, deaths, headOns, bites int
}

func (s *snake) head() int32 { return s.body[len(s.body)-1] }

// neck is the cell behind the head, or -1 for a one-cell body (what a
// head-on cut can leave).
func (s *snake) neck() int32 {
	if len(s.body) < 2 {
		return -1
	}
	return s.body[len(s.body)-2]
}

// index is the position of c in the body counted from the tail, or -1.
func (s *snake) index(c int32) int {
	for i, b := range s.body {
		if b == c {
			return i
		}
	}
	return -1
}

// cutTail removes the n cells at the tail end.
func (s *snake) cutTail(n int) {
	k := copy(s.body, s.body[n:])
	s.body = s.body[:k]
}

func (s *snake) moving() bool { return s.alive && s.active }

// credit is a fight's "attacker eats n cells of prey" (B8.3).
type credit struct {
	attacker, prey int
	n              int
}

// match is the state of one match. Hash documents which fields the future
// depends on.
type match struct {
	rules ruleset
	size  int // board side
	w     int // side of the padded grid: size + 2
	// grid holds the objects of the board and a ring of outside cells
	// around it, so a head may step off the board without leaving the
	// slice; it dies there in the eat step like on a wall.
	grid   []object
	deltas [4]int32 // cell offsets of up, down, left, right
	// starts lists the start floors in map order (row by row from the top).
	starts                             []int32
	nApple, nStone, nGold, nFury, nFly int
	base                               sim.Hasher // the domain and the map

	rand  intSource
	draws int // random numbers drawn so far: the stream's position

	snakes []snake
	wins   []int // rounds won per seat
	inRoom int   // snakes that have not left: the engine's players

	turn, round int
	// The round timers of B9; -1 means stopped.
	startTimer, roundTimer, winnerTimer int
	diedSinceCheck                      bool // a death not yet seen by step 8
	over                                bool

	// Per-tick scratch.
	credits []credit
	events  []sim.Event
	view    viewCache
}

// newMatch starts a match (Game.Start) from a checked setup.
func newMatch(setup sim.Setup) (sim.Match, error) {
	var cfg config
	if err := sim.DecodeConfig(setup.Config, &cfg); err != nil {
		return nil, err
	}
	rows := cfg.Map
	if rows == nil {
		rows = defaultMap
	}
	m := &match{rules: rulesets[0]}
	for _, r := range rulesets {
		if r.name == setup.Ruleset {
			m.rules = r
		}
	}
	if err := m.parseMap(rows); err != nil {
		return nil, err
	}
	if len(m.starts) < setup.Players {
		return nil, &sim.SetupError{Field: "config.map", Reason: fmt.Sprintf("%d start floors for %d players", len(m.starts), setup.Players)}
	}
	m.base = sim.NewHasher("snake/" + m.rules.name)
	m.base.Int(m.size)
	for _, o := range m.grid {
		m.base.Uint64(uint64(o))
	}
	m.rand = newRand(setup.Seed)
	m.snakes = make([]snake, setup.Players)
	m.wins = make([]int, setup.Players)
	m.inRoom = setup.Players
	for i := range m.snakes {
		m.snakes[i].body = make([]int32, 0, 64)
		m.place(i)
	}
	m.startTimer, m.roundTimer, m.winnerTimer = startCountdown, -1, -1
	m.events = make([]sim.Event, 0, 32)
	return m, nil
}

// Clone copies the match (sim.Cloner). Bodies keep their capacities;
// the copy starts an empty view cache, as a new match does, because its
// lent views read the match they were made for.
func (m *match) Clone() sim.Match {
	c := *m
	c.grid = slices.Clone(m.grid)
	if r, ok := m.rand.(*rng.Rand); ok { // the parity test's fake stream is shared
		c.rand = r.Clone()
	}
	c.snakes = slices.Clone(m.snakes)
	for i := range c.snakes {
		b := m.snakes[i].body
		c.snakes[i].body = append(make([]int32, 0, cap(b)), b...)
	}
	c.wins = slices.Clone(m.wins)
	c.credits = slices.Clone(m.credits)
	c.events = append(make([]sim.Event, 0, cap(m.events)), m.events...)
	c.view = viewCache{}
	return &c
}

// parseMap reads the map rows (B4) into the padded grid.
func (m *match) parseMap(rows []string) error {
	n := len(rows)
	if n < 3 || n > 100 {
		return &sim.SetupError{Field: "config.map", Reason: fmt.Sprintf("%d rows, want 3 to 100", n)}
	}
	m.size, m.w = n, n+2
	m.deltas = [4]int32{int32(-m.w), int32(m.w), -1, 1}
	m.grid = make([]object, m.w*m.w)
	for i := range m.grid {
		m.grid[i] = outside
	}
	for y, row := range rows {
		x := 0
		for _, ch := range row {
			if x >= n {
				return &sim.SetupError{Field: "config.map", Reason: fmt.Sprintf("row %d is longer than %d cells", y, n)}
			}
			c := m.cell(x, y)
			switch ch {
			case ' ', '@', '%': // the 2016-2018 pill glyphs are ignored, as the 2019+ parser does
				m.grid[c] = empty
			case '☼':
				m.grid[c] = wall
			case '#':
				m.grid[c] = start
				m.starts = append(m.starts, c)
			case '○':
				m.grid[c] = apple
				m.nApple++
			case '●':
				m.grid[c] = stone
				m.nStone++
			case '$':
				m.grid[c] = gold
				m.nGold++
			case '®':
				m.grid[c] = furyPill
				m.nFury++
			case '©':
				m.grid[c] = flyingPill
				m.nFly++
			default:
				return &sim.SetupError{Field: "config.map", Reason: fmt.Sprintf("row %d column %d: unknown glyph %q", y, x, ch)}
			}
			x++
		}
		if x != n {
			return &sim.SetupError{Field: "config.map", Reason: fmt.Sprintf("row %d has %d cells, want %d (the map is square)", y, x, n)}
		}
	}
	return nil
}

// cell is the padded-grid index of board cell (x, y).
func (m *match) cell(x, y int) int32 { return int32((y+1)*m.w + x + 1) }

// xy is the board position of a padded-grid index.
func (m *match) xy(c int32) (int, int) { return int(c)%m.w - 1, int(c)/m.w - 1 }

// intSource is where a match's random numbers come from.
type intSource interface{ IntN(n int) int }

// newRand makes the random source of a match from its seed: a sim/rng
// stream. The side-by-side test with the original engine replaces it to
// feed both engines the same draws.
var newRand = func(seed uint64) intSource { return rng.New(seed) }

// randN draws a uniform integer in [0, n) and counts the draw, so the hash
// covers the stream position.
func (m *match) randN(n int) int {
	m.draws++
	return m.rand.IntN(n)
}

// Step plays one server tick in the order of B7.
func (m *match) Step(cmds []string) error {
	if m.over {
		return sim.ErrOver
	}
	if len(cmds) != len(m.snakes) {
		return fmt.Errorf("snake takes %d commands per turn (one per seat), got %d", len(m.snakes), len(cmds))
	}
	m.events = m.events[:0]
	m.turn++
	m.view.valid = false
	m.commands(cmds)
	m.replaceDead()
	if m.clock() {
		m.clearDrops()
		return nil
	}
	m.move()
	m.fight()
	m.eat()
	m.fight()
	m.spawn()
	m.checkSurvivor()
	m.dropAfterMove()
	return nil
}

// drop tries to leave a stone on the snake's tail cell (B6 ACT): the cell
// must be free apart from tail ends, and not right of a start floor.
func (m *match) drop(i int, when string) {
	s := &m.snakes[i]
	if !s.moving() || s.stones == 0 {
		return
	}
	c := s.body[0]
	if !m.freeForStone(c) {
		return
	}
	m.grid[c] = stone
	m.nStone++
	s.stones--
	x, y := m.xy(c)
	m.event(sim.Event{Seat: i, Kind: "drop", X: x, Y: y, Detail: "stone dropped " + when})
}

// replaceDead is step 1 (B7.1): in seat order, every dead snake becomes a
// fresh sleeping one in its seat, or leaves the match if it died in the
// last round.
func (m *match) replaceDead() {
	for i := range m.snakes {
		switch s := &m.snakes[i]; {
		case s.alive || s.left:
		case s.leaves:
			m.leave(i)
		default:
			m.place(i)
		}
	}
}

// leave takes seat i's snake off the board for the rest of the match. Like
// the engine's remove, it counts as one more death and runs the round's
// lone-survivor check at once, without a spawn pass: a lone survivor wins
// again with every snake that leaves.
func (m *match) leave(i int) {
	s := &m.snakes[i]
	s.left = true
	s.body = s.body[:0]
	m.inRoom--
	m.event(sim.Event{Seat: i, Kind: "leave", Detail: "dead in the last round: leaves the match"})
	m.diedSinceCheck = false
	m.rewardLast()
}

// place gives seat i a fresh sleeping snake of length 2 facing right: head
// on a start floor, tail in the pen cell to its left. The start is the first
// of up to 10 random picks not covered by a snake's non-tail cell, else the
// first such start in map order. With none (a map with as many starts as
// seats, a snake killing itself asleep) the engine's fallback pt(0, 0)
// applies: our bottom-left cell, as the engine's y axis points up, with the
// tail off the board.
func (m *match) place(i int) {
	c := int32(-1)
	for range startPicks {
		if p := m.starts[m.randN(len(m.starts))]; !m.covered(p) {
			c = p
			break
		}
	}
	if c < 0 {
		c = m.cell(0, m.size-1)
		for _, p := range m.starts {
			if !m.covered(p) {
				c = p
				break
			}
		}
	}
	s := &m.snakes[i]
	*s = snake{
		body: append(s.body[:0], c-1, c), dir: right, next: noDir, alive: true, lastTail: c - 1, score: s.score,
		kills: s.kills, deaths: s.deaths, headOns: s.headOns, bites: s.bites,
	}
	x, y := m.xy(c)
	m.event(sim.Event{Seat: i, Kind: "respawn", X: x, Y: y, Detail: "sleeping on a start floor"})
}

// covered reports whether a snake, in any state, has a part other than its
// tail end on c: such cells are not free for objects or new snakes (B10.3).
func (m *match) covered(c int32) bool {
	for i := range m.snakes {
		b := m.snakes[i].body
		if len(b) == 0 || b[0] == c {
			continue
		}
		for _, p := range b[1:] {
			if p == c {
				return true
			}
		}
	}
	return false
}

func (m *match) free(c int32) bool { return m.grid[c] == empty && !m.covered(c) }

func (m *match) freeForStone(c int32) bool { return m.free(c) && m.grid[c-1] != start }

// clock is step 2 (B9), the round timers of the engine: it reports whether
// the tick is skipped (nobody moves). Timers count down once per tick and
// fire when they reach 0; -1 means stopped.
func (m *match) clock() bool {
	for _, t := range [3]*int{&m.startTimer, &m.roundTimer, &m.winnerTimer} {
		if *t >= 0 {
			*t--
		}
	}
	if m.startTimer == 0 {
		m.round++
		for i := range m.snakes {
			m.snakes[i].active = true
		}
		m.roundTimer = roundTicks
		m.event(sim.Event{Seat: -1, Kind: "round_start", Amount: float64(m.round), Detail: "round " + strconv.Itoa(m.round)})
	}
	if m.startTimer >= 0 {
		return true
	}
	if m.roundTimer == 0 {
		m.timeOut()
		return true
	}
	alive, last := m.aliveCount()
	if alive == 0 || m.winnerTimer == 0 {
		reason := "nobody left"
		if alive == 1 {
			reason = "lone survivor"
			m.reset(last)
		}
		m.endRound(reason)
		return true
	}
	if m.winnerTimer < 0 && alive == 1 {
		m.winnerTimer = winnerTicks
	}
	return false
}

// aliveCount counts the moving snakes and returns the last one's seat.
func (m *match) aliveCount() (int, int) {
	n, last := 0, -1
	for i := range m.snakes {
		if m.snakes[i].moving() {
			n++
			last = i
		}
	}
	return n, last
}

// roundTime is the number of ticks since the round's start tick.
func (m *match) roundTime() int { return roundTicks - m.roundTimer }

// timeOut ends a round on time (B9): every moving snake of the greatest
// length wins (if the round ran more than 40 ticks), then all of them are
// reset.
func (m *match) timeOut() {
	longest := 0
	for i := range m.snakes {
		if s := &m.snakes[i]; s.moving() {
			longest = max(longest, len(s.body))
		}
	}
	for i := range m.snakes {
		if s := &m.snakes[i]; s.moving() && len(s.body) == longest && m.roundTime() > minTicksForWin {
			m.win(i, "longest at time-out")
		}
	}
	for i := range m.snakes {
		if m.snakes[i].moving() {
			m.reset(i)
		}
	}
	m.endRound("time-out")
}

// reset ends the round for a snake still moving: it goes back to sleep on a
// new start floor, or after the last round it stays where it is, dead, as
// the engine's final frame shows it (it would leave at the next tick).
func (m *match) reset(i int) {
	if m.round < roundsPerMatch {
		m.place(i)
		return
	}
	m.snakes[i].alive, m.snakes[i].leaves = false, true
}

// endRound restarts the countdown, or ends the match after the last round.
func (m *match) endRound(reason string) {
	m.startTimer = startCountdown
	m.event(sim.Event{Seat: -1, Kind: "round_end", Amount: float64(m.round), Detail: "round " + strconv.Itoa(m.round) + ": " + reason})
	if m.round >= roundsPerMatch {
		m.over = true
	}
}

func (m *match) win(i int, why string) {
	m.snakes[i].score += m.rules.winScore
	m.wins[i]++
	x, y := m.xy(m.snakes[i].head())
	m.event(sim.Event{Seat: i, Kind: "win", Amount: float64(m.rules.winScore), X: x, Y: y, Detail: why})
}

// move is step 3 (B7.3) for every moving snake in seat order.
func (m *match) move() {
	for i := range m.snakes {
		s := &m.snakes[i]
		if !s.moving() {
			continue
		}
		if s.next != noDir {
			if s.next != s.dir^1 {
				s.dir = s.next
			}
			// A rejected reverse stays rejected until a new command replaces
			// it, so forgetting it changes nothing.
			s.next = noDir
		}
		if s.shrink > 0 {
			// The snake may have shrunk since the head-on. The engine kills
			// one that owes more cells than it has but still moves it on
			// this tick, and lets a cut leave a single cell. A cut of every
			// cell kills here (the engine fails on the empty body).
			if len(s.body) <= s.shrink {
				m.die(i, -1, "head-on cut")
			} else {
				s.cutTail(s.shrink)
			}
			s.shrink = 0
		}
		if s.fury > 0 {
			s.fury--
		}
		if s.flying > 0 {
			s.flying--
		}
		next := s.head() + m.deltas[s.dir]
		if s.flying == 0 {
			if k := s.index(next); k > 0 {
				s.cutTail(k) // cell k goes as the old tail below
				s.bites++
				x, y := m.xy(next)
				m.event(sim.Event{Seat: i, Kind: "self_bite", Target: i, Amount: float64(k), X: x, Y: y, Detail: "bit off " + strconv.Itoa(k) + " of its own cells"})
			}
		}
		s.lastTail = s.body[0]
		copy(s.body, s.body[1:])
		s.body[len(s.body)-1] = next
	}
}

// fight is steps 4 and 6 (B8).
func (m *match) fight() {
	m.credits = m.credits[:0]
	var cand [16]int
	var list []int
	if len(m.snakes) <= len(cand) {
		list = cand[:0]
	}
	for i := range m.snakes {
		if s := &m.snakes[i]; s.moving() && s.flying == 0 {
			list = append(list, i)
		}
	}
	for _, h := range list {
		if e := m.headOnWith(h); e >= 0 {
			m.headOn(h, e)
		} else if e := m.bodyWith(h); e >= 0 {
			m.bite(h, e)
		}
	}
	m.payCredits()
}

// headOn resolves H's head-on with E (B8.1); nothing happens when E flies.
func (m *match) headOn(h, e int) {
	H, E := &m.snakes[h], &m.snakes[e]
	if E.flying > 0 {
		return
	}
	H.headOns++
	E.headOns++
	hx, hy := m.xy(H.head())
	m.event(sim.Event{Seat: h, Kind: "headon", Target: e, X: hx, Y: hy, Detail: fmt.Sprintf("lengths %d and %d", len(H.body), len(E.body))})
	hf, ef := H.fury > 0, E.fury > 0
	switch {
	case hf && !ef:
		m.die(e, h, "head-on with a snake in fury")
		m.credit(h, e, len(E.body))
	case !hf && ef:
		if H.alive {
			m.die(h, e, "head-on with a snake in fury")
			m.credit(e, h, len(H.body))
		}
	default:
		hl, el := len(H.body), len(E.body)
		if !m.cut(h) {
			m.credit(e, h, m.cutLater(h, e, el))
		}
		if !m.cut(e) {
			m.credit(h, e, m.cutLater(e, h, hl))
		}
	}
}

// bite resolves H's head on E's body (B8.2): a bite in fury, else H dies.
func (m *match) bite(h, e int) {
	H, E := &m.snakes[h], &m.snakes[e]
	H.bites++
	E.bites++
	hx, hy := m.xy(H.head())
	if H.fury > 0 {
		n := m.biteOff(e, h, H.head())
		m.event(sim.Event{Seat: h, Kind: "bite", Target: e, Amount: float64(n), X: hx, Y: hy, Detail: "bit off " + strconv.Itoa(n) + " cells in fury"})
		m.credit(h, e, n)
	} else {
		m.event(sim.Event{Seat: h, Kind: "bite", Target: e, X: hx, Y: hy, Detail: "ran into a body"})
		m.die(h, e, "ran into a body")
		m.credit(e, h, len(H.body))
	}
}

// payCredits turns the fight's credits into points for the attackers still
// alive (B8.3), and a kill for each prey that died.
func (m *match) payCredits() {
	for _, c := range m.credits {
		a := &m.snakes[c.attacker]
		if !a.alive {
			continue
		}
		pts := eatPoints * c.n
		a.score += pts
		x, y := m.xy(a.head())
		m.event(sim.Event{Seat: c.attacker, Kind: "eat", Target: c.prey, Amount: float64(pts), X: x, Y: y, Detail: "ate " + strconv.Itoa(c.n) + " cells of a snake"})
		if !m.snakes[c.prey].alive {
			a.kills++
			m.event(sim.Event{Seat: c.attacker, Kind: "kill", Target: c.prey, Amount: float64(c.n), X: x, Y: y, Detail: "killed a snake of length " + strconv.Itoa(c.n)})
		}
	}
}

// headOnWith finds the first moving enemy whose head or neck is on h's head,
// or whose head is on h's neck (B8.1), or -1.
func (m *match) headOnWith(h int) int {
	H := &m.snakes[h]
	hh, hn := H.head(), H.neck()
	for e := range m.snakes {
		E := &m.snakes[e]
		if e == h || !E.moving() {
			continue
		}
		if eh := E.head(); eh == hh || E.neck() == hh || hn == eh {
			return e
		}
	}
	return -1
}

// bodyWith finds the first moving, non-flying enemy with any cell on h's
// head (B8.2), or -1.
func (m *match) bodyWith(h int) int {
	hh := m.snakes[h].head()
	for e := range m.snakes {
		E := &m.snakes[e]
		if e != h && E.moving() && E.flying == 0 && E.index(hh) >= 0 {
			return e
		}
	}
	return -1
}

// cut reports whether seat i already lost cells in this fight.
func (m *match) cut(i int) bool {
	for _, c := range m.credits {
		if c.prey == i {
			return true
		}
	}
	return false
}

func (m *match) credit(attacker, prey, n int) {
	m.credits = append(m.credits, credit{attacker: attacker, prey: prey, n: n})
}

// cutLater is a head-on's "lose the other's length" (B8.1): the snake dies
// when it would keep fewer than 2 cells, else the cut waits for its next
// move. It returns the cells lost.
func (m *match) cutLater(i, by, n int) int {
	s := &m.snakes[i]
	if len(s.body) < n+minLength {
		m.die(i, by, "head-on")
		return len(s.body)
	}
	s.shrink = n
	return n
}

// biteOff cuts snake i from its tail through cell c (a fury bite, B8.2) and
// returns the cells it lost: all of them when fewer than 2 remain.
func (m *match) biteOff(i, by int, c int32) int {
	s := &m.snakes[i]
	was := len(s.body)
	k := s.index(c)
	s.lastTail = c
	s.cutTail(k + 1)
	if len(s.body) < minLength {
		m.die(i, by, "bitten by a snake in fury")
		return was
	}
	return was - len(s.body)
}

// die kills seat i; by is the killer's seat or -1. As in the engine, a
// snake already dead "dies" again: nothing happens to it, but step 8 sees a
// death.
func (m *match) die(i, by int, cause string) {
	s := &m.snakes[i]
	m.diedSinceCheck = true
	s.leaves = m.round >= roundsPerMatch
	if !s.alive {
		return
	}
	s.alive = false
	s.shrink = 0
	s.deaths++
	x, y := -1, -1
	if len(s.body) > 0 {
		x, y = m.xy(s.head())
	}
	m.event(sim.Event{Seat: i, Kind: "death", Target: by, X: x, Y: y, Detail: cause})
}

// eat is step 5 (B7.5): every moving snake eats what is under its head.
func (m *match) eat() {
	for i := range m.snakes {
		s := &m.snakes[i]
		if !s.moving() {
			continue
		}
		h := s.head()
		x, y := m.xy(h)
		switch o := m.grid[h]; o {
		case apple:
			s.body = append(s.body, 0)
			copy(s.body[1:], s.body)
			s.body[0] = s.lastTail
			m.take(h)
			m.gain(i, applePoints, x, y, "apple")
		case stone:
			if s.flying > 0 {
				break // a flying snake passes over stones
			}
			s.stones++
			if s.fury == 0 {
				if len(s.body) < stoneShrink+minLength {
					m.die(i, -1, "ate a stone while too short")
				} else {
					s.cutTail(stoneShrink)
				}
			}
			m.take(h)
			if s.alive {
				m.gain(i, stonePoints, x, y, "stone")
			}
		case gold:
			m.take(h)
			m.gain(i, goldPoints, x, y, "gold")
		case furyPill:
			s.fury += furyTicks
			m.take(h)
			m.gain(i, 0, x, y, "fury pill")
		case flyingPill:
			s.flying += flyingTicks
			m.take(h)
			m.gain(i, 0, x, y, "flying pill")
		default:
			if o.barrier() {
				m.die(i, -1, "hit a wall")
			}
		}
	}
}

// take removes the object on c.
func (m *match) take(c int32) {
	if n := m.counter(m.grid[c]); n != nil {
		*n--
	}
	m.grid[c] = empty
}

// counter is the count of objects of kind o on the board, or nil for the
// kinds not counted.
func (m *match) counter(o object) *int {
	switch o {
	case apple:
		return &m.nApple
	case stone:
		return &m.nStone
	case gold:
		return &m.nGold
	case furyPill:
		return &m.nFury
	case flyingPill:
		return &m.nFly
	}
	return nil
}

func (m *match) gain(i, pts, x, y int, what string) {
	m.snakes[i].score += pts
	m.event(sim.Event{Seat: i, Kind: "eat", Target: -1, Amount: float64(pts), X: x, Y: y, Detail: what})
}

// spawn is one object pass of B10 (2020 engine): one roll, then a separate
// free-cell search for every rule whose condition holds.
func (m *match) spawn() {
	most := m.inRoom/2 + 1 // snakes that left do not count
	i := m.randN(spawnDice)
	if i == 42 && m.nFury < most {
		m.put(furyPill)
	}
	if m.rules.flying && i == 32 && m.nFly < most {
		m.put(flyingPill)
	}
	if i == 21 && m.nGold < 2*most {
		m.put(gold)
	}
	if i == 11 && m.nStone < m.size/2 || m.nStone == 0 {
		m.put(stone)
	}
	if i < 10 && m.nApple < 10*most || m.nApple < 2*most {
		m.put(apple)
	}
}

// put places o on a random free cell (freeCell) if the cell passes o's
// check: free, and for a stone not right of a start floor.
func (m *match) put(o object) {
	c, found := m.freeCell()
	if !found && !m.free(c) || o == stone && m.grid[c-1] == start {
		return
	}
	m.grid[c] = o
	*m.counter(o)++
}

// freeCell is the engine's free-cell search: it draws up to 101 cells, x
// then y, and accepts a free one only within the first 100 (found); else it
// returns the engine's pt(0, 0), free or not. The engine's y axis points
// up, so a y draw and pt(0, 0) are counted from the bottom row.
func (m *match) freeCell() (c int32, found bool) {
	for k := range searchTries + 1 {
		x := m.randN(m.size)
		y := m.size - 1 - m.randN(m.size)
		if c := m.cell(x, y); k < searchTries && m.free(c) {
			return c, true
		}
	}
	return m.cell(0, m.size-1), false
}

// checkSurvivor is step 8 (B7.8): after any death, a lone moving snake wins
// if the round has run 40 ticks, and objects get a second spawn pass.
func (m *match) checkSurvivor() {
	if !m.diedSinceCheck {
		return
	}
	m.diedSinceCheck = false
	m.rewardLast()
	m.spawn()
}

// rewardLast is the engine's lone-survivor check: a lone moving snake wins
// if the round has run 40 ticks.
func (m *match) rewardLast() {
	if n, last := m.aliveCount(); n == 1 && m.roundTime() >= minTicksForWin {
		m.win(last, "last snake standing")
	}
}

// dropAfterMove is step 9 (B7.9, codebattle2020): "DIR,ACT" drops on the
// tail after the move.
func (m *match) dropAfterMove() {
	for i := range m.snakes {
		if m.snakes[i].dropAfter {
			m.drop(i, "after the move")
		}
	}
	m.clearDrops()
}

func (m *match) clearDrops() {
	for i := range m.snakes {
		m.snakes[i].dropAfter = false
	}
}

// event records e; Target is -1 unless the event names another seat
// (hasTarget), so callers need not spell it out.
func (m *match) event(e sim.Event) {
	e.Unit = sim.NoUnit
	if !hasTarget[e.Kind] {
		e.Target = -1
	}
	m.events = append(m.events, e)
}

// hasTarget lists the event kinds whose Target is a seat.
var hasTarget = map[string]bool{"death": true, "headon": true, "bite": true, "eat": true, "kill": true, "self_bite": true}
