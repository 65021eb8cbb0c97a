// Package worms simulates the Entelect Challenge 2019 game "Worms" (rules:
// shared/rules/worms.md): two players with three worms each on a 33x33
// cave of dirt, air and deep space, one command per player per round,
// played as the official Kotlin engines play it: the final ruleset as
// release 2019.3.2, the base ruleset as the phase-1 release 2019.1.0. The
// same seed gives the engine's map cell for cell and the same collision
// coin flips.
//
// Rulesets (rules §2, §3):
//
//	base   the seed text and the phase-1 engine: 3 Commandos per player,
//	       move/dig/shoot/nothing, 300 rounds, hits +20/−20 and +40 for
//	       a kill inside the shot; seats and packs rounded half up,
//	       player 2's command first on equal priority, a dead active
//	       worm followed by the lowest-id living one
//	final  the last engine: Commando, Agent (banana bombs), Technologist
//	       (snowballs), select with 5 tokens, lava, 400 rounds,
//	       damage-based scores and kill points at the end of the round
//
// The setup config is a JSON object, every field optional:
//
//	{"rounds": 200}  the round limit (the lava schedule scales with it)
//
// The seed is read as the engine's signed 32-bit seed: its low 32 bits, so
// 42 is 42 and 4294967289 (or the uint64 of int64 −7) is −7.
//
// Commands use the engine's syntax (rules §7.1): "move x y", "dig x y",
// "shoot N|NE|E|SE|S|SW|W|NW" (base also U|UR|R|DR|D|DL|L|UL), "banana
// x y", "snowball x y", "select id", "nothing"; keywords and directions
// in any case, coordinates in the decimal digits of any script of the
// Basic Multilingual Plane (Kotlin's toIntOrNull on the JVM). In final
// several commands join with ';' ("select 2;shoot N") and each is
// trimmed; base reads the whole text as one command, untrimmed, as the
// phase-1 runner passed it. A text starting with "C;" is the original
// runner's framing: only "C;<round>;" with the current round's number (no
// leading zero) is accepted and stripped; another prefix, or nothing
// after it, is "No Command". Text without "C;" is taken as it is. An
// empty command is the runner's time-out, which also submits "No
// Command": an invalid command (−4) that counts toward the do-nothing
// streak, exactly as in the engine.
//
// The rules file predates the phase-1 comparison and is wrong for base in
// §2, §5 steps 2, 3 and 6, §6 (active worm), §7.3, §8 step 5 and §15
// (same-priority order, which is not symmetric: it decides the +40), and
// for both rulesets in §7.1 (framing, digits) and §8 step 3 (selects run
// player 2 first); this package follows the engines.
package worms

import (
	"fmt"
	"math"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// units names the worms as the engine's map and console do: a worm is its
// player's id then its own, 11 to 13 for the first seat's worms and 21 to
// 23 for the second's.
var units = sim.UnitNaming{Noun: "worm", First: 11, PerSeat: 10}

// Geometry and the constants of rules §3. Coordinates are (x, y), 0..32,
// y down; a cell's index is y*mapSize + x.
const (
	mapSize  = 33
	center   = 16 // (mapSize-1)/2: the centre cell, also mapSize/2 in the lava rule
	numCells = mapSize * mapSize

	numSeats       = 2
	wormsPerPlayer = 3
	numWorms       = numSeats * wormsPerPlayer

	commandoHP     = 150
	agentHP        = 100
	technologistHP = 100

	weaponDamage   = 8
	weaponRange    = 4 // floor(euclid) <= 4
	moveRange      = 1 // Chebyshev
	digRange       = 1
	pushbackDamage = 20
	packHP         = 10
	maxDoNothings  = 12 // disqualified on the 13th in a row

	scoreMove     = 5
	scoreDig      = 7
	scoreNothing  = 0
	scoreInvalid  = -4
	scoreMissed   = 2
	scoreBaseHit  = 20 // base: enemy hit; own hit is −20
	scoreKillShot = 40 // base: inside the shot; final: per attacker at the end of the round
	attackFactor  = 2  // final: points per damage dealt
	scoreFreeze   = 17 // final: per worm frozen

	bananaDamage = 20
	bananaRange  = 5
	bananaCount  = 3
	bananaRadius = 2

	snowballFreeze = 5
	snowballRange  = 5
	snowballCount  = 3
	snowballRadius = 1

	selectTokens  = 5
	lavaDamage    = 3
	lavaStart     = 0.25
	lavaEnd       = 0.875
	minSafeRadius = 3.0 // the code's value; the rules text says 4 (rules §15)

	defaultBaseRounds  = 300
	defaultFinalRounds = 400
	maxConfigRounds    = 100_000
)

// profession is a worm's class (rules §3 roster).
type profession uint8

const (
	commando profession = iota
	agent
	technologist
)

var professionNames = [...]string{"Commando", "Agent", "Technologist"}

func (p profession) String() string { return professionNames[p] }

func (p profession) hp() int {
	if p == commando {
		return commandoHP
	}
	return agentHP // agents and technologists both start with 100
}

// cellType is a map cell's terrain (rules §4). Open cells (air, lava) let
// worms and shots through.
type cellType uint8

const (
	air cellType = iota
	dirt
	deepSpace
	lava
)

var cellNames = [...]string{"AIR", "DIRT", "DEEP_SPACE", "LAVA"}

func (c cellType) String() string { return cellNames[c] }

func (c cellType) open() bool { return c == air || c == lava }

// rules are the differences between the rulesets.
type rules struct {
	name      string
	maxRounds int
	roster    [wormsPerPlayer]profession
	// seats are the six spawn points and seatOrder, per player, the worm
	// ids in the order they take their player's seats (rules §5 steps 2
	// and 3).
	seats     *[numWorms][2]int
	seatOrder *[numSeats][wormsPerPlayer]int
	// final switches on everything after phase 1: professions' weapons,
	// select, lava, freezing, damage-based attack scores and kill points
	// at the end of the round, rounding by quadrant at map generation,
	// player 1's command first on equal priority and the next living
	// worm after a dead active one.
	final bool
}

var rulesets = map[string]rules{
	"base": {name: "base", maxRounds: defaultBaseRounds, roster: [3]profession{commando, commando, commando},
		seats: &baseSeats, seatOrder: &baseSeatOrder},
	"final": {name: "final", maxRounds: defaultFinalRounds, roster: [3]profession{commando, agent, technologist},
		seats: &finalSeats, seatOrder: &finalSeatOrder, final: true},
}

// Game is Worms: two players, three worms each.
var Game = &sim.Game{
	Name:     "worms",
	Title:    "Worms (Entelect 2019)",
	Rulesets: []string{"base", "final"},
	// Revision 2 of both (2026-11-23): base plays as the phase-1 engine
	// (start positions, packs, command order, the worm after a death,
	// whole-line commands); both read the runner's C;<round>; framing and
	// any script's decimal digits as the originals do.
	Revisions:      map[string]int{"base": 2, "final": 2},
	MinPlayers:     2,
	MaxPlayers:     2,
	DefaultPlayers: 2,
	Units:          units,
	Alphabet: []string{
		"nothing",
		"shoot N", "shoot NE", "shoot E", "shoot SE", "shoot S", "shoot SW", "shoot W", "shoot NW",
	},
	// In the order of the metric indexes below.
	Metrics: []sim.MetricDef{
		{Name: "hp", Label: "HP", Unit: "HP", PerUnit: true, Kind: sim.Gauge, Integer: true, Key: true},
		{Name: "score", Label: "Score", Unit: "points", Kind: sim.Gauge, Integer: true, Key: true},
		{Name: "collisions", Label: "Move collisions", Kind: sim.Counter, Integer: true, Short: "Collisions"},
		{Name: "hits", Label: "Enemy worms hit", Kind: sim.Counter, Integer: true, Short: "Hits"},
		{Name: "kills", Label: "Enemy worms killed", Kind: sim.Counter, Integer: true, Short: "Kills"},
		{Name: "damage", Label: "Damage dealt to enemies", Unit: "HP", Kind: sim.Counter, Integer: true, Short: "Damage", Key: true},
		{Name: "invalid", Label: "Invalid commands", Kind: sim.Counter, Integer: true, Short: "Invalid"},
		{Name: "dirt", Label: "Dirt destroyed", Unit: "cells", Kind: sim.Counter, Integer: true, Short: "Dirt dug"},
		{Name: "frozen", Label: "Enemy worms frozen", Kind: sim.Counter, Integer: true, Short: "Frozen"},
	},
	Bots: []sim.BotDef{
		{Name: "random", Description: "a uniformly random legal command of the active worm (never nothing)", New: newRandom},
		{Name: "tactical", Description: "shoots, throws or freezes when it hits an enemy and spares friends, else digs and walks toward the nearest enemy, away from lava", New: newTactical},
	},
	View:  viewDoc,
	Start: newMatch,
}

// The indexes of the metrics in Game.Metrics.
const (
	metricHP = iota
	metricScore
	metricCollisions
	metricHits
	metricKills
	metricDamage
	metricInvalid
	metricDirt
	metricFrozen
)

// config is the JSON object in Setup.Config.
type config struct {
	Rounds *int `json:"rounds"`
}

// worm is one worm. A worm is dead at hp <= 0; it stays in its player's
// list with its last position, and on the map until the end of the round
// it died in.
type worm struct {
	prof       profession
	hp         int
	x, y       int
	prevX      int // where it was before its last move, for a push-back
	prevY      int
	movedRound int // the round of its last move: a move into its cell this round is a collision
	frozen     int // rounds until unfrozen
	bananas    int
	snowballs  int
	attackers  uint8 // bit s: seat s damaged it this round by a shot or banana (final)
}

func (w *worm) alive() bool { return w.hp > 0 }

// player is one seat's standing. Seat 0 is the engine's player 1.
type player struct {
	active   int // index of the active worm, 0..2 (worm id − 1)
	cmdScore int
	streak   int // consecutive do-nothings (nothing, invalid, time-out)
	tokens   int

	// Totals for the metrics.
	collisions, hits, kills, damage, invalid, dirt, frozen int

	last feedback // what the last round did with its commands, shown to the bot
}

// feedback is what became of a player's commands in the last round, for
// the view's previousCommand.
type feedback struct {
	sel     int // the worm selected, -1 for an invalid select, 0 for none
	act     command
	outcome uint8
}

// The outcomes of a round's action command.
const (
	outcomeDone uint8 = iota
	outcomeInvalid
	outcomeFrozen
)

// match is the state of one game.
type match struct {
	rules     rules
	maxRounds int
	seed      int32
	base      sim.Hasher // domain, round limit and seed

	round     int
	grid      [numCells]cellType
	occ       [numCells]int8  // 1 + index of the worm on the cell, 0 for none
	pack      [numCells]bool  // a health pack lies here
	destroyed [numCells]int32 // the round a banana last destroyed the cell
	worms     [numWorms]worm  // seat s, worm id i at index s*3 + i − 1
	players   [numSeats]player
	coin      xorWow
	over      bool
	safe      float64 // this round's lava safe radius, or 0 before lava

	// What the last round did, for Events and Frame.
	cmds   [numSeats]string
	events []sim.Event
	shots  []Shot

	// viewGrid is the map grid of the views of round viewRound.
	viewGrid  *mapGrid
	viewRound int
	// lent are the views Peek lends, one per seat, refilled each time.
	lent [numSeats]View
}

// newMatch starts a match (Game.Start) from a checked setup: rules §5,
// map generation.
func newMatch(setup sim.Setup) (sim.Match, error) {
	var cfg config
	if err := sim.DecodeConfig(setup.Config, &cfg); err != nil {
		return nil, err
	}
	r := rulesets[setup.Ruleset]
	m := &match{rules: r, maxRounds: r.maxRounds, seed: int32(uint32(setup.Seed))}
	if cfg.Rounds != nil {
		if *cfg.Rounds < 1 || *cfg.Rounds > maxConfigRounds {
			return nil, &sim.SetupError{Field: "config.rounds", Reason: fmt.Sprintf("%d is outside 1..%d", *cfg.Rounds, maxConfigRounds)}
		}
		m.maxRounds = *cfg.Rounds
	}
	m.generate()
	m.coin = newXorWow(m.seed)
	for s := range m.players {
		m.players[s].tokens = selectTokens
	}
	m.base = sim.NewHasher("worms/" + setup.Ruleset)
	m.base.Int(m.maxRounds)
	m.base.Int(int(m.seed))
	m.events = make([]sim.Event, 0, 16)
	m.shots = make([]Shot, 0, 4)
	return m, nil
}

// Clone copies the match (sim.Cloner). The copy builds its own view grid
// and lent views: a lent view is refilled in place, so sharing one would
// let the two matches write each other's.
func (m *match) Clone() sim.Match {
	c := *m
	c.events = append(make([]sim.Event, 0, cap(m.events)), m.events...)
	c.shots = append(make([]Shot, 0, cap(m.shots)), m.shots...)
	c.viewGrid, c.viewRound = nil, 0
	c.lent = [numSeats]View{}
	return &c
}

// finalSeats are the six spawn points of rules §5 step 2 for a 33x33 map,
// in seat order (angles 0, 60, ..., 300 degrees, rounded by quadrant);
// baseSeats are the phase-1 engine's, rounded half up. TestSeats
// recomputes both.
var (
	finalSeats = [numWorms][2]int{{31, 16}, {24, 28}, {8, 28}, {1, 16}, {8, 4}, {24, 4}}
	baseSeats  = [numWorms][2]int{{31, 16}, {24, 29}, {9, 29}, {1, 16}, {8, 3}, {24, 3}}
)

// finalSeatOrder sorts each player's worms by the key id − playerId − 2
// for ids above the player id (rules §5 step 3); the phase-1 engine
// seats them by id.
var (
	finalSeatOrder = [numSeats][wormsPerPlayer]int{{2, 3, 1}, {3, 1, 2}}
	baseSeatOrder  = [numSeats][wormsPerPlayer]int{{1, 2, 3}, {1, 2, 3}}
)

// generate builds the map in the steps of rules §5.
func (m *match) generate() {
	m.noiseTerrain()
	m.seatWorms()
	m.digSpawnRooms()
	m.markDeepSpace()
	m.placeHealthPacks()
}

// noiseTerrain is step 1: air where the mirrored noise exceeds 0.5, dirt
// elsewhere.
func (m *match) noiseTerrain() {
	for y := range mapSize {
		for x := range mapSize {
			xm := x
			if x > center {
				xm = mapSize - 1 - x
			}
			// Java multiplies the int (converted) by 0.3; one rounding each.
			if noise(float64(float64(xm)*0.3), float64(float64(y)*0.3), m.seed) > 0.5 {
				m.grid[y*mapSize+x] = air
			} else {
				m.grid[y*mapSize+x] = dirt
			}
		}
	}
}

// seatWorms is steps 2 and 3: each seat gets its player's next worm in
// the seat order, with its profession's HP and weapons.
func (m *match) seatWorms() {
	var next [numSeats]int
	for i, seat := range m.rules.seats {
		s := (i + 1) % numSeats // seat 0 goes to player 2
		id := m.rules.seatOrder[s][next[s]]
		next[s]++
		w := &m.worms[s*wormsPerPlayer+id-1]
		w.prof = m.rules.roster[id-1]
		w.hp = w.prof.hp()
		w.x, w.y = seat[0], seat[1]
		w.prevX, w.prevY = w.x, w.y
		w.movedRound = -1
		if w.prof == agent {
			w.bananas = bananaCount
		}
		if w.prof == technologist {
			w.snowballs = snowballCount
		}
	}
}

// digSpawnRooms is step 4: a 5x5 room around every worm, dirt on its
// border and air inside, and the worm on its cell.
func (m *match) digSpawnRooms() {
	for g := range m.worms {
		w := &m.worms[g]
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				x, y := w.x+dx, w.y+dy
				if !onMap(x, y) {
					continue
				}
				if dx == -2 || dx == 2 || dy == -2 || dy == 2 {
					m.grid[y*mapSize+x] = dirt
				} else {
					m.grid[y*mapSize+x] = air
				}
			}
		}
		m.occ[w.y*mapSize+w.x] = int8(g + 1)
	}
}

// markDeepSpace is step 5: every cell further than 17 from the centre
// becomes deep space, spawn rooms included.
func (m *match) markDeepSpace() {
	for c := range numCells {
		if centreDist[c] > center+1 {
			m.grid[c] = deepSpace
		}
	}
}

// placeHealthPacks is step 6: two packs on opposite sides of the centre,
// at radius 2.2 and an angle the noise tilts; their cells become air.
func (m *match) placeHealthPacks() {
	tilt := noise(2.0, 0.0, m.seed)
	for i := range 2 {
		t := float64(2*math.Pi*(float64(i)/2)) + tilt
		x, y := circlePoint(2.2, t, m.rules.final)
		m.grid[y*mapSize+x] = air
		m.pack[y*mapSize+x] = true
	}
}

// circlePoint is the cell at angle t on the circle of radius r around the
// centre. The final engine rounds away from the centre by the angle's
// quadrant (rules §5 step 2); the phase-1 engine rounds half up (Kotlin's
// roundToInt, which is math.Round for these positive values). Sin and
// Cos are the project's deterministic ones; the engine's differ by at
// most an ulp, which moves no pack: the coordinates are never within an
// ulp of an integer or a half.
func circlePoint(r, t float64, final bool) (int, int) {
	x := float64(r*rng.Cos(t)) + center
	y := float64(r*rng.Sin(t)) + center
	if !final {
		return int(math.Round(x)), int(math.Round(y))
	}
	a := math.Mod(t, 2*math.Pi)
	switch {
	case a <= math.Pi*0.5:
		return int(math.Ceil(x)), int(math.Floor(y))
	case a <= math.Pi:
		return int(math.Floor(x)), int(math.Floor(y))
	case a <= math.Pi*1.5:
		return int(math.Floor(x)), int(math.Ceil(y))
	}
	return int(math.Ceil(x)), int(math.Ceil(y))
}

// centreDist is every cell's euclidean distance to the centre, as the
// engine computes it (the sum of squares is an exact integer, so one
// correctly rounded square root).
var centreDist = func() (d [numCells]float64) {
	for c := range numCells {
		dx, dy := c%mapSize-center, c/mapSize-center
		d[c] = math.Sqrt(float64(dx*dx + dy*dy))
	}
	return d
}()

func onMap(x, y int) bool { return x >= 0 && x < mapSize && y >= 0 && y < mapSize }

// chebyshev is the move and dig distance (rules §4).
func chebyshev(ax, ay, bx, by int) int { return max(abs(ax-bx), abs(ay-by)) }

// inThrowRange reports floor(euclid) <= r. For integers, floor(sqrt(d²))
// <= r exactly when d² < (r+1)², so no square root is needed.
func inThrowRange(ax, ay, bx, by, r int) bool {
	dx, dy := ax-bx, ay-by
	return dx*dx+dy*dy < (r+1)*(r+1)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// directions in the engine's order, with their names (rules §4) and the
// phase-1 engine's other names for them.
var directions = [8]struct {
	name, vertical string
	dx, dy         int
}{
	{"N", "U", 0, -1}, {"NE", "UR", 1, -1}, {"E", "R", 1, 0}, {"SE", "DR", 1, 1},
	{"S", "D", 0, 1}, {"SW", "DL", -1, 1}, {"W", "L", -1, 0}, {"NW", "UL", -1, -1},
}

// score is a seat's total (rules §9): command points plus a third of the
// living worms' HP, rounded down.
func (m *match) score(s int) int { return m.players[s].cmdScore + m.health(s)/wormsPerPlayer }

// health is the sum of a seat's living worms' HP.
func (m *match) health(s int) int {
	hp := 0
	for i := range wormsPerPlayer {
		if w := &m.worms[s*wormsPerPlayer+i]; w.alive() {
			hp += w.hp
		}
	}
	return hp
}

// disqualified reports a streak past the limit (rules §9).
func (m *match) disqualified(s int) bool { return m.players[s].streak > maxDoNothings }

// living reports whether seat s is still in the game: a worm alive and
// not disqualified.
func (m *match) living(s int) bool {
	if m.disqualified(s) {
		return false
	}
	for i := range wormsPerPlayer {
		if m.worms[s*wormsPerPlayer+i].alive() {
			return true
		}
	}
	return false
}

// onMapWorm reports whether worm g still occupies its cell (it is removed
// at the end of the round it died in).
func (m *match) onMapWorm(g int) bool {
	w := &m.worms[g]
	return int(m.occ[w.y*mapSize+w.x]) == g+1
}
