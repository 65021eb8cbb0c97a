package foodfight

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// The built-in bots read only the View (through sim.ReadView), as an
// external controller reads its JSON, so a copy of them outside replaylab
// plays the same actions. They judge an action on the field they were shown
// with the engine's own rules, as the original's sample players ask
// PlayerUtils.isValidAction about their snapshot: an action can still turn
// out invalid when a player earlier in the turn's order takes the food.

// botField is the field a bot was shown, read back into the engine's types
// so the bot tests actions with the engine's refusal and geometry.
type botField struct {
	m    match
	self int // the bot's own index in m.players
	turn int // the turn about to be played, 1 to 2000
}

// maxViewPlayers bounds the players (and teams) of a view a bot accepts:
// the largest match has four.
const maxViewPlayers = 4

// read loads a view; false when it does not decode, is larger than any
// match, names an unknown food type or does not hold the bot's own player.
func (f *botField) read(view any) bool {
	if lv, ok := view.(lentView); ok {
		f.lend(lv)
		return true
	}
	v, ok := sim.ReadView[View](view)
	if !ok || len(v.Field.Teams) > maxViewPlayers || len(v.Field.Food) > numKinds {
		return false
	}
	m := &f.m
	m.players, m.teams, m.food = m.players[:0], m.teams[:0], m.food[:0]
	f.self, f.turn = -1, v.Field.TurnNumber
	for ti, tv := range v.Field.Teams {
		if len(tv.Symbol) != 1 || len(tv.Table.Food) > numKinds {
			return false
		}
		t := team{symbol: tv.Symbol[0], table: vec{tv.Table.Location[0], tv.Table.Location[1]}}
		t.counts[firstEat] = tv.Score.FirstEat
		for _, name := range tv.Table.Food {
			k, ok := parseKind(name)
			if !ok {
				return false
			}
			t.tableFood |= 1 << k
		}
		for _, pv := range tv.Players {
			left, okL := parseHand(pv.Inventory.Left)
			right, okR := parseHand(pv.Inventory.Right)
			if len(pv.Symbol) != 1 || len(m.players) == maxViewPlayers || !okL || !okR {
				return false
			}
			if tv.Symbol == v.Team && pv.Symbol == v.Player {
				f.self = len(m.players)
			}
			t.seats = append(t.seats, len(m.players))
			m.players = append(m.players, player{symbol: pv.Symbol[0], team: ti, loc: vec{pv.Location[0], pv.Location[1]},
				height: pv.Height, heading: pv.Heading, energy: pv.Energy, hands: [2]kind{left, right}})
		}
		m.teams = append(m.teams, t)
	}
	for _, fv := range v.Field.Food {
		k, ok := parseKind(fv.Type)
		if !ok {
			return false
		}
		m.food = append(m.food, food{kind: k, loc: vec{fv.Location[0], fv.Location[1]}, height: fv.Height, heading: fv.Heading, thrower: -1})
	}
	return f.self >= 0
}

// lend loads a lent view as read loads its View: only what the view shows,
// the players in the view's order.
func (f *botField) lend(v lentView) {
	m, src := &f.m, v.m
	m.players, m.teams, m.food = m.players[:0], m.teams[:0], m.food[:0]
	f.self, f.turn = -1, src.turn+1
	for ti := range src.teams {
		st := &src.teams[ti]
		var seats []int // the last read's seats of team ti, for their storage
		if ti < cap(m.teams) {
			seats = m.teams[:ti+1][ti].seats[:0]
		}
		t := team{symbol: st.symbol, seats: seats, table: st.table, tableFood: st.tableFood}
		t.counts[firstEat] = st.counts[firstEat]
		for _, s := range st.seats {
			p := &src.players[s]
			if s == v.seat {
				f.self = len(m.players)
			}
			t.seats = append(t.seats, len(m.players))
			m.players = append(m.players, player{symbol: p.symbol, team: ti, loc: p.loc,
				height: p.height, heading: p.heading, energy: p.energy, hands: p.hands})
		}
		m.teams = append(m.teams, t)
	}
	for _, fd := range src.food {
		m.food = append(m.food, food{kind: fd.kind, loc: fd.loc, height: fd.height, heading: fd.heading, thrower: -1})
	}
}

// parseKind reads a food type's JSON name.
func parseKind(name string) (kind, bool) {
	for k := range kind(numKinds) {
		if kinds[k].name == name {
			return k, true
		}
	}
	return none, false
}

// parseHand reads what a hand holds: a food type, or "" for nothing.
func parseHand(name string) (kind, bool) {
	if name == "" {
		return none, true
	}
	return parseKind(name)
}

// me is the bot's own player.
func (f *botField) me() *player { return &f.m.players[f.self] }

// valid reports whether the engine would play action a now.
func (f *botField) valid(a action) bool { return f.m.refusal(f.me(), a) == allowed }

func newDummy(sim.Setup, int, uint64) (sim.Bot, error) { return dummyBot{}, nil }

// dummyBot never acts, like the original's DummyController.
type dummyBot struct{}

func (dummyBot) Act(any) string { return "" }

func newRandom(_ sim.Setup, _ int, seed uint64) (sim.Bot, error) {
	return &randomBot{r: rng.New(seed)}, nil
}

// randomBot plays a uniformly random valid action, as the original's
// RandomController does by shuffling the actions and playing the first
// valid one.
type randomBot struct {
	r *rng.Rand
	f botField
}

func (b *randomBot) Act(view any) string {
	if !b.f.read(view) {
		return ""
	}
	var valid [numActions]action
	n := 0
	for a := range numActions {
		if b.f.valid(a) {
			valid[n] = a
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return valid[b.r.IntN(n)].String()
}

func newHider(sim.Setup, int, uint64) (sim.Bot, error) { return &hiderBot{}, nil }

// hiderBot walks straight ahead until a wall or a table stops it, then
// ducks there, as the original's HidingController does.
type hiderBot struct{ f botField }

func (b *hiderBot) Act(view any) string {
	if !b.f.read(view) {
		return ""
	}
	if b.f.valid(moveForward) {
		return moveForward.String()
	}
	return duck.String()
}

func newWalls(_ sim.Setup, _ int, seed uint64) (sim.Bot, error) {
	r := rng.New(seed)
	return &wallsBot{r: r, left: r.IntN(2) == 0}, nil
}

// wallsBot follows the walls as the original's WallsController does: it
// picks up whatever it can reach, throws with a chance of 1 in 100 a turn,
// walks ahead while it can and otherwise turns, always to the same side.
type wallsBot struct {
	r    *rng.Rand
	left bool // turns left, not right
	f    botField
}

// wallsThrowRate is the WallsController's chance of a throw each turn.
const wallsThrowRate = 0.01

func (b *wallsBot) Act(view any) string {
	if !b.f.read(view) {
		return ""
	}
	for _, a := range [...]action{pickupLeft, pickupRight} {
		if b.f.valid(a) {
			return a.String()
		}
	}
	if b.r.Float64() < wallsThrowRate {
		for _, a := range [...]action{throwLeft, throwRight} {
			if b.f.valid(a) {
				return a.String()
			}
		}
	}
	if b.f.valid(moveForward) {
		return moveForward.String()
	}
	if b.left {
		return turnLeft.String()
	}
	return turnRight.String()
}

func newThrower(sim.Setup, int, uint64) (sim.Bot, error) { return &throwerBot{}, nil }

// throwerBot plays to score. In order of precedence each turn, it steps or
// ducks out of the way of flying food; eats when its energy runs low or
// when eating is worth more than the turns the piece would score on the
// table; picks up food in reach (or from an opponent's table it stands
// against); throws at an opponent it would surely hit, if the opponent is
// worth a piece (a hit costs the victim's team 500): one moving near its
// table, where it may steal, an easy hit, or any late in the match; steps
// away from a player about to touch it (collisions cost points); throws
// held food onto its own table (+1 a turn per type there, the biggest
// source of points); and walks to the nearest food, round tables and
// players. It predicts food as flying straight at its median speed and
// falling at its mean rate, and players as keeping their recent velocity.
// Idle, it ducks, out of reach of food thrown from close by.
type throwerBot struct {
	f    botField
	prev []vec // each player's location last turn, in view order
	vel  []vec // each player's smoothed velocity per turn
	// chase is the food type it walks to and since when; skip holds, per
	// type, the turn until which it gives up a type it could not reach.
	chase                 kind
	chaseSince, chaseLast int
	skip                  [numKinds]int
	// waited counts the turns it waited for a player to leave its line of
	// throw; until walkUntil it walks instead of aiming at its table.
	waited, walkUntil int
	// aim is the opponent it turns to throw at, until aimUntil.
	aim, aimUntil int
	near          []piece // fetch's ground food, kept for its storage
	// why is the index in throwerChoices of what chose the last action
	// (ducked: none did; noChoice: the view was not read), and target the
	// player an attack aimed at (Drawing).
	why, target int
	sketch      sim.Sketch
}

// Values of throwerBot.why besides an index in throwerChoices.
const (
	ducked   = -1
	noChoice = -2
)

// throwerChoices name the thrower's choosers, in their order in Act.
var throwerChoices = [...]string{"dodge", "eat", "pick up", "attack", "give way", "stock", "fetch"}

// piece is a piece of food, by index, and its distance from the bot.
type piece struct {
	i    int
	dist float64
}

// The thrower's judgement, in pixels, turns and radians.
const (
	maxFlight   = 70    // turns a prediction follows a piece (it lands in about 66)
	maxStep     = 15    // a larger move in one turn is knockback, not a step
	stockRange  = 900   // farthest it throws at its own table
	avoidMargin = 15    // how wide it passes other players with its throws
	sureMargin  = -20   // how deep into a target its aim must go
	dodgeMargin = 15    // how wide it wants flying food to pass it
	duckMargin  = 5     // how far under flying food it wants to duck
	dodgeWithin = 30    // turns ahead it starts dodging
	clearance   = 2     // room it keeps from a player standing still
	lowEnergy   = 30    // energy below which it eats
	chaseLimit  = 300   // turns it walks to one piece before giving it up
	aimTol      = 0.025 // heading error it accepts before throwing
	walkTol     = 0.3   // heading error it walks with
	cornerGap   = 200   // distance from a table's centre of the corners it walks round
	arriveGap   = 60    // how near a corner it walks before heading on
	blockHalf   = 155   // half side of the square round a table it keeps its centre out of
	sideOffset  = 55    // how far to the side it passes food it picks up
)

// mean is the mean of a "μ ± σ" quantity: μ·exp((σ/μ)²/2).
func (s scalar) mean() float64 {
	r := s.sigma / s.mu
	return float64(s.mu * rng.Exp(float64(r*r)/2))
}

// meanFall is how far flying food falls in a turn on average.
var meanFall = fallSpeed.mean()

// scale is the vector times k.
func (a vec) scale(k float64) vec { return vec{float64(a.x * k), float64(a.y * k)} }

// armOffset is the arm's angle from the heading for hand (0 left).
func armOffset(hand int) float64 {
	if hand == 0 {
		return armAngle
	}
	return -armAngle
}

// turnToward turns toward a heading err radians counter-clockwise.
func turnToward(err float64) action {
	if err > 0 {
		return turnLeft
	}
	return turnRight
}

func (b *throwerBot) Act(view any) string {
	b.why = noChoice
	if !b.f.read(view) {
		return ""
	}
	b.track()
	for i, choose := range [...]func() (action, bool){b.dodge, b.eat, b.pickup, b.attack, b.giveWay, b.stock, b.fetch} {
		if a, ok := choose(); ok {
			b.why = i
			return a.String()
		}
	}
	b.why = ducked
	return duck.String()
}

// Drawing names what chose the last action above the bot and draws its
// goal: the opponent aimed at, its own table to stock, the food it walks
// to, the room it wants from flying food.
func (b *throwerBot) Drawing() json.RawMessage {
	b.sketch.Reset()
	if b.why == noChoice || b.f.self < 0 || b.f.self >= len(b.f.m.players) {
		return nil
	}
	me := b.f.me()
	x, y := me.loc.x, me.loc.y
	label := "duck"
	if b.why != ducked {
		label = throwerChoices[b.why]
	}
	switch label {
	case "attack":
		if t := b.target; t >= 0 && t < len(b.f.m.players) {
			to := b.f.m.players[t].loc
			b.sketch.Line(x, y, to.x, to.y, "red")
			b.sketch.Circle(to.x, to.y, playerRadius, "red")
		}
	case "stock":
		if me.team >= 0 && me.team < len(b.f.m.teams) {
			t := b.f.m.teams[me.team].table
			b.sketch.Line(x, y, t.x, t.y, "green")
		}
	case "fetch":
		for _, f := range b.f.m.food {
			if f.kind == b.chase && f.height == 0 {
				b.sketch.Line(x, y, f.loc.x, f.loc.y, "yellow")
				b.sketch.Mark(f.loc.x, f.loc.y, "yellow")
				break
			}
		}
	case "dodge":
		b.sketch.Circle(x, y, playerRadius+dodgeMargin, "orange")
	}
	b.sketch.Text(label, x, y+2*playerRadius, "")
	return b.sketch.JSON()
}

// track updates each player's velocity from its last two locations.
func (b *throwerBot) track() {
	ps := b.f.m.players
	if len(b.prev) != len(ps) {
		b.prev, b.vel = make([]vec, len(ps)), make([]vec, len(ps))
		for i := range ps {
			b.prev[i] = ps[i].loc
		}
		return
	}
	for i := range ps {
		if d := ps[i].loc.sub(b.prev[i]); d.length() <= maxStep {
			b.vel[i] = vec{(b.vel[i].x + d.x) / 2, (b.vel[i].y + d.y) / 2}
		}
		b.prev[i] = ps[i].loc
	}
}

// at predicts where player i is k turns from now.
func (b *throwerBot) at(i, k int) vec {
	return onField(b.f.m.players[i].loc.add(b.vel[i].scale(float64(k))))
}

// onField is the point nearest to p where a player's centre can be.
func onField(p vec) vec {
	return vec{min(max(p.x, playerRadius), fieldWidth-playerRadius), min(max(p.y, playerRadius), fieldDepth-playerRadius)}
}

// shot is a flying piece as the bot predicts it.
type shot struct {
	from            vec
	heading, height float64
	radius          float64
	// cos and sin are those of heading, computed once so that following
	// the shot turn by turn computes neither.
	cos, sin float64
}

// newShot is a piece flying from from at heading and height.
func newShot(from vec, heading, height, radius float64) shot {
	sin, cos := rng.SinCos(heading)
	return shot{from: from, heading: heading, height: height, radius: radius, cos: cos, sin: sin}
}

// throwShot is the piece the bot's hand would throw now.
func (b *throwerBot) throwShot(hand int) shot {
	me := b.f.me()
	a := armDirection(me, hand)
	return newShot(me.loc.add(polar(reach, a)), a, throwHeight.mu, me.hands[hand].radius())
}

// at is the piece's location and height k turns on; false once it has
// fallen or reached a wall, where the prediction stops.
func (s shot) at(k int) (vec, float64, bool) {
	r := float64(foodSpeed.mu * float64(k))
	p := s.from.add(vec{float64(r * s.cos), float64(r * s.sin)}) // polar(r, s.heading)
	h := s.height - float64(meanFall*float64(k))
	in := s.radius <= p.x && p.x <= fieldWidth-s.radius && s.radius <= p.y && p.y <= fieldDepth-s.radius
	return p, h, h > 0 && in
}

// fate is what a shot meets first: a team's table or a player; -1 for
// neither.
type fate struct{ table, hit int }

// follow predicts a shot until it lands on a table, hits a player or stops.
// It must pass within sureMargin of target's edge to hit it, and passes
// every other player only if it misses by avoidMargin.
func (b *throwerBot) follow(s shot, target int) fate {
	ps := b.f.m.players
	for k := 1; k <= maxFlight; k++ {
		p, h, ok := s.at(k)
		if !ok {
			break
		}
		if ti := b.f.m.tableUnder(p); ti >= 0 {
			return fate{ti, -1}
		}
		for j := range ps {
			margin := float64(avoidMargin)
			if j == target {
				margin = sureMargin
			}
			if h <= ps[j].height && b.at(j, k).sub(p).length() < playerRadius+s.radius+margin {
				return fate{-1, j}
			}
		}
	}
	return fate{-1, -1}
}

// dodge steps or ducks out of the way of a piece that would hit the bot
// where it stands within dodgeWithin turns.
func (b *throwerBot) dodge() (action, bool) {
	me := b.f.me()
	for _, f := range b.f.m.food {
		if f.height <= 0 {
			continue
		}
		s := newShot(f.loc, f.heading, f.height, f.kind.radius())
		reachAt := playerRadius + s.radius + dodgeMargin
		for k := 1; k <= dodgeWithin; k++ {
			p, h, ok := s.at(k)
			if !ok || b.f.m.tableUnder(p) >= 0 {
				break
			}
			if p.sub(me.loc).length() >= reachAt {
				continue
			}
			// Ducking each turn lowers the bot by about duckSpeed.
			if max(me.height-float64(duckSpeed.mu*float64(k)), minHeight) < h-duckMargin {
				return duck, true
			}
			if a, ok := b.sidestep(s, k); ok {
				return a, true
			}
			return duck, true
		}
	}
	return noAction, false
}

// sidestep walks forward or backward, whichever takes the bot further from
// the piece's line within k turns, if either does.
func (b *throwerBot) sidestep(s shot, k int) (action, bool) {
	me := b.f.me()
	normal := polar(1, s.heading+halfPi)
	offset := func(loc vec) float64 {
		d := loc.sub(s.from)
		return math.Abs(float64(d.x*normal.x) + float64(d.y*normal.y))
	}
	best, bestOffset := noAction, offset(me.loc)
	for _, a := range [...]action{moveForward, moveBackward} {
		if !b.f.valid(a) || !b.safeStep(a) {
			continue
		}
		if o := offset(me.loc.add(b.step(a).scale(float64(k)))); o > bestOffset {
			best, bestOffset = a, o
		}
	}
	return best, best != noAction
}

// step is the bot's expected displacement for a move action.
func (b *throwerBot) step(a action) vec {
	me := b.f.me()
	m := speedFactor(me.energy)
	if a == moveBackward {
		return polar(float64(backwardSpeed.mu*m), me.heading+math.Pi)
	}
	return polar(float64(forwardSpeed.mu*m), me.heading)
}

// safeStep reports whether move a keeps the bot clear of every other
// player it would otherwise close in on next turn.
func (b *throwerBot) safeStep(a action) bool {
	me := b.f.me()
	to := me.loc.add(b.step(a))
	for j := range b.f.m.players {
		if j == b.f.self {
			continue
		}
		q := b.at(j, 1)
		d := to.sub(q).length()
		if d < 2*playerRadius+clearance+float64(2*b.vel[j].length()) && d < me.loc.sub(q).length() {
			return false
		}
	}
	return true
}

// eat eats held food when energy is low, or when eating is worth more than
// the turns the piece would still score on the table.
func (b *throwerBot) eat() (action, bool) {
	me := b.f.me()
	own := &b.f.m.teams[me.team]
	worth := eventPoints[everyEat]
	if own.counts[firstEat] == 0 {
		worth += eventPoints[firstEat]
	}
	flight := int(own.table.sub(me.loc).length()/foodSpeed.mu) + 1
	left := totalTurns - b.f.turn + 1 - flight
	for h, k := range me.hands {
		if k != none && (me.energy < lowEnergy || left < worth) {
			return eatLeft + action(h), true
		}
	}
	return noAction, false
}

// pickup takes ground food in reach of an empty hand, or food from an
// opponent's table the bot stands against (never from its own).
func (b *throwerBot) pickup() (action, bool) {
	me := b.f.me()
	for h, k := range me.hands {
		if k != none {
			continue
		}
		for i := range b.f.m.food {
			if canPickup(me, &b.f.m.food[i], h) {
				return pickupLeft + action(h), true
			}
		}
	}
	steal := false
	for ti := range b.f.m.teams {
		t := &b.f.m.teams[ti]
		if t.tableFood != 0 && againstTable(me, t.table, true) {
			if ti == me.team {
				return noAction, false
			}
			steal = true
		}
	}
	for h, k := range me.hands {
		if steal && k == none {
			return pickupLeft + action(h), true
		}
	}
	return noAction, false
}

// attack throws held food at an opponent worth a piece (see worthHit)
// that the throw would surely hit, and turns toward one it could hit after
// a few turns of turning, keeping to that target for aimTurns.
func (b *throwerBot) attack() (action, bool) {
	me := b.f.me()
	turn, bestErr, target := noAction, math.Inf(1), -1
	for h, k := range me.hands {
		if k == none {
			continue
		}
		s := b.throwShot(h)
		for j := range b.f.m.players {
			aim, flight := b.lead(j)
			if !b.worthHit(j, flight) {
				continue
			}
			if b.follow(s, j).hit == j {
				b.aimUntil, b.target = 0, j
				return throwLeft + action(h), true
			}
			err := diff(me.heading, fixAngle(aim-armOffset(h)))
			if b.f.turn <= b.aimUntil && j != b.aim {
				continue // keep to the target chosen
			}
			if math.Abs(err) > aimTol && math.Abs(err) < math.Abs(bestErr) {
				turn, bestErr, target = turnToward(err), err, j
			}
		}
	}
	switch {
	case target < 0:
		b.aimUntil = 0
		return noAction, false
	case b.f.turn <= b.aimUntil:
		b.target = target
		return turn, true
	case math.Abs(bestErr) <= maxAttackTurn:
		b.aim, b.aimUntil, b.target = target, b.f.turn+aimTurns, target
		return turn, true
	}
	return noAction, false
}

// How far the bot turns to aim at an opponent (about eight turns of
// turning), and how long it keeps to one target.
const (
	maxAttackTurn = 0.4
	aimTurns      = 15
)

// worthHit reports whether player j, met after flight turns, is worth a
// piece of food: an opponent, in range (further for one that stands still),
// low enough for the food to hit, and either close to the bot's table, where it may steal, or an easy hit,
// or late in the match, when a piece on the table earns less than a hit
// costs the victim.
func (b *throwerBot) worthHit(j, flight int) bool {
	p := &b.f.m.players[j]
	if p.team == b.f.me().team {
		return false
	}
	still := b.vel[j].length() < 1
	if flight > 20 && !(still && flight <= 40) {
		return false
	}
	if throwHeight.mu-float64(meanFall*float64(flight)) > p.height-duckMargin {
		return false // the food would fly over a ducking player
	}
	t := b.f.m.teams[b.f.me().team].table.sub(p.loc)
	threat := max(math.Abs(t.x), math.Abs(t.y)) < threatRange && !still
	late := totalTurns-b.f.turn < -eventPoints[everyFoodCollision]
	return threat || flight <= easyFlight || late
}

// threatRange is how near its table (along either axis) the bot counts a
// moving opponent as a thief; easyFlight the flight of an easy hit.
const (
	threatRange = 350
	easyFlight  = 12
)

// lead is the direction from the bot to where player j will meet food
// thrown now, and the turns of flight until then.
func (b *throwerBot) lead(j int) (float64, int) {
	me := b.f.me()
	k := 1
	for range 4 {
		d := b.at(j, k).sub(me.loc).length()
		k = max(1, int((d-reach)/foodSpeed.mu+0.5))
	}
	return direction(b.at(j, k).sub(me.loc)), k
}

// giveWay steps away from a player closing in on the bot.
func (b *throwerBot) giveWay() (action, bool) {
	me := b.f.me()
	const near = 2*playerRadius + clearance + maxStep/3
	nearest, closing := math.Inf(1), false
	for j := range b.f.m.players {
		if j == b.f.self {
			continue
		}
		next := b.at(j, 1).sub(me.loc).length()
		closing = closing || next < near && next < b.f.m.players[j].loc.sub(me.loc).length()
		nearest = min(nearest, next)
	}
	if !closing {
		return noAction, false
	}
	best, bestD := noAction, nearest
	for _, a := range [...]action{moveForward, moveBackward} {
		if !b.f.valid(a) {
			continue
		}
		to := me.loc.add(b.step(a))
		d := math.Inf(1)
		for j := range b.f.m.players {
			if j != b.f.self {
				d = min(d, b.at(j, 1).sub(to).length())
			}
		}
		if d > bestD {
			best, bestD = a, d
		}
	}
	return best, best != noAction
}

// stock throws held food onto the bot's own table: it walks within
// stockRange, turns the arm toward the table and throws once the piece's
// path reaches the table before anything else.
func (b *throwerBot) stock() (action, bool) {
	me := b.f.me()
	own := b.f.m.teams[me.team].table
	turn, bestErr, bestHand := noAction, math.Inf(1), 0
	for h, k := range me.hands {
		if k == none {
			continue
		}
		if b.follow(b.throwShot(h), -1).table == me.team {
			b.waited = 0
			return throwLeft + action(h), true
		}
		err := diff(me.heading, fixAngle(direction(own.sub(me.loc))-armOffset(h)))
		if math.Abs(err) < math.Abs(bestErr) {
			turn, bestErr, bestHand = turnToward(err), err, h
		}
	}
	switch {
	case turn == noAction:
		return noAction, false
	case b.f.turn < b.walkUntil || own.sub(me.loc).length() > stockRange:
		return b.walkTo(own, me.team)
	case math.Abs(bestErr) > aimTol:
		return turn, true
	case b.follow(b.throwShot(bestHand), -1).hit >= 0 && b.waited < maxWait:
		b.waited++
		return duck, true // for the player in the way to pass
	}
	// Aimed, but a table or a player that does not move is in the way.
	b.waited, b.walkUntil = 0, b.f.turn+relocateTurns
	return b.walkTo(own, me.team)
}

// How long the bot waits for a player in its line of throw, and how long
// it then walks to find another line.
const (
	maxWait       = 20
	relocateTurns = 30
)

// fetch walks to the cheapest ground food for an empty hand, or else to an
// opponent's table with food on it.
func (b *throwerBot) fetch() (action, bool) {
	me := b.f.me()
	if me.hands[0] != none && me.hands[1] != none {
		return noAction, false
	}
	// The walk alone costs d/forwardSpeed, so pieces are rated nearest
	// first and the rest skipped, routes unsought, once the walk alone
	// costs more than the best; of equal costs the first piece wins.
	b.near = b.near[:0]
	for i := range b.f.m.food {
		f := &b.f.m.food[i]
		if f.height > 0 || b.skip[f.kind] >= b.f.turn || !b.reachable(f) || b.teammateCloser(f.loc) {
			continue
		}
		b.near = append(b.near, piece{i, f.loc.sub(me.loc).length()})
	}
	slices.SortFunc(b.near, func(p, q piece) int { return cmp.Compare(p.dist, q.dist) })
	best, bestCost, bestWant := -1, math.Inf(1), 0.0
	for _, p := range b.near {
		walk := p.dist / forwardSpeed.mu
		if walk > bestCost {
			break
		}
		f := &b.f.m.food[p.i]
		w := b.route(f.loc, -1) // a hand is free: see above
		for h, k := range me.hands {
			if k != none {
				continue
			}
			want := b.approach(f, w, h)
			if cost := math.Abs(diff(me.heading, want))/turnSpeed.mu + walk; cost < bestCost || cost == bestCost && p.i < best {
				best, bestCost, bestWant = p.i, cost, want
			}
		}
	}
	if best >= 0 {
		b.chasing(b.f.m.food[best].kind)
		return b.walk(bestWant)
	}
	for ti := range b.f.m.teams {
		if t := &b.f.m.teams[ti]; ti != me.team && t.tableFood != 0 {
			return b.walkTo(t.table, ti)
		}
	}
	return noAction, false
}

// chasing notes that the bot walks to food of type k this turn and gives
// the type up for a while when it has walked to it for too long.
func (b *throwerBot) chasing(k kind) {
	if b.chase != k || b.chaseLast != b.f.turn-1 {
		b.chase, b.chaseSince = k, b.f.turn
	}
	b.chaseLast = b.f.turn
	if b.f.turn-b.chaseSince > chaseLimit {
		b.skip[k] = b.f.turn + chaseLimit
	}
}

// reachable reports whether a player can stand within reach of f.
func (b *throwerBot) reachable(f *food) bool {
	return f.loc.sub(onField(f.loc)).length() < reach-playerRadius/5
}

// teammateCloser reports whether a teammate is nearer to loc than the bot.
func (b *throwerBot) teammateCloser(loc vec) bool {
	me := b.f.me()
	d := loc.sub(me.loc).length()
	for _, s := range b.f.m.teams[me.team].seats {
		if s != b.f.self && loc.sub(b.f.m.players[s].loc).length() < d {
			return true
		}
	}
	return false
}

// approach is the heading that brings food f to the arm of hand: straight
// at it from afar, passing it sideOffset to that hand's side; toward w, the
// first point of the route to f, when that is not f itself.
func (b *throwerBot) approach(f *food, w vec, hand int) float64 {
	me := b.f.me()
	if w != f.loc {
		return direction(w.sub(me.loc))
	}
	to := f.loc.sub(me.loc)
	off := float64(armAngle)
	if d := to.length(); d > sideOffset/0.5 { // sin(armAngle) is 1/2
		off = rng.Atan2(sideOffset, math.Sqrt(float64(d*d)-sideOffset*sideOffset))
	}
	if hand == 1 {
		off = -off
	}
	return fixAngle(direction(to) - off)
}

// walkTo walks toward goal, round the tables in the way except skip's.
func (b *throwerBot) walkTo(goal vec, skip int) (action, bool) {
	return b.walk(direction(b.route(goal, skip).sub(b.f.me().loc)))
}

// walk turns toward heading want, then walks forward when that is safe; it
// waits for a player in the way and turns away from a wall or table that
// stops it.
func (b *throwerBot) walk(want float64) (action, bool) {
	err := diff(b.f.me().heading, want)
	switch {
	case math.Abs(err) > walkTol:
		return turnToward(err), true
	case !b.f.valid(moveForward):
		return turnToward(diff(b.f.me().heading, b.escape())), true
	case !b.safeStep(moveForward):
		return duck, true
	}
	return moveForward, true
}

// escape is the heading straight away from the wall or table that stops
// the bot walking forward. Along a table's side, only a heading away from
// the table lets it walk on.
func (b *throwerBot) escape() float64 {
	me := b.f.me()
	x, y := me.loc.x, me.loc.y
	switch {
	case x <= playerRadius && within90(me.heading, west):
		return east
	case x >= fieldWidth-playerRadius && within90(me.heading, east):
		return west
	case y <= playerRadius && within90(me.heading, south):
		return north
	case y >= fieldDepth-playerRadius && within90(me.heading, north):
		return south
	}
	for ti := range b.f.m.teams {
		t := b.f.m.teams[ti].table
		if !againstTable(me, t, true) {
			continue
		}
		d := me.loc.sub(t)
		switch {
		case math.Abs(d.x) > math.Abs(d.y):
			return direction(vec{d.x, 0})
		default:
			return direction(vec{0, d.y})
		}
	}
	return me.heading
}

// route is the point to walk to on the way to goal: goal itself, a point
// beside a player close ahead, or the best corner round the first table
// (except skip's) in the way. Within
// arriveGap of that corner, which the bot cannot turn short of, it heads
// for the point after it once that is in sight.
func (b *throwerBot) route(goal vec, skip int) vec {
	from := b.f.me().loc
	if w, ok := b.passPlayer(from, goal); ok {
		return w
	}
	for ti := range b.f.m.teams {
		c := b.f.m.teams[ti].table
		if ti == skip || !crosses(from, goal, c) {
			continue
		}
		w, ok := b.corner(from, goal, c, 0)
		if !ok || w.sub(from).length() >= arriveGap {
			return w
		}
		next := goal
		if crosses(w, goal, c) {
			next, _ = b.corner(w, goal, c, 1)
		}
		if !b.tableBetween(from, next) {
			return next
		}
		return w
	}
	return goal
}

// passPlayer is a point passGap to the side of the nearest other player
// standing within passRange ahead on the way from from to goal, on the
// side the way passes it if no table is in the way there, else on the
// other; false if no player is in the way or both sides are blocked.
func (b *throwerBot) passPlayer(from, goal vec) (vec, bool) {
	d := goal.sub(from)
	l := d.length()
	if l == 0 {
		return goal, false
	}
	u := d.scale(1 / l)
	left := vec{-u.y, u.x}
	blocker, bestAlong, side := -1, min(l, passRange), 0.0
	for j := range b.f.m.players {
		if j == b.f.self {
			continue
		}
		r := b.at(j, 1).sub(from)
		along := float64(r.x*u.x) + float64(r.y*u.y)
		across := float64(r.x*left.x) + float64(r.y*left.y)
		if along <= 0 || along >= bestAlong || math.Abs(across) >= passGap {
			continue
		}
		blocker, bestAlong, side = j, along, passGap
		if across > 0 {
			side = -passGap
		}
	}
	if blocker < 0 {
		return goal, false
	}
	for _, s := range [...]float64{side, -side} {
		w := onField(b.at(blocker, 1).add(left.scale(s)))
		if !b.nearTable(w) && !b.tableBetween(from, w) {
			return w, true
		}
	}
	return goal, false
}

// tableBetween reports whether a table stands in the way from a to b.
func (b *throwerBot) tableBetween(a, w vec) bool {
	for ti := range b.f.m.teams {
		if crosses(a, w, b.f.m.teams[ti].table) {
			return true
		}
	}
	return false
}

// How wide the bot passes a player in its way, and how far ahead it looks.
const (
	passGap   = 2*playerRadius + 30
	passRange = 250
)

// corner is the corner round the table at c with the shortest way from
// from to goal among those at least near away, clear of every table and
// in sight of from; false if none is.
func (b *throwerBot) corner(from, goal, c vec, near float64) (vec, bool) {
	best, bestLen := goal, math.Inf(1)
	for _, d := range [...]vec{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
		// A corner the field's edge moved into the table's band leads along
		// a gap too narrow to pass.
		w := onField(c.add(d.scale(cornerGap)))
		inBand := math.Abs(w.x-c.x) < blockHalf || math.Abs(w.y-c.y) < blockHalf
		if inBand || w.sub(from).length() < near || b.nearTable(w) || b.tableBetween(from, w) {
			continue
		}
		if l := w.sub(from).length() + goal.sub(w).length(); l < bestLen {
			best, bestLen = w, l
		}
	}
	return best, bestLen < math.Inf(1)
}

// nearTable reports whether p lies in the square round some table that the
// bot keeps its centre out of.
func (b *throwerBot) nearTable(p vec) bool {
	for ti := range b.f.m.teams {
		c := b.f.m.teams[ti].table
		if max(math.Abs(p.x-c.x), math.Abs(p.y-c.y)) < blockHalf {
			return true
		}
	}
	return false
}

// crosses reports whether the segment from a to b passes through the
// square round a table at c that the bot keeps its centre out of; from or
// to a point in that square's margin, through the part of the square
// nearer the table.
func crosses(a, b, c vec) bool {
	d := b.sub(a)
	cheb := func(p vec) float64 { return max(math.Abs(p.x-c.x), math.Abs(p.y-c.y)) }
	half := min(blockHalf, min(cheb(a), cheb(b)))
	lo, hi := 0.0, 1.0
	for _, ax := range [...][3]float64{{a.x, d.x, c.x}, {a.y, d.y, c.y}} {
		p, dp, mid := ax[0], ax[1], ax[2]
		if dp == 0 {
			if p <= mid-half || p >= mid+half {
				return false
			}
			continue
		}
		t0, t1 := (mid-half-p)/dp, (mid+half-p)/dp
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		lo, hi = max(lo, t0), min(hi, t1)
		if lo >= hi {
			return false
		}
	}
	return true
}
