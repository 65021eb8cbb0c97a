package worms

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// Over reports whether the match has ended (rules §9).
func (m *match) Over() bool { return m.over }

// Turn is the number of rounds played.
func (m *match) Turn() int { return m.round }

// MaxTurns is the round limit of the ruleset or config (rules §9).
func (m *match) MaxTurns() int { return m.maxRounds }

// Events are the last round's events in the order they happened.
func (m *match) Events() []sim.Event { return m.events }

// Result is the outcome so far (rules §9): the one player still in the
// game wins; otherwise the higher score, equal scores a draw.
func (m *match) Result() sim.Result {
	r := sim.Result{Winner: -1, Players: make([]sim.PlayerResult, numSeats)}
	for s := range numSeats {
		r.Players[s] = sim.PlayerResult{Rank: 1, Score: float64(m.score(s)), Outcome: sim.Pending}
	}
	if !m.over {
		return r
	}
	l0, l1 := m.living(0), m.living(1)
	switch {
	case l0 != l1:
		r.Winner = 0
		if l1 {
			r.Winner = 1
		}
		loser := 1 - r.Winner
		r.Reason = sim.SeatName(loser) + " has no worms left"
		if m.disqualified(loser) {
			r.Reason = sim.SeatName(loser) + " disqualified for doing nothing"
		}
	default:
		s0, s1 := m.score(0), m.score(1)
		why := "round limit"
		if !l0 {
			why = "both players out"
		}
		switch {
		case s0 > s1:
			r.Winner = 0
		case s1 > s0:
			r.Winner = 1
		}
		if r.Winner < 0 {
			r.Reason = why + ", equal scores: the game ended in a tie"
		} else {
			r.Reason = why + ", higher score"
		}
	}
	for s := range numSeats {
		switch {
		case r.Winner < 0:
			r.Players[s].Outcome = sim.Draw
		case s == r.Winner:
			r.Players[s].Outcome = sim.Win
		default:
			r.Players[s].Rank, r.Players[s].Outcome = 2, sim.Loss
		}
	}
	return r
}

// Hash digests the state in this order after the domain, round limit and
// seed: round, over, the terrain (4 bits per cell, 16 cells per word), the
// health packs (cell indices), the collision generator's six words, per
// worm (seat-major) profession, HP, x, y, frozen, bananas, snowballs and
// whether it is on the map, per player the active worm, command score,
// streak, tokens and the metric totals. Positions before a move, the
// move round and banana marks are left out: they only matter within a
// round.
func (m *match) Hash() uint64 {
	h := m.base
	h.Int(m.round)
	h.Bool(m.over)
	var word uint64
	for c := range numCells {
		word |= uint64(m.grid[c]) << (4 * (c % 16))
		if c%16 == 15 || c == numCells-1 {
			h.Uint64(word)
			word = 0
		}
	}
	for c := range numCells {
		if m.pack[c] {
			h.Int(c)
		}
	}
	h.Int(-1)
	r := &m.coin
	for _, v := range [...]uint32{r.x, r.y, r.z, r.w, r.v, r.addend} {
		h.Uint64(uint64(v))
	}
	for g := range m.worms {
		w := &m.worms[g]
		for _, v := range [...]int{int(w.prof), w.hp, w.x, w.y, w.frozen, w.bananas, w.snowballs} {
			h.Int(v)
		}
		h.Bool(m.onMapWorm(g))
	}
	for s := range m.players {
		p := &m.players[s]
		for _, v := range [...]int{p.active, p.cmdScore, p.streak, p.tokens, p.collisions, p.hits, p.kills, p.damage, p.invalid, p.dirt, p.frozen} {
			h.Int(v)
		}
	}
	return h.Sum()
}

// AppendStats appends per seat one row per worm (Unit = worm id − 1, HP
// only) and the player's row (Unit = sim.NoUnit: HP of the living worms,
// score and the totals).
func (m *match) AppendStats(dst []sim.Stat) []sim.Stat {
	n := len(Game.Metrics)
	var v []float64
	for s := range numSeats {
		for i := range wormsPerPlayer {
			w := &m.worms[s*wormsPerPlayer+i]
			dst, v = sim.AppendStat(dst, n, s, i, w.alive())
			v[metricHP] = float64(max(w.hp, 0))
		}
		p := &m.players[s]
		dst, v = sim.AppendStat(dst, n, s, sim.NoUnit, m.living(s))
		v[metricHP] = float64(m.health(s))
		v[metricScore] = float64(m.score(s))
		v[metricCollisions] = float64(p.collisions)
		v[metricHits] = float64(p.hits)
		v[metricKills] = float64(p.kills)
		v[metricDamage] = float64(p.damage)
		v[metricInvalid] = float64(p.invalid)
		v[metricDirt] = float64(p.dirt)
		v[metricFrozen] = float64(p.frozen)
	}
	return dst
}

// Point is a cell position.
type Point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Shot is one shot, banana or snowball of the round, for drawing.
type Shot struct {
	Seat int    `json:"seat"`
	Worm int    `json:"worm"` // the thrower's id, 1..3
	Kind string `json:"kind"` // shoot, banana or snowball
	From Point  `json:"from"`
	To   Point  `json:"to"` // where a shot stopped, or the throw's target
	// Result is the engine's visualizer result: HIT, BLOCKED or
	// OUT_OF_RANGE for shots; BULLSEYE, TERRAIN or DEEP_SPACE for throws.
	Result string `json:"result"`
	Hits   int    `json:"hits"` // worms damaged or frozen
}

// FrameWorm is one worm in a Frame.
type FrameWorm struct {
	ID         int    `json:"id"`     // 1..3 within its player
	Player     int    `json:"player"` // seat 0 or 1 (the engine's player 1 or 2)
	Profession string `json:"profession"`
	X          int    `json:"x"`
	Y          int    `json:"y"`
	HP         int    `json:"hp"`
	Alive      bool   `json:"alive"`
	OnMap      bool   `json:"on_map"` // false once removed after its death
	Frozen     int    `json:"frozen"` // rounds until unfrozen
	Active     bool   `json:"active"`
	Bananas    int    `json:"bananas"`
	Snowballs  int    `json:"snowballs"`
}

// FramePlayer is one player's standing in a Frame.
type FramePlayer struct {
	Score        int    `json:"score"`
	CommandScore int    `json:"command_score"`
	Health       int    `json:"health"`
	ActiveWorm   int    `json:"active_worm"`
	Tokens       int    `json:"select_tokens"`
	Streak       int    `json:"do_nothing_streak"`
	Disqualified bool   `json:"disqualified"`
	Command      string `json:"command"`  // the raw text played this round
	Feedback     string `json:"feedback"` // what the engine made of it
}

// Frame is the inspector's snapshot after a round.
type Frame struct {
	Round     int    `json:"round"`
	MaxRounds int    `json:"max_rounds"`
	Ruleset   string `json:"ruleset"`
	// Map is the terrain, one string per row (y), one byte per cell:
	// '.' air, '#' dirt, ' ' deep space, '~' lava.
	Map [mapSize]string `json:"map"`
	// LavaRadius is the safe radius around (16,16) outside which air has
	// turned to lava; 0 before the lava starts.
	LavaRadius float64       `json:"lava_radius"`
	Packs      []Point       `json:"health_packs"`
	Worms      []FrameWorm   `json:"worms"`
	Players    []FramePlayer `json:"players"`
	Shots      []Shot        `json:"shots"`
}

var terrainBytes = [...]byte{air: '.', dirt: '#', deepSpace: ' ', lava: '~'}

// Frame returns a *Frame.
func (m *match) Frame() any {
	f := &Frame{Round: m.round, MaxRounds: m.maxRounds, Ruleset: m.rules.name, LavaRadius: m.safe,
		Packs: []Point{}, Shots: append([]Shot{}, m.shots...)}
	var row [mapSize]byte
	for y := range mapSize {
		for x := range mapSize {
			row[x] = terrainBytes[m.grid[y*mapSize+x]]
			if m.pack[y*mapSize+x] {
				f.Packs = append(f.Packs, Point{x, y})
			}
		}
		f.Map[y] = string(row[:])
	}
	for g := range m.worms {
		w := &m.worms[g]
		s, i := g/wormsPerPlayer, g%wormsPerPlayer
		f.Worms = append(f.Worms, FrameWorm{ID: i + 1, Player: s, Profession: w.prof.String(), X: w.x, Y: w.y,
			HP: w.hp, Alive: w.alive(), OnMap: m.onMapWorm(g), Frozen: w.frozen, Active: m.players[s].active == i,
			Bananas: w.bananas, Snowballs: w.snowballs})
	}
	for s := range m.players {
		p := &m.players[s]
		f.Players = append(f.Players, FramePlayer{Score: m.score(s), CommandScore: p.cmdScore, Health: m.health(s),
			ActiveWorm: p.active + 1, Tokens: p.tokens, Streak: p.streak, Disqualified: m.disqualified(s),
			Command: m.cmds[s], Feedback: m.previousCommand(s)})
	}
	return f
}

// previousCommand is the engine's feedback text for seat s's last round:
// "move 20 9", "shoot N", "invalid", "nothing", "select 2; shoot N"...
func (m *match) previousCommand(s int) string {
	if m.round == 0 {
		return "nothing"
	}
	l := &m.players[s].last
	var b strings.Builder
	switch {
	case l.sel > 0:
		b.WriteString("select " + strconv.Itoa(l.sel) + "; ")
	case l.sel < 0:
		b.WriteString("invalid; ")
	}
	c := l.act
	switch {
	case l.outcome == outcomeInvalid:
		b.WriteString("invalid")
	case l.outcome == outcomeFrozen:
		b.WriteString("nothing \"Frozen worms cannot follow your commands\"")
	case c.kind == cmdMove, c.kind == cmdDig, c.kind == cmdBanana, c.kind == cmdSnowball:
		b.WriteString(kindWords[c.kind] + " " + strconv.Itoa(c.x) + " " + strconv.Itoa(c.y))
	case c.kind == cmdShoot:
		b.WriteString("shoot " + directions[c.dir].name)
	default:
		b.WriteString("nothing")
	}
	return b.String()
}

var kindWords = [...]string{cmdMove: "move", cmdDig: "dig", cmdBanana: "banana", cmdSnowball: "snowball"}

// Render draws the map as the engine's text map does, two characters a
// cell (rules §11: deep space ██, dirt ▓▓, air ░░, lava XX, health pack ╠╣
// over a worm over terrain, a worm as <player><id>), then a status line
// per player.
func (m *match) Render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "round %d/%d (%s)\n", m.round, m.maxRounds, m.rules.name)
	for y := range mapSize {
		for x := range mapSize {
			c := y*mapSize + x
			switch {
			case m.pack[c]:
				b.WriteString("╠╣")
			case m.occ[c] != 0:
				g := int(m.occ[c]) - 1
				b.WriteByte(byte('1' + g/wormsPerPlayer))
				b.WriteByte(byte('1' + g%wormsPerPlayer))
			default:
				b.WriteString([...]string{air: "░░", dirt: "▓▓", deepSpace: "██", lava: "XX"}[m.grid[c]])
			}
		}
		b.WriteByte('\n')
	}
	for s := range numSeats {
		p := &m.players[s]
		fmt.Fprintf(&b, "%s: score %d health %d %s active, streak %d", sim.SeatName(s), m.score(s), m.health(s), wormNames[s*wormsPerPlayer+p.active], p.streak)
		if m.rules.final {
			fmt.Fprintf(&b, " tokens %d", p.tokens)
		}
		for i := range wormsPerPlayer {
			w := &m.worms[s*wormsPerPlayer+i]
			fmt.Fprintf(&b, " | %d%d %s %d hp (%d,%d)", s+1, i+1, w.prof, w.hp, w.x, w.y)
			if w.frozen > 0 {
				fmt.Fprintf(&b, " frozen %d", w.frozen)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
