package foodfight

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// Event kinds of FoodFight, besides sim.EventInvalid.
const (
	eventPickup    = "pickup"    // a player took food from the ground or a table
	eventThrow     = "throw"     // a player threw food
	eventEat       = "eat"       // a player ate food
	eventCollision = "collision" // two players collided
	eventHit       = "hit"       // flying food hit a player
	eventLand      = "land"      // flying food landed on a table
	eventDestroy   = "destroy"   // a collision destroyed a piece of food
	eventSpawn     = "spawn"     // a new piece of food appeared
	eventTieBreak  = "tiebreak"  // the tie-break added points to a team
)

// Step plays one turn in the order of A.13.
func (m *match) Step(cmds []string) error {
	if m.over {
		return sim.ErrOver
	}
	if len(cmds) != len(m.players) {
		return fmt.Errorf("foodfight: %d commands for %d players", len(cmds), len(m.players))
	}
	m.events = m.events[:0]
	m.playActions(cmds)
	m.moveFood()
	m.collide()
	m.addTablePoints()
	if m.turn+1 >= totalTurns {
		m.breakTies()
	}
	m.respawn()
	m.turn++
	m.over = m.turn >= totalTurns
	return nil
}

// parseAction reads a command: an action name, or "" or null for none.
func parseAction(cmd string) (action, bool) {
	// A switch on the string compares lengths first, then the few names of
	// that length; a loop over actionNames compared up to eleven strings.
	switch cmd {
	case "", "null":
		return noAction, true
	case "moveForward":
		return moveForward, true
	case "moveBackward":
		return moveBackward, true
	case "turnLeft":
		return turnLeft, true
	case "turnRight":
		return turnRight, true
	case "duck":
		return duck, true
	case "pickupLeft":
		return pickupLeft, true
	case "pickupRight":
		return pickupRight, true
	case "throwLeft":
		return throwLeft, true
	case "throwRight":
		return throwRight, true
	case "eatLeft":
		return eatLeft, true
	case "eatRight":
		return eatRight, true
	}
	return noAction, false
}

// playActions plays every player's action in a shuffled order (A.6).
func (m *match) playActions(cmds []string) {
	order := m.order
	for i := range order {
		order[i] = i
	}
	// m.shuffle's draws and swaps, without a call through a closure for
	// each swap.
	for i := len(order); i > 1; i-- {
		j := m.src.IntN(i)
		order[i-1], order[j] = order[j], order[i-1]
	}
	for _, seat := range order {
		p := &m.players[seat]
		p.damage = 0
		a, ok := parseAction(cmds[seat])
		p.action, p.valid = a, ok
		if !ok {
			m.invalid(seat, "unknown action "+sim.QuoteCommand(cmds[seat]))
			a = noAction
		} else if why := m.refusal(p, a); why != allowed {
			p.valid = false
			m.invalid(seat, refusalDetails[a][why])
			a = noAction
		}
		m.play(seat, a)
	}
}

func (m *match) invalid(seat int, why string) {
	m.players[seat].invalid++
	m.event(sim.Event{Seat: seat, Kind: sim.EventInvalid, Target: -1, Detail: why})
}

// refusalCode is why the field does not allow an action now (A.6,
// isValidAction); allowed when it does. A code rather than a text, so that
// a refused action costs no string building: refusalDetails holds every
// "action: reason" event text.
type refusalCode uint8

const (
	allowed refusalCode = iota
	westWall
	eastWall
	southWall
	northWall
	tableInWay
	noFoodInReach
	handEmpty
	handHolds   // + the kind held
	numRefusals = handHolds + numKinds
)

func (r refusalCode) String() string {
	switch {
	case r >= handHolds && r < numRefusals:
		return "that hand already holds " + kind(r-handHolds).String()
	case r < handHolds:
		return [handHolds]string{"", "against the west wall", "against the east wall", "against the south wall",
			"against the north wall", "against a table", "no food in reach", "that hand is empty"}[r]
	}
	return ""
}

// refusalDetails[a][r] is the detail of the invalid event of action a
// refused for reason r.
var refusalDetails = func() (d [numActions][numRefusals]string) {
	for a := range numActions {
		for r := range numRefusals {
			d[a][r] = a.String() + ": " + r.String()
		}
	}
	return d
}()

// refusal says why the field does not allow action a now, or allowed when
// it does (A.6, isValidAction).
func (m *match) refusal(p *player, a action) refusalCode {
	switch {
	case a == moveForward || a == moveBackward:
		// The engine tests the heading itself against the wall's side
		// going forward and against the opposite side going backward.
		fwd := a == moveForward
		w, e, s, n := west, east, south, north
		if !fwd {
			w, e, s, n = east, west, north, south
		}
		x, y := p.loc.x, p.loc.y
		switch {
		case x <= playerRadius && within90(p.heading, w):
			return westWall
		case x >= fieldWidth-playerRadius && within90(p.heading, e):
			return eastWall
		case y <= playerRadius && within90(p.heading, s):
			return southWall
		case y >= fieldDepth-playerRadius && within90(p.heading, n):
			return northWall
		case m.againstAnyTable(p, fwd):
			return tableInWay
		}
	case a.picksUp():
		h := a.hand()
		if p.hands[h] != none {
			return handHolds + refusalCode(p.hands[h])
		}
		for i := range m.food {
			if canPickup(p, &m.food[i], h) {
				return allowed
			}
		}
		for i := range m.teams {
			if m.teams[i].tableFood != 0 && againstTable(p, m.teams[i].table, true) {
				return allowed
			}
		}
		return noFoodInReach
	case a.throws() || a.eats():
		if p.hands[a.hand()] == none {
			return handEmpty
		}
	}
	return allowed
}

// play applies a validated action (A.6): the energy cost, the action's own
// effect, then the new location, height and heading.
func (m *match) play(seat int, a action) {
	p := &m.players[seat]
	t := &m.teams[p.team]
	startEnergy := p.energy
	if a != noAction && a != duck && !a.eats() {
		p.energy = max(p.energy-energyCost, 0)
	}
	switch {
	case a.picksUp():
		t.add(firstPickup)
		m.pickup(seat, a.hand())
	case a.throws():
		t.add(firstThrow)
		m.throw(seat, a.hand())
	case a.eats():
		h := a.hand()
		k := p.hands[h]
		p.hands[h] = none
		p.energy = min(p.energy+m.draw(kinds[k].energy), maxEnergy)
		p.eats++
		t.add(firstEat)
		t.add(everyEat)
		m.event(sim.Event{Seat: seat, Kind: eventEat, Target: -1, Amount: p.energy, X: int(p.loc.x), Y: int(p.loc.y), Detail: k.String()})
	case a == moveForward || a == moveBackward:
		t.add(firstMove)
	}

	switch a {
	case moveForward:
		m.walk(p, polar(float64(m.draw(forwardSpeed)*speedFactor(startEnergy)), p.heading))
	case moveBackward:
		m.walk(p, polar(float64(m.draw(backwardSpeed)*speedFactor(startEnergy)), fixAngle(p.heading+math.Pi)))
	}
	if a == duck {
		p.height = max(p.height-m.draw(duckSpeed), minHeight)
	} else {
		p.height = playerHeight
	}
	if p.height < playerHeight {
		p.ducking++
	}
	switch a {
	case turnLeft:
		p.heading = fixAngle(p.heading + m.draw(turnSpeed))
	case turnRight:
		p.heading = fixAngle(p.heading + -m.draw(turnSpeed))
	}
}

// speedFactor is the movement multiplier exp(E/100 - 1) of energy E.
func speedFactor(energy float64) float64 { return rng.Exp(energy/maxEnergy - 1) }

// walk moves a player by d through movePlayer and counts the distance.
func (m *match) walk(p *player, d vec) {
	to := m.movePlayer(p.loc, d)
	p.moved += to.sub(p.loc).length()
	p.loc = to
}

// pickup takes a random ground piece in reach of the hand, or else a random
// type from the tables the player is against (A.6).
func (m *match) pickup(seat, hand int) {
	p := &m.players[seat]
	var reachable [numKinds]int
	n := 0
	for i := range m.food {
		if canPickup(p, &m.food[i], hand) {
			reachable[n] = i
			n++
		}
	}
	p.pickups++
	if n > 0 {
		i := reachable[m.src.IntN(n)]
		f := m.food[i]
		m.food = append(m.food[:i], m.food[i+1:]...)
		p.hands[hand] = f.kind
		m.event(sim.Event{Seat: seat, Kind: eventPickup, Target: -1, X: int(f.loc.x), Y: int(f.loc.y), Detail: f.kind.String() + " from the ground"})
		return
	}
	type onTable struct {
		team int
		kind kind
	}
	var options [numKinds * 4]onTable
	for ti := range m.teams {
		t := &m.teams[ti]
		if !againstTable(p, t.table, true) {
			continue
		}
		for k := range kind(numKinds) {
			if t.tableFood&(1<<k) != 0 {
				options[n] = onTable{ti, k}
				n++
			}
		}
	}
	o := options[m.src.IntN(n)]
	t := &m.teams[o.team]
	t.tableFood &^= 1 << o.kind
	p.hands[hand] = o.kind
	m.event(sim.Event{Seat: seat, Kind: eventPickup, Target: -1, X: int(t.table.x), Y: int(t.table.y), Detail: fmt.Sprintf("%s from table %c", o.kind, t.symbol)})
}

// throw launches the food in hand from the end of the arm (A.6).
func (m *match) throw(seat, hand int) {
	p := &m.players[seat]
	k := p.hands[hand]
	p.hands[hand] = none
	p.throws++
	a := armDirection(p, hand)
	f := food{kind: k, loc: p.loc.add(polar(reach, a)), heading: a, thrower: seat}
	f.height = m.draw(throwHeight)
	m.food = append(m.food, f)
	m.event(sim.Event{Seat: seat, Kind: eventThrow, Target: -1, X: int(f.loc.x), Y: int(f.loc.y), Detail: k.String()})
}

// moveFood flies every airborne piece one turn: move, bounce off the walls,
// fall, and land on a table it is over (A.7).
func (m *match) moveFood() {
	var landed [8]uint8 // per team, the types that landed this turn
	anyLanded := false
	kept := m.food[:0]
	for i := range m.food {
		if m.food[i].height == 0 {
			// Food on the ground stays as it is; it moves down only
			// once a piece before it has left the slice.
			if len(kept) < i {
				kept = append(kept, m.food[i])
			} else {
				kept = kept[:i+1]
			}
			continue
		}
		f := m.food[i]
		h := f.heading
		to := f.loc.add(polar(m.draw(foodSpeed), h))
		x, y := to.x, to.y
		r := f.kind.radius()
		// The engine mirrors about the wall itself (x' = -x), and only for
		// the table test below; fixed_bounce mirrors about the line the
		// food's edge touches (x' = 2r - x) and keeps the result, so a
		// piece that bounces stays on the field.
		lo, hiX, hiY := 0.0, fieldWidth, fieldDepth
		if m.cfg.FixedBounce {
			lo, hiX, hiY = r, fieldWidth-r, fieldDepth-r
		}
		if x < r {
			x = 2*lo - x
			if within90(h, west) {
				h = fixAngle(math.Pi - h)
			}
		} else if x > fieldWidth-r {
			x = 2*hiX - x
			if within90(h, east) {
				h = fixAngle(math.Pi - h)
			}
		}
		if y < r {
			y = 2*lo - y
			if within90(h, south) {
				h = fixAngle(-h)
			}
		} else if y > fieldDepth-r {
			y = 2*hiY - y
			if within90(h, north) {
				h = fixAngle(-h)
			}
		}
		f.height -= m.draw(fallSpeed)
		if f.height < 0 {
			f.height = 0
		}
		if ti := m.tableUnder(vec{x, y}); ti >= 0 {
			landed[ti] |= 1 << f.kind
			anyLanded = true
			m.event(sim.Event{Seat: f.thrower, Kind: eventLand, Target: -1, X: int(x), Y: int(y), Detail: fmt.Sprintf("%s on table %c", f.kind, m.teams[ti].symbol)})
			continue
		}
		if m.cfg.FixedBounce {
			to = vec{x, y}
		}
		f.loc, f.heading = to, h
		if f.height == 0 {
			f.thrower = -1
		}
		kept = append(kept, f)
	}
	m.food = kept
	if anyLanded {
		for ti := range m.teams {
			m.teams[ti].tableFood |= landed[ti]
		}
	}
}

// tableUnder returns the first team (in team order) whose table square
// holds p, or -1.
func (m *match) tableUnder(p vec) int {
	for ti := range m.teams {
		if onTable(p, m.teams[ti].table) {
			return ti
		}
	}
	return -1
}

// collide finds the collisions after the food moved and applies damage,
// score events, knockback and food destruction (A.8).
func (m *match) collide() {
	m.collisions = m.collisions[:0]
	// Only flying food can hit; most turns nothing flies. Heights do not
	// change below, so the list keeps the food order of the loop it
	// replaces.
	flying := m.flying[:0]
	for fi := range m.food {
		if !(m.food[fi].height <= 0) {
			flying = append(flying, fi)
		}
	}
	m.flying = flying
	players := m.players
	for i := range players {
		p := &players[i]
		for j := range players {
			q := &players[j]
			if p.symbol >= q.symbol || p.loc.sub(q.loc).length() >= 2*playerRadius {
				continue
			}
			c := collision{loc: vec{(p.loc.x + q.loc.x) / 2, (p.loc.y + q.loc.y) / 2}, damage: m.draw(playerDamage), kind: none, a: i, b: j}
			m.collisions = append(m.collisions, c)
			for _, s := range [2]int{i, j} {
				o := &m.players[s]
				o.damage += c.damage
				o.playerHits++
				m.teams[o.team].add(firstPlayerCollision)
				m.teams[o.team].add(everyPlayerCollision)
			}
			m.event(sim.Event{Seat: i, Kind: eventCollision, Target: j, Amount: c.damage, X: int(c.loc.x), Y: int(c.loc.y)})
		}
		for _, fi := range flying {
			f := &m.food[fi]
			if p.height < f.height {
				continue
			}
			r := f.kind.radius()
			if p.loc.sub(f.loc).length() >= playerRadius+r {
				continue
			}
			at := vec{(float64(p.loc.x*r) + float64(f.loc.x*playerRadius)) / (playerRadius + r), (float64(p.loc.y*r) + float64(f.loc.y*playerRadius)) / (playerRadius + r)}
			c := collision{loc: at, damage: m.draw(kinds[f.kind].damage), kind: f.kind, a: i, b: -1}
			m.collisions = append(m.collisions, c)
			p.damage += c.damage
			p.foodHits++
			if f.thrower >= 0 && f.thrower != i {
				m.players[f.thrower].hitsGiven++
			}
			m.teams[p.team].add(firstFoodCollision)
			m.teams[p.team].add(everyFoodCollision)
			m.event(sim.Event{Seat: f.thrower, Kind: eventHit, Target: i, Amount: c.damage, X: int(at.x), Y: int(at.y), Detail: f.kind.String()})
		}
	}
	if len(m.collisions) == 0 {
		return
	}
	clear(m.knock)
	for _, c := range m.collisions {
		for i := range m.players {
			v := m.players[i].loc.sub(c.loc)
			d := v.length()
			k := float64(playerRadius * rng.Exp(-d/playerRadius))
			// As the engine: polar(k, direction), whose last bits decide
			// whether a player at a wall is stopped by it (hitWallX/Y).
			m.knock[i] = m.knock[i].add(polar(k, direction(v)))
		}
		kept := m.food[:0]
		for _, f := range m.food {
			if f.loc.sub(c.loc).length() < f.kind.radius() {
				m.event(sim.Event{Seat: -1, Kind: eventDestroy, Target: -1, X: int(f.loc.x), Y: int(f.loc.y), Detail: f.kind.String()})
				continue
			}
			kept = append(kept, f)
		}
		m.food = kept
	}
	for i := range m.players {
		p := &m.players[i]
		p.loc = m.movePlayer(p.loc, m.knock[i])
		p.energy = max(p.energy-p.damage, 0)
		p.damageTaken += p.damage
	}
}

// addTablePoints scores one point per type on each team's own table.
func (m *match) addTablePoints() {
	for ti := range m.teams {
		m.teams[ti].counts[foodOnTable] += bits.OnesCount8(m.teams[ti].tableFood)
	}
}

// breakTies makes every final score distinct (A.11): teams in a shuffled
// order, stably sorted by points with the larger distance to the centre
// first among equals, each raised to one above the team before it.
func (m *match) breakTies() {
	n := len(m.teams)
	order := make([]int, n)
	dist := make([]float64, n)
	for ti := range m.teams {
		order[ti] = ti
		for _, s := range m.teams[ti].seats {
			d := m.players[s].loc.sub(vec{fieldWidth / 2, fieldDepth / 2})
			dist[ti] += float64(d.x*d.x) + float64(d.y*d.y)
		}
	}
	m.shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	before := func(a, b int) bool {
		pa, pb := m.teams[a].points(), m.teams[b].points()
		if pa != pb {
			return pa < pb
		}
		return dist[a] > dist[b]
	}
	for i := 1; i < n; i++ { // a stable insertion sort
		for j := i; j > 0 && before(order[j], order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for i := 1; i < n; i++ {
		prev, cur := &m.teams[order[i-1]], &m.teams[order[i]]
		added := 0
		for cur.points() <= prev.points() {
			cur.counts[tieBreak]++
			added++
		}
		if added > 0 {
			m.tieBroken = true
			m.event(sim.Event{Seat: cur.seats[0], Kind: eventTieBreak, Target: -1, Amount: float64(added), Detail: fmt.Sprintf("team %c +%d", cur.symbol, added)})
		}
	}
}

// respawn may put a free food type on the ground when fewer than four are
// in play (A.10).
func (m *match) respawn() {
	free := uint8(0xff)
	for _, f := range m.food {
		free &^= 1 << f.kind
	}
	for ti := range m.teams {
		free &^= m.teams[ti].tableFood
	}
	for i := range m.players {
		h := &m.players[i].hands
		if h[0] != none {
			free &^= 1 << h[0]
		}
		if h[1] != none {
			free &^= 1 << h[1]
		}
	}
	n := bits.OnesCount8(free)
	if n <= numKinds-maxFood || m.src.Float64() >= respawnRate {
		return
	}
	pick := m.src.IntN(n)
	k := kind(0)
	for ; ; k++ {
		if free&(1<<k) != 0 {
			if pick == 0 {
				break
			}
			pick--
		}
	}
	r := k.radius()
	for range maxSpawnTries {
		x := m.uniform(r, fieldWidth-r)
		at := vec{x, m.uniform(r, fieldDepth-r)}
		if m.spawnBlocked(at, r) {
			continue
		}
		m.food = append(m.food, food{kind: k, loc: at, heading: north, thrower: -1})
		m.event(sim.Event{Seat: -1, Kind: eventSpawn, Target: -1, X: int(x), Y: int(at.y), Detail: k.String()})
		return
	}
}

// spawnBlocked reports whether a new piece of radius r may not appear at p:
// too near a player or a piece of food, or in a table's bands (faithful) or
// square (fixed_spawn_bands).
func (m *match) spawnBlocked(p vec, r float64) bool {
	for i := range m.players {
		if m.players[i].loc.sub(p).length() < playerRadius+r {
			return true
		}
	}
	for _, f := range m.food {
		if f.loc.sub(p).length() < f.kind.radius()+r {
			return true
		}
	}
	for ti := range m.teams {
		t := m.teams[ti].table
		inX := t.x-tableRadius < p.x && p.x < t.x+tableRadius
		inY := t.y-tableRadius < p.y && p.y < t.y+tableRadius
		if m.cfg.FixedSpawnBands && inX && inY || !m.cfg.FixedSpawnBands && (inX || inY) {
			return true
		}
	}
	return false
}

// event records what happened; FoodFight has no units.
func (m *match) event(e sim.Event) {
	e.Unit = sim.NoUnit
	m.events = append(m.events, e)
}
