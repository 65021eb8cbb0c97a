package foodfight

import (
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// View is what a player's controller is given before each turn: the field
// as the original engine hands it to a JavaController (A.14's state
// format), the player's own team letter and digit.
type View struct {
	Team   string    `json:"team"`
	Player string    `json:"player"`
	Field  FieldView `json:"field"`
}

// viewDoc explains View to bot authors, with the numbers of the rules'
// constants and scoring table.
var viewDoc = sim.ViewDoc{Fields: []sim.ViewField{
	{Path: "team", Meaning: "The bot's team letter (a random capital, different for each team)."},
	{Path: "player", Meaning: "The bot's player digit (random, different for each player of the match)."},
	{Path: "field", Meaning: fmt.Sprintf("The field before this turn, as the original's trace.json shows it: %g wide (x) by %g deep (y), origin at the bottom-left corner, y up. Angles are radians counter-clockwise from east (north is π/2).", fieldWidth, fieldDepth)},
	{Path: "field.turnNumber", Meaning: fmt.Sprintf("The turn about to be played, 1 to %d.", totalTurns)},
	{Path: "field.type", Meaning: "The match type: DUEL (two teams of one), FREE_FOR_ALL (three teams of one) or TEAM (two teams of two)."},
	{Path: "field.teams", Meaning: "Every team, the bot's included, in the order they were set up."},
	{Path: "field.teams[]", Meaning: "A team."},
	{Path: "field.teams[].symbol", Meaning: "The team's letter (see team)."},
	{Path: "field.teams[].players", Meaning: "The team's players."},
	{Path: "field.teams[].players[]", Meaning: fmt.Sprintf("A player: a cylinder of radius %g.", playerRadius)},
	{Path: "field.teams[].players[].symbol", Meaning: "The player's digit (see player)."},
	{Path: "field.teams[].players[].location", Meaning: "Where the player stands: [x, y]."},
	{Path: "field.teams[].players[].location[]", Meaning: "x, then y."},
	{Path: "field.teams[].players[].height", Meaning: fmt.Sprintf("%g standing, down to %g ducking (0 before the first turn, a quirk of the original). Flying food no higher than this hits the player.", playerHeight, minHeight)},
	{Path: "field.teams[].players[].heading", Meaning: "Where the player faces, radians counter-clockwise from east, 0 to 2π."},
	{Path: "field.teams[].players[].inventory", Meaning: "What the player holds."},
	{Path: "field.teams[].players[].inventory.left", Meaning: "The food type in its left hand; absent when the hand is empty."},
	{Path: "field.teams[].players[].inventory.right", Meaning: "The food type in its right hand; absent when the hand is empty."},
	{Path: "field.teams[].players[].energy", Meaning: fmt.Sprintf("Energy, 0 to %g: moves are faster with more. Every action but duck and eat costs %g, a hit costs its damage, eating gives the food's energy.", maxEnergy, energyCost)},
	{Path: "field.teams[].table", Meaning: fmt.Sprintf("The team's table: a %g×%g square. Food that flies onto it stays there and scores for its team every turn.", 2*tableRadius, 2*tableRadius)},
	{Path: "field.teams[].table.location", Meaning: "The table's centre: [x, y]."},
	{Path: "field.teams[].table.location[]", Meaning: "x, then y."},
	{Path: "field.teams[].table.food", Meaning: "The food types on the table."},
	{Path: "field.teams[].table.food[]", Meaning: "A food type (see field.food[].type)."},
	{Path: "field.teams[].score", Meaning: "How often each scoring event happened to the team (a count, not points); an event that never happened is absent."},
	scoreField("firstMove", firstMove, "1 once a player of the team has moved"),
	scoreField("firstPickup", firstPickup, "1 once a player of the team has picked up food"),
	scoreField("firstThrow", firstThrow, "1 once a player of the team has thrown food"),
	scoreField("firstEat", firstEat, "1 once a player of the team has eaten"),
	scoreField("firstPlayerCollision", firstPlayerCollision, "1 once a player of the team has collided with another player"),
	scoreField("firstFoodCollision", firstFoodCollision, "1 once a player of the team has been hit by food"),
	scoreField("everyEat", everyEat, "Eats by the team's players"),
	scoreField("foodOnTable", foodOnTable, "Food types on the team's table, added up over the turns"),
	scoreField("everyPlayerCollision", everyPlayerCollision, "Collisions between players, once for each of the team's players in them"),
	scoreField("everyFoodCollision", everyFoodCollision, "Hits by food on the team's players"),
	scoreField("tieBreak", tieBreak, "Tie-break points after the last turn; no bot sees them, the match being over"),
	{Path: "field.teams[].points", Meaning: "The team's points: the sum over score of count × points."},
	{Path: "field.food", Meaning: fmt.Sprintf("The food on the ground and in the air (at most %d pieces in play, one of each type; food in hands and on tables is not here).", maxFood)},
	{Path: "field.food[]", Meaning: "A piece of food."},
	{Path: "field.food[].type", Meaning: "Its type: " + kindList() + "."},
	{Path: "field.food[].location", Meaning: "Its centre: [x, y]."},
	{Path: "field.food[].location[]", Meaning: "x, then y."},
	{Path: "field.food[].height", Meaning: "0 on the ground; above 0 it flies along heading, falling."},
	{Path: "field.food[].heading", Meaning: "Its direction of flight, radians counter-clockwise from east."},
	{Path: "field.collisions", Meaning: "The collisions of the turn before: between players, or food hitting a player."},
	{Path: "field.collisions[]", Meaning: "A collision."},
	{Path: "field.collisions[].location", Meaning: "Where it happened: [x, y]. Every player is knocked away from it."},
	{Path: "field.collisions[].location[]", Meaning: "x, then y."},
	{Path: "field.collisions[].damage", Meaning: "Energy it took from each player it hit."},
}}

// scoreField documents the count of scoring event e in a team's score.
func scoreField(name string, e event, count string) sim.ViewField {
	each := " each"
	if eventOnce[e] {
		each = ""
	}
	return sim.ViewField{Path: "field.teams[].score." + name, Meaning: fmt.Sprintf("%s (worth %+d%s).", count, eventPoints[e], each)}
}

// kindList names the food types.
func kindList() string {
	names := make([]string, numKinds)
	for k := range kind(numKinds) {
		names[k] = k.String()
	}
	return strings.Join(names, ", ")
}

// FieldView is the field before a turn, in the original trace's shape.
type FieldView struct {
	// TurnNumber is the turn about to be played, 1 to 2000.
	TurnNumber int             `json:"turnNumber"`
	Type       string          `json:"type"`
	Teams      []TeamView      `json:"teams"`
	Food       []FoodView      `json:"food"`
	Collisions []CollisionView `json:"collisions"`
}

// TeamView is a team with its players, table and score counts.
type TeamView struct {
	Symbol  string       `json:"symbol"`
	Players []PlayerView `json:"players"`
	Table   TableView    `json:"table"`
	Score   Score        `json:"score"`
	// Points is the team's total score (the original's Score.getTotalPoints).
	Points int `json:"points"`
}

// PlayerView is one player. Heading is in radians counter-clockwise from
// east; Height is 200 standing, down to 100 ducking.
type PlayerView struct {
	Symbol    string     `json:"symbol"`
	Location  [2]float64 `json:"location"`
	Height    float64    `json:"height"`
	Heading   float64    `json:"heading"`
	Inventory Inventory  `json:"inventory"`
	Energy    float64    `json:"energy"`
}

// Inventory is what a player holds in each hand ("" for nothing).
type Inventory struct {
	Left  string `json:"left,omitempty"`
	Right string `json:"right,omitempty"`
}

// TableView is a table's centre and the types on it.
type TableView struct {
	Location [2]float64 `json:"location"`
	Food     []string   `json:"food"`
}

// FoodView is a piece of food on the field (height 0 on the ground).
type FoodView struct {
	Type     string     `json:"type"`
	Location [2]float64 `json:"location"`
	Height   float64    `json:"height"`
	Heading  float64    `json:"heading"`
}

// CollisionView is a collision of the turn before.
type CollisionView struct {
	Location [2]float64 `json:"location"`
	Damage   float64    `json:"damage"`
}

// Score holds a team's count of each scoring event (A.9), under the
// original's JSON names.
type Score struct {
	FirstMove            int `json:"firstMove,omitempty"`
	FirstPickup          int `json:"firstPickup,omitempty"`
	FirstThrow           int `json:"firstThrow,omitempty"`
	FirstEat             int `json:"firstEat,omitempty"`
	FirstPlayerCollision int `json:"firstPlayerCollision,omitempty"`
	FirstFoodCollision   int `json:"firstFoodCollision,omitempty"`
	EveryEat             int `json:"everyEat,omitempty"`
	FoodOnTable          int `json:"foodOnTable,omitempty"`
	EveryPlayerCollision int `json:"everyPlayerCollision,omitempty"`
	EveryFoodCollision   int `json:"everyFoodCollision,omitempty"`
	TieBreak             int `json:"tieBreak,omitempty"`
}

func scoreOf(c *[numEvents]int) Score {
	return Score{c[firstMove], c[firstPickup], c[firstThrow], c[firstEat], c[firstPlayerCollision],
		c[firstFoodCollision], c[everyEat], c[foodOnTable], c[everyPlayerCollision], c[everyFoodCollision], c[tieBreak]}
}

func xy(v vec) [2]float64 { return [2]float64{v.x, v.y} }

// tableTypes lists the types on a table in the food table's order.
func tableTypes(set uint8) []string {
	out := make([]string, 0, bits.OnesCount8(set))
	for k := range kind(numKinds) {
		if set&(1<<k) != 0 {
			out = append(out, k.String())
		}
	}
	return out
}

// field builds the field snapshot of A.14.
func (m *match) field() FieldView {
	f := FieldView{TurnNumber: m.turn + 1, Type: m.mtype.name, Teams: make([]TeamView, 0, len(m.teams)),
		Food: make([]FoodView, len(m.food)), Collisions: make([]CollisionView, len(m.collisions))}
	for ti := range m.teams {
		t := &m.teams[ti]
		tv := TeamView{Symbol: string(t.symbol), Players: make([]PlayerView, 0, len(t.seats)),
			Table: TableView{Location: xy(t.table), Food: tableTypes(t.tableFood)}, Score: scoreOf(&t.counts), Points: t.points()}
		for _, s := range t.seats {
			p := &m.players[s]
			tv.Players = append(tv.Players, PlayerView{Symbol: string(p.symbol), Location: xy(p.loc), Height: p.height, Heading: p.heading,
				Inventory: Inventory{Left: p.hands[0].String(), Right: p.hands[1].String()}, Energy: p.energy})
		}
		f.Teams = append(f.Teams, tv)
	}
	for i, fd := range m.food {
		f.Food[i] = FoodView{Type: fd.kind.String(), Location: xy(fd.loc), Height: fd.height, Heading: fd.heading}
	}
	for i, c := range m.collisions {
		f.Collisions[i] = CollisionView{Location: xy(c.loc), Damage: c.damage}
	}
	return f
}

// View returns the controller's view for seat. Every seat's view of a
// turn shares one field, built for the first of them.
func (m *match) View(seat int) any {
	if m.view == nil || m.viewTurn != m.turn {
		f := m.field()
		m.view, m.viewTurn = &f, m.turn
	}
	p := &m.players[seat]
	return &View{Team: string(m.teams[p.team].symbol), Player: string(p.symbol), Field: *m.view}
}

// Peek returns the view of seat lent until the match's next Step: the
// match itself, which a built-in bot reads without building the field. It
// encodes as View's.
func (m *match) Peek(seat int) any { return lentView{m, seat} }

// lentView is a view Peek lent.
type lentView struct {
	m    *match
	seat int
}

// MarshalJSON writes the View of the seat.
func (v lentView) MarshalJSON() ([]byte, error) { return json.Marshal(v.m.View(v.seat)) }

// Frame is the inspector's state after a turn: the field, what each player
// did and what the collisions were.
type Frame struct {
	Turn       int              `json:"turn"`
	Type       string           `json:"type"`
	Width      float64          `json:"width"`
	Depth      float64          `json:"depth"`
	Teams      []FrameTeam      `json:"teams"`
	Players    []FramePlayer    `json:"players"`
	Food       []FrameFood      `json:"food"`
	Collisions []FrameCollision `json:"collisions"`
}

// FrameTeam is a team: letter, seats, table and score.
type FrameTeam struct {
	Symbol string    `json:"symbol"`
	Seats  []int     `json:"seats"`
	Table  TableView `json:"table"`
	Points int       `json:"points"`
	Score  Score     `json:"score"`
}

// FramePlayer is a player after the turn, with the action it asked for.
type FramePlayer struct {
	Seat     int        `json:"seat"`
	Team     int        `json:"team"`
	Label    string     `json:"label"`
	Location [2]float64 `json:"location"`
	Height   float64    `json:"height"`
	Heading  float64    `json:"heading"`
	Energy   float64    `json:"energy"`
	Left     string     `json:"left,omitempty"`
	Right    string     `json:"right,omitempty"`
	// Action is the action asked for ("null" for none); Valid is false
	// when it was refused and played as no action.
	Action string  `json:"action"`
	Valid  bool    `json:"valid"`
	Damage float64 `json:"damage"`
}

// FrameFood is a piece of food; Air is true while it flies.
type FrameFood struct {
	Type     string     `json:"type"`
	Radius   float64    `json:"radius"`
	Location [2]float64 `json:"location"`
	Height   float64    `json:"height"`
	Heading  float64    `json:"heading"`
	Air      bool       `json:"air"`
}

// FrameCollision is a collision of the turn: two players, or food (Food
// names the type) hitting one.
type FrameCollision struct {
	Location [2]float64 `json:"location"`
	Damage   float64    `json:"damage"`
	Kind     string     `json:"kind"` // "player" or "food"
	Food     string     `json:"food,omitempty"`
	Players  []int      `json:"players"`
}

// Frame returns the inspector's frame of the current state.
func (m *match) Frame() any {
	f := &Frame{Turn: m.turn, Type: m.mtype.name, Width: fieldWidth, Depth: fieldDepth}
	for ti := range m.teams {
		t := &m.teams[ti]
		f.Teams = append(f.Teams, FrameTeam{Symbol: string(t.symbol), Seats: t.seats, Table: TableView{Location: xy(t.table), Food: tableTypes(t.tableFood)}, Points: t.points(), Score: scoreOf(&t.counts)})
	}
	for i := range m.players {
		p := &m.players[i]
		f.Players = append(f.Players, FramePlayer{Seat: i, Team: p.team, Label: m.label(i), Location: xy(p.loc), Height: p.height, Heading: p.heading,
			Energy: p.energy, Left: p.hands[0].String(), Right: p.hands[1].String(), Action: p.action.String(), Valid: p.valid, Damage: p.damage})
	}
	f.Food = make([]FrameFood, len(m.food))
	for i, fd := range m.food {
		f.Food[i] = FrameFood{Type: fd.kind.String(), Radius: fd.kind.radius(), Location: xy(fd.loc), Height: fd.height, Heading: fd.heading, Air: fd.height > 0}
	}
	f.Collisions = make([]FrameCollision, len(m.collisions))
	for i, c := range m.collisions {
		fc := FrameCollision{Location: xy(c.loc), Damage: c.damage, Kind: "player", Players: []int{c.a, c.b}}
		if c.kind != none {
			fc.Kind, fc.Food, fc.Players = "food", c.kind.String(), []int{c.a}
		}
		f.Collisions[i] = fc
	}
	return f
}

// AppendStats appends one row per seat with the metrics of Game.Metrics.
func (m *match) AppendStats(dst []sim.Stat) []sim.Stat {
	centre := vec{fieldWidth / 2, fieldDepth / 2}
	for i := range m.players {
		p := &m.players[i]
		t := &m.teams[p.team]
		var v []float64
		dst, v = sim.AppendStat(dst, numMetrics, i, sim.NoUnit, true)
		v[metricEnergy] = p.energy
		v[metricScore] = float64(t.points())
		v[metricCollisions] = float64(p.playerHits + p.foodHits)
		v[metricFoodHits] = float64(p.foodHits)
		v[metricPlayerCollisions] = float64(p.playerHits)
		v[metricDamage] = p.damageTaken
		v[metricThrows] = float64(p.throws)
		v[metricEats] = float64(p.eats)
		v[metricPickups] = float64(p.pickups)
		v[metricInvalid] = float64(p.invalid)
		v[metricTableFood] = float64(bits.OnesCount8(t.tableFood))
		v[metricTablePoints] = float64(t.counts[foodOnTable] * eventPoints[foodOnTable])
		v[metricEatPoints] = float64(t.counts[firstEat]*eventPoints[firstEat] + t.counts[everyEat]*eventPoints[everyEat])
		v[metricCollisionPenalty] = float64(-(t.counts[firstPlayerCollision]*eventPoints[firstPlayerCollision] + t.counts[everyPlayerCollision]*eventPoints[everyPlayerCollision] +
			t.counts[firstFoodCollision]*eventPoints[firstFoodCollision] + t.counts[everyFoodCollision]*eventPoints[everyFoodCollision]))
		v[metricCentreDistance] = p.loc.sub(centre).length()
		v[metricMoved] = p.moved
		v[metricDucking] = float64(p.ducking)
		held := 0
		for _, k := range p.hands {
			if k != none {
				held++
			}
		}
		v[metricHeld] = float64(held)
		v[metricHitsGiven] = float64(p.hitsGiven)
	}
	return dst
}

// Over reports whether all 2000 turns have been played.
func (m *match) Over() bool { return m.over }

// Turn is the number of turns played.
func (m *match) Turn() int { return m.turn }

// MaxTurns is the match length, 2000 turns.
func (m *match) MaxTurns() int { return totalTurns }

// Events are what happened during the last turn.
func (m *match) Events() []sim.Event { return m.events }

// Result ranks the seats by their team's points (A.11): the top team's seats
// win, the others lose; before the end a tie at the top is a draw.
func (m *match) Result() sim.Result {
	r := sim.Result{Winner: -1, Players: make([]sim.PlayerResult, len(m.players))}
	points := make([]int, len(m.teams))
	for ti := range m.teams {
		points[ti] = m.teams[ti].points()
	}
	best, top := math.MinInt, 0
	for _, p := range points {
		if p > best {
			best, top = p, 0
		}
		if p == best {
			top++
		}
	}
	for i := range m.players {
		tp := points[m.players[i].team]
		rank := 1
		for _, p := range points {
			if p > tp {
				rank++
			}
		}
		// Every match type's sides are its teams; a team of one is a seat
		// alone.
		pr := sim.PlayerResult{Rank: rank, Score: float64(tp), Team: m.players[i].team + 1}
		if m.over {
			switch {
			case tp == best && top == 1:
				pr.Outcome = sim.Win
				if r.Winner < 0 {
					r.Winner = i
				}
			case tp == best:
				pr.Outcome = sim.Draw
			default:
				pr.Outcome = sim.Loss
			}
		}
		r.Players[i] = pr
	}
	if m.over {
		r.Reason = "most points after 2000 turns"
		if m.tieBroken {
			r.Reason = "most points after 2000 turns and the tie-break"
		}
	}
	return r
}

// Hash digests the full state: every float by its bits, in seat, team,
// food and collision order.
func (m *match) Hash() uint64 {
	h := sim.NewHasher("foodfight/" + m.mtype.name)
	f := func(x float64) { h.Uint64(math.Float64bits(x)) }
	h.Int(m.turn)
	h.Bool(m.over)
	h.Bool(m.cfg.FixedBounce)
	h.Bool(m.cfg.FixedSpawnBands)
	h.Bool(m.tieBroken)
	for i := range m.players {
		p := &m.players[i]
		h.Int(int(p.symbol))
		h.Int(p.team)
		f(p.loc.x)
		f(p.loc.y)
		f(p.height)
		f(p.heading)
		f(p.energy)
		h.Int(int(p.hands[0]))
		h.Int(int(p.hands[1]))
		h.Int(int(p.action))
		h.Bool(p.valid)
		f(p.damage)
		for _, n := range [...]int{p.pickups, p.throws, p.eats, p.invalid, p.playerHits, p.foodHits, p.hitsGiven, p.ducking} {
			h.Int(n)
		}
		f(p.damageTaken)
		f(p.moved)
	}
	for ti := range m.teams {
		t := &m.teams[ti]
		h.Int(int(t.symbol))
		f(t.table.x)
		f(t.table.y)
		h.Int(int(t.tableFood))
		for _, n := range t.counts {
			h.Int(n)
		}
	}
	h.Int(len(m.food))
	for _, fd := range m.food {
		h.Int(int(fd.kind))
		f(fd.loc.x)
		f(fd.loc.y)
		f(fd.height)
		f(fd.heading)
		h.Int(fd.thrower)
	}
	h.Int(len(m.collisions))
	for _, c := range m.collisions {
		f(c.loc.x)
		f(c.loc.y)
		f(c.damage)
		h.Int(int(c.kind))
		h.Int(c.a)
		h.Int(c.b)
	}
	return h.Sum()
}

// Render draws the state as text for `replaylab inspect`: a line per team
// and per player, then the food.
func (m *match) Render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "turn %d/%d %s\n", m.turn, totalTurns, m.mtype.name)
	for ti := range m.teams {
		t := &m.teams[ti]
		fmt.Fprintf(&b, "team %c  %5d points  table (%4.0f,%4.0f) %s\n", t.symbol, t.points(), t.table.x, t.table.y, strings.Join(tableTypes(t.tableFood), " "))
	}
	for i := range m.players {
		p := &m.players[i]
		fmt.Fprintf(&b, "%s  (%6.1f,%6.1f) heading %5.1f° height %3.0f energy %5.1f  left %-9s right %-9s %s\n",
			m.label(i), p.loc.x, p.loc.y, p.heading*180/math.Pi, p.height, p.energy, or(p.hands[0].String(), "-"), or(p.hands[1].String(), "-"), p.action)
	}
	food := make([]string, len(m.food))
	for i, f := range m.food {
		food[i] = fmt.Sprintf("%s (%.0f,%.0f) h%.0f", f.kind, f.loc.x, f.loc.y, f.height)
	}
	sort.Strings(food)
	fmt.Fprintf(&b, "food: %s\n", strings.Join(food, ", "))
	return b.String()
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// Alternatives lists the actions the engine would not refuse the seat's
// player now (see refusal); turns and ducks are always among them.
func (m *match) Alternatives(seat int) []string {
	var out []string
	for a := range numActions {
		if m.refusal(&m.players[seat], a) == allowed {
			out = append(out, actionNames[a])
		}
	}
	return out
}
