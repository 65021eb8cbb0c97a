// Package foodfight simulates FoodFight, the 2018 season of BitBrawl (rules:
// shared/rules/foodfight.md, part A): players on a 1440x1080 continuous field
// pick up, throw and eat up to four pieces of food, teams score for food on
// their own table and lose points for every collision, over 2000 turns.
//
// Seats are players. The match type follows the seat count unless the
// config names it: 2 seats are a DUEL (two teams of one), 3 a FREE_FOR_ALL
// (three teams of one), 4 a TEAM match (two teams of two; seats 0 and 1 are
// the first team, 2 and 3 the second). A seat's result is its team's.
//
// Ruleset "bitbrawl2018" is the original engine's code, quirks included. The
// setup config is a JSON object, every field optional:
//
//	{"match_type": "TEAM",        DUEL, FREE_FOR_ALL or TEAM; must fit the seats
//	 "fixed_bounce": true,        a food bouncing off a wall keeps its mirrored place (A.7)
//	 "fixed_spawn_bands": true}   respawn avoids the table squares, not bands (A.10)
//
// Commands are the original's action names (A.6): moveForward, moveBackward,
// turnLeft, turnRight, duck, pickupLeft, pickupRight, throwLeft, throwRight,
// eatLeft, eatRight; "" or null is no action. Unknown text, and an action
// the field does not allow (an empty hand, a wall ahead), is played as no
// action, as the original plays an invalid action, with an "invalid" event
// saying why.
//
// Randomness: every "μ ± σ" is a log-normal sample μ·exp(Z·σ/μ) (A.3) with
// Z from one sim/rng stream seeded with the match seed, and the draws come in
// the order of the original engine's code (FieldGenerator, DefaultTurnRunner):
//   - setup: the 8 zones shuffled; then per team, its letter, then per player
//     its digit, position (x then y) and heading, then the table's position;
//     then the 8 food types shuffled, 4 of them picked one by one, each placed
//     in its zone, and the 4 pieces shuffled;
//   - each turn: the play order shuffled; each action's own sample in play
//     order; per airborne piece in field order its speed, then its fall;
//     collision damage in the engine's loop order (per player in seat order,
//     first its player pairs with higher symbols, then the food in field
//     order); the tie-break shuffle on turn 2000; the respawn draws.
//
// Where the rules file leaves room, this package follows the engine code:
//   - the field's food keeps the engine's insertion order (a thrown or
//     respawned piece goes last), which decides the random pick among pieces
//     in reach;
//   - a pickup from tables chooses among every (table, type) pair of the
//     tables the player is against, tables in team order, types in the
//     order of the food table below;
//   - the walls of movePlayer are checked after the tables and recompute the
//     point from the start of the move, as the engine does;
//   - knockback and damage apply to every player whenever any collision
//     happened, each knockback vector built as the engine builds it, from
//     its length and the direction from the collision to the player (so a
//     player on the collision point is pushed east, or west when the offset
//     is -0), whose last bits decide whether a player at a wall moves.
//
// fixed_bounce departs from the rules file's wording: storing the engine's
// mirror about the wall (x' = -x) would leave a piece that enters the band
// next to a wall stuck outside the field, mirrored back and forth. The fixed
// bounce mirrors about the line where the piece's edge touches the wall
// (x' = 2r - x), for the table test and the stored place alike.
//
// Deliberate differences: the controller query order, which the engine
// shuffles but which changes nothing on the field, takes no draws; a wall or
// table clamp along a displacement with no component across it keeps the
// coordinate instead of dividing by zero (A.16); a respawn gives up after
// maxSpawnTries rejected spots instead of looping without bound.
package foodfight

import (
	"fmt"
	"math"
	"slices"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// The constants of A.12.
const (
	fieldWidth  = 1440.0
	fieldDepth  = 1080.0
	totalTurns  = 2000
	maxFood     = 4 // pieces in play
	respawnRate = 0.01

	playerRadius = 50.0
	playerHeight = 200.0
	minHeight    = 100.0
	maxEnergy    = 100.0
	energyCost   = 0.02
	reach        = 100.0 // pickup distance and arm length
	tableRadius  = 100.0 // half side of a table

	maxSpawnTries = 10000
)

// Angles of the arms and of the pickup reach (A.6), as the engine computes
// them in double arithmetic: Math.PI / 6.0 and (Math.PI / 3.0) / 2 are one
// unit in the last place below the exactly rounded π/6 that a Go constant
// expression gives (TestEngineAngles).
const (
	armAngle  = 0.5235987755982988
	reachHalf = 0.5235987755982988
	halfPi    = 0.5 * math.Pi
	twoPi     = 2 * math.Pi
)

// scalar is a "μ ± σ" random quantity (A.3).
type scalar struct{ mu, sigma float64 }

// The random quantities of A.6 to A.8.
var (
	forwardSpeed  = scalar{10, 1}
	backwardSpeed = scalar{5, 1}
	turnSpeed     = scalar{0.05, 0.01}
	duckSpeed     = scalar{5, 1}
	throwHeight   = scalar{150, 10}
	foodSpeed     = scalar{20, 1}
	fallSpeed     = scalar{2, 1}
	playerDamage  = scalar{2, 1}
)

// kind is a food type; none marks an empty hand.
type kind int8

const none kind = -1

// numKinds is the number of food types.
const numKinds = 8

// foodKind is one row of the food table of A.5, in the engine's enum order.
type foodKind struct {
	name   string
	radius float64
	energy scalar
	damage scalar
}

var kinds = [numKinds]foodKind{
	{"apple", 20, scalar{20, 1}, scalar{20, 1}},
	{"banana", 20, scalar{20, 2}, scalar{20, 1}},
	{"raspberry", 10, scalar{10, 1}, scalar{10, 2}},
	{"broccoli", 20, scalar{50, 1}, scalar{10, 1}},
	{"milk", 20, scalar{50, 1}, scalar{20, 5}},
	{"chocolate", 20, scalar{50, 1}, scalar{20, 1}},
	{"sandwich", 20, scalar{50, 2}, scalar{20, 1}},
	{"pie", 50, scalar{50, 1}, scalar{100, 1}},
}

func (k kind) String() string {
	if k < 0 || int(k) >= numKinds {
		return ""
	}
	return kinds[k].name
}

func (k kind) radius() float64 { return kinds[k].radius }

// action is one of the eleven actions of A.6; noAction is null.
type action int8

const (
	noAction action = iota - 1
	moveForward
	moveBackward
	turnLeft
	turnRight
	duck
	pickupLeft
	pickupRight
	throwLeft
	throwRight
	eatLeft
	eatRight
	numActions
)

// actionNames are the original's wire names, in action order.
var actionNames = [numActions]string{
	"moveForward", "moveBackward", "turnLeft", "turnRight", "duck",
	"pickupLeft", "pickupRight", "throwLeft", "throwRight", "eatLeft", "eatRight",
}

func (a action) String() string {
	if a < 0 || a >= numActions {
		return "null"
	}
	return actionNames[a]
}

// hand is the hand an action uses: 0 left, 1 right.
func (a action) hand() int { return int(a-pickupLeft) % 2 }

func (a action) picksUp() bool { return a == pickupLeft || a == pickupRight }
func (a action) throws() bool  { return a == throwLeft || a == throwRight }
func (a action) eats() bool    { return a == eatLeft || a == eatRight }

// event is a scoring event of A.9, in the engine's enum order.
type event int

const (
	firstMove event = iota
	firstPickup
	firstThrow
	firstEat
	firstPlayerCollision
	firstFoodCollision
	everyEat
	foodOnTable
	everyPlayerCollision
	everyFoodCollision
	tieBreak
	numEvents
)

// eventPoints and eventOnce are the scoring table of A.9.
var (
	eventPoints = [numEvents]int{1, 5, 10, 50, -2, -100, 5, 1, -1, -500, 1}
	eventOnce   = [numEvents]bool{true, true, true, true, true, true}
)

// matchType is one of the three match types of A.4.
type matchType struct {
	name           string
	teams, players int
}

var matchTypes = []matchType{
	{"DUEL", 2, 2},
	{"FREE_FOR_ALL", 3, 3},
	{"TEAM", 2, 4},
}

// Game is FoodFight.
var Game = &sim.Game{
	Name:           "foodfight",
	Title:          "FoodFight (BitBrawl 2018)",
	Rulesets:       []string{"bitbrawl2018"},
	MinPlayers:     2,
	MaxPlayers:     4,
	DefaultPlayers: 3,
	Alphabet:       actionNames[:],
	// In the order of the metric indexes below.
	Metrics: []sim.MetricDef{
		{Name: "energy", Label: "Energy", Unit: "energy", Kind: sim.Gauge, Resolution: 0.01, Key: true},
		{Name: "score", Label: "Team score", Unit: "points", Kind: sim.Gauge, Integer: true, Key: true},
		{Name: "collisions", Label: "Collisions (with players and food)", Kind: sim.Counter, Integer: true, Short: "Collisions"},
		{Name: "food_hits", Label: "Hit by food", Kind: sim.Counter, Integer: true, Short: "Food hits"},
		{Name: "player_collisions", Label: "Player collisions", Kind: sim.Counter, Integer: true, Short: "Bumps"},
		{Name: "damage", Label: "Damage taken", Unit: "energy", Kind: sim.Counter, Resolution: 0.01, Short: "Damage"},
		{Name: "throws", Label: "Throws", Kind: sim.Counter, Integer: true},
		{Name: "eats", Label: "Food eaten", Kind: sim.Counter, Integer: true, Short: "Eaten"},
		{Name: "pickups", Label: "Pickups", Kind: sim.Counter, Integer: true},
		{Name: "invalid", Label: "Invalid actions", Kind: sim.Counter, Integer: true, Short: "Invalid"},
		{Name: "table_food", Label: "Food on own table", Kind: sim.Gauge, Integer: true, Short: "On table"},
		{Name: "table_points", Label: "Team points for food on table", Unit: "points", Kind: sim.Counter, Integer: true, Short: "Table pts"},
		{Name: "eat_points", Label: "Team points for eating", Unit: "points", Kind: sim.Counter, Integer: true, Short: "Eat pts"},
		{Name: "collision_penalty", Label: "Team points lost to collisions", Unit: "points", Kind: sim.Counter, Integer: true, Short: "Coll. pts"},
		{Name: "centre_distance", Label: "Distance to the centre (tie-break)", Unit: "px", Kind: sim.Gauge, Resolution: 1, Short: "To centre"},
		{Name: "moved", Label: "Distance moved", Unit: "px", Kind: sim.Counter, Resolution: 1, Short: "Moved"},
		{Name: "ducking", Label: "Turns spent ducking", Unit: "turns", Kind: sim.Counter, Integer: true, Short: "Ducking"},
		{Name: "held", Label: "Food held", Kind: sim.Gauge, Integer: true, Short: "Held"},
		{Name: "hits_given", Label: "Players hit by own throws", Kind: sim.Counter, Integer: true, Short: "Hits given"},
	},
	Bots: []sim.BotDef{
		{Name: "dummy", Description: "never acts, like the original's DummyController", New: newDummy},
		{Name: "random", Description: "plays a random valid action each turn, like the original's RandomController", New: newRandom},
		{Name: "hider", Description: "walks ahead until a wall or table stops it, then ducks there, like the original's HidingController", New: newHider},
		{Name: "walls", Description: "follows the walls, picking up what it reaches and throwing now and then, like the original's WallsController", New: newWalls},
		{Name: "thrower", Description: "stocks its own table with food, throws at opponents it can hit, eats when low, dodges food and players", New: newThrower},
	},
	View:  viewDoc,
	Start: newMatch,
}

// The indexes of the metrics in Game.Metrics.
const (
	metricEnergy = iota
	metricScore
	metricCollisions
	metricFoodHits
	metricPlayerCollisions
	metricDamage
	metricThrows
	metricEats
	metricPickups
	metricInvalid
	metricTableFood
	metricTablePoints
	metricEatPoints
	metricCollisionPenalty
	metricCentreDistance
	metricMoved
	metricDucking
	metricHeld
	metricHitsGiven
	numMetrics
)

// config is the JSON object in Setup.Config.
type config struct {
	MatchType       string `json:"match_type"`
	FixedBounce     bool   `json:"fixed_bounce"`
	FixedSpawnBands bool   `json:"fixed_spawn_bands"`
}

// vec is a point or displacement on the field.
type vec struct{ x, y float64 }

func (a vec) add(b vec) vec { return vec{a.x + b.x, a.y + b.y} }
func (a vec) sub(b vec) vec { return vec{a.x - b.x, a.y - b.y} }

// length is the vector's magnitude, each square rounded on its own.
func (a vec) length() float64 { return math.Sqrt(float64(a.x*a.x) + float64(a.y*a.y)) }

// polar is the vector of length r in direction a.
func polar(r, a float64) vec {
	sin, cos := rng.SinCos(a)
	return vec{float64(r * cos), float64(r * sin)}
}

// player is one seat's player (A.5).
type player struct {
	symbol  byte // a digit
	team    int
	loc     vec
	height  float64
	heading float64
	energy  float64
	hands   [2]kind

	// What the last turn did: the action asked for, whether it was played,
	// the damage taken.
	action action
	valid  bool
	damage float64

	// Running totals for the metrics.
	pickups, throws, eats, invalid  int
	playerHits, foodHits, hitsGiven int
	ducking                         int
	damageTaken, moved              float64
}

// label is the player's name on the board, team letter then digit ("A3").
func (m *match) label(seat int) string {
	p := &m.players[seat]
	return string([]byte{m.teams[p.team].symbol, p.symbol})
}

// team is one team: its players, table and score counts.
type team struct {
	symbol byte // a capital letter
	seats  []int
	table  vec
	// tableFood holds the types on the table as bits (1<<kind).
	tableFood uint8
	counts    [numEvents]int
}

// add counts one scoring event, once only for the one-time events.
func (t *team) add(e event) {
	if eventOnce[e] && t.counts[e] > 0 {
		return
	}
	t.counts[e]++
}

// points is the team's score (A.9).
func (t *team) points() int {
	s := 0
	for e, n := range t.counts {
		s += n * eventPoints[e]
	}
	return s
}

// food is a piece on the field, on the ground (height 0) or in the air.
type food struct {
	kind    kind
	loc     vec
	height  float64
	heading float64
	// thrower is the seat that threw the piece, -1 for food that was never
	// thrown or has landed. The original does not keep it; the metrics do.
	thrower int
}

// collision is one collision of the last turn (A.8).
type collision struct {
	loc    vec
	damage float64
	// kind is the food that hit, or none for two players; a and b are the
	// players involved (b is -1 for a food hit).
	kind kind
	a, b int
}

// source is the randomness a match draws from: *rng.Rand, or in tests a
// fake that makes every draw predictable.
type source interface {
	Float64() float64
	IntN(n int) int
	NormFloat64() float64
}

// match is one FoodFight match in progress.
type match struct {
	cfg   config
	mtype matchType
	src   source

	turn    int // turns played
	over    bool
	players []player // seat order: teams in order, players in order
	teams   []team
	food    []food // the field's food in the engine's insertion order
	// collisions are the last turn's; knock is scratch for knockback.
	collisions []collision
	knock      []vec
	order      []int // scratch for the play order
	flying     []int // scratch for collide: the food in the air
	events     []sim.Event
	// tieBroken says the tie-break changed a score (A.11).
	tieBroken bool
	// view is the field of the views of turn viewTurn, shared by every
	// seat's view of that turn (views are read, never written).
	view     *FieldView
	viewTurn int
}

// Clone copies the match (sim.Cloner), so the inspector can keep
// checkpoints of it. Scratch slices are copied too, with the rest; the
// copy starts without the shared view field, as a new match does,
// because the views lent for a turn read the field they were made from.
func (m *match) Clone() sim.Match {
	c := *m
	if r, ok := m.src.(*rng.Rand); ok { // a test's fake source is shared
		c.src = r.Clone()
	}
	c.players = slices.Clone(m.players)
	c.teams = slices.Clone(m.teams)
	for i := range c.teams {
		c.teams[i].seats = slices.Clone(m.teams[i].seats)
	}
	c.food = slices.Clone(m.food)
	c.collisions = slices.Clone(m.collisions)
	c.knock = slices.Clone(m.knock)
	c.order = slices.Clone(m.order)
	c.flying = slices.Clone(m.flying)
	c.events = slices.Clone(m.events)
	c.view = nil
	return &c
}

// draw samples a "μ ± σ" quantity (A.3): μ·exp(Z·σ/μ).
func (m *match) draw(s scalar) float64 {
	return float64(s.mu * rng.Exp(float64(m.src.NormFloat64()*s.sigma)/s.mu))
}

// uniform is the engine's nextDouble(lo, hi): uniform in [lo, hi).
func (m *match) uniform(lo, hi float64) float64 {
	r := float64(m.src.Float64()*(hi-lo)) + lo
	if r >= hi {
		r = math.Nextafter(hi, lo)
	}
	return r
}

// shuffle is the engine's Collections.shuffle of n elements.
func (m *match) shuffle(n int, swap func(i, j int)) {
	for i := n; i > 1; i-- {
		swap(i-1, m.src.IntN(i))
	}
}

// zone is a rectangle of the setup grid (A.4).
type zone struct{ x0, x1, y0, y1 float64 }

// split halves a zone along its longer side.
func (z zone) split() [2]zone {
	if z.x1-z.x0 > z.y1-z.y0 {
		mid := (z.x0 + z.x1) / 2
		return [2]zone{{z.x0, mid, z.y0, z.y1}, {mid, z.x1, z.y0, z.y1}}
	}
	mid := (z.y0 + z.y1) / 2
	return [2]zone{{z.x0, z.x1, z.y0, mid}, {z.x0, z.x1, mid, z.y1}}
}

// place draws a point in z at least margin from its sides.
func (m *match) place(z zone, margin float64) vec {
	x := m.uniform(z.x0+margin, z.x1-margin)
	return vec{x, m.uniform(z.y0+margin, z.y1-margin)}
}

// zones are the 8 outer cells of the 3x3 grid, in the engine's order.
func zones() []zone {
	w1, w2 := fieldWidth/3, 2*fieldWidth/3
	d1, d2 := fieldDepth/3, 2*fieldDepth/3
	return []zone{
		{0, w1, 0, d1}, {0, w1, d1, d2}, {0, w1, d2, fieldDepth},
		{w1, w2, 0, d1}, {w1, w2, d2, fieldDepth},
		{w2, fieldWidth, 0, d1}, {w2, fieldWidth, d1, d2}, {w2, fieldWidth, d2, fieldDepth},
	}
}

func newMatch(s sim.Setup) (sim.Match, error) {
	var cfg config
	if err := sim.DecodeConfig(s.Config, &cfg); err != nil {
		return nil, err
	}
	mt, err := pickType(cfg.MatchType, s.Players)
	if err != nil {
		return nil, err
	}
	m := &match{cfg: cfg, mtype: mt, src: rng.New(s.Seed)}
	m.setup()
	return m, nil
}

// pickType returns the match type named by the config, which must fit the
// seat count, or the one the seat count gives.
func pickType(name string, players int) (matchType, error) {
	for _, t := range matchTypes {
		if name == "" && t.players == players {
			return t, nil
		}
		if name == t.name {
			if t.players != players {
				return t, &sim.SetupError{Field: "config.match_type", Reason: fmt.Sprintf("%s takes %d players, got %d", t.name, t.players, players)}
			}
			return t, nil
		}
	}
	if name == "" {
		return matchType{}, &sim.SetupError{Field: "players", Reason: fmt.Sprintf("no match type has %d players", players)}
	}
	return matchType{}, &sim.SetupError{Field: "config.match_type", Reason: fmt.Sprintf("unknown match type %s (have DUEL, FREE_FOR_ALL, TEAM)", sim.QuoteCommand(name))}
}

// setup lays out the field of A.4 with the engine's draws.
func (m *match) setup() {
	zs := zones()
	m.shuffle(len(zs), func(i, j int) { zs[i], zs[j] = zs[j], zs[i] })
	next := func() zone { z := zs[0]; zs = zs[1:]; return z }

	letters := []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	digits := []byte("0123456789")
	pick := func(from *[]byte) byte {
		i := m.src.IntN(len(*from))
		c := (*from)[i]
		*from = append((*from)[:i], (*from)[i+1:]...)
		return c
	}
	perTeam := m.mtype.players / m.mtype.teams
	for ti := range m.mtype.teams {
		t := team{symbol: pick(&letters)}
		for range perTeam {
			p := player{symbol: pick(&digits), team: ti, hands: [2]kind{none, none}, energy: maxEnergy, valid: true}
			p.loc = m.place(next(), playerRadius)
			p.heading = fixAngle(float64(m.src.Float64() * twoPi))
			t.seats = append(t.seats, len(m.players))
			m.players = append(m.players, p)
		}
		t.table = m.place(next(), tableRadius)
		m.teams = append(m.teams, t)
	}

	var foodZones []zone
	if m.mtype.name == "DUEL" {
		for range maxFood {
			foodZones = append(foodZones, next())
		}
	} else {
		for range maxFood / 2 {
			h := next().split()
			foodZones = append(foodZones, h[0], h[1])
		}
	}
	types := make([]kind, numKinds)
	for i := range types {
		types[i] = kind(i)
	}
	m.shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i] })
	m.food = make([]food, 0, numKinds)
	for i := range maxFood {
		j := m.src.IntN(len(types))
		k := types[j]
		types = append(types[:j], types[j+1:]...)
		m.food = append(m.food, food{kind: k, loc: m.place(foodZones[i], k.radius()), heading: north, thrower: -1})
	}
	m.shuffle(len(m.food), func(i, j int) { m.food[i], m.food[j] = m.food[j], m.food[i] })

	m.order = make([]int, len(m.players))
	m.knock = make([]vec, len(m.players))
}
