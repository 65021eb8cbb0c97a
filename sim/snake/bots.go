package snake

import (
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

// botBoard is a board as a bot reads it.
type botBoard struct {
	n     int
	board Board
	// cells is what each glyph means, the bot's own snake in own glyphs,
	// once withOwn has read them.
	cells []glyphInfo
	// next[c*4+d] is the neighbour of cell c in direction d, -1 off the
	// board, for boards of n by n cells.
	next []int32
}

// parse takes a View's board; false if it is not a square of glyphs. It
// reads no cell: a bot that only asks whether a few cells are enterable
// reads them with enterable.
func (b *botBoard) parse(board Board) bool {
	b.board = board
	n, cells := 0, board.len()
	for n*n < cells {
		n++
	}
	if n*n != cells || n == 0 {
		return false
	}
	if n != b.n || b.next == nil {
		b.n, b.next = n, make([]int32, 0, 4*n*n)
		for c := range n * n {
			for d := int8(0); d < 4; d++ {
				b.next = append(b.next, int32(neighbour(n, c, d)))
			}
		}
	}
	return true
}

// enterable reports whether a head may enter cell c now; the bot's own
// snake blocks it whichever glyphs it is read in.
func (b *botBoard) enterable(c int) bool { return b.board.info(c).kind.enterable() }

// withOwn reads every cell into cells, the bot's own snake in own glyphs,
// for a bot that tells its snake from the others.
func (b *botBoard) withOwn() {
	b.cells = b.board.appendInfos(b.cells[:0])
	for _, o := range b.board.own {
		b.cells[o.i] = readGlyph(o.glyph)
	}
}

// step is the neighbour of cell c in direction d (up to right), or -1 off
// the board.
func (b *botBoard) step(c int, d int8) int { return int(b.next[c*4+int(d)]) }

// neighbour is the neighbour of cell c of an n by n board in direction d,
// or -1 off the board.
func neighbour(n, c int, d int8) int {
	x, y := c%n, c/n
	switch d {
	case up:
		y--
	case down:
		y++
	case left:
		x--
	case right:
		x++
	}
	if x < 0 || y < 0 || x >= n || y >= n {
		return -1
	}
	return y*n + x
}

// dirArm maps a direction to its arm bit.
var dirArm = [4]uint8{armUp, armDown, armLeft, armRight}

// ownHead finds the bot's moving head, the first on the board if it
// shows more than one, or -1 when it sleeps or is dead.
func (b *botBoard) ownHead() int {
	head := -1
	for _, o := range b.board.own {
		if g := readGlyph(o.glyph); g.kind == kOwnHead && !g.idle && (head < 0 || int(o.i) < head) {
			head = int(o.i)
		}
	}
	return head
}

// length traces a snake from its head along the arms of its body glyphs
// and returns the number of cells.
func (b *botBoard) length(head int) int {
	body := kEnemyBody
	if b.cells[head].kind == kOwnHead {
		body = kOwnBody
	}
	prev, cur := head, -1
	for d := int8(0); d < 4; d++ { // the neck is the neighbour whose arm points back at the head
		if c := b.step(head, d); c >= 0 && b.cells[c].kind == body && b.cells[c].arms&dirArm[d^1] != 0 {
			cur = c
			break
		}
	}
	n := 1
	for cur >= 0 && n < len(b.cells) {
		n++
		g := b.cells[cur]
		next := -1
		for d := int8(0); d < 4; d++ {
			if g.arms&dirArm[d] == 0 {
				continue
			}
			if c := b.step(cur, d); c >= 0 && c != prev && b.cells[c].kind == body {
				next = c
				break
			}
		}
		prev, cur = cur, next
	}
	return n
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
		if c := b.board.step(head, d); c >= 0 && b.board.enterable(c) {
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
// going to, searching again after planAge turns at most, so most turns
// cost a walk along the path rather than a search.
type greedyBot struct {
	board  botBoard
	fury   bool // its own head is in fury
	length int  // its own length
	// dist and from (the cell before, on the way from the head) are set
	// for the cells the last search reached, those whose reached equals
	// searched.
	dist     []int32
	from     []int32
	reached  []int32
	searched int32
	queue    []int
	seen     []int32
	stamp    int32
	// danger marks cells next to the head of an enemy that would win a
	// head-on there; prey marks cells next to heads that would lose one.
	danger, prey []bool
	heads        []int32 // the board's head cells, for markHeadOns
	// plan is the path the last search found, from the head then to the
	// target, of kind planKind; plan[at] is the cell the head should be on
	// now, at turns later.
	plan     []int32
	planKind cellKind
	at       int
}

// planAge is the most turns a plan is followed without searching again,
// so a target that appears closer is not ignored for long.
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
	maxValue   = valueGold // the most any target is worth
)

func (b *greedyBot) Act(v any) string {
	view, ok := sim.ReadView[View](v)
	if !ok || !b.board.parse(view.Board) {
		return ""
	}
	head := b.board.ownHead()
	if head < 0 {
		return ""
	}
	b.board.withOwn()
	b.fit(len(b.board.cells))
	b.fury, b.length = b.board.cells[head].fury, b.board.length(head)
	b.markHeadOns()
	if !b.planValid(head) {
		b.makePlan(head, b.search(head))
	}
	toward := int8(noDir)
	if b.at+1 < len(b.plan) {
		toward = b.dirTo(head, int(b.plan[b.at+1]))
	}
	d := b.bestStep(head, toward)
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

// planValid reports whether the kept plan still holds with the head on
// head: not too old, its target still worth as much, each cell still
// passable at its distance.
func (b *greedyBot) planValid(head int) bool {
	if b.at+1 >= len(b.plan) || int(b.plan[b.at]) != head || b.at >= planAge {
		return false
	}
	target := int(b.plan[len(b.plan)-1])
	if b.board.cells[target].kind != b.planKind || b.value(target) < -100 {
		return false
	}
	for i, c := range b.plan[b.at+1:] {
		if !b.passable(int(c), int32(i)) {
			return false
		}
	}
	return true
}

// makePlan keeps the path the last search found from head to target, or
// no plan when target is -1.
func (b *greedyBot) makePlan(head, target int) {
	b.plan, b.at = b.plan[:0], 0
	if target < 0 {
		return
	}
	b.planKind = b.board.cells[target].kind
	for c := target; c != head; c = int(b.from[c]) {
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

// fit sizes the scratch slices for a board of n cells.
func (b *greedyBot) fit(n int) {
	if len(b.dist) != n {
		b.dist, b.from, b.reached, b.queue = make([]int32, n), make([]int32, n), make([]int32, n), make([]int, 0, n)
		b.plan = b.plan[:0]
		b.seen, b.danger, b.prey = make([]int32, n), make([]bool, n), make([]bool, n)
	}
}

// markHeadOns fills danger and prey around every moving enemy head.
func (b *greedyBot) markHeadOns() {
	bd := &b.board
	clear(b.danger)
	clear(b.prey)
	b.heads = bd.board.appendHeads(b.heads[:0])
	for _, c32 := range b.heads {
		c, g := int(c32), bd.cells[c32]
		if g.kind != kEnemyHead || g.idle {
			continue
		}
		// A head-on kills us unless we are 2 longer, or we are in fury and
		// the enemy is not; an enemy in fury always wins against us without.
		enemyLen := bd.length(c)
		lose := !b.fury && (g.fury || b.length < enemyLen+2) || b.fury && g.fury && b.length < enemyLen+2
		for d := int8(0); d < 4; d++ {
			if nc := bd.step(c, d); nc >= 0 {
				if lose {
					b.danger[nc] = true
				} else {
					b.prey[nc] = true
				}
			}
		}
	}
}

// passable reports whether a path that has walked dist cells may enter
// cell c.
func (b *greedyBot) passable(c int, dist int32) bool {
	switch k := b.board.cells[c].kind; {
	case k.enterable():
		return !b.danger[c]
	case k == kStone:
		return b.fury && dist <= 1 || b.length >= 12 && !b.danger[c]
	case k == kEnemyBody:
		return b.fury && dist <= 1 // a bite in fury, only where the fury surely lasts
	}
	return false
}

// search walks breadth-first from head over passable cells, remembering
// each cell's distance and the cell before, and returns the target with the
// lowest distance less value, the first found of the lowest, or -1 when
// none is in reach. It stops where no cell further away can cost less, so
// distances beyond are left unset.
func (b *greedyBot) search(head int) int {
	bd := &b.board
	b.searched++
	b.queue = b.queue[:0]
	b.reach(head, head, 0)
	bestCell, bestCost := -1, int32(1<<30)
	for d := int8(0); d < 4; d++ {
		if c := bd.step(head, d); c >= 0 && b.passable(c, 0) {
			b.reach(c, head, 1)
			b.queue = append(b.queue, c)
		}
	}
	for qi := 0; qi < len(b.queue); qi++ {
		c := b.queue[qi]
		dist := b.dist[c]
		if dist-maxValue >= bestCost {
			break // the queue is in order of distance: no cell left can cost less
		}
		if v := b.value(c); v > -100 && dist-v < bestCost {
			bestCell, bestCost = c, dist-v
		}
		if k := bd.cells[c].kind; k == kEnemyBody || k == kStone {
			continue // the walk ends where the bite or the stone is
		}
		for _, nc := range bd.next[c*4 : c*4+4] {
			if nc >= 0 && b.reached[nc] != b.searched && b.passable(int(nc), dist) {
				b.reach(int(nc), c, dist+1)
				b.queue = append(b.queue, int(nc))
			}
		}
	}
	return bestCell
}

// reach records that the search reached cell c from cell from after dist
// cells.
func (b *greedyBot) reach(c, from int, dist int32) {
	b.reached[c], b.dist[c], b.from[c] = b.searched, dist, int32(from)
}

// bestStep ranks the steps from head: a passable cell first, then enough
// room, then the way to the target (toward, noDir for none), then a cell
// where a head-on would win, then more room. It returns noDir when every
// neighbour is a wall or a body.
func (b *greedyBot) bestStep(head int, toward int8) int8 {
	bd := &b.board
	need := min(b.length+2, 24)
	bestDir, bestScore := int8(noDir), -1<<30
	for d := int8(0); d < 4; d++ {
		c := bd.step(head, d)
		if c < 0 {
			continue
		}
		score := 0
		switch {
		case b.passable(c, 0):
			score = 1000
		case bd.cells[c].kind.enterable(): // safe now but maybe a head-on
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
		if b.prey[c] && b.passable(c, 0) {
			score += 100
		}
		if score > bestScore {
			bestDir, bestScore = d, score
		}
	}
	return bestDir
}

// value is how much a cell is worth as a target, or -1000 for no target.
func (b *greedyBot) value(c int) int32 {
	switch b.board.cells[c].kind {
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

// room counts the enterable cells reachable from c, c included; it stops
// counting once it has found limit of them.
func (b *greedyBot) room(c, limit int) int {
	bd := &b.board
	b.stamp++
	q := b.queue[:0]
	q = append(q, c)
	b.seen[c] = b.stamp
	for qi := 0; qi < len(q) && len(q) < limit; qi++ {
		for d := int8(0); d < 4; d++ {
			nc := bd.step(q[qi], d)
			if nc < 0 || b.seen[nc] == b.stamp {
				continue
			}
			if bd.cells[nc].kind.enterable() {
				b.seen[nc] = b.stamp
				q = append(q, nc)
			}
		}
	}
	b.queue = q
	return len(q)
}
