// Package careerfair simulates the AWAP 2019 career fair ("TOC simulator",
// rules: shared/rules/careerfair.md, part B): teams of four bots, one main
// bot and three helpers, push through a tiled floor crowded with hundreds of
// scripted crowd bots, queue in the lines of company booths and score for
// every conversation with a recruiter.
//
// Seats are teams: seat 0 is team 0, seat 1 team 1. Ruleset "awap2019"
// (the default) is the competition of B.14: two teams, 10 idle steps in
// which every team bot plays NONE whatever its seat sent (the commands are
// still recorded and checked), then 300 play steps; the higher score wins,
// equal scores draw. Ruleset "runner" is the published runner's rule
// (distribution/main.py) for one or two teams: the match ends after the
// first step at which a team's score reaches 200 ("won"), else after the
// 300 play steps. The setup config is a JSON object, every field optional:
//
//	{"board": "gates6",          a built-in board: tiny, debug, sample, gates4, gates6
//	 "board_text": "...",        or a board file's text (B.2) for a custom board
//	 "companies_text": "..."}    a companies.txt ("Name Size Value" lines) to use instead of the built-in one
//
// A seat's command is its four team bots' actions in team order (index 0 is
// the main bot), comma separated: "UP,NONE,ENTER,REPLACE". The actions are
// LEFT, UP, RIGHT, DOWN, NONE, ENTER and REPLACE, in any case, with spaces
// around them allowed; "" is all four NONE. A token that is no action, an
// empty token, or a missing one (fewer than four) is that bot's NONE with an
// "invalid" event naming the bot; tokens past the fourth are ignored with
// one "invalid" event. The rest of the command plays.
//
// # The step (B.11)
//
// Step runs these stages in this order, each a function below:
//  1. crowdCompute: every crowd bot, in list order, chooses its move on the
//     board as the previous step left it.
//  2. teamOrders: per team, team 0 first, REPLACE is resolved (B.6) and
//     each team bot's requested direction is set.
//  3. crowdExecute: every crowd bot, in list order, plays its move. Moves
//     happen at once but every threshold is the cached one.
//  4. teamExecute: team 0's bots 0 to 3, then team 1's, play their moves,
//     so team 0 joins a contested end-of-line tile first.
//  5. serveLines: every booth's line, in company slot order, serves,
//     registers its talker and redistributes its queue (B.4).
//  6. scoreServices: each service scores for its team with reward halving.
//  7. updateThresholds: every tile's threshold is recomputed from its
//     population (0-3: 1, 4-6: 2, 7-8: 3, 9+: 5). Thresholds start at 1.
//
// # Randomness
//
// The original draws from Python's unseeded random module; here every draw
// comes from one sim/rng stream seeded with the match seed, one for one in
// the order of the engine's own calls, so a Python port of sim/rng put in
// place of the random module's functions replays a match exactly:
//   - random.random() (random.uniform(0, 1) is 0 + 1*random()) is Float64;
//   - random.choice(seq) is seq[IntN(len(seq))], as Python's _randbelow;
//   - random.sample(pool, 1) is pool[IntN(len(pool))]: for one pick both of
//     Python's algorithms (list pool for n <= 21, selection set above) make
//     exactly one _randbelow(n) call;
//   - random.shuffle(x) is Fisher-Yates from the end: for i from len(x)-1
//     down to 1, j = IntN(i+1) and x[i], x[j] swapped.
//
// The draws, in order:
//   - setup: per company slot k = 0, 1, ... in index order, one
//     sample(pool, 1) from the companies of the slot's size not yet chosen,
//     the pool sorted by name (the engine samples an unordered set; B.14);
//   - each step, stage 1, per crowd bot in list order:
//   - Jittery, when not in line and standing on the tile it was heading
//     for: one random(); then, unless it is on an end-of-line tile and the
//     value is <= 0.6, a shuffle of its own list of the four directions
//     (it starts LEFT, UP, RIGHT, DOWN and stays shuffled from step to step);
//   - Extrovert: a BFS every step, used or not;
//   - RandomBot, when not in line and its path is empty: one choice of a
//     booth among those of its size (all booths when none has that size),
//     then a BFS;
//   - BFS (bots/algs/algorithms.py): a shuffle of the search's direction
//     list (LEFT, UP, RIGHT, DOWN at the start of each search, shuffled in
//     place) at every tile the search expands, in breadth-first order, so
//     IntN(4), IntN(3), IntN(2) per expanded tile. A search that ends on
//     its target stops drawing there; one that fails has expanded every
//     tile it could reach.
//
// # Decisions
//
// Where the rules file leaves room this package follows the engine's code;
// where the code would crash it takes the choice written here:
//   - Board files (B.2): the header is rows, cols, companies, crowd bots and
//     vision radius (further header fields are ignored, as the engine does).
//     Then exactly rows lines of exactly cols tokens, split on any
//     whitespace; blank lines after the last row are ignored. Tokens are F,
//     B, S<k>, M<k>, L<k>, E<k> and <k> with k a decimal slot number below
//     the header's company count (the engine reads "L00" as slot 0). Every
//     slot needs booth tiles of one size and a straight, unbroken line with
//     exactly one E tile at one end; the engine crashes without a booth or
//     a line and misorders bent lines, so such a board is a setup error
//     naming the line. With several B tiles the last one is the start, as
//     in the engine; without one the board is refused.
//   - Companies: "Name Size Value" per line, blank lines skipped, Size one of
//     S, M, L, Value a whole number 0 to 1000000, names unique; a board that
//     needs more companies of a size than the list has is refused.
//   - The tiles of a line are ordered from the tile farthest from E (the
//     front) to E (the tail), the order the engine's sort gives a straight
//     line. The end-of-line tile starts as the front tile, as both the
//     engine's constructor and its first redistribution make it.
//   - A booth's talker is not cleared when it is served, as in the engine:
//     a bot served at step s that joins the emptied line again at step s+1
//     is served at s+1 without a new registration.
//   - A queued bot moving away keeps its queue place until the move
//     completes, and the line may carry it to another tile meanwhile; its
//     direction is not checked again, as in the engine, so it may complete
//     the move into a booth tile. When the line carries it to the grid's
//     edge so that the move leads off the grid, the engine crashes (writing
//     that bot's state at the end of the step); here the move is dropped at
//     the bot's next execution (direction NONE, progress 0), and until then
//     its state's threshold is its own tile's.
//   - An Extrovert whose BFS fails while it still has a path keeps that path
//     (the engine crashes there); with no path it waits, as in the engine.
//   - A command with fewer than four actions plays NONE for the missing bots
//     (the engine keeps their previous request; B.14's proposed default).
//   - Scores: the service of a team bot at position 0 (the main bot, id 0)
//     earns the company's major reward, any other position the minor one;
//     then both halve, floored, for that team only. Positions and ids move
//     together in a REPLACE swap, so position i always has id i.
//   - Views and frames are taken after the step, as the engine returns them
//     from make_move; a view before the first step already shows live tiles.
//
// These rules were checked against the original engine run from its
// source with a Python port of sim/rng in place of its random functions:
// every crowd bot's tile and in_line flag after every step agree on gates6,
// sample, tiny (310 steps) and gates4 (80 steps), and so do the team bots
// and scores of two teams playing the command cycle of the first golden
// match, up to the step where the engine crashes as described above.
//
// # View
//
// A seat's view is the original player's step(visible_board, states, score)
// arguments plus the Team constructor's company_info: see View.
package careerfair

import (
	"fmt"
	"slices"
	"strings"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// The constants of B.10.
const (
	teamSize    = 4
	idleSteps   = 10
	playSteps   = 300
	totalSteps  = idleSteps + playSteps
	winScore    = 200 // the runner's score_threshold
	speed       = 1   // progress per step of every bot
	waitTime    = 1   // recruiter steps per bot after its registration step
	perLineTile = 3   // queued bots a line tile holds before the next one
	lineProb    = 0.6 // Jittery's chance to join a line it stands at
	reorient    = 2   // Extrovert's REORIENT_COST
)

// The ruleset names.
const (
	rulesetAWAP   = "awap2019"
	rulesetRunner = "runner"
)

// action is one of the engine's Direction values, in its enum order.
type action int8

const (
	none action = iota
	left
	up
	right
	down
	enter
	replace
	numActions
)

// actionNames are the wire names, in action order.
var actionNames = [numActions]string{"NONE", "LEFT", "UP", "RIGHT", "DOWN", "ENTER", "REPLACE"}

func (a action) String() string { return actionNames[a] }

// cardinal reports whether a moves to a neighbouring tile.
func (a action) cardinal() bool { return a >= left && a <= down }

// delta is the (row, column) step of a cardinal action.
var delta = [numActions][2]int{left: {0, -1}, up: {-1, 0}, right: {0, 1}, down: {1, 0}}

// searchOrder is the direction list every BFS and Jittery starts from.
var searchOrder = [4]action{left, up, right, down}

// kind is what drives a bot: its team's seat, or a crowd behaviour (B.5).
type kind int8

const (
	teamBot kind = iota
	jittery
	extrovert
	randomBot
)

// sizes are the company sizes; a RandomBot's target is an index into it,
// or anySize for every booth.
const sizes = "SML"

const anySize = int8(len(sizes))

// crowdGroup is the crowd of every 10 bots, in the engine's order, with
// each RandomBot's target size.
var crowdGroup = [10]struct {
	kind kind
	size int8
}{
	{jittery, 0}, {jittery, 0}, {jittery, 0}, {extrovert, 0},
	{randomBot, 0}, {randomBot, 1}, {randomBot, 2}, {randomBot, 2},
	{randomBot, anySize}, {randomBot, anySize},
}

// bot is one bot, team or crowd, with the engine's fields.
type bot struct {
	loc      int32  // tile index, row*cols+col
	dir      action // direction: the move under way
	want     action // new_direction: the move asked for
	progress int32
	// line is the slot whose queue holds the bot (the engine's membership
	// of a tile's bots_in_line), -1 for a free bot.
	line    int16
	inLine  bool  // the engine's in_line flag
	linePos int16 // line_pos, -1 for None
	kind    kind
	team    int8 // -1 for the crowd

	// Crowd state. size is a RandomBot's target size; booth its chosen
	// booth slot; next a Jittery's next_loc and dirs its shuffled list;
	// path[head:] a RandomBot's or Extrovert's queue of tiles.
	size  int8
	booth int16
	next  int32
	dirs  [4]action
	path  []int32
	head  int
}

// pathLeft reports whether the bot's path queue is non-empty.
func (b *bot) pathLeft() bool { return b.head < len(b.path) }

// setPath replaces the bot's path queue with p, reusing its buffer.
func (b *bot) setPath(p []int32) {
	b.path = append(b.path[:0], p...)
	b.head = 0
}

// line is a booth's line (B.4).
type line struct {
	tiles    []int32 // front to tail
	queue    []int32 // queued bots, front first
	talker   int32   // current_talker, -1 for None
	progress int32
	end      int32 // the end-of-line tile
}

// company is a booth's company.
type company struct {
	name  string
	size  byte
	value int
	// details are the service event texts for the main bot and a helper.
	details [2]string
}

// unitStats are one team position's running totals.
type unitStats struct {
	services, lineTurns, wasted int
}

// team is one team (seat).
type team struct {
	// bots are the bots in team order: position i holds id i, 0 the main.
	bots    [teamSize]int32
	score   int
	delta   int      // the last step's points
	rewards [][2]int // per slot: (major, minor)
	units   [teamSize]unitStats
	main    int // services of the main bot
	helper  int // services of helpers
	moves   [teamSize]action
}

// service is a team bot served this step.
type service struct {
	slot int
	bot  int32
}

// source is the randomness a match draws from: *rng.Rand, or in tests a
// fake that makes every draw predictable.
type source interface {
	IntN(n int) int
	Float64() float64
}

// match is one career fair match in progress.
type match struct {
	b         *board
	runner    bool
	src       source
	turn      int
	over      bool
	companies []company // per slot
	bots      []bot     // the teams' bots, then the crowd in list order
	teams     []team
	lines     []line // per slot
	free      []int32
	queued    []int32
	threshold []int32
	// choices are the booth slots a RandomBot picks from, by target size.
	choices [anySize + 1][]int16
	served  []service
	events  []sim.Event

	// BFS scratch: seen holds the stamp of the search that reached a
	// tile (closed for booths and, past the last tile, off the grid), from
	// the tile it was reached from; queue and found are reused by every
	// search.
	stamp  uint32
	seen   []uint32
	from   []int32
	queue  []int32
	found  []int32
	target int32 // the Extroverts' destination this step

	// View scratch: the company info every view shares (it never changes
	// and views are only read) and the vision mask.
	companyInfo map[string]int
	mask        []bool
}

// Game is the AWAP 2019 career fair.
var Game = &sim.Game{
	Name:           "careerfair",
	Title:          "Career Fair (AWAP 2019)",
	Rulesets:       []string{rulesetAWAP, rulesetRunner},
	MinPlayers:     1,
	MaxPlayers:     2,
	DefaultPlayers: 2,
	// A team's bots by position, 0 the main bot and 1 to 3 its helpers,
	// as the original's team lists.
	Units:    sim.UnitNaming{Noun: "bot"},
	Alphabet: alphabet(),
	// In the order of the metric indexes below.
	Metrics: []sim.MetricDef{
		{Name: "score", Label: "Score", Unit: "points", Kind: sim.Gauge, Integer: true, Key: true},
		{Name: "services", Label: "Services", PerUnit: true, Kind: sim.Counter, Integer: true, Key: true},
		{Name: "main_services", Label: "Services of the main bot", Kind: sim.Counter, Integer: true, Short: "Main"},
		{Name: "helper_services", Label: "Services of helpers", Kind: sim.Counter, Integer: true, Short: "Helpers"},
		{Name: "in_line", Label: "Team bots in line", PerUnit: true, Kind: sim.Gauge, Integer: true, Short: "In line", Flag: true},
		{Name: "line_turns", Label: "Steps spent in line", Unit: "steps", PerUnit: true, Kind: sim.Counter, Integer: true, Short: "Line steps"},
		{Name: "crowd_queued", Label: "Crowd bots in lines", Kind: sim.Gauge, Integer: true, Short: "Crowd"},
		{Name: "wasted_progress", Label: "Progress lost to cancelled moves", Unit: "progress", PerUnit: true, Kind: sim.Counter, Integer: true, Short: "Lost"},
		{Name: "visible_tiles", Label: "Visible tiles", Unit: "tiles", Kind: sim.Gauge, Integer: true, Short: "Visible"},
	},
	Bots: []sim.BotDef{
		{Name: "idle", Description: "plays NONE with all four bots, like the runner's idle steps", New: newIdle},
		{Name: "greedy", Description: "sends every bot to the line that pays it most per step, by walk and queue as last seen, and queues there", New: newGreedy},
		{Name: "replace", Description: "helpers hold places in line; the main bot walks to one near the front and swaps in with REPLACE for the major reward", New: newReplace},
	},
	View:  viewDoc,
	Start: newMatch,
}

// The indexes of the metrics in Game.Metrics.
const (
	metricScore = iota
	metricServices
	metricMainServices
	metricHelperServices
	metricInLine
	metricLineTurns
	metricCrowdQueued
	metricWasted
	metricVisible
	numMetrics
)

// alphabet lists the common commands: each action for all four bots, and
// each action for the main bot with the helpers idle.
func alphabet() []string {
	var out []string
	for _, a := range actionNames {
		out = append(out, a+","+a+","+a+","+a)
	}
	for _, a := range actionNames[1:] {
		out = append(out, a+",NONE,NONE,NONE")
	}
	return out
}

// config is the JSON object in Setup.Config.
type config struct {
	Board         string `json:"board"`
	BoardText     string `json:"board_text"`
	CompaniesText string `json:"companies_text"`
}

func newMatch(s sim.Setup) (sim.Match, error) {
	var cfg config
	if err := sim.DecodeConfig(s.Config, &cfg); err != nil {
		return nil, err
	}
	if s.Ruleset == rulesetAWAP && s.Players != 2 {
		return nil, &sim.SetupError{Field: "players", Reason: fmt.Sprintf("ruleset %s takes 2 teams, got %d", rulesetAWAP, s.Players)}
	}
	b, err := loadBoard(cfg)
	if err != nil {
		return nil, err
	}
	pool, err := loadCompanies(cfg.CompaniesText)
	if err != nil {
		return nil, err
	}
	m := &match{b: b, runner: s.Ruleset == rulesetRunner, src: rng.New(s.Seed)}
	if err := m.setup(pool, s.Players); err != nil {
		return nil, err
	}
	return m, nil
}

// setup assigns the companies, builds the lines and places every bot on
// the start tile (B.9).
func (m *match) setup(pool map[byte][]company, teams int) error {
	b := m.b
	m.companies = make([]company, len(b.slots))
	for k, sl := range b.slots {
		p := pool[sl.size]
		if len(p) == 0 {
			return &sim.SetupError{Field: "config", Reason: fmt.Sprintf("not enough companies of size %c for the board's %d booths", sl.size, b.count(sl.size))}
		}
		j := m.src.IntN(len(p))
		c := p[j]
		pool[sl.size] = append(p[:j], p[j+1:]...)
		c.details = [2]string{c.name + " (main)", c.name + " (helper)"}
		m.companies[k] = c
	}
	n := b.rows * b.cols
	m.free = make([]int32, n)
	m.queued = make([]int32, n)
	m.threshold = make([]int32, n)
	for i := range m.threshold {
		m.threshold[i] = 1
	}
	m.lines = make([]line, len(b.slots))
	// Every queue and path gets room for its longest length up front, so
	// a step never grows one (see TestStepAllocs).
	all := teams*teamSize + b.crowd
	queues := make([]int32, len(b.slots)*all)
	for k, sl := range b.slots {
		m.lines[k] = line{tiles: sl.line, talker: -1, end: sl.line[0], queue: queues[k*all : k*all : (k+1)*all]}
		i := strings.IndexByte(sizes, sl.size)
		m.choices[i] = append(m.choices[i], int16(k))
		m.choices[anySize] = append(m.choices[anySize], int16(k))
	}
	for i := range sizes {
		if len(m.choices[i]) == 0 {
			m.choices[i] = m.choices[anySize]
		}
	}
	m.teams = make([]team, teams)
	for ti := range m.teams {
		t := &m.teams[ti]
		t.rewards = make([][2]int, len(m.companies))
		for k, c := range m.companies {
			t.rewards[k] = [2]int{c.value, c.value / 2}
		}
		for i := range t.bots {
			t.bots[i] = int32(len(m.bots))
			m.bots = append(m.bots, bot{team: int8(ti), kind: teamBot})
		}
	}
	paths := make([]int32, b.crowd/10*10*n)
	for i := range b.crowd / 10 * 10 {
		g := crowdGroup[i%10]
		m.bots = append(m.bots, bot{team: -1, kind: g.kind, size: g.size, booth: -1, dirs: searchOrder})
		if g.kind != jittery {
			m.bots[len(m.bots)-1].path = paths[i*n : i*n : (i+1)*n]
		}
	}
	for i := range m.bots {
		bt := &m.bots[i]
		bt.loc, bt.next, bt.line, bt.linePos = b.start, b.start, -1, -1
	}
	m.free[b.start] = int32(len(m.bots))
	m.seen = make([]uint32, n+1)
	m.resetSeen()
	m.from = make([]int32, n+1)
	m.queue = make([]int32, 0, n)
	m.found = make([]int32, 0, n)
	return nil
}

// Clone copies the match (sim.Cloner). Queues keep their capacities; a
// crowd bot's path is copied at its length, not the whole board its
// capacity holds (most of a match's bytes), so a copy may allocate when a
// path grows, where the original never does. The board, the company
// texts and the view's company info never change and are shared.
func (m *match) Clone() sim.Match {
	c := *m
	if r, ok := m.src.(*rng.Rand); ok { // a test's fake source is shared
		c.src = r.Clone()
	}
	c.companies = slices.Clone(m.companies)
	c.bots = slices.Clone(m.bots)
	for i := range c.bots {
		c.bots[i].path = slices.Clone(m.bots[i].path)
	}
	c.teams = slices.Clone(m.teams)
	for i := range c.teams {
		c.teams[i].rewards = slices.Clone(m.teams[i].rewards)
	}
	c.lines = slices.Clone(m.lines)
	for i := range c.lines {
		q := m.lines[i].queue
		c.lines[i].queue = append(make([]int32, 0, cap(q)), q...)
	}
	c.free, c.queued, c.threshold = slices.Clone(m.free), slices.Clone(m.queued), slices.Clone(m.threshold)
	c.served = slices.Clone(m.served)
	c.events = slices.Clone(m.events)
	c.seen, c.from = slices.Clone(m.seen), slices.Clone(m.from)
	c.queue = append(make([]int32, 0, cap(m.queue)), m.queue...)
	c.found = append(make([]int32, 0, cap(m.found)), m.found...)
	c.mask = slices.Clone(m.mask)
	return &c
}

// thresholdOf is the turns needed to enter a tile of population pop (B.3).
func thresholdOf(pop int32) int32 {
	switch {
	case pop <= 3:
		return 1
	case pop <= 6:
		return 2
	case pop <= 8:
		return 3
	}
	return 5
}

// population is a tile's free and queued bots.
func (m *match) population(t int32) int32 { return m.free[t] + m.queued[t] }

// endOfLine reports whether tile t is the end-of-line tile of its line.
func (m *match) endOfLine(t int32) bool {
	k := m.b.lineOf[t]
	return k >= 0 && m.lines[k].end == t
}
