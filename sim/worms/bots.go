package worms

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// Bots read only the View, as an external bot reads state.json: a copy of
// them outside replaylab would play the same commands.

// board is a bot's reading of the view.
type board struct {
	v      *View
	grid   *mapGrid // v.Map's
	me     *ViewWorm
	myID   int // player id, 1 or 2
	enemy  []ViewWorm
	friend []ViewWorm // own living worms other than the active one
}

// read makes b the reading of v, reusing its slices; false when v shows
// no map or no active worm of the bot on it.
func (b *board) read(v *View) bool {
	if v.Map.grid == nil {
		return false
	}
	*b = board{v: v, grid: v.Map.grid, myID: v.MyPlayer.ID, enemy: b.enemy[:0], friend: b.friend[:0]}
	for i := range v.MyPlayer.Worms {
		w := &v.MyPlayer.Worms[i]
		switch {
		case w.Health <= 0:
		case w.ID == v.CurrentWormID:
			b.me = w
		default:
			b.friend = append(b.friend, *w)
		}
	}
	for _, o := range v.Opponents {
		for _, w := range o.Worms {
			if w.Health > 0 {
				b.enemy = append(b.enemy, w)
			}
		}
	}
	return b.me != nil && onMap(b.me.Position.X, b.me.Position.Y)
}

func (b *board) at(x, y int) cellType { return b.grid.terrain[y*mapSize+x] }

// occ is the worm on cell c as playerId*10 + worm id, 0 for none.
func (b *board) occ(c int) int {
	if i := b.grid.occ[c]; i > 0 {
		o := &b.v.Map.occupiers[i-1]
		return o.PlayerID*10 + o.ID
	}
	return 0
}

// randomBot plays a uniformly random legal command of its active worm:
// a move, a dig, a shot in any direction, or a banana or snowball it can
// throw. It never does nothing, so it is never disqualified.
type randomBot struct {
	r    *rng.Rand
	b    board
	opts []option // the legal commands of a round, kept for its storage
}

// option is a command the random bot may play: word alone when at is
// false, else word and a cell; only the one played is written out.
type option struct {
	word string
	at   bool
	x, y int
}

// shoots are the shoot commands in the order of directions.
var shoots = func() (s [len(directions)]string) {
	for i, d := range directions {
		s[i] = "shoot " + d.name
	}
	return s
}()

func newRandom(_ sim.Setup, _ int, seed uint64) (sim.Bot, error) {
	return &randomBot{r: rng.New(seed)}, nil
}

func (rb *randomBot) Act(view any) string {
	v, ok := sim.ReadView[View](view)
	if !ok {
		return "nothing"
	}
	b := &rb.b
	if !b.read(v) {
		return "nothing"
	}
	opts := rb.opts[:0]
	x, y := b.me.Position.X, b.me.Position.Y
	for i, d := range directions {
		nx, ny := x+d.dx, y+d.dy
		if !onMap(nx, ny) {
			continue
		}
		switch c := b.at(nx, ny); {
		case c.open() && b.occ(ny*mapSize+nx) == 0:
			opts = append(opts, option{"move", true, nx, ny})
		case c == dirt:
			opts = append(opts, option{"dig", true, nx, ny})
		}
		opts = append(opts, option{word: shoots[i]})
	}
	throw := func(word string, count *int) {
		if count == nil || *count == 0 {
			return
		}
		for range 3 {
			tx, ty := x+rb.r.IntRange(-5, 5), y+rb.r.IntRange(-5, 5)
			if onMap(tx, ty) && inThrowRange(x, y, tx, ty, 5) {
				opts = append(opts, option{word, true, tx, ty})
			}
		}
	}
	if bb := b.me.BananaBombs; bb != nil {
		throw("banana", &bb.Count)
	}
	if sb := b.me.Snowballs; sb != nil {
		throw("snowball", &sb.Count)
	}
	rb.opts = opts
	o := opts[rb.r.IntN(len(opts))]
	if !o.at {
		return o.word
	}
	return coord(o.word, o.x, o.y)
}

func coord(word string, x, y int) string {
	return word + " " + strconv.Itoa(x) + " " + strconv.Itoa(y)
}

// tacticalBot attacks when an attack pays and otherwise closes in: it
// freezes enemies with snowballs, throws bananas that hurt enemies more
// than friends, shoots along clear lines, selects another worm when the
// active one is frozen or has nothing to hit, and walks (digging where
// needed) to the nearest cell with a clear line of fire, away from the
// coming lava. Each worm keeps its walk to that cell from turn to turn and
// searches again only when the walk no longer holds (see follow).
type tacticalBot struct {
	b     board
	rt    routes                   // scratch space of approach, reused from turn to turn
	plans [wormsPerPlayer + 1]plan // by worm id
	// last is the last command and where the bot's worms stood, by id
	// (Drawing).
	last struct {
		cmd    string
		active int
		at     [wormsPerPlayer + 1][2]int
	}
	sketch sim.Sketch
}

// plan is a worm's walk to a firing cell as approach found it: the cells
// from where it stood to the goal, what stepping into each cost then, and
// how many turns it has been followed since.
type plan struct {
	cells, steps []int
	age          int
}

// maxPlanAge is how many turns a worm follows a plan before it searches
// again anyway, to notice shorter walks that opened since (dug dirt, enemies
// that moved nearer).
const maxPlanAge = 8

func newTactical(sim.Setup, int, uint64) (sim.Bot, error) { return &tacticalBot{}, nil }

func (t *tacticalBot) Act(view any) string {
	t.last.cmd = t.act(view)
	return t.last.cmd
}

func (t *tacticalBot) act(view any) string {
	v, ok := sim.ReadView[View](view)
	if !ok {
		return "nothing"
	}
	b := &t.b
	if !b.read(v) || len(b.enemy) == 0 {
		return "nothing"
	}
	t.last.active = b.me.ID
	t.last.at = [wormsPerPlayer + 1][2]int{}
	for _, ws := range [][]ViewWorm{b.friend, {*b.me}} {
		for _, w := range ws {
			if w.ID > 0 && w.ID <= wormsPerPlayer {
				t.last.at[w.ID] = [2]int{w.Position.X, w.Position.Y}
			}
		}
	}
	me := b.me
	if cmd, val := b.attack(me); val > 0 && !inert(me) {
		return cmd
	}
	// Another worm with a better attack, or the active one frozen: select.
	if v.MyPlayer.RemainingWormSelections > 0 {
		best, bestVal := "", 0
		for i := range b.friend {
			f := &b.friend[i]
			if inert(f) {
				continue
			}
			if cmd, val := b.attack(f); val > bestVal {
				best, bestVal = "select "+strconv.Itoa(f.ID)+";"+cmd, val
			}
		}
		if bestVal > 0 {
			return best
		}
	}
	if inert(me) {
		return "shoot N" // always valid: keeps the do-nothing streak at 0
	}
	var p *plan
	if me.ID > 0 && me.ID < len(t.plans) {
		p = &t.plans[me.ID]
	}
	return b.approach(me, &t.rt, p)
}

// Drawing draws the last command: a move or dig with the rest of the walk
// the worm follows and its firing cell, a shot's line, a throw's blast.
func (t *tacticalBot) Drawing() json.RawMessage {
	t.sketch.Reset()
	cmd, id := t.last.cmd, t.last.active
	if rest, ok := strings.CutPrefix(cmd, "select "); ok {
		n, c, _ := strings.Cut(rest, ";")
		id, _ = strconv.Atoi(n)
		cmd = c
	}
	if id <= 0 || id > wormsPerPlayer {
		return nil
	}
	at := t.last.at[id]
	x, y := float64(at[0]), float64(at[1])
	f := strings.Fields(cmd)
	var tx, ty float64
	if len(f) == 3 {
		a, errA := strconv.Atoi(f[1])
		b, errB := strconv.Atoi(f[2])
		if errA != nil || errB != nil {
			return nil
		}
		tx, ty = float64(a), float64(b)
	}
	switch {
	case len(f) == 3 && (f[0] == "move" || f[0] == "dig"):
		t.sketch.Line(x, y, tx, ty, "")
		if p := &t.plans[id]; len(p.cells) > 0 {
			start := at[1]*mapSize + at[0]
			if i := slices.Index(p.cells, start); i >= 0 {
				path := [][2]float64{{tx, ty}}
				for _, c := range p.cells[i+1:] {
					path = append(path, [2]float64{float64(c % mapSize), float64(c / mapSize)})
				}
				t.sketch.Path(path, "gray")
				goal := path[len(path)-1]
				t.sketch.Mark(goal[0], goal[1], "")
				t.sketch.Text("fire", goal[0], goal[1], "black")
			}
		}
	case len(f) == 3 && f[0] == "banana":
		t.sketch.Line(x, y, tx, ty, "orange")
		t.sketch.Circle(tx, ty, 2, "orange")
	case len(f) == 3 && f[0] == "snowball":
		t.sketch.Line(x, y, tx, ty, "blue")
		t.sketch.Circle(tx, ty, 1, "blue")
	case len(f) == 2 && f[0] == "shoot":
		for _, d := range directions {
			if d.name == f[1] {
				t.sketch.Line(x, y, x+float64(d.dx*weaponRange), y+float64(d.dy*weaponRange), "red")
			}
		}
	}
	return t.sketch.JSON()
}

// inert reports a worm that will be frozen during the coming round (the
// counter ticks down once before commands run).
func inert(w *ViewWorm) bool { return w.RoundsUntilUnfrozen >= 2 }

// attack returns w's best attack command and its value, 0 for none: a
// snowball, else a banana worth more, else a shot.
func (b *board) attack(w *ViewWorm) (string, int) {
	best, bestVal := "", 0
	x, y := w.Position.X, w.Position.Y
	// A snowball's target is within its range of the thrower, and the
	// enemies it hits within 1 of the target (a banana's within 2): no
	// throw pays with no enemy that near.
	if sb := w.Snowballs; sb != nil && sb.Count > 0 && near(b.enemy, x, y, snowballRange+1) {
		best, bestVal = b.bestThrow("snowball", x, y, snowballRange, b.snowballValue)
	}
	if bb := w.BananaBombs; bb != nil && bb.Count > 0 && near(b.enemy, x, y, bananaRange+2) {
		if cmd, val := b.bestThrow("banana", x, y, bananaRange, b.bananaValue); val > bestVal {
			best, bestVal = cmd, val
		}
	}
	if cmd, ok := b.shot(w); ok && shotValue > bestVal {
		best, bestVal = cmd, shotValue
	}
	return best, bestVal
}

// shotValue is what the bot makes of a shot that hits an enemy.
const shotValue = 8

// bestThrow returns the throw from (x, y) within range r that value rates
// highest, the first one of the highest in row order, and its value; 0
// when no throw is worth anything. Deep space swallows a throw, so it is
// never a target.
func (b *board) bestThrow(word string, x, y, r int, value func(x, y, tx, ty int) int) (string, int) {
	best, bestVal := "", 0
	for ty := y - r; ty <= y+r; ty++ {
		for tx := x - r; tx <= x+r; tx++ {
			if !onMap(tx, ty) || !inThrowRange(x, y, tx, ty, r) || b.at(tx, ty) == deepSpace {
				continue
			}
			if val := value(x, y, tx, ty); val > bestVal {
				best, bestVal = coord(word, tx, ty), val
			}
		}
	}
	return best, bestVal
}

// snowballValue rates a snowball from (x, y) at (tx, ty): 30 per enemy it
// freezes that is not frozen beyond this round, 0 if it would freeze the
// thrower or a friend.
func (b *board) snowballValue(x, y, tx, ty int) int {
	if chebyshev(x, y, tx, ty) <= 1 || near(b.friend, tx, ty, 1) {
		return 0
	}
	val := 0
	for _, e := range b.enemy {
		if chebyshev(e.Position.X, e.Position.Y, tx, ty) <= 1 && e.RoundsUntilUnfrozen <= 1 {
			val += 30
		}
	}
	return val
}

// bananaValue rates a banana from (x, y) at (tx, ty): the damage to
// enemies, when at least 13, less three times the damage to the thrower
// and its friends; 0 below 13.
func (b *board) bananaValue(x, y, tx, ty int) int {
	val := 0
	for _, e := range b.enemy {
		if d := sq(e.Position.X-tx) + sq(e.Position.Y-ty); d <= 4 {
			val += bananaDamageBySq[d]
		}
	}
	if val < 13 {
		return 0
	}
	if d := sq(x-tx) + sq(y-ty); d <= 4 {
		val -= 3 * bananaDamageBySq[d]
	}
	for _, f := range b.friend {
		if d := sq(f.Position.X-tx) + sq(f.Position.Y-ty); d <= 4 {
			val -= 3 * bananaDamageBySq[d]
		}
	}
	return val
}

// shot returns w's first shot, in the engine's order of directions, that
// would hit an enemy.
func (b *board) shot(w *ViewWorm) (string, bool) {
	for _, d := range directions {
		if b.lineHitsEnemy(w.Position.X, w.Position.Y, d.dx, d.dy) {
			return "shoot " + d.name, true
		}
	}
	return "", false
}

func sq(v int) int { return v * v }

// near reports whether a worm of ws is within r of (x, y) (Chebyshev).
func near(ws []ViewWorm, x, y, r int) bool {
	for _, w := range ws {
		if chebyshev(w.Position.X, w.Position.Y, x, y) <= r {
			return true
		}
	}
	return false
}

// lineHitsEnemy walks a shot as the engine does and reports whether the
// first worm it meets is an enemy.
func (b *board) lineHitsEnemy(x, y, dx, dy int) bool {
	for cx, cy := x+dx, y+dy; onMap(cx, cy) && inThrowRange(x, y, cx, cy, weaponRange); cx, cy = cx+dx, cy+dy {
		if !b.at(cx, cy).open() {
			return false
		}
		if o := b.occ(cy*mapSize + cx); o != 0 {
			return o/10 != b.myID
		}
	}
	return false
}

// approach steps toward the nearest cell from which an enemy can be shot
// (through open cells), or toward the nearest enemy when none is open,
// digging through dirt. It follows p, the worm's plan (nil for none), while
// the plan holds, and otherwise searches and keeps a walk to a firing cell
// in p.
func (b *board) approach(me *ViewWorm, rt *routes, p *plan) string {
	start := me.Position.Y*mapSize + me.Position.X
	clear(rt.goal[:])
	b.firingCells(func(c int) { rt.goal[c] = true })
	if next, ok := b.follow(p, start, rt); ok {
		return b.stepInto(next)
	}
	b.findRoutes(start, rt)
	goal := b.firingCell(rt)
	if goal >= 0 && p != nil {
		p.keep(rt, start, goal)
	}
	if goal < 0 {
		goal = b.cellNextToEnemy(rt)
	}
	if goal < 0 || goal == start {
		return b.fallback(me)
	}
	next := rt.firstStep(start, goal)
	if next < 0 {
		return b.fallback(me)
	}
	return b.stepInto(next)
}

// follow returns the cell after start on plan p while p holds: it is
// younger than maxPlanAge, start lies on it, a cell further on is still a
// firing cell (rt.goal; enemies move) or its goal is next to one, and no
// cell left on the walk became blocked or dearer to step into. The walk is
// cut at its first firing cell, which is no dearer than the goal first
// found; a goal a step off the firing cells, after an enemy moved, is
// followed until the worm stands on it and searches again nearby. A worm
// digging stays on its cell for a turn, so it finds itself on the same
// cell of the walk again.
func (b *board) follow(p *plan, start int, rt *routes) (int, bool) {
	if p == nil || p.age >= maxPlanAge {
		return 0, false
	}
	i := slices.Index(p.cells, start)
	if i < 0 {
		return 0, false
	}
	g := i + 1
	for g < len(p.cells) && !rt.goal[p.cells[g]] {
		g++
	}
	switch last := p.cells[len(p.cells)-1]; {
	case g < len(p.cells):
		p.cells, p.steps = p.cells[:g+1], p.steps[:g+1]
	case last == start || !slices.ContainsFunc(neighbours[last][:], func(n int16) bool { return n >= 0 && rt.goal[n] }):
		return 0, false
	}
	safe := b.safeRadius(b.v.CurrentRound + 3)
	for j := i + 1; j < len(p.cells); j++ {
		if step := b.stepCost(p.cells[j], safe); step == 0 || step > p.steps[j] {
			return 0, false
		}
	}
	p.age++
	return p.cells[i+1], true
}

// keep makes p the walk from start to goal found in rt, fresh.
func (p *plan) keep(rt *routes, start, goal int) {
	p.cells, p.steps, p.age = p.cells[:0], p.steps[:0], 0
	for c := goal; c >= 0; c = rt.from[c] {
		p.cells = append(p.cells, c)
		p.steps = append(p.steps, rt.step[c])
		if c == start {
			slices.Reverse(p.cells)
			slices.Reverse(p.steps)
			return
		}
	}
	p.cells, p.steps = p.cells[:0], p.steps[:0] // no walk from start
}

// stepInto is the command that takes the active worm into the next cell:
// a dig through dirt, else a move.
func (b *board) stepInto(next int) string {
	x, y := next%mapSize, next/mapSize
	if b.grid.terrain[next] == dirt {
		return coord("dig", x, y)
	}
	return coord("move", x, y)
}

// maxRouteCost bounds the cost of a walk findRoutes looks for.
const maxRouteCost = 64

// routes are the cheapest walks from one cell: costTo(c) is the cost of
// reaching c and from[c] the cell before it on the way (-1 for the start).
// goal marks the cells whose cost is wanted most. A search writes only the
// cells it meets: cost, from and step hold for the cells whose met equals
// searched, so it need not reset or price the whole map.
type routes struct {
	cost, from [numCells]int
	step       [numCells]int // stepCost of each cell met, 0 where no worm can
	left       [numCells]int // toGoal of each cell met
	met        [numCells]uint32
	searched   uint32
	goal       [numCells]bool
	buckets    [maxRouteCost][]int // the search's queue, kept for its storage
}

// costTo is the cost of reaching c, 1<<30 out of reach.
func (rt *routes) costTo(c int) int {
	if rt.met[c] != rt.searched {
		return 1 << 30
	}
	return rt.cost[c]
}

// findRoutes fills rt with the cheapest walks from start to the goal
// cells, and to the cells next to enemies, below a cost of maxRouteCost.
// Deep space and worms block; see stepCost for the rest. It is an A*
// search on toGoal, which never overestimates and drops by at most one a
// step, so cells are settled in the order of cost plus toGoal, each once.
// It stops once the cheapest goal cell is settled, with every cell of that
// order or less: the costs left above that are not final, but no cheapest
// goal, nor the walk to it, depends on them, and every goal of the least
// cost is settled with it (toGoal is 0 there).
func (b *board) findRoutes(start int, rt *routes) {
	safe := b.safeRadius(b.v.CurrentRound + 3)
	rt.searched++
	rt.met[start], rt.cost[start], rt.from[start], rt.step[start], rt.left[start] = rt.searched, 0, -1, b.stepCost(start, safe), b.toGoal(start)
	// A bucket queue on small integer costs.
	for d := range rt.buckets {
		rt.buckets[d] = rt.buckets[d][:0]
	}
	if rt.left[start] >= len(rt.buckets) {
		return // no enemy, or none near enough
	}
	rt.buckets[rt.left[start]] = append(rt.buckets[rt.left[start]], start)
	for d := 0; d < len(rt.buckets); d++ {
		reached := false
		for k := 0; k < len(rt.buckets[d]); k++ {
			c := rt.buckets[d][k]
			if rt.cost[c]+rt.left[c] != d {
				continue
			}
			cost := rt.cost[c]
			reached = reached || rt.goal[c]
			for _, n16 := range &neighbours[c] {
				n := int(n16)
				if n < 0 {
					continue
				}
				if rt.met[n] != rt.searched {
					rt.met[n], rt.cost[n], rt.step[n], rt.left[n] = rt.searched, 1<<30, b.stepCost(n, safe), b.toGoal(n)
				}
				step := rt.step[n]
				if step == 0 {
					continue
				}
				if nd := cost + step; nd < rt.cost[n] && nd+rt.left[n] < len(rt.buckets) {
					rt.cost[n], rt.from[n] = nd, c
					rt.buckets[nd+rt.left[n]] = append(rt.buckets[nd+rt.left[n]], n)
				}
			}
		}
		if reached {
			return
		}
	}
}

// toGoal is a lower bound of the cost from cell c to a firing cell or a
// cell next to an enemy: both lie within 4 cells of an enemy (Chebyshev),
// and a step covers one.
func (b *board) toGoal(c int) int {
	x, y, near := c%mapSize, c/mapSize, 1<<30
	for _, e := range b.enemy {
		near = min(near, chebyshev(x, y, e.Position.X, e.Position.Y))
	}
	return max(near-4, 0)
}

// neighbours lists the cells next to each cell in the order of
// directions, -1 off the map, so a search steps without dividing.
var neighbours = func() (nb [numCells][len(directions)]int16) {
	for c := range numCells {
		for i, dir := range directions {
			x, y := c%mapSize+dir.dx, c/mapSize+dir.dy
			nb[c][i] = -1
			if onMap(x, y) {
				nb[c][i] = int16(y*mapSize + x)
			}
		}
	}
	return nb
}()

// stepCost is the cost of stepping into cell n, 0 where no worm can: 1, 2
// for dirt (a dig, then a move), 6 for lava, and 4 more beyond the safe
// radius the lava will have shrunk to (0 for no lava).
func (b *board) stepCost(n int, safe float64) int {
	step := 1
	switch t := b.grid.terrain[n]; {
	case t == deepSpace, b.occ(n) != 0:
		return 0
	case t == dirt:
		step = 2
	case t == lava:
		step = 6
	}
	if safe > 0 && centreDist[n] > safe {
		step += 4
	}
	return step
}

// firingCell is the cheapest cell to reach from which a shot along one of
// the eight lines would hit an enemy through open cells, the first of the
// cheapest in the order of firingCells, or -1.
func (b *board) firingCell(rt *routes) int {
	goal, goalCost := -1, 1<<30
	b.firingCells(func(c int) {
		if cost := rt.costTo(c); cost < goalCost {
			goal, goalCost = c, cost
		}
	})
	return goal
}

// firingCells calls f with each cell from which a shot would hit an enemy,
// enemy by enemy, line by line outward.
func (b *board) firingCells(f func(c int)) {
	for _, e := range b.enemy {
		for _, dir := range directions {
			for k := 1; k <= 4; k++ {
				x, y := e.Position.X+k*dir.dx, e.Position.Y+k*dir.dy
				if !onMap(x, y) || !inThrowRange(x, y, e.Position.X, e.Position.Y, weaponRange) || !b.at(x, y).open() {
					break
				}
				f(y*mapSize + x)
				if b.occ(y*mapSize+x) != 0 {
					break
				}
			}
		}
	}
}

// cellNextToEnemy is the cheapest cell to reach next to an enemy, or -1.
func (b *board) cellNextToEnemy(rt *routes) int {
	goal, goalCost := -1, 1<<30
	for _, e := range b.enemy {
		for _, dir := range directions {
			x, y := e.Position.X+dir.dx, e.Position.Y+dir.dy
			if c := y*mapSize + x; onMap(x, y) && rt.costTo(c) < goalCost {
				goal, goalCost = c, rt.costTo(c)
			}
		}
	}
	return goal
}

// firstStep is the cell after start on the way to goal, or -1.
func (rt *routes) firstStep(start, goal int) int {
	for rt.from[goal] != start {
		goal = rt.from[goal]
		if goal < 0 {
			return -1
		}
	}
	return goal
}

// fallback shoots in the direction given by the signs of the offset to
// the first living enemy in the view (not the nearest one): a shot is
// always valid, so the do-nothing streak stays at 0.
func (b *board) fallback(me *ViewWorm) string {
	e := b.enemy[0]
	dx, dy := sign(e.Position.X-me.Position.X), sign(e.Position.Y-me.Position.Y)
	for _, d := range directions {
		if d.dx == dx && d.dy == dy {
			return "shoot " + d.name
		}
	}
	return "shoot N"
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// safeRadius is the lava rule's safe radius at round r, 0 before the lava
// (rules §8 step 1), computed from the view's round limit.
func (b *board) safeRadius(r int) float64 {
	if b.v.LavaDamage == 0 {
		return 0
	}
	start := float64(b.v.MaxRounds) * lavaStart
	if float64(r) < start {
		return 0
	}
	end := float64(float64(b.v.MaxRounds) * lavaEnd)
	p := (float64(r) - start) / (end - start)
	p = min(max(p, 0), 1)
	return max(float64(center*(1-p)), minSafeRadius)
}
