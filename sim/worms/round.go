package worms

import (
	"fmt"

	"github.com/replaylab/replaylab/sim"
)

// Event kinds of this game, beyond sim.EventInvalid.
const (
	EventMove         = "move"
	EventDig          = "dig"
	EventShoot        = "shoot"
	EventBanana       = "banana"
	EventSnowball     = "snowball"
	EventSelect       = "select"
	EventHit          = "hit"
	EventKill         = "kill"
	EventDeath        = "death"
	EventCollision    = "collision"
	EventPickup       = "pickup"
	EventFreeze       = "freeze"
	EventFrozen       = "frozen" // a frozen worm's command was not followed
	EventLava         = "lava"
	EventWarning      = "warning" // the referee's do-nothing note
	EventDisqualified = "disqualified"
)

// action is one player's validated command for the round (rules §7.2).
type action struct {
	seat  int
	worm  int // global index of the acting worm
	cmd   command
	valid bool
}

// Step plays one round in the order of rules §8.
func (m *match) Step(cmds []string) error {
	if m.over {
		return sim.ErrOver
	}
	if len(cmds) != numSeats {
		return fmt.Errorf("worms takes %d commands per round, got %d", numSeats, len(cmds))
	}
	m.events = m.events[:0]
	m.shots = m.shots[:0]
	m.round++
	var sels [numSeats]command
	var hasSel [numSeats]bool
	var acts [numSeats]command
	for s := range numSeats {
		m.cmds[s] = cmds[s]
		sels[s], hasSel[s], acts[s] = parseTurn(cmds[s], m.rules.final, m.round)
		m.players[s].last = feedback{act: acts[s]}
	}
	if m.rules.final {
		m.flood()
		m.thaw()
		m.selects(&sels, &hasSel)
	}
	m.actions(&acts)
	m.rotate()
	m.healthPacks()
	if m.rules.final {
		m.killPoints()
	}
	m.cleanup()
	m.referee()
	m.checkEnd()
	return nil
}

// flood is step 1 (final): the lava ring closes in from round
// 0.25·maxRounds to 0.875·maxRounds, down to the minimum safe radius; then
// every living worm of a living player on lava takes 3 damage.
func (m *match) flood() {
	start := float64(m.maxRounds) * lavaStart
	if float64(m.round) < start {
		return
	}
	end := float64(m.maxRounds) * lavaEnd
	p := (float64(m.round) - start) / (end - start)
	p = min(max(p, 0), 1)
	m.safe = max(float64(center*(1-p)), minSafeRadius)
	for c := range numCells {
		if m.grid[c] == air && centreDist[c] > m.safe {
			m.grid[c] = lava
		}
	}
	for s := range numSeats {
		if !m.living(s) {
			continue
		}
		for i := range wormsPerPlayer {
			g := s*wormsPerPlayer + i
			w := &m.worms[g]
			if w.alive() && m.grid[w.y*mapSize+w.x] == lava {
				m.event(s, i, EventLava, s, lavaDamage, w.x, w.y, "")
				m.damage(g, lavaDamage, -1)
			}
		}
	}
}

// thaw is step 2 (final): every living worm's frozen counter ticks down.
func (m *match) thaw() {
	for s := range numSeats {
		if !m.living(s) {
			continue
		}
		for i := range wormsPerPlayer {
			if w := &m.worms[s*wormsPerPlayer+i]; w.alive() && w.frozen > 0 {
				w.frozen--
			}
		}
	}
}

// selects is step 3 (final): each player's last select, player 2 first
// as the engine iterates the runner's Hashtable (the selects do not
// interact; only the order of their events shows it). A select ignores
// freezing; it costs a token and moves the streak like any command
// (rules §6).
func (m *match) selects(sels *[numSeats]command, has *[numSeats]bool) {
	for s := numSeats - 1; s >= 0; s-- {
		if !has[s] {
			continue
		}
		p := &m.players[s]
		id := sels[s].x
		reason := ""
		switch {
		case p.tokens == 0:
			reason = "player has no selection tokens"
		case id < 1 || id > wormsPerPlayer:
			reason = "worm id not found"
		case !m.worms[s*wormsPerPlayer+id-1].alive():
			reason = "worm not alive"
		}
		if reason != "" {
			p.streak++
			p.cmdScore += scoreInvalid
			p.invalid++
			m.invalid(s, p.active, "select: "+reason)
			p.last.sel = -1
			continue
		}
		p.streak = 0
		p.tokens--
		p.active = id - 1
		w := &m.worms[s*wormsPerPlayer+p.active]
		m.event(s, p.active, EventSelect, s, 0, w.x, w.y, wormNames[s*wormsPerPlayer+p.active])
		p.last.sel = id
	}
}

// actions are steps 4 and 5: validate both players' commands against the
// state after the select phase, then execute them by priority. On equal
// priority the final engine plays player 1 first; the phase-1 engine
// keeps the runner's Hashtable order, player 2 first.
func (m *match) actions(acts *[numSeats]command) {
	var list [numSeats]action
	for s := range numSeats {
		g := s*wormsPerPlayer + m.players[s].active
		list[s] = action{seat: s, worm: g, cmd: acts[s]}
		list[s].valid, list[s].cmd.reason = m.validate(g, acts[s])
	}
	p0, p1 := list[0].cmd.kind.priority(), list[1].cmd.kind.priority()
	if p1 < p0 || p1 == p0 && !m.rules.final {
		list[0], list[1] = list[1], list[0]
	}
	for i := range list {
		m.execute(&list[i])
	}
}

// validate checks a command for worm g (rules §7.2) and returns its
// validity and, when invalid, the reason.
func (m *match) validate(g int, c command) (bool, string) {
	w := &m.worms[g]
	switch c.kind {
	case cmdNothing, cmdShoot:
		return true, c.reason
	case cmdInvalid:
		return false, c.reason
	case cmdMove:
		switch {
		case !onMap(c.x, c.y):
			return false, "target out of map bounds"
		case chebyshev(w.x, w.y, c.x, c.y) > moveRange:
			return false, "target too far away"
		case !m.grid[c.y*mapSize+c.x].open():
			return false, "cannot move to " + m.grid[c.y*mapSize+c.x].String()
		case m.occ[c.y*mapSize+c.x] != 0:
			return false, "target occupied"
		}
	case cmdDig:
		switch {
		case !onMap(c.x, c.y):
			return false, "target out of map bounds"
		case m.grid[c.y*mapSize+c.x] != dirt:
			return false, "cell type " + m.grid[c.y*mapSize+c.x].String() + " not diggable"
		case chebyshev(w.x, w.y, c.x, c.y) > digRange:
			return false, "cell too far away"
		}
	case cmdBanana:
		switch {
		case w.prof != agent:
			return false, "this worm is not trained to use banana bombs"
		case w.bananas == 0:
			return false, "no banana bombs in inventory"
		case !onMap(c.x, c.y):
			return false, "target out of map bounds"
		case !inThrowRange(w.x, w.y, c.x, c.y, bananaRange):
			return false, "cell too far away"
		}
	case cmdSnowball:
		switch {
		case w.prof != technologist:
			return false, "this worm cannot throw snowballs"
		case w.snowballs == 0:
			return false, "no snowballs in inventory"
		case !onMap(c.x, c.y):
			return false, "target out of map bounds"
		case !inThrowRange(w.x, w.y, c.x, c.y, snowballRange):
			return false, "cell too far away"
		}
	}
	return true, ""
}

// execute is one command of step 5: the streak moves by the command's
// validity, then a frozen worm ignores it (a counter of exactly 5 is
// exempt: frozen earlier this round, rules §7.6), else it takes effect or
// costs the invalid penalty.
func (m *match) execute(a *action) {
	p := &m.players[a.seat]
	w := &m.worms[a.worm]
	unit := a.worm - a.seat*wormsPerPlayer
	if !a.valid || a.cmd.kind == cmdNothing {
		p.streak++
	} else {
		p.streak = 0
	}
	switch {
	case w.frozen > 0 && w.frozen != snowballFreeze:
		m.event(a.seat, unit, EventFrozen, -1, float64(w.frozen), w.x, w.y, "frozen worms cannot follow commands")
		p.last.outcome = outcomeFrozen
	case !a.valid:
		p.cmdScore += scoreInvalid
		p.invalid++
		m.invalid(a.seat, unit, a.cmd.reason)
		p.last.outcome = outcomeInvalid
	default:
		m.perform(a, unit)
	}
}

// perform executes a valid command and scores it.
func (m *match) perform(a *action, unit int) {
	p := &m.players[a.seat]
	c := a.cmd
	switch c.kind {
	case cmdMove:
		m.move(a.seat, a.worm, c.x, c.y)
		p.cmdScore += scoreMove
	case cmdDig:
		m.grid[c.y*mapSize+c.x] = air
		p.cmdScore += scoreDig
		p.dirt++
		m.event(a.seat, unit, EventDig, -1, 1, c.x, c.y, "")
	case cmdBanana:
		p.cmdScore += m.banana(a.seat, a.worm, c.x, c.y)
	case cmdShoot:
		p.cmdScore += m.shoot(a.seat, a.worm, c.dir)
	case cmdSnowball:
		p.cmdScore += m.snowball(a.seat, a.worm, c.x, c.y)
	}
}

// moveTo puts worm g on (x, y), as the engine's moveTo: the old cell is
// cleared first, so moving onto its own cell is a no-op that still marks
// the move.
func (m *match) moveTo(g, x, y int) {
	w := &m.worms[g]
	m.occ[w.y*mapSize+w.x] = 0
	w.prevX, w.prevY = w.x, w.y
	w.movedRound = m.round
	w.x, w.y = x, y
	m.occ[y*mapSize+x] = int8(g + 1)
}

// move executes a valid move (rules §7.3). The target was empty when the
// round's commands were validated, so a worm there now moved in this
// round: a collision. Both take 20 damage, then Kotlin's coin decides:
// true pushes both back to where they came from, false swaps them.
func (m *match) move(s, g, x, y int) {
	unit := g - s*wormsPerPlayer
	o := int(m.occ[y*mapSize+x]) - 1
	if o < 0 || o == g || m.worms[o].movedRound != m.round {
		m.moveTo(g, x, y)
		m.event(s, unit, EventMove, -1, 0, x, y, "")
		return
	}
	w, other := &m.worms[g], &m.worms[o]
	m.damage(g, pushbackDamage, -1)
	m.damage(o, pushbackDamage, -1)
	m.players[0].collisions++
	m.players[1].collisions++
	wx, wy := w.x, w.y
	ox, oy := other.prevX, other.prevY
	detail := "swapped"
	if m.coin.nextBoolean() {
		detail = "pushed back"
		m.moveTo(g, wx, wy)
		m.moveTo(o, ox, oy)
	} else {
		m.moveTo(g, ox, oy)
		m.moveTo(o, wx, wy)
	}
	m.event(s, unit, EventCollision, o/wormsPerPlayer, pushbackDamage, x, y, detail)
}

// shoot fires the worm's weapon in direction d (rules §7.4) and returns
// the points.
func (m *match) shoot(s, g, d int) int {
	w := &m.worms[g]
	unit := g - s*wormsPerPlayer
	dx, dy := directions[d].dx, directions[d].dy
	x, y := w.x+dx, w.y+dy
	for onMap(x, y) && inThrowRange(w.x, w.y, x, y, weaponRange) {
		c := y*mapSize + x
		if !m.grid[c].open() {
			m.shot(s, unit, EventShoot, w.x, w.y, x, y, "BLOCKED", 0)
			return scoreMissed
		}
		if o := int(m.occ[c]) - 1; o >= 0 {
			m.shot(s, unit, EventShoot, w.x, w.y, x, y, "HIT", 1)
			return m.hitScore(s, o)
		}
		x, y = x+dx, y+dy
	}
	m.shot(s, unit, EventShoot, w.x, w.y, x, y, "OUT_OF_RANGE", 0)
	return scoreMissed
}

// hitScore deals a shot's damage to worm o and scores it: base +40 when
// the target is now at 0 HP or below (own worms too, as the phase-1
// engine), else +20 enemy, −20 own; final ±2 per damage, kills scored at
// the end of the round.
func (m *match) hitScore(s, o int) int {
	own := o/wormsPerPlayer == s
	if !m.rules.final {
		wasAlive := m.worms[o].alive()
		m.damage(o, weaponDamage, s)
		if !own {
			m.players[s].hits++
			m.players[s].damage += weaponDamage
		}
		switch {
		case !m.worms[o].alive():
			if wasAlive && !own {
				m.players[s].kills++
				m.event(s, o%wormsPerPlayer, EventKill, o/wormsPerPlayer, scoreKillShot, m.worms[o].x, m.worms[o].y, "")
			}
			return scoreKillShot
		case own:
			return -scoreBaseHit
		}
		return scoreBaseHit
	}
	m.damage(o, weaponDamage, s)
	if own {
		return -attackFactor * weaponDamage
	}
	m.players[s].hits++
	m.players[s].damage += weaponDamage
	return attackFactor * weaponDamage
}

// bananaDamage by squared distance from the impact: round(20·(3−d)/3) for
// d = 0, 1, √2, 2 (rules §7.5); -1 marks cells outside the radius.
var bananaDamageBySq = [5]int{20, 13, 11, -1, 7}

// throw records a banana or snowball of worm g landing at (x, y) and
// returns its shot index. A throw into deep space is lost (ok false); one
// that lands on a worm is a BULLSEYE, anything else TERRAIN, as the engine
// reports them.
func (m *match) throw(s, g int, kind string, x, y int) (shot int, ok bool) {
	w := &m.worms[g]
	unit := g - s*wormsPerPlayer
	if m.grid[y*mapSize+x] == deepSpace {
		m.shot(s, unit, kind, w.x, w.y, x, y, "DEEP_SPACE", 0)
		return 0, false
	}
	result := "TERRAIN"
	if m.occ[y*mapSize+x] != 0 {
		result = "BULLSEYE"
	}
	return m.shot(s, unit, kind, w.x, w.y, x, y, result, 0), true
}

// banana throws the Agent's banana bomb at (x, y) (rules §7.5) and returns
// the points. Cells are visited column by column as the engine does.
func (m *match) banana(s, g, x, y int) int {
	unit := g - s*wormsPerPlayer
	m.worms[g].bananas--
	shot, ok := m.throw(s, g, EventBanana, x, y)
	if !ok {
		return scoreMissed
	}
	dirtDestroyed, net := 0, 0
	for cx := x - bananaRadius; cx <= x+bananaRadius; cx++ {
		for cy := y - bananaRadius; cy <= y+bananaRadius; cy++ {
			dsq := (cx-x)*(cx-x) + (cy-y)*(cy-y)
			if !onMap(cx, cy) || dsq > bananaRadius*bananaRadius {
				continue
			}
			c := cy*mapSize + cx
			if m.grid[c] == dirt || m.destroyed[c] == int32(m.round) {
				m.grid[c] = air
				m.destroyed[c] = int32(m.round)
				dirtDestroyed++
			}
			if m.pack[c] {
				m.pack[c] = false
				m.event(s, unit, "pack_destroyed", -1, packHP, cx, cy, "")
			}
			if o := int(m.occ[c]) - 1; o >= 0 {
				dmg := bananaDamageBySq[dsq]
				m.damage(o, dmg, s)
				m.shots[shot].Hits++
				if o/wormsPerPlayer == s {
					net -= dmg
				} else {
					net += dmg
					m.players[s].hits++
					m.players[s].damage += dmg
				}
			}
		}
	}
	m.players[s].dirt += dirtDestroyed
	return dirtDestroyed*scoreDig + net*attackFactor
}

// snowball throws the Technologist's snowball at (x, y) (rules §7.6):
// every worm in the 3x3 square is frozen for 5 rounds; ±17 per worm.
func (m *match) snowball(s, g, x, y int) int {
	unit := g - s*wormsPerPlayer
	m.worms[g].snowballs--
	shot, ok := m.throw(s, g, EventSnowball, x, y)
	if !ok {
		return scoreMissed
	}
	net := 0
	for cx := x - snowballRadius; cx <= x+snowballRadius; cx++ {
		for cy := y - snowballRadius; cy <= y+snowballRadius; cy++ {
			if !onMap(cx, cy) {
				continue
			}
			o := int(m.occ[cy*mapSize+cx]) - 1
			if o < 0 {
				continue
			}
			m.worms[o].frozen = snowballFreeze
			m.shots[shot].Hits++
			m.event(s, unit, EventFreeze, o/wormsPerPlayer, snowballFreeze, cx, cy, wormNames[o])
			if o/wormsPerPlayer == s {
				net--
			} else {
				net++
				m.players[s].frozen++
			}
		}
	}
	return net * scoreFreeze
}

// damage takes hp from worm g; attacker is the seat whose shot or banana
// it was (recorded for kill points), or -1.
func (m *match) damage(g, amount, attacker int) {
	w := &m.worms[g]
	wasAlive := w.alive()
	w.hp -= amount
	if attacker >= 0 {
		w.attackers |= 1 << attacker
		m.event(attacker, sim.NoUnit, EventHit, g/wormsPerPlayer, float64(amount), w.x, w.y, wormNames[g])
	}
	if wasAlive && !w.alive() {
		m.event(g/wormsPerPlayer, g%wormsPerPlayer, EventDeath, g/wormsPerPlayer, 0, w.x, w.y, "")
	}
}

// rotate is step 6: each living player's active worm becomes the next
// living worm by id, wrapping around. In the phase-1 engine a dead
// active worm hands over to the lowest-id living worm instead.
func (m *match) rotate() {
	for s := range numSeats {
		if !m.living(s) {
			continue
		}
		p := &m.players[s]
		if !m.rules.final && !m.worms[s*wormsPerPlayer+p.active].alive() {
			p.active = wormsPerPlayer - 1 // the search below starts at index 0
		}
		for k := 1; k <= wormsPerPlayer; k++ {
			i := (p.active + k) % wormsPerPlayer
			if m.worms[s*wormsPerPlayer+i].alive() {
				p.active = i
				break
			}
		}
	}
}

// healthPacks is step 7: a worm on a pack's cell, alive or not, gains 10.
func (m *match) healthPacks() {
	for g := range m.worms {
		w := &m.worms[g]
		c := w.y*mapSize + w.x
		if m.pack[c] && m.onMapWorm(g) {
			w.hp += packHP
			m.pack[c] = false
			m.event(g/wormsPerPlayer, g%wormsPerPlayer, EventPickup, g/wormsPerPlayer, packHP, w.x, w.y, "health pack")
		}
	}
}

// killPoints is step 8 (final): each worm at 0 HP or below that a shot or
// banana hit this round gives every distinct attacking player +40, or −40
// for its own player. Attacker marks are cleared.
func (m *match) killPoints() {
	for g := range m.worms {
		w := &m.worms[g]
		if !w.alive() && w.attackers != 0 {
			victim := g / wormsPerPlayer
			for s := range numSeats {
				if w.attackers&(1<<s) == 0 {
					continue
				}
				if s == victim {
					m.players[s].cmdScore -= scoreKillShot
					continue
				}
				m.players[s].cmdScore += scoreKillShot
				m.players[s].kills++
				m.event(s, sim.NoUnit, EventKill, victim, scoreKillShot, w.x, w.y, wormNames[g])
			}
		}
		w.attackers = 0
	}
}

// cleanup is step 9: dead worms and every worm of a disqualified player
// leave the map.
func (m *match) cleanup() {
	for g := range m.worms {
		w := &m.worms[g]
		if (!w.alive() || m.disqualified(g/wormsPerPlayer)) && m.onMapWorm(g) {
			m.occ[w.y*mapSize+w.x] = 0
		}
	}
}

// referee is step 10, informational: a note when a living player's
// streak reaches 3, and the disqualification itself (the match ends with
// it, so it is reported once).
func (m *match) referee() {
	for s := range numSeats {
		switch p := &m.players[s]; {
		case m.disqualified(s):
			m.event(s, sim.NoUnit, EventDisqualified, s, float64(p.streak), 0, 0, "more than 12 consecutive rounds without a valid action")
		case p.streak == 3 && m.living(s):
			m.event(s, sim.NoUnit, EventWarning, s, 3, 0, 0, "do-nothing streak reached 3")
		}
	}
}

// checkEnd applies rules §9: the match is over after the last round or
// when fewer than two players are still in it.
func (m *match) checkEnd() {
	if m.round >= m.maxRounds || !m.living(0) || !m.living(1) {
		m.over = true
	}
}

// wormNames are event details naming each worm (by its index in
// match.worms) as the engine does: "worm 11" to "worm 23".
var wormNames = func() (names [numWorms]string) {
	for g := range names {
		names[g] = units.Name(g/wormsPerPlayer, g%wormsPerPlayer)
	}
	return names
}()

// event records one event of the round.
func (m *match) event(seat, unit int, kind string, target int, amount float64, x, y int, detail string) {
	m.events = append(m.events, sim.Event{Seat: seat, Unit: unit, Kind: kind, Target: target, Amount: amount, X: x, Y: y, Detail: detail})
}

// invalid records an invalid command.
func (m *match) invalid(seat, unit int, reason string) {
	w := &m.worms[seat*wormsPerPlayer+unit]
	m.event(seat, unit, sim.EventInvalid, -1, scoreInvalid, w.x, w.y, reason)
}

// shot records a shot, banana or snowball for the frame and as an event,
// and returns its index in m.shots.
func (m *match) shot(seat, unit int, kind string, fx, fy, tx, ty int, result string, hits int) int {
	m.shots = append(m.shots, Shot{Seat: seat, Worm: unit + 1, Kind: kind, From: Point{fx, fy}, To: Point{tx, ty}, Result: result, Hits: hits})
	m.event(seat, unit, kind, -1, float64(hits), tx, ty, result)
	return len(m.shots) - 1
}
