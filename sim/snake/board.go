package snake

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// Snake part kinds, indexes into ownGlyphs and enemyGlyphs (B11). Head
// kinds by direction come first so headUp+dir is the moving head.
const (
	headUp = iota
	headDown
	headLeft
	headRight
	headDead
	headFury
	headFlying
	headSleep
	tailArmUp // the arm points to the next body cell
	tailArmDown
	tailArmLeft
	tailArmRight
	tailSleep
	bodyH
	bodyV
	bodyLeftDown // arms toward the left and the lower neighbour
	bodyLeftUp
	bodyRightDown
	bodyRightUp
	numParts
)

// The glyphs of B11 for the bot's own snake and for the others; the enemy
// body uses the official clients' ─ │ rather than the README's — |.
var (
	ownGlyphs   = [numParts]rune{'▲', '▼', '◄', '►', '☻', '♥', '♠', '&', '╙', '╓', '╕', '╘', '~', '═', '║', '╗', '╝', '╔', '╚'}
	enemyGlyphs = [numParts]rune{'˄', '˅', '<', '>', '☺', '♣', '♦', 'ø', '¤', 'æ', 'ö', '×', '*', '─', '│', '┐', '┘', '┌', '└'}
)

// objectGlyphs draws the cells no snake covers.
var objectGlyphs = [...]rune{
	empty: ' ', wall: '☼', start: '#', outside: '☼',
	apple: '○', stone: '●', gold: '$', furyPill: '®', flyingPill: '©',
}

// objectNames and partNames say what the glyphs of objectGlyphs and of
// ownGlyphs and enemyGlyphs show, for the legend of Game.View.
var (
	objectNames = [...]string{
		empty:      "an empty cell",
		wall:       "a wall",
		start:      "a start floor: a snake appears with its head here and its tail in the wall to its left; a barrier otherwise",
		apple:      fmt.Sprintf("an apple: +%d point, one cell longer", applePoints),
		stone:      fmt.Sprintf("a stone: +%d points, carried for ACT; %d cells shorter unless in fury", stonePoints, stoneShrink),
		gold:       fmt.Sprintf("gold: +%d points", goldPoints),
		furyPill:   fmt.Sprintf("a fury pill: %d ticks of fury (bites enemies, eats stones without shrinking)", furyTicks),
		flyingPill: fmt.Sprintf("a flying pill: %d ticks of flight (over stones and snakes)", flyingTicks),
	}
	partNames = [numParts]string{
		headUp:        "head, moving up",
		headDown:      "head, moving down",
		headLeft:      "head, moving left",
		headRight:     "head, moving right",
		headDead:      "head of a snake that died this tick",
		headFury:      "head in fury",
		headFlying:    "head in flight",
		headSleep:     "head of a sleeping snake (in its pen until the round starts)",
		tailArmUp:     "tail end, body going on up",
		tailArmDown:   "tail end, body going on down",
		tailArmLeft:   "tail end, body going on left",
		tailArmRight:  "tail end, body going on right",
		tailSleep:     "tail of a sleeping snake",
		bodyH:         "body, left to right",
		bodyV:         "body, up to down",
		bodyLeftDown:  "body, turning from left to down",
		bodyLeftUp:    "body, turning from left to up",
		bodyRightDown: "body, turning from right to down",
		bodyRightUp:   "body, turning from right to up",
	}
)

// glyphLegend lists every glyph a board shows with its meaning, built from
// the tables the board is drawn from. The flying pill and a flying head
// appear only in the rulesets with flying pills.
func glyphLegend() []sim.Glyph {
	var flying []string
	for _, rs := range rulesets {
		if rs.flying {
			flying = append(flying, rs.name)
		}
	}
	var out []sim.Glyph
	for o, r := range objectGlyphs {
		if o == int(outside) { // off the board: never drawn
			continue
		}
		g := sim.Glyph{Glyph: string(r), Meaning: objectNames[o]}
		if o == int(flyingPill) {
			g.Rulesets = flying
		}
		out = append(out, g)
	}
	for _, side := range []struct {
		who    string
		glyphs *[numParts]rune
	}{{"own snake", &ownGlyphs}, {"enemy snake", &enemyGlyphs}} {
		for p, r := range side.glyphs {
			g := sim.Glyph{Glyph: string(r), Meaning: side.who + ": " + partNames[p]}
			if p == headFlying {
				g.Rulesets = flying
			}
			out = append(out, g)
		}
	}
	return out
}

// objectInfos, ownInfos and enemyInfos are what objectGlyphs, ownGlyphs
// and enemyGlyphs mean to a bot, so a bot reads a lent board from small
// tables rather than by looking each rune up.
var objectInfos, ownInfos, enemyInfos = func() (o [len(objectGlyphs)]glyphInfo, own, e [numParts]glyphInfo) {
	for i, r := range objectGlyphs {
		o[i] = readGlyph(r)
	}
	for p := range numParts {
		own[p], e[p] = readGlyph(ownGlyphs[p]), readGlyph(enemyGlyphs[p])
	}
	return o, own, e
}()

// objectKinds, ownKinds and enemyKinds are the kinds of those infos, for a
// bot that asks only what a cell holds.
var objectKinds, ownKinds, enemyKinds = func() (o [len(objectGlyphs)]cellKind, own, e [numParts]cellKind) {
	for i := range objectInfos {
		o[i] = objectInfos[i].kind
	}
	for p := range numParts {
		own[p], e[p] = ownInfos[p].kind, enemyInfos[p].kind
	}
	return o, own, e
}()

// Arm bits: which neighbours of a body cell belong to the same snake.
const (
	armUp = 1 << iota
	armDown
	armLeft
	armRight
)

// viewCache holds which snake part is drawn on each board cell for the
// current turn; every perspective shares it.
type viewCache struct {
	turn  int // the turn it was built for, or -1
	valid bool
	seat  []int16 // per padded cell: the seat drawn there, or -1
	blank []int16 // -1 in every cell, to reset seat with one copy
	// part is the part drawn on each covered cell, bodyLater for a body
	// cell, whose part (m.part) is worked out from index, its index in the
	// snake's body, only when read: bots ask what few body cells look like.
	part  []uint8
	index []int32
	// hidden tells per seat whether a part of its snake is not drawn,
	// another part having claimed the cell first; heads is per seat the
	// padded cell of its moving head (movingHead), or -1.
	hidden []bool
	heads  []int32
	order  []int
	board  Board // the observer's board, drawn by the first View of the turn
	// lent holds the view Peek lends each seat; a lent board reads the
	// match, so it is the same every turn.
	lent []View
	// food lists the cells that show an apple, gold or a fury pill, found
	// by the first bot of the turn that asks (scanned tells whether one
	// has).
	food    []int32
	scanned bool
}

// arm is the arm bit from cell a toward its neighbour b, or 0.
func (m *match) arm(a, b int32) int {
	switch b - a {
	case -int32(m.w):
		return armUp
	case int32(m.w):
		return armDown
	case -1:
		return armLeft
	case 1:
		return armRight
	}
	return 0
}

// headPart is the head glyph kind; precedence dead > sleeping > flying >
// fury > direction (B11).
func headPart(s *snake) uint8 {
	switch {
	case !s.alive:
		return headDead
	case !s.active:
		return headSleep
	case s.flying > 0:
		return headFlying
	case s.fury > 0:
		return headFury
	}
	return uint8(headUp + int(s.dir))
}

// bodyPart is the glyph kind of body cell k (0 = tail end, below the head).
func (m *match) bodyPart(s *snake, k int) uint8 {
	c := s.body[k]
	if k == 0 {
		if !s.active {
			return tailSleep
		}
		switch m.arm(c, s.body[1]) {
		case armUp:
			return tailArmUp
		case armDown:
			return tailArmDown
		case armLeft:
			return tailArmLeft
		}
		return tailArmRight
	}
	arms := m.arm(c, s.body[k-1]) | m.arm(c, s.body[k+1])
	switch arms {
	case armUp | armDown, armUp, armDown:
		return bodyV
	case armLeft | armDown:
		return bodyLeftDown
	case armLeft | armUp:
		return bodyLeftUp
	case armRight | armDown:
		return bodyRightDown
	case armRight | armUp:
		return bodyRightUp
	}
	return bodyH
}

// layout fills the view cache: dead heads first, then flying snakes, then
// the others, each group shortest first and every snake head first. The
// first part drawn on a cell wins, heads and bodies alike: the engine keeps
// the first snake part it adds at a cell (a set of points equal by
// coordinates) and drops the later ones.
func (m *match) layout() *viewCache {
	v := &m.view
	if v.valid && v.turn == m.turn {
		return v
	}
	if len(v.seat) != len(m.grid) {
		v.seat = make([]int16, len(m.grid))
		v.part = make([]uint8, len(m.grid))
		v.index = make([]int32, len(m.grid))
		v.blank = make([]int16, len(m.grid))
		for i := range v.blank {
			v.blank[i] = -1
		}
	}
	copy(v.seat, v.blank)
	v.order, v.board, v.scanned = v.order[:0], Board{}, false
	v.hidden, v.heads = v.hidden[:0], v.heads[:0]
	for i := range m.snakes {
		v.order = append(v.order, i)
		v.hidden = append(v.hidden, false)
	}
	// Insertion sort: stable, few seats, no allocation.
	for i := 1; i < len(v.order); i++ {
		for j := i; j > 0 && len(m.snakes[v.order[j]].body) < len(m.snakes[v.order[j-1]].body); j-- {
			v.order[j], v.order[j-1] = v.order[j-1], v.order[j]
		}
	}
	claim := func(seat int, c int32, part uint8, k int) {
		if v.seat[c] < 0 {
			v.seat[c], v.part[c], v.index[c] = int16(seat), part, int32(k)
		} else {
			v.hidden[seat] = true
		}
	}
	for _, i := range v.order {
		if s := &m.snakes[i]; !s.alive && len(s.body) > 0 {
			claim(i, s.head(), headDead, len(s.body)-1)
		}
	}
	for pass := range 2 {
		for _, i := range v.order {
			s := &m.snakes[i]
			if len(s.body) == 0 || (s.flying > 0) != (pass == 0) {
				continue
			}
			claim(i, s.head(), headPart(s), len(s.body)-1)
			for k := len(s.body) - 2; k >= 0; k-- {
				claim(i, s.body[k], bodyLater, k)
			}
		}
	}
	for i := range m.snakes {
		v.heads = append(v.heads, m.movingHead(i))
	}
	v.turn, v.valid = m.turn, true
	return v
}

// bodyLater is the part layout draws on a body cell, left for m.part to
// work out.
const bodyLater = numParts

// part is the part the view cache draws on padded cell c, which a snake
// covers.
func (m *match) part(c int32) uint8 {
	v := &m.view
	if p := v.part[c]; p != bodyLater {
		return p
	}
	return m.bodyPart(&m.snakes[v.seat[c]], int(v.index[c]))
}

// board draws the rows as seat sees them (own glyphs for its snake), or as
// an observer who owns no snake when seat is -1.
func (m *match) board(seat int) []string {
	v := m.layout()
	rows := make([]string, m.size)
	row := make([]rune, m.size)
	for y := range m.size {
		for x := range row {
			row[x] = m.glyph(v, seat, m.cell(x, y))
		}
		rows[y] = string(row)
	}
	return rows
}

func (m *match) glyph(v *viewCache, seat int, c int32) rune {
	d := drawing{seat: seat, seats: v.seat, parts: v.part, grid: m.grid, m: m}
	return drawn(&d, c, &objectGlyphs, &ownGlyphs, &enemyGlyphs)
}

// drawing is what the cells of a match show a seat: the layout of its
// view cache over the objects of its grid.
type drawing struct {
	seat  int
	seats []int16
	parts []uint8
	grid  []object
	m     *match // to work out the parts left for later
}

// drawn is what the drawing shows on padded cell c, taken from the tables
// of what an object, a part of the seat's own snake and a part of another
// look like (the glyphs) or mean to a bot (the infos).
func drawn[T any](d *drawing, c int32, objects *[len(objectGlyphs)]T, own, other *[numParts]T) T {
	switch s := int(d.seats[c]); {
	case s < 0:
		return objects[d.grid[c]]
	case s == d.seat:
		return own[d.m.part(c)]
	default:
		return other[d.m.part(c)]
	}
}

// enterable reports whether a head may enter padded cell c now: no snake
// part is, and its object is enterable.
func (d *drawing) enterable(c int32) bool { return d.seats[c] < 0 && objectEnterable[d.grid[c]] }

// objectEnterable tells the objects a head may enter without harm.
var objectEnterable = func() (e [len(objectGlyphs)]bool) {
	for i, k := range objectKinds {
		e[i] = k.enterable()
	}
	return e
}()

// kind is what the drawing shows on padded cell c to a bot that asks only
// what the cell holds, which needs no body part worked out.
func (d *drawing) kind(c int32) cellKind {
	s := int(d.seats[c])
	if s < 0 {
		return objectKinds[d.grid[c]]
	}
	p := d.parts[c]
	if p > headSleep {
		p = bodyH // every body part is a body to a bot
	}
	if s == d.seat {
		return ownKinds[p]
	}
	return enemyKinds[p]
}

// View is what the original server sends a bot each tick: the message
// "board=<glyphs>", here as {"board": "<glyphs>"}, the size x size glyphs
// row by row from the top-left, with the bot's own snake in own glyphs.
type View struct {
	Board Board `json:"board"`
}

// viewDoc explains View to bot authors; its legend is drawn from the same
// tables as the board.
var viewDoc = sim.ViewDoc{
	Fields: []sim.ViewField{
		{Path: "board", Meaning: "The board as the original server sends it (\"board=\" and this string): size×size glyphs (30×30 on the default map; a config map sets the size), row by row from the top-left corner. Glyph i (counting characters, not UTF-8 bytes) is in row i div size, column i mod size; row 0 is the top row. UP moves to the row above (i − size), DOWN to the row below (i + size), LEFT to i − 1, RIGHT to i + 1. (Codenjoy's own coordinates count y up from the bottom row, y = size − 1 − row; nothing a bot sees depends on that.) The bot's own snake is drawn in own glyphs, every other snake in enemy glyphs; see the legend."},
	},
	Board:  "board",
	Glyphs: glyphLegend(),
}

// Board is the glyphs of a View, a string in JSON. In memory it keeps
// them as runes along with what each means to a bot (readGlyph), so a
// built-in bot neither writes nor reads UTF-8 text every tick. The match
// draws the board once a tick, every seat's view shares it, and a view
// lists the cells of its seat's own snake, drawn over the shared board.
// Every cell in own glyphs is listed in own, so bots find their snake
// there without scanning the board.
//
// A board Peek lends has no glyphs of its own: it reads the match (live)
// as seat sees it until the match's next Step, so a bot that looks at a
// few cells does not pay for drawing them all.
type Board struct {
	glyphs []rune      // shared by the views of a tick: never written
	cells  []glyphInfo // readGlyph of each of glyphs, shared likewise
	own    []ownCell
	live   *match
	seat   int
}

// ownCell is a cell of a seat's own snake: its index in a Board and glyph.
type ownCell struct {
	i     int32
	glyph rune
}

// newBoard reads glyphs; their own snake's cells, if any, go to own too.
func newBoard(glyphs []rune) Board {
	b := Board{glyphs: glyphs, cells: make([]glyphInfo, len(glyphs))}
	for i, r := range glyphs {
		g := readGlyph(r)
		b.cells[i] = g
		if g.kind == kOwnHead || g.kind == kOwnBody {
			b.own = append(b.own, ownCell{int32(i), r})
		}
	}
	return b
}

// drawing is what a lent board reads until the match's next Step.
func (b Board) drawing() drawing {
	m := b.live
	return drawing{seat: b.seat, seats: m.view.seat, parts: m.view.part, grid: m.grid, m: m}
}

// movingHead is the padded cell of seat i's head when the view cache
// shows that head there, neither dead nor asleep, else -1.
func (m *match) movingHead(i int) int32 {
	if s := &m.snakes[i]; len(s.body) > 0 {
		h := s.head()
		if p := m.view.part[h]; int(m.view.seat[h]) == i && p < tailArmUp && p != headDead && p != headSleep && m.grid[h] != outside {
			return h
		}
	}
	return -1
}

// ownLength is what tracing a lent board's own snake from its head along
// the arms of its body glyphs counts, up to limit, read from the match
// when the last limit cells of the snake all show as its body; false when
// they do not, or its head flies (and may lie on its own body), and the
// snake must be traced. Only a snake's own parts join its cells, each to
// the next, so the trace walks its body.
func (b Board) ownLength(limit int) (int, bool) {
	m := b.live
	v := &m.view
	s := &m.snakes[b.seat]
	if len(s.body) < 2 || v.part[s.head()] == headFlying {
		return 0, false
	}
	if !v.hidden[b.seat] {
		return min(len(s.body), limit), true // every part shows
	}
	for _, c := range s.body[max(len(s.body)-limit, 0) : len(s.body)-1] {
		if int(v.seat[c]) != b.seat || v.part[c] < tailArmUp {
			return 0, false
		}
	}
	return min(len(s.body), limit), true
}

// food lists the padded cells of a lent board that show an apple, gold or
// a fury pill, in cell order; every seat sees the same, so the first bot
// of a turn that asks finds them for all. It keeps the last turn's cells
// that still show food and reads the whole board only when the match
// holds more food than they are: when some appeared, or lies under a
// dead snake's head.
func (b Board) food() []int32 {
	m := b.live
	v := &m.view
	if v.scanned {
		return v.food
	}
	seat := v.seat[:len(m.grid)]
	kept := v.food[:0]
	for _, c := range v.food {
		if isFood[m.grid[c]] && seat[c] < 0 {
			kept = append(kept, c)
		}
	}
	v.food = kept
	if len(v.food) != m.nApple+m.nGold+m.nFury {
		v.food = appendShown(v.food[:0], m.grid, seat, &isFood)
	}
	v.scanned = true
	return v.food
}

// isFood tells the objects a bot may go for out of fury, and isStone a
// stone.
var isFood, isStone = [256]bool{apple: true, gold: true, furyPill: true}, [256]bool{stone: true}

// appendShown appends, in cell order, the cells of grid that hold an
// object of kind (an apple or a later one) and show it, no snake part
// drawn over them in seats.
func appendShown(dst []int32, grid []object, seats []int16, kind *[256]bool) []int32 {
	seats = seats[:len(grid)]
	c0 := 0
	for ; c0+8 <= len(grid); c0 += 8 {
		// Most cells are empty or walls: only those with an item are
		// looked at.
		for w := items(grid[c0 : c0+8]); w != 0; w &= w - 1 {
			if c := c0 + bits.TrailingZeros64(w)/8; kind[grid[c]] && seats[c] < 0 {
				dst = append(dst, int32(c))
			}
		}
	}
	for c := c0; c < len(grid); c++ {
		if kind[grid[c]] && seats[c] < 0 {
			dst = append(dst, int32(c))
		}
	}
	return dst
}

// items tells which of 8 cells hold an apple or a later object, by the top
// bit of each cell's byte of a word, testing them at once: adding
// 0x80-apple to each byte sets its top bit exactly when it is apple or
// more, and, as every object is below 0x80, carries into no other byte.
func items(cells []object) uint64 {
	_ = cells[7]
	w := uint64(cells[0]) | uint64(cells[1])<<8 | uint64(cells[2])<<16 | uint64(cells[3])<<24 |
		uint64(cells[4])<<32 | uint64(cells[5])<<40 | uint64(cells[6])<<48 | uint64(cells[7])<<56
	const toTop, tops = uint64(0x80-apple) * 0x0101010101010101, 0x8080808080808080
	return (w + toTop) & tops
}

// String returns the glyphs.
func (b Board) String() string {
	glyphs := slices.Clone(b.glyphs)
	if m := b.live; m != nil {
		for y := range m.size {
			c := m.cell(0, y)
			for range m.size {
				glyphs = append(glyphs, m.glyph(&m.view, b.seat, c))
				c++
			}
		}
	}
	for _, o := range b.own {
		glyphs[o.i] = o.glyph
	}
	return string(glyphs)
}

// MarshalJSON writes the glyphs as a JSON string.
func (b Board) MarshalJSON() ([]byte, error) { return json.Marshal(b.String()) }

// UnmarshalJSON reads a JSON string of glyphs; invalid UTF-8 reads as
// U+FFFD, as ranging over the string would.
func (b *Board) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	*b = newBoard([]rune(s))
	return nil
}

// View returns a *View for seat.
func (m *match) View(seat int) any {
	v := m.layout()
	if v.board.glyphs == nil {
		n := m.size * m.size
		b := Board{glyphs: make([]rune, n), cells: make([]glyphInfo, n)}
		for y := range m.size {
			c := m.cell(0, y)
			for i := y * m.size; i < (y+1)*m.size; i++ {
				if s := v.seat[c]; s < 0 {
					b.glyphs[i], b.cells[i] = objectGlyphs[m.grid[c]], objectInfos[m.grid[c]]
				} else {
					p := m.part(c)
					b.glyphs[i], b.cells[i] = enemyGlyphs[p], enemyInfos[p]
				}
				c++
			}
		}
		v.board = b
	}
	return &View{Board: m.own(Board{glyphs: v.board.glyphs, cells: v.board.cells}, seat)}
}

// Peek returns a *View for seat like View, whose board reads the match
// until its next Step rather than a drawing of it. A seat is lent the same
// View every turn, so lending allocates nothing.
func (m *match) Peek(seat int) any {
	v := m.layout()
	if seat < 0 || seat >= len(m.snakes) {
		return &View{Board: Board{live: m, seat: -1}}
	}
	if len(v.lent) != len(m.snakes) {
		v.lent = make([]View, len(m.snakes))
		for s := range v.lent {
			v.lent[s].Board = Board{live: m, seat: s}
		}
	}
	return &v.lent[seat]
}

// own returns b with the cells of seat's own snake listed; the observer
// (any other seat) sees no own snake.
func (m *match) own(b Board, seat int) Board {
	v := &m.view
	if seat >= 0 && seat < len(m.snakes) {
		for _, c := range m.snakes[seat].body {
			if int(v.seat[c]) == seat && m.grid[c] != outside {
				x, y := m.xy(c)
				b.own = append(b.own, ownCell{int32(y*m.size + x), ownGlyphs[m.part(c)]})
			}
		}
	}
	return b
}

// Render draws the observer's board (every snake in enemy glyphs) and a
// status line per snake.
func (m *match) Render() string {
	var b strings.Builder
	for _, row := range m.board(-1) {
		b.WriteString(row)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "turn %d  round %d/%d  %s\n", m.turn, m.round, roundsPerMatch, m.phase())
	for i := range m.snakes {
		s := &m.snakes[i]
		fmt.Fprintf(&b, "%s: %-8s len %2d  score %4d  stones %d  fury %2d  kills %d  deaths %d",
			sim.SeatName(i), m.state(s), len(s.body), s.score, s.stones, s.fury, s.kills, s.deaths)
		if len(s.body) > 0 {
			x, y := m.xy(s.head())
			fmt.Fprintf(&b, "  head (%d,%d) %s", x, y, dirNames[s.dir])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// state names a snake's condition.
func (m *match) state(s *snake) string {
	switch {
	case s.left:
		return "left"
	case !s.alive:
		return "dead"
	case !s.active:
		return "sleeping"
	case s.flying > 0:
		return "flying"
	case s.fury > 0:
		return "fury"
	}
	return "moving"
}

// phase names where the round clock stands after the last tick.
func (m *match) phase() string {
	switch {
	case m.over:
		return "match over"
	case m.startTimer == startCountdown:
		return "round over, countdown 5"
	case m.startTimer > 0:
		return fmt.Sprintf("countdown %d", m.startTimer)
	case m.startTimer == 0:
		return "round start"
	case m.winnerTimer >= 0:
		return fmt.Sprintf("tick %d, last snake's extra tick", m.roundTime())
	}
	return fmt.Sprintf("tick %d/%d", m.roundTime(), roundTicks)
}

// Frame is the inspector's snapshot after a tick.
type Frame struct {
	Turn  int `json:"turn"`
	Round int `json:"round"` // 0 before the first round starts
	// RoundTime is the ticks since the round's start tick, 0 outside a
	// round.
	RoundTime int `json:"round_time"`
	// Countdown is the ticks until the next round starts (5 on the tick a
	// round ends, then 4..1), 0 while a round runs.
	Countdown int    `json:"countdown"`
	Phase     string `json:"phase"`
	Over      bool   `json:"over"`
	// Board is the observer's view: the rows from the top, every snake in
	// enemy glyphs.
	Board  []string     `json:"board"`
	Snakes []SnakeFrame `json:"snakes"`
	// Objects on the board.
	Apples     int `json:"apples"`
	Stones     int `json:"stones"`
	Gold       int `json:"gold"`
	FuryPills  int `json:"fury_pills"`
	FlyingPill int `json:"flying_pills"`
}

// SnakeFrame is one seat's snake in a Frame.
type SnakeFrame struct {
	Seat      int      `json:"seat"`
	Body      [][2]int `json:"body"` // [x, y] from the tail to the head
	Direction string   `json:"direction"`
	Length    int      `json:"length"`
	Score     int      `json:"score"`
	Stones    int      `json:"stones"`
	Fury      int      `json:"fury"`
	Flying    int      `json:"flying"`
	Alive     bool     `json:"alive"`
	Sleeping  bool     `json:"sleeping"`
	// Left: the snake died in the last round and has left the match.
	Left bool `json:"left"`
	// PendingCut is a head-on cut applied at the snake's next move.
	PendingCut int `json:"pending_cut"`
	Kills      int `json:"kills"`
	Deaths     int `json:"deaths"`
	RoundsWon  int `json:"rounds_won"`
}

// Frame returns a *Frame.
func (m *match) Frame() any {
	f := &Frame{
		Turn: m.turn, Round: m.round, Phase: m.phase(), Over: m.over, Board: m.board(-1),
		Apples: m.nApple, Stones: m.nStone, Gold: m.nGold, FuryPills: m.nFury, FlyingPill: m.nFly,
	}
	if m.startTimer > 0 {
		f.Countdown = m.startTimer
	} else if m.startTimer < 0 {
		f.RoundTime = m.roundTime()
	}
	for i := range m.snakes {
		s := &m.snakes[i]
		sf := SnakeFrame{
			Seat: i, Direction: dirNames[s.dir], Length: len(s.body), Score: s.score, Stones: s.stones,
			Fury: s.fury, Flying: s.flying, Alive: s.alive, Sleeping: s.alive && !s.active, Left: s.left,
			PendingCut: s.shrink, Kills: s.kills, Deaths: s.deaths, RoundsWon: m.wins[i],
		}
		sf.Body = make([][2]int, len(s.body))
		for k, c := range s.body {
			x, y := m.xy(c)
			sf.Body[k] = [2]int{x, y}
		}
		f.Snakes = append(f.Snakes, sf)
	}
	return f
}

// AppendStats appends one row per seat (no units).
func (m *match) AppendStats(dst []sim.Stat) []sim.Stat {
	var v []float64
	for i := range m.snakes {
		s := &m.snakes[i]
		dst, v = sim.AppendStat(dst, len(Game.Metrics), i, sim.NoUnit, s.alive)
		v[metricScore] = float64(s.score)
		v[metricCollisions] = float64(s.headOns + s.bites + s.deaths)
		v[metricLength] = float64(len(s.body))
		v[metricStones] = float64(s.stones)
		v[metricFury] = float64(s.fury)
		v[metricKills] = float64(s.kills)
		v[metricDeaths] = float64(s.deaths)
		v[metricRound] = float64(m.round)
	}
	return dst
}

// Over reports whether the last round has ended.
func (m *match) Over() bool { return m.over }

// Turn is the number of ticks played.
func (m *match) Turn() int { return m.turn }

// MaxTurns is the length of a match whose every round times out: each round
// is its start countdown plus its playing time (a round also ends on its
// last tick when its winner timer fires then).
func (m *match) MaxTurns() int { return roundsPerMatch * (startCountdown + roundTicks) }

// Events are the events of the last tick in the order they happened.
func (m *match) Events() []sim.Event { return m.events }

// Result ranks the seats by total score over the rounds (B9); the winner is
// the single highest score, a tie at the top is a draw.
func (m *match) Result() sim.Result {
	r := sim.Result{Winner: -1, Players: make([]sim.PlayerResult, len(m.snakes))}
	best, nBest := -1, 0
	for i := range m.snakes {
		sc := m.snakes[i].score
		rank := 1
		for j := range m.snakes {
			if m.snakes[j].score > sc {
				rank++
			}
		}
		r.Players[i] = sim.PlayerResult{Rank: rank, Score: float64(sc)}
		if sc > best {
			best, nBest = sc, 0
		}
		if sc == best {
			nBest++
		}
	}
	if !m.over {
		return r
	}
	for i := range r.Players {
		switch {
		case m.snakes[i].score < best:
			r.Players[i].Outcome = sim.Loss
		case nBest == 1:
			r.Players[i].Outcome = sim.Win
			r.Winner = i
		default:
			r.Players[i].Outcome = sim.Draw
		}
	}
	if nBest == 1 {
		r.Reason = fmt.Sprintf("%d rounds played, highest total score", m.round)
	} else {
		r.Reason = fmt.Sprintf("%d rounds played, %d seats tied on the highest score", m.round, nBest)
	}
	return r
}

// Hash digests, after the domain "snake/<ruleset>", the board side and
// every map cell (hashed once in New): the turn, round, the three timers,
// the pending-death flag, over, the number of random draws (the stream
// position: same seed and same count is the same generator state), the
// object counts, every movable object as (cell, kind) in cell order, then
// per seat the body (length, cells tail first), direction, pending
// direction, pending cut, stones, fury, flying, alive, active, last tail
// cell, score, kills, deaths, head-ons, bites, whether it leaves or has
// left, and rounds won.
func (m *match) Hash() uint64 {
	h := m.base
	h.Int(m.turn)
	h.Int(m.round)
	h.Int(m.startTimer)
	h.Int(m.roundTimer)
	h.Int(m.winnerTimer)
	h.Bool(m.diedSinceCheck)
	h.Bool(m.over)
	h.Int(m.draws)
	h.Int(m.nApple)
	h.Int(m.nStone)
	h.Int(m.nGold)
	h.Int(m.nFury)
	h.Int(m.nFly)
	for c, o := range m.grid {
		if o >= apple {
			h.Int(c)
			h.Uint64(uint64(o))
		}
	}
	for i := range m.snakes {
		s := &m.snakes[i]
		h.Int(len(s.body))
		for _, c := range s.body {
			h.Int(int(c))
		}
		h.Int(int(s.dir))
		h.Int(int(s.next))
		h.Int(s.shrink)
		h.Int(s.stones)
		h.Int(s.fury)
		h.Int(s.flying)
		h.Bool(s.alive)
		h.Bool(s.active)
		h.Int(int(s.lastTail))
		h.Int(s.score)
		h.Int(s.kills)
		h.Int(s.deaths)
		h.Int(s.headOns)
		h.Int(s.bites)
		h.Bool(s.leaves)
		h.Bool(s.left)
		h.Int(m.wins[i])
	}
	return h.Sum()
}
