package careerfair

import (
	"fmt"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// Event kinds of the career fair, besides sim.EventInvalid.
const (
	// eventService: a team bot was served. Seat is its team, Unit its
	// position (0 = main), Amount the points, X and Y the column and row
	// of the line's front tile, Detail the company and "(main)" or
	// "(helper)".
	eventService = "service"
	// eventReplace: a REPLACE swapped the main bot with the helper at
	// position Unit.
	eventReplace = "replace"
)

// Step plays one step in the order of B.11 (see the package doc).
func (m *match) Step(cmds []string) error {
	if m.over {
		return sim.ErrOver
	}
	if len(cmds) != len(m.teams) {
		return fmt.Errorf("careerfair: %d commands for %d teams", len(cmds), len(m.teams))
	}
	m.events = m.events[:0]
	m.served = m.served[:0]
	m.readCommands(cmds)
	m.crowdCompute()
	m.teamOrders()
	m.crowdExecute()
	m.teamExecute()
	m.serveLines()
	m.scoreServices()
	m.updateThresholds()
	m.tally()
	m.turn++
	m.over = m.turn >= totalSteps || m.runner && m.reached()
	return nil
}

// idle reports whether the step being played is one of the idle steps.
func (m *match) idle() bool { return m.turn < idleSteps }

// readCommands parses every seat's command into its team's moves; in the
// idle steps the moves are NONE whatever was sent.
func (m *match) readCommands(cmds []string) {
	for seat, cmd := range cmds {
		t := &m.teams[seat]
		m.parseCommand(seat, cmd, &t.moves)
		if m.idle() {
			t.moves = [teamSize]action{}
		}
	}
}

// parseCommand reads "A,B,C,D" into moves: a bad, empty or missing action is
// NONE with an invalid event, actions past the fourth are ignored with one.
func (m *match) parseCommand(seat int, cmd string, moves *[teamSize]action) {
	*moves = [teamSize]action{}
	if cmd == "" {
		return
	}
	rest := cmd
	for i := 0; ; i++ {
		if i == teamSize {
			m.invalid(seat, sim.NoUnit, fmt.Sprintf("%d extra actions ignored", 1+strings.Count(rest, ",")))
			return
		}
		tok, tail, more := strings.Cut(rest, ",")
		a, ok := parseAction(tok)
		if !ok {
			why := "unknown action " + sim.QuoteCommand(tok)
			if strings.TrimSpace(tok) == "" {
				why = "empty action"
			}
			m.invalid(seat, i, fmt.Sprintf("bot %d: %s", i, why))
		}
		moves[i] = a
		if !more {
			for j := i + 1; j < teamSize; j++ {
				m.invalid(seat, j, fmt.Sprintf("bot %d: missing action (the command has %d of %d)", j, i+1, teamSize))
			}
			return
		}
		rest = tail
	}
}

// parseAction reads one action name, in any case, with spaces around it.
func parseAction(tok string) (action, bool) {
	tok = strings.TrimSpace(tok)
	for a, name := range actionNames {
		if strings.EqualFold(tok, name) {
			return action(a), true
		}
	}
	return none, false
}

func (m *match) invalid(seat, unit int, why string) {
	m.events = append(m.events, sim.Event{Seat: seat, Unit: unit, Kind: sim.EventInvalid, Target: -1, Detail: why})
}

// crowd returns the index of the first crowd bot.
func (m *match) crowd() int { return len(m.teams) * teamSize }

// crowdCompute is stage 1: every crowd bot chooses its move (B.5).
func (m *match) crowdCompute() {
	m.target = m.busiest()
	for i := m.crowd(); i < len(m.bots); i++ {
		b := &m.bots[i]
		switch b.kind {
		case jittery:
			m.jitter(b)
		case extrovert:
			m.seekCrowd(b)
		case randomBot:
			m.visitBooth(b)
		}
	}
}

// busiest is the tile with the strictly largest population, the first in
// row-major order, or -1 when every tile is empty (find_big_brain). No
// population changes during stage 1, so every Extrovert shares it.
func (m *match) busiest() int32 {
	best, at := int32(0), int32(-1)
	for t := range m.free {
		if p := m.population(int32(t)); p > best {
			best, at = p, int32(t)
		}
	}
	return at
}

// jitter is JitteryBot.compute_step: at its target tile it joins the line
// it stands at with probability 0.6, else it heads for the first valid
// neighbour in a reshuffled order.
func (m *match) jitter(b *bot) {
	if b.inLine {
		b.next = b.loc
		return
	}
	if b.loc != b.next {
		return
	}
	u := m.src.Float64()
	if m.endOfLine(b.loc) && u <= lineProb {
		b.want = enter
		return
	}
	m.shuffle(&b.dirs)
	for _, d := range b.dirs {
		if m.valid(b.loc, d) {
			b.want = d
			break
		}
	}
	b.next = m.dest(b.loc, b.want)
}

// seekCrowd is ExtrovertBot.compute_step: a new path to the busiest tile
// every step, taken when it has none or when the new target is busier than
// its old one by more than the reorientation cost.
func (m *match) seekCrowd(b *bot) {
	path, ok := m.bfs(b.loc, m.target)
	switch {
	case !b.pathLeft():
		b.setPath(path) // empty when the search failed, as the engine's None
	case ok && m.population(b.path[len(b.path)-1])+reorient < m.population(path[len(path)-1]):
		b.setPath(path)
	}
	if b.pathLeft() {
		m.follow(b)
	}
}

// visitBooth is RandomBot.compute_step: out of line and without a path it
// picks a booth of its size and searches a path to that line's end; it
// follows the path and asks to ENTER at its end.
func (m *match) visitBooth(b *bot) {
	if !b.inLine && !b.pathLeft() {
		choices := m.choices[b.size]
		b.booth = choices[m.src.IntN(len(choices))]
		path, _ := m.bfs(b.loc, m.lines[b.booth].end)
		b.setPath(path)
	}
	if b.pathLeft() && !m.follow(b) {
		b.want = enter
	}
}

// follow drops the path's first tile when the bot stands on it and asks
// for the move to the next one; it reports false when no tile is left.
func (m *match) follow(b *bot) bool {
	if b.loc == b.path[b.head] {
		b.head++
	}
	if !b.pathLeft() {
		return false
	}
	b.want = m.dirTo(b.loc, b.path[b.head])
	return true
}

// shuffle is Python's random.shuffle of four directions.
func (m *match) shuffle(d *[4]action) {
	for i := len(d) - 1; i > 0; i-- {
		j := m.src.IntN(i + 1)
		d[i], d[j] = d[j], d[i]
	}
}

// bfs is the engine's BFS from src to the tile target: breadth-first over
// tiles that are not booths (the target itself may be one), the direction
// list reshuffled at every expanded tile. It returns the path from src to
// target, both included, in scratch space valid until the next search, and
// false (after expanding every reachable tile) when there is none.
//
// The engine marks a tile visited when it leaves the queue and may queue
// it more than once; the first copy is expanded and the others skipped
// without a draw, so marking tiles when first queued, as here, expands the
// same tiles in the same order with the same draws.
func (m *match) bfs(src, target int32) ([]int32, bool) {
	m.found = m.found[:0]
	if src == target {
		m.found = append(m.found, src)
		return m.found, true
	}
	m.stamp++
	if m.stamp == closed {
		m.resetSeen()
	}
	seen, from, nbs, stamp := m.seen, m.from, m.b.neighbours, m.stamp
	seen[src] = stamp
	q := append(m.queue[:0], src)
	dirs := searchOrder
	for h := 0; h < len(q); h++ {
		node := q[h]
		m.shuffle(&dirs)
		nb := &nbs[node]
		for _, d := range dirs {
			t := nb[d-left]
			if t == target {
				from[t] = node
				m.queue = q
				return m.trace(src, target), true
			}
			if seen[t] < stamp { // not reached yet, no booth, on the grid
				seen[t] = stamp
				from[t] = node
				q = append(q, t)
			}
		}
	}
	m.queue = q
	return m.found, false
}

// closed marks a booth and the place off the grid in seen: above every
// search's stamp, so one comparison skips them and the tiles the search
// reached.
const closed = ^uint32(0)

// resetSeen starts the search stamps over, booths and off-grid closed.
func (m *match) resetSeen() {
	for t, k := range m.b.boothOf {
		m.seen[t] = 0
		if k >= 0 {
			m.seen[t] = closed
		}
	}
	m.seen[m.b.offGrid()] = closed
	m.stamp = 1
}

// trace writes the path the last search found into m.found.
func (m *match) trace(src, target int32) []int32 {
	for t := target; t != src; t = m.from[t] {
		m.found = append(m.found, t)
	}
	m.found = append(m.found, src)
	f := m.found
	for i, j := 0, len(f)-1; i < j; i, j = i+1, j-1 {
		f[i], f[j] = f[j], f[i]
	}
	return f
}

// dirTo is Direction.get_dir: the cardinal action from tile a to a
// neighbouring tile c, NONE for any other pair.
func (m *match) dirTo(a, c int32) action {
	for i, t := range m.b.neighbours[a] {
		if t == c {
			return searchOrder[i]
		}
	}
	return none
}

// dest is Direction.get_loc: the tile an action leads to from t, t itself
// for NONE, ENTER and REPLACE, -1 off the grid.
func (m *match) dest(t int32, a action) int32 {
	if a.cardinal() {
		return m.b.step(t, a)
	}
	return t
}

// valid is Bot._is_valid: the action's tile is on the grid and no booth.
func (m *match) valid(t int32, a action) bool {
	d := m.dest(t, a)
	return d >= 0 && m.b.boothOf[d] < 0
}

// teamOrders is stage 2: per team, REPLACE (B.6), then every team bot's
// requested direction.
func (m *match) teamOrders() {
	for ti := range m.teams {
		t := &m.teams[ti]
		mv := &t.moves
		if mv[0] == replace {
			swap, invalid := -1, false
			at := m.bots[t.bots[0]].loc
			for i := 1; i < teamSize; i++ {
				switch {
				case mv[i] != replace:
				case m.bots[t.bots[i]].loc != at:
					mv[i] = none
				case swap == -1:
					swap = i
				default:
					mv[i] = none
					invalid = true
				}
			}
			mv[0] = none
			if swap != -1 {
				mv[swap] = none
				if !invalid {
					t.bots[0], t.bots[swap] = t.bots[swap], t.bots[0]
					r, c := m.b.rc(at)
					m.events = append(m.events, sim.Event{Seat: ti, Unit: swap, Kind: eventReplace, Target: -1, X: c, Y: r,
						Detail: fmt.Sprintf("the main bot swapped with helper %d", swap)})
				}
			}
		}
		for i, b := range t.bots {
			m.bots[b].want = mv[i]
		}
	}
}

// crowdExecute is stage 3: every crowd bot plays its move in list order.
func (m *match) crowdExecute() {
	for i := m.crowd(); i < len(m.bots); i++ {
		m.execute(int32(i))
	}
}

// teamExecute is stage 4: team 0's bots in team order, then team 1's.
func (m *match) teamExecute() {
	for ti := range m.teams {
		t := &m.teams[ti]
		for i, b := range t.bots {
			t.units[i].wasted += int(m.execute(b))
		}
	}
}

// execute is Bot.execute_step and update_progress (B.6). It returns the
// progress a changed request cancelled.
func (m *match) execute(i int32) (wasted int32) {
	b := &m.bots[i]
	if b.want != b.dir {
		if !m.valid(b.loc, b.want) {
			b.want = none
		}
		wasted = b.progress
		b.dir, b.progress = b.want, 0
	}
	switch b.dir {
	case none:
		b.progress = 0
	case enter:
		b.progress = 0
		b.inLine = m.join(i)
		b.dir = none
	default:
		b.inLine, b.linePos = false, -1
		b.progress += speed
		to := m.dest(b.loc, b.dir)
		if to < 0 { // carried by its line to the grid's edge: see the package doc
			b.dir, b.progress = none, 0
			return wasted
		}
		if b.progress >= m.threshold[to] {
			m.leave(i)
			b.loc = to
			m.free[to]++
			b.dir, b.progress = none, 0
		}
	}
	return wasted
}

// join is Tile.add_to_line: a free bot on an end-of-line tile goes to the
// back of the queue.
func (m *match) join(i int32) bool {
	b := &m.bots[i]
	if b.line >= 0 || !m.endOfLine(b.loc) {
		return false
	}
	k := m.b.lineOf[b.loc]
	m.lines[k].queue = append(m.lines[k].queue, i)
	b.line = k
	m.free[b.loc]--
	return true
}

// leave takes a bot off its tile, out of its queue if it is in one.
func (m *match) leave(i int32) {
	b := &m.bots[i]
	if b.line < 0 {
		m.free[b.loc]--
		return
	}
	l := &m.lines[b.line]
	for k, q := range l.queue {
		if q == i {
			l.queue = append(l.queue[:k], l.queue[k+1:]...)
			break
		}
	}
	b.line = -1
}

// serveLines is stage 5: every line, in slot order, serves or registers
// its front bot and redistributes its queue (Line.execute_step).
func (m *match) serveLines() {
	for k := range m.lines {
		l := &m.lines[k]
		switch {
		case len(l.queue) == 0:
			l.talker = -1
		case l.queue[0] != l.talker:
			l.talker, l.progress = l.queue[0], 0
		default:
			l.progress++
			if l.progress >= waitTime {
				m.serve(k)
			}
		}
		for pos, i := range l.queue {
			b := &m.bots[i]
			b.inLine, b.linePos = true, int16(pos)
		}
		m.delegate(l)
	}
}

// serve pops the talker off the front of line k onto its front tile as a
// free bot. The talker stays registered (see the package doc).
func (m *match) serve(k int) {
	l := &m.lines[k]
	i := l.queue[0]
	l.queue = append(l.queue[:0], l.queue[1:]...)
	l.progress = 0
	b := &m.bots[i]
	b.inLine, b.linePos, b.line = false, -1, -1
	b.loc = l.tiles[0]
	m.free[b.loc]++
	if b.team >= 0 {
		m.served = append(m.served, service{slot: k, bot: i})
	}
}

// delegate is Line._delegate: the queue fills the tiles 3 per tile from
// the front, the tail tile taking the rest, and the first tile short of 3
// (the tail when none is) becomes the end of the line.
func (m *match) delegate(l *line) {
	rest := l.queue
	l.end = -1
	for n, t := range l.tiles {
		chunk := rest
		if n < len(l.tiles)-1 {
			chunk = rest[:min(perLineTile, len(rest))]
			if len(chunk) < perLineTile && l.end < 0 {
				l.end = t
			}
		}
		rest = rest[len(chunk):]
		for _, i := range chunk {
			m.bots[i].loc = t
		}
		m.queued[t] = int32(len(chunk))
	}
	if l.end < 0 {
		l.end = l.tiles[len(l.tiles)-1]
	}
}

// scoreServices is stage 6: each service, in slot order, earns its team
// the major reward for the main bot or the minor one for a helper; then
// both halve for that team (Board._score).
func (m *match) scoreServices() {
	for ti := range m.teams {
		m.teams[ti].delta = 0
	}
	for _, s := range m.served {
		b := &m.bots[s.bot]
		t := &m.teams[b.team]
		pos := 0
		for p, q := range t.bots {
			if q == s.bot {
				pos = p
			}
		}
		r := &t.rewards[s.slot]
		points := r[1]
		if pos == 0 {
			points = r[0]
			t.main++
		} else {
			t.helper++
		}
		r[0], r[1] = r[0]/2, r[1]/2
		t.score += points
		t.delta += points
		t.units[pos].services++
		row, col := m.b.rc(m.lines[s.slot].tiles[0])
		m.events = append(m.events, sim.Event{Seat: int(b.team), Unit: pos, Kind: eventService, Target: -1,
			Amount: float64(points), X: col, Y: row, Detail: m.companies[s.slot].details[min(pos, 1)]})
	}
}

// updateThresholds is stage 7: every tile's cached threshold follows its
// population.
func (m *match) updateThresholds() {
	for t := range m.threshold {
		m.threshold[t] = thresholdOf(m.free[t] + m.queued[t])
	}
}

// tally counts the steps each team position spent in line.
func (m *match) tally() {
	for ti := range m.teams {
		t := &m.teams[ti]
		for p, i := range t.bots {
			if m.bots[i].line >= 0 {
				t.units[p].lineTurns++
			}
		}
	}
}

// reached reports whether a team's score reached the runner's win score.
func (m *match) reached() bool {
	for ti := range m.teams {
		if m.teams[ti].score >= winScore {
			return true
		}
	}
	return false
}
