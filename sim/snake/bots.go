package snake

import (
	"encoding/json"
	"slices"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// Bots read only the board string of the View, as an external bot of the
// original game does; a copy of them outside replaylab plays the same moves.

// cellKind is what a bot makes of one glyph.
type cellKind uint8

const (
	kFree  cellKind = iota
	kBlock          // wall or start floor
	kApple
	kGold
	kFury
	kFlying
	kStone
	kOwnHead
	kOwnBody
	kEnemyHead
	kEnemyBody
)

// enterable reports a cell a head may enter now without harm: free, food,
// gold or a pill.
func (k cellKind) enterable() bool { return k <= kFlying && k != kBlock }

// glyphInfo is a glyph's kind and, for snake parts, its arms (the
// neighbours it connects to) and a head's direction (noDir if it shows
// none).
type glyphInfo struct {
	kind cellKind
	arms uint8
	dir  int8
	fury bool // a head in fury
	idle bool // a sleeping or dead head
}

// maxGlyph bounds the runes of the game's glyphs (the highest is ♥,
// U+2665), so a bot reads a board through an array rather than a map.
const maxGlyph = 0x2700

// glyphs maps every game glyph to what it means; other runes read as free.
var glyphs = func() *[maxGlyph]glyphInfo {
	g := map[rune]glyphInfo{
		' ': {kind: kFree}, '☼': {kind: kBlock}, '#': {kind: kBlock},
		'○': {kind: kApple}, '$': {kind: kGold}, '®': {kind: kFury}, '©': {kind: kFlying}, '●': {kind: kStone},
	}
	arms := [numParts]uint8{
		tailArmUp: armUp, tailArmDown: armDown, tailArmLeft: armLeft, tailArmRight: armRight,
		bodyH: armLeft | armRight, bodyV: armUp | armDown, bodyLeftDown: armLeft | armDown,
		bodyLeftUp: armLeft | armUp, bodyRightDown: armRight | armDown, bodyRightUp: armRight | armUp,
	}
	for own, set := range [2]*[numParts]rune{&enemyGlyphs, &ownGlyphs} {
		head, body := kEnemyHead, kEnemyBody
		if own == 1 {
			head, body = kOwnHead, kOwnBody
		}
		for p, r := range set {
			info := glyphInfo{kind: body, arms: arms[p], dir: noDir}
			if p <= headSleep {
				info.kind = head
				if p <= headRight {
					info.dir = int8(p - headUp)
				}
				info.fury = p == headFury
				info.idle = p == headDead || p == headSleep
			}
			g[r] = info
		}
	}
	var table [maxGlyph]glyphInfo
	for r, info := range g { // order does not matter: every rune is distinct
		table[r] = info
	}
	return &table
}()

// readGlyph is what a glyph means; unknown glyphs read as free.
func readGlyph(r rune) glyphInfo {
	if r >= 0 && r < maxGlyph {
		return glyphs[r]
	}
	return glyphInfo{}
}

// botBoard is a board as a bot reads it, in the padded layout of the
// match: the board's cells row by row inside a ring of walls, so every
// cell of the board has four neighbours and a step never leaves it.
type botBoard struct {
	n, w   int    // the board's side and the padded side, n+2
	deltas [4]int // cell offsets of up, down, left, right
	// col and row are each padded cell's column and row.
	col, row []int16
	// board is the View's board. A lent one (board.live set) is read cell
	// by cell from its drawing; any other is read once into cells, its own
	// snake in own glyphs.
	board     Board
	drawing   drawing
	cells     []glyphInfo
	foodCells []int32 // food's answer for a board read into cells
}

// parse takes a View's board; false if it is not a square of glyphs.
func (b *botBoard) parse(board Board) bool {
	if m := board.live; m != nil {
		// A match lends a seat the same board every turn, whose drawing
		// reads slices the match keeps for good: copying them again
		// every turn would cost more than reading the few cells a bot
		// looks at.
		if b.board.live != m || b.board.seat != board.seat {
			b.board = board
			b.size(m.size)
			b.drawing = board.drawing()
		}
		return true
	}
	b.board = board
	n, cells := 0, len(board.cells)
	for n*n < cells {
		n++
	}
	if n*n != cells || n == 0 {
		return false
	}
	b.size(n)
	b.cells = slices.Grow(b.cells[:0], b.w*b.w)[:b.w*b.w]
	wall := glyphInfo{kind: kBlock}
	for c := range b.cells {
		b.cells[c] = wall
	}
	for y := range n {
		copy(b.cells[b.pad(y*n):], board.cells[y*n:(y+1)*n])
	}
	for _, o := range board.own {
		b.cells[b.pad(int(o.i))] = readGlyph(o.glyph)
	}
	return true
}

// size sets the sides for a board of n by n cells.
func (b *botBoard) size(n int) {
	if n == b.n {
		return
	}
	b.n, b.w = n, n+2
	b.deltas = [4]int{-b.w, b.w, -1, 1}
	b.col, b.row = make([]int16, b.w*b.w), make([]int16, b.w*b.w)
	for c := range b.col {
		b.col[c], b.row[c] = int16(c%b.w), int16(c/b.w)
	}
}

// pad is the padded cell of cell i of the board.
func (b *botBoard) pad(i int) int { return (i/b.n+1)*b.w + i%b.n + 1 }

// info is what padded cell c means, the bot's own snake in own glyphs.
func (b *botBoard) info(c int) glyphInfo {
	if b.board.live != nil {
		return drawn(&b.drawing, int32(c), &objectInfos, &ownInfos, &enemyInfos)
	}
	return b.cells[c]
}

// furious reports whether the snake head on padded cell c is in fury, as
// info's fury; a lent board needs no glyph worked out for that.
func (b *botBoard) furious(c int) bool {
	if b.board.live != nil {
		return b.drawing.parts[c] == headFury
	}
	return b.cells[c].fury
}

// kind is what padded cell c holds, as info's kind.
func (b *botBoard) kind(c int) cellKind {
	if b.board.live != nil {
		return b.drawing.kind(int32(c))
	}
	return b.cells[c].kind
}

// enterable reports whether a head may enter cell c now.
func (b *botBoard) enterable(c int) bool {
	if b.board.live != nil {
		return b.drawing.enterable(int32(c))
	}
	return b.cells[c].kind.enterable()
}

// step is the neighbour of cell c in direction d (up to right).
func (b *botBoard) step(c int, d int8) int { return c + b.deltas[d] }

// adjacent reports whether cells a and c are neighbours.
func (b *botBoard) adjacent(a, c int) bool {
	d := a - c
	return d == 1 || d == -1 || d == b.w || d == -b.w
}

// distance is the number of steps from cell a to cell c on an empty board.
func (b *botBoard) distance(a, c int) int {
	dx, dy := int(b.col[a])-int(b.col[c]), int(b.row[a])-int(b.row[c])
	return max(dx, -dx) + max(dy, -dy)
}

// ownHead finds the bot's moving head, the first on the board if it
// shows more than one, or -1 when it sleeps or is dead.
func (b *botBoard) ownHead() int {
	if b.board.live != nil {
		return int(b.board.live.view.heads[b.board.seat])
	}
	head := -1
	for _, o := range b.board.own {
		if g := readGlyph(o.glyph); g.kind == kOwnHead && !g.idle && (head < 0 || int(o.i) < head) {
			head = int(o.i)
		}
	}
	if head < 0 {
		return -1
	}
	return b.pad(head)
}

// appendEnemies appends the cells of the enemy heads that move (neither
// sleep nor are dead), in no particular order.
func (b *botBoard) appendEnemies(dst []int32) []int32 {
	if bd := b.board; bd.live != nil {
		for i, h := range bd.live.view.heads {
			if h >= 0 && i != bd.seat {
				dst = append(dst, h)
			}
		}
		return dst
	}
	for c, g := range b.cells {
		if g.kind == kEnemyHead && !g.idle {
			dst = append(dst, int32(c))
		}
	}
	return dst
}

// food lists the cells that show an apple, gold or a fury pill, in cell
// order, until the next parse.
func (b *botBoard) food() []int32 {
	if b.board.live != nil {
		return b.board.food()
	}
	b.foodCells = b.foodCells[:0]
	for c, g := range b.cells {
		if g.kind == kApple || g.kind == kGold || g.kind == kFury {
			b.foodCells = append(b.foodCells, int32(c))
		}
	}
	return b.foodCells
}

// dirArm maps a direction to its arm bit.
var dirArm = [4]uint8{armUp, armDown, armLeft, armRight}

// appendStones appends the cells that show a stone, in cell order.
func (b *botBoard) appendStones(dst []int32) []int32 {
	if b.board.live != nil {
		return appendShown(dst, b.drawing.grid, b.drawing.seats, &isStone)
	}
	for c := range b.w * b.w {
		if b.kind(c) == kStone {
			dst = append(dst, int32(c))
		}
	}
	return dst
}

// length traces a snake from its head along the arms of its body glyphs
// and returns the number of cells, or limit if it has more.
func (b *botBoard) length(head, limit int) int {
	body := kEnemyBody
	if b.kind(head) == kOwnHead {
		body = kOwnBody
	}
	prev, cur := head, -1
	for d := int8(0); d < 4; d++ { // the neck is the neighbour whose arm points back at the head
		if c := b.step(head, d); b.kind(c) == body && b.info(c).arms&dirArm[d^1] != 0 {
			cur = c
			break
		}
	}
	n := 1
	for cur >= 0 && n < min(limit, b.n*b.n) {
		n++
		arms := b.info(cur).arms
		next := -1
		for d := int8(0); d < 4; d++ {
			if arms&dirArm[d] == 0 {
				continue
			}
			if c := b.step(cur, d); c != prev && b.kind(c) == body {
				next = c
				break
			}
		}
		prev, cur = cur, next
	}
	return n
}

// ownLength is length for the bot's own head.
func (b *botBoard) ownLength(head, limit int) int {
	if b.board.live != nil {
		if n, ok := b.board.ownLength(limit); ok {
			return n
		}
	}
	return b.length(head, limit)
}

// randomBot moves in a random direction whose cell is free now (empty or
// food), if there is one.
type randomBot struct {
	r     *rng.Rand
	board botBoard
}

func newRandom(_ sim.Setup, _ int, seed uint64) (sim.Bot, error) {
	return &randomBot{r: rng.New(seed)}, nil
}

func (b *randomBot) Act(v any) string {
	view, ok := sim.ReadView[View](v)
	if !ok || !b.board.parse(view.Board) {
		return ""
	}
	head := b.board.ownHead()
	if head < 0 {
		return ""
	}
	var dirs [4]int8
	n := 0
	for d := int8(0); d < 4; d++ {
		if b.board.enterable(b.board.step(head, d)) {
			dirs[n] = d
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return dirNames[dirs[b.r.IntN(n)]]
}

// greedyBot walks the shortest safe path to the best food (apples, gold,
// pills; enemy bodies while in fury), keeps clear of cells where a snake
// that would win a head-on could move next, and prefers steps with room
// for its length plus 2 (24 cells at most). It keeps the path it found and
// follows it while the path stays passable and its target stays worth
// going to, and no food may be nearer than planAge turns after the
// search, so most turns cost a walk along the path rather than a search.
//
// It reads only the cells it asks about: a turn on its path looks at the
// path, the step and the room beyond it; an enemy's length is traced only
// when its head is next to such a cell.
type greedyBot struct {
	board botBoard
	head  int  // its own head this turn
	fury  bool // its own head is in fury
	// short is its own length up to shortLength; length is its length, or
	// 0 until asked for.
	short, length int
	// visits holds, for the cells the last search reached (those whose
	// visit's search equals searched), how it reached them.
	visits   []visit
	searched int32
	queue    []int
	seen     []int32
	stamp    int32
	// enemies are this turn's moving enemy heads, each judged once asked
	// about: whether a head-on next to it would kill us.
	enemies []enemy
	heads   []int32
	// near marks the cells next to an enemy head this turn, those whose
	// near equals turn. A head-on is feared only within 2 cells of the
	// head, so only enemy heads within 3 cells of it are marked.
	near []int32
	turn int32
	// food is the cells of food, and stones those of stones when a search
	// may end on one anywhere (in fury, from a length of 12); goals are
	// the targets of these nearest the head on an empty board, for bound:
	// no other can cost less than rest less the steps from the head.
	food   []int32
	stones []int32
	goals  []goal
	rest   int32
	col    int32 // the head's column and row, for bound
	row    int32
	// open holds the cells a search has still to take, by the least cost
	// of a target through them.
	open [][]int32
	// plan is the path the last search found, from the head then to the
	// target, of kind planKind; plan[at] is the cell the head should be on
	// now, at turns later.
	plan     []int32
	planKind cellKind
	at       int
	// roomy is set when the last turn stepped along the plan into room
	// for its length.
	roomy bool
	// drawable says the last turn read a board with its head, and sketch
	// is that turn's drawing (Drawing).
	drawable bool
	sketch   sim.Sketch
}

// enemy is a moving enemy head and, once judged, whether a head-on next
// to it kills us.
type enemy struct {
	cell          int
	judged, loses bool
}

// shortLength is the most of its own length a turn needs to know unless
// it judges a head-on: it needs room for its length plus 2, 24 cells at
// most, and passes stones from a length of 12.
const shortLength = 22

// planSight is how many cells of the plan ahead are checked each turn:
// further on, a body across the path may well have moved on by the time
// the head gets there, and the check is made again on the way.
const planSight = 3

// planAge is the most turns a plan is followed without looking for a
// nearer target, so a target that appears closer is not ignored for long.
const planAge = 6

func newGreedy(_ sim.Setup, _ int, _ uint64) (sim.Bot, error) {
	return &greedyBot{}, nil
}

// Target values in cells of walking: a target is worth going value cells
// further than a plain apple.
const (
	valueApple = 0
	valueGold  = 8
	valueFury  = 6
	valuePrey  = 6
)

func (b *greedyBot) Act(v any) string {
	roomy := b.roomy
	b.roomy = false
	head := b.look(v)
	b.drawable = head >= 0
	if head < 0 {
		return ""
	}
	if !b.planValid(head) {
		b.makePlan(head, b.search(head))
	}
	toward := int8(noDir)
	if b.at+1 < len(b.plan) {
		toward = b.dirTo(head, int(b.plan[b.at+1]))
	}
	d := b.bestStep(head, toward, roomy)
	if d == noDir {
		return ""
	}
	if d == toward {
		b.at++
	} else {
		b.plan = b.plan[:0]
	}
	return dirNames[d]
}

// Drawing draws the plan being followed: the path from the head to its
// target (at most planDrawn cells of it) and the target, named.
func (b *greedyBot) Drawing() json.RawMessage {
	b.sketch.Reset()
	if !b.drawable || b.at >= len(b.plan) || b.board.w == 0 {
		return nil
	}
	w := int32(b.board.w)
	xy := func(c int32) (float64, float64) { return float64(c % w), float64(c / w) }
	hx, hy := xy(int32(b.head))
	path := [][2]float64{{hx, hy}}
	for i := b.at; i < len(b.plan) && i < b.at+planDrawn; i++ {
		x, y := xy(b.plan[i])
		path = append(path, [2]float64{x, y})
	}
	b.sketch.Path(path, "")
	tx, ty := xy(b.plan[len(b.plan)-1])
	b.sketch.Mark(tx, ty, "")
	if name := targetNames[b.planKind]; name != "" {
		b.sketch.Text(name, tx, ty, "black")
	}
	return b.sketch.JSON()
}

// planDrawn bounds the cells of a plan Drawing draws.
const planDrawn = 40

// targetNames name the kinds of cell a plan may end on.
var targetNames = map[cellKind]string{kApple: "apple", kGold: "gold", kFury: "fury", kStone: "stone", kEnemyHead: "prey", kEnemyBody: "prey"}

// look reads the view for a turn: the board, its own head, fury and
// length, and the enemy heads. It returns the head, or -1 when the view
// is not a board or shows no moving head of its own.
func (b *greedyBot) look(v any) int {
	view, ok := sim.ReadView[View](v)
	if !ok || !b.board.parse(view.Board) {
		return -1
	}
	head := b.board.ownHead()
	if head < 0 {
		return -1
	}
	b.fit(b.board.w * b.board.w)
	b.head, b.fury, b.length = head, b.board.furious(head), 0
	b.short = b.board.ownLength(head, shortLength)
	b.heads = b.board.appendEnemies(b.heads[:0])
	b.enemies = b.enemies[:0]
	b.turn++
	for _, c := range b.heads {
		b.enemies = append(b.enemies, enemy{cell: int(c)})
		if b.board.distance(int(c), head) > 3 {
			continue
		}
		for d := int8(0); d < 4; d++ {
			b.near[b.board.step(int(c), d)] = b.turn
		}
	}
	return head
}

// planValid reports whether the kept plan still holds with the head on
// head: its target still worth as much, its next planSight cells still
// passable at their distance, and, once planAge turns old, no food nearer on an empty board
// than the target is along the plan (then the plan counts as new).
func (b *greedyBot) planValid(head int) bool {
	if b.at+1 >= len(b.plan) || int(b.plan[b.at]) != head {
		return false
	}
	target := int(b.plan[len(b.plan)-1])
	value := b.value(b.board.kind(target))
	if b.board.kind(target) != b.planKind || value < -100 {
		return false
	}
	for i, c := range b.plan[b.at+1 : min(b.at+1+planSight, len(b.plan))] {
		if !b.passable(int(c), int32(i)) {
			return false
		}
	}
	if b.at >= planAge {
		if b.mayBeat(head, target, int32(len(b.plan)-1-b.at)-value) {
			return false
		}
		b.plan, b.at = b.plan[b.at:], 0
	}
	return true
}

// mayBeat reports whether a target other than target might cost less
// than cost from head: out of fury, a piece of food whose distance on an
// empty board less its value is less; in fury, when bites and stones are
// targets too, always.
func (b *greedyBot) mayBeat(head, target int, cost int32) bool {
	if b.fury {
		return true
	}
	b.food = b.board.food()
	for _, t := range b.food {
		if int(t) != target && int32(b.board.distance(head, int(t)))-b.value(b.board.kind(int(t))) < cost {
			return true
		}
	}
	return false
}

// makePlan keeps the path the last search found from head to target, or
// no plan when target is -1.
func (b *greedyBot) makePlan(head, target int) {
	b.plan, b.at = b.plan[:0], 0
	if target < 0 {
		return
	}
	b.planKind = b.board.kind(target)
	for c := target; c != head; c = int(b.visits[c].from) {
		b.plan = append(b.plan, int32(c))
	}
	b.plan = append(b.plan, int32(head))
	slices.Reverse(b.plan)
}

// dirTo is the direction from cell c to its neighbour nc, or noDir.
func (b *greedyBot) dirTo(c, nc int) int8 {
	for d := int8(0); d < 4; d++ {
		if b.board.step(c, d) == nc {
			return d
		}
	}
	return noDir
}

// fit sizes the scratch slices for a board of n padded cells.
func (b *greedyBot) fit(n int) {
	if len(b.visits) != n {
		b.visits, b.queue = make([]visit, n), make([]int, 0, n)
		b.plan = b.plan[:0]
		b.seen, b.near = make([]int32, n), make([]int32, n)
	}
}

// loses reports whether a head-on next to enemy e kills us: it does
// unless we are 2 longer, or we are in fury and the enemy is not; an
// enemy in fury always wins against us without.
func (b *greedyBot) loses(e *enemy) bool {
	if !e.judged {
		if b.length == 0 {
			b.length = b.short
			if b.short == shortLength {
				b.length = b.board.length(b.head, b.board.n*b.board.n)
			}
		}
		// All that matters of the enemy's length is whether we are 2
		// longer, so it is traced no further than that.
		g := b.board.info(e.cell)
		even := b.board.length(e.cell, max(b.length-1, 1)) >= b.length-1 // we are not 2 longer
		e.judged = true
		e.loses = !b.fury && (g.fury || even) || b.fury && g.fury && even
	}
	return e.loses
}

// headOn reports whether cell c is next to an enemy head that would win a
// head-on there (lose true) or lose one (lose false).
func (b *greedyBot) headOn(c int, lose bool) bool {
	if b.near[c] != b.turn {
		return false
	}
	for i := range b.enemies {
		if e := &b.enemies[i]; b.board.adjacent(c, e.cell) && b.loses(e) == lose {
			return true
		}
	}
	return false
}

// passable reports whether a path that has walked dist cells may enter
// cell c. A head-on is feared on the first step only: by the time a path
// gets further, the enemy's head has moved on.
func (b *greedyBot) passable(c int, dist int32) bool {
	if b.board.enterable(c) {
		return b.safe(c, dist)
	}
	switch b.board.kind(c) {
	case kStone:
		return b.fury && dist <= 1 || b.short >= 12 && b.safe(c, dist)
	case kEnemyBody:
		return b.fury && dist <= 1 // a bite in fury, only where the fury surely lasts
	}
	return false
}

// safe reports whether a path that has walked dist cells fears no head-on
// on entering cell c.
func (b *greedyBot) safe(c int, dist int32) bool {
	return dist > 1 || b.near[c] != b.turn || !b.headOn(c, true)
}

// search walks from head over passable cells, remembering each cell's
// distance and the cell before, and returns the target with the lowest
// distance less value, or -1 when none is in reach. It is an A* search:
// it takes cells in order of the least a target through them can cost,
// their distance plus the least cost from them on an empty board (bound),
// most recently found first among equals, so in open ground it walks
// straight to the target; it stops when no cell left can beat the best
// target found.
func (b *greedyBot) search(head int) int {
	bd := &b.board
	b.searched++
	b.food, b.stones = bd.food(), b.stones[:0]
	if !b.fury && len(b.food) == 0 {
		return -1 // out of fury, only food is worth going to
	}
	if b.fury && b.short >= 12 {
		b.stones = bd.appendStones(b.stones)
	}
	for i := range b.open {
		b.open[i] = b.open[i][:0]
	}
	b.reach(head, head, 0)
	b.aim(head)
	base := b.bound(head, 0)
	b.push(head, base, base)
	bestCell, bestCost := -1, int32(1<<30)
	for f := 0; f < len(b.open) && base+int32(f) < bestCost; f++ {
		for len(b.open[f]) > 0 && base+int32(f) < bestCost {
			c := int(b.open[f][len(b.open[f])-1])
			b.open[f] = b.open[f][:len(b.open[f])-1]
			at := &b.visits[c]
			if at.taken == b.searched {
				continue // taken already at a lower distance
			}
			at.taken = b.searched
			dist, k := at.dist, bd.kind(c)
			if v := b.value(k); v > -100 && c != head && dist-v < bestCost {
				bestCell, bestCost = c, dist-v
			}
			if k == kEnemyBody || k == kStone {
				continue // the walk ends where the bite or the stone is
			}
			for _, delta := range bd.deltas {
				nc := c + delta
				if s := b.visits[nc]; s.search == b.searched && dist+1 >= s.dist {
					continue
				}
				// Out of fury a stone ends the walk with no target, so
				// only enterable cells lead anywhere.
				if b.fury && !b.passable(nc, dist) || !b.fury && !(bd.enterable(nc) && b.safe(nc, dist)) {
					continue
				}
				// A cell through which no target can beat the best found
				// would never be taken.
				if f := dist + 1 + b.bound(nc, dist+1); f < bestCost {
					b.reach(nc, c, dist+1)
					b.push(nc, f, base)
				}
			}
		}
	}
	return bestCell
}

// goal is a piece of food: its column and row, value, and cost from the
// head on an empty board.
type goal struct{ col, row, value, cost int32 }

// goalCount is how many pieces of food bound measures the distance to;
// a search seldom walks far enough for any other to count.
const goalCount = 4

// aim picks the goals for a search from head: the food and stones of
// least cost on an empty board, cheapest first, the least of the others'
// costs in rest.
func (b *greedyBot) aim(head int) {
	bd := &b.board
	b.goals, b.rest = b.goals[:0], 1<<30
	b.col, b.row = int32(bd.col[head]), int32(bd.row[head])
	for _, t := range b.food {
		b.addGoal(int(t))
	}
	for _, t := range b.stones {
		b.addGoal(int(t))
	}
}

// addGoal counts target t among the goals if it is one of the goalCount
// cheapest so far, in rest if not.
func (b *greedyBot) addGoal(t int) {
	bd := &b.board
	g := goal{col: int32(bd.col[t]), row: int32(bd.row[t]), value: b.value(bd.kind(t))}
	g.cost = b.span(g.col, g.row) - g.value
	if len(b.goals) == goalCount {
		if g.cost >= b.goals[goalCount-1].cost {
			b.rest = min(b.rest, g.cost)
			return
		}
		b.rest = min(b.rest, b.goals[goalCount-1].cost)
		b.goals = b.goals[:goalCount-1]
	}
	i := len(b.goals)
	b.goals = append(b.goals, g)
	for ; i > 0 && b.goals[i-1].cost > g.cost; i-- {
		b.goals[i] = b.goals[i-1]
	}
	b.goals[i] = g
}

// span is the number of steps on an empty board from the head to the
// cell at column col and row row.
func (b *greedyBot) span(col, row int32) int32 {
	dx, dy := col-b.col, row-b.row
	return max(dx, -dx) + max(dy, -dy)
}

// bound is the least a target can cost from cell c, reached after dist
// cells: the distance on an empty board to a goal less its value (for
// targets other than the goals, at least rest less the steps from the head
// to c); in fury, up to 2 cells from the head, where passable lets a path
// bite, minus a bite's value when that is less. It never falls by more
// than 1 a step along a path, so A* takes each cell at its least distance.
func (b *greedyBot) bound(c int, dist int32) int32 {
	col, row := int32(b.board.col[c]), int32(b.board.row[c])
	least := b.rest - b.span(col, row)
	for _, g := range b.goals {
		dx, dy := col-g.col, row-g.row
		least = min(least, max(dx, -dx)+max(dy, -dy)-g.value)
	}
	if b.fury && dist <= 2 {
		least = min(least, -valuePrey)
	}
	return least
}

// push adds cell c to the search's open cells with the least cost f of a
// target through it, base being the least of all.
func (b *greedyBot) push(c int, f, base int32) {
	i := int(f - base)
	for len(b.open) <= i {
		b.open = append(b.open, nil)
	}
	b.open[i] = append(b.open[i], int32(c))
}

// reach records that the search reached cell c from cell from after dist
// cells.
func (b *greedyBot) reach(c, from int, dist int32) {
	b.visits[c].search, b.visits[c].dist, b.visits[c].from = b.searched, dist, int32(from)
}

// visit is how a search reached a cell: the search, the distance from the
// head and the cell before on the way; taken is the search that took it.
// Kept together, they are read from one place.
type visit struct{ search, dist, from, taken int32 }

// bestStep ranks the steps from head: a passable cell first, then enough
// room, then the way to the target (toward, noDir for none), then a cell
// where a head-on would win, then more room. It returns noDir when every
// neighbour is a wall or a body. When roomy (the head stepped into room
// last turn), the way to the target is taken without counting its room if
// it leads into open ground: every neighbour beyond it enterable.
func (b *greedyBot) bestStep(head int, toward int8, roomy bool) int8 {
	bd := &b.board
	need := min(b.short+2, 24)
	if toward != noDir {
		// A passable way to the target with room scores 1700 and more, the
		// room, at least need; no other step reaches 1604 plus need, as
		// room stops counting within 3 cells of its limit.
		if c := bd.step(head, toward); b.passable(c, 0) && (roomy && b.clear(c, head) || b.room(c, need) >= need) {
			b.roomy = true
			return toward
		}
	}
	bestDir, bestScore := int8(noDir), -1<<30
	for d := int8(0); d < 4; d++ {
		c := bd.step(head, d)
		score := 0
		switch {
		case b.passable(c, 0):
			score = 1000
		case bd.enterable(c): // safe now but maybe a head-on
			score = 0
		default:
			continue
		}
		room := b.room(c, need)
		if room >= need {
			score += 500
		}
		score += room
		if d == toward {
			score += 200
		}
		if b.headOn(c, false) && b.passable(c, 0) {
			score += 100
		}
		if score > bestScore {
			bestDir, bestScore = d, score
		}
	}
	return bestDir
}

// value is how much a cell of kind k is worth as a target, or -1000 for
// no target.
func (b *greedyBot) value(k cellKind) int32 {
	switch k {
	case kApple:
		return valueApple
	case kGold:
		return valueGold
	case kFury:
		return valueFury
	case kEnemyBody:
		return valuePrey
	case kStone:
		if b.fury {
			return valueApple
		}
	}
	return -1000
}

// clear reports whether every neighbour of cell c but from is enterable.
func (b *greedyBot) clear(c, from int) bool {
	for _, delta := range b.board.deltas {
		if nc := c + delta; nc != from && !b.board.enterable(nc) {
			return false
		}
	}
	return true
}

// room counts the enterable cells reachable from c, c included; it stops
// counting once it has found limit of them.
func (b *greedyBot) room(c, limit int) int {
	bd, seen := &b.board, b.seen
	b.stamp++
	stamp := b.stamp
	q := b.queue[:0]
	q = append(q, c)
	seen[c] = stamp
	for qi := 0; qi < len(q) && len(q) < limit; qi++ {
		for _, delta := range bd.deltas {
			if nc := q[qi] + delta; seen[nc] != stamp && bd.enterable(nc) {
				seen[nc] = stamp
				q = append(q, nc)
			}
		}
	}
	b.queue = q
	return len(q)
}
