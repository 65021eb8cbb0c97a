package snake

import (
	"encoding/json"
	"fmt"
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

// objectInfos and enemyInfos are what objectGlyphs and enemyGlyphs mean
// to a bot, so a view's board is drawn from small tables rather than by
// looking each rune up.
var objectInfos, enemyInfos = func() (o [len(objectGlyphs)]glyphInfo, e [numParts]glyphInfo) {
	for i, r := range objectGlyphs {
		o[i] = readGlyph(r)
	}
	for p, r := range enemyGlyphs {
		e[p] = readGlyph(r)
	}
	return o, e
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
	part  []uint8
	order []int
	board Board // the observer's board, drawn by the first View of the turn
	// infos is what each cell of the observer's board means to a bot, read
	// by the first bot of the turn that reads every cell of a lent board
	// (Peek); nil until then. Lent boards last a turn, so it is reused.
	infos []glyphInfo
	read  bool
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
	}
	for i := range v.seat {
		v.seat[i] = -1
	}
	v.order, v.board, v.read = v.order[:0], Board{}, false
	for i := range m.snakes {
		v.order = append(v.order, i)
	}
	// Insertion sort: stable, few seats, no allocation.
	for i := 1; i < len(v.order); i++ {
		for j := i; j > 0 && len(m.snakes[v.order[j]].body) < len(m.snakes[v.order[j-1]].body); j-- {
			v.order[j], v.order[j-1] = v.order[j-1], v.order[j]
		}
	}
	claim := func(seat int, c int32, part uint8) {
		if v.seat[c] < 0 {
			v.seat[c], v.part[c] = int16(seat), part
		}
	}
	for _, i := range v.order {
		if s := &m.snakes[i]; !s.alive && len(s.body) > 0 {
			claim(i, s.head(), headDead)
		}
	}
	for pass := range 2 {
		for _, i := range v.order {
			s := &m.snakes[i]
			if len(s.body) == 0 || (s.flying > 0) != (pass == 0) {
				continue
			}
			claim(i, s.head(), headPart(s))
			for k := len(s.body) - 2; k >= 0; k-- {
				claim(i, s.body[k], m.bodyPart(s, k))
			}
		}
	}
	v.turn, v.valid = m.turn, true
	return v
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
	switch s := int(v.seat[c]); {
	case s < 0:
		return objectGlyphs[m.grid[c]]
	case s == seat:
		return ownGlyphs[v.part[c]]
	default:
		return enemyGlyphs[v.part[c]]
	}
}

// View is what the original server sends a bot each tick: the message
// "board=<glyphs>", here as {"board": "<glyphs>"}, the size x size glyphs
// row by row from the top-left, with the bot's own snake in own glyphs.
type View struct {
	Board Board `json:"board"`
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
// until the match's next Step, so a bot that looks at a few cells does not
// pay for drawing them all.
type Board struct {
	glyphs []rune      // shared by the views of a tick: never written
	cells  []glyphInfo // readGlyph of each of glyphs, shared likewise
	own    []ownCell
	live   *match
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

// len is the number of cells.
func (b Board) len() int {
	if b.live != nil {
		return b.live.size * b.live.size
	}
	return len(b.cells)
}

// info is what cell i means to a bot, the bot's own snake read as anyone's
// unless the board came from JSON.
func (b Board) info(i int) glyphInfo {
	if m := b.live; m != nil {
		c := m.cell(i%m.size, i/m.size)
		if s := m.view.seat[c]; s >= 0 {
			return enemyInfos[m.view.part[c]]
		}
		return objectInfos[m.grid[c]]
	}
	return b.cells[i]
}

// appendInfos appends what each cell means to dst, as info does.
func (b Board) appendInfos(dst []glyphInfo) []glyphInfo {
	m := b.live
	if m == nil {
		return append(dst, b.cells...)
	}
	v := &m.view
	if !v.read {
		v.infos = v.infos[:0]
		for y := range m.size {
			c := m.cell(0, y)
			for range m.size {
				if s := v.seat[c]; s >= 0 {
					v.infos = append(v.infos, enemyInfos[v.part[c]])
				} else {
					v.infos = append(v.infos, objectInfos[m.grid[c]])
				}
				c++
			}
		}
		v.read = true
	}
	return append(dst, v.infos...)
}

// appendHeads appends to dst every cell that shows a head. A lent board
// finds them at the snakes' heads without reading the board: a head drawn
// at its own cell.
func (b Board) appendHeads(dst []int32) []int32 {
	m := b.live
	if m == nil {
		for c, g := range b.cells {
			if g.kind == kEnemyHead || g.kind == kOwnHead {
				dst = append(dst, int32(c))
			}
		}
		return dst
	}
	for i := range m.snakes {
		s := &m.snakes[i]
		if len(s.body) == 0 {
			continue
		}
		if h := s.head(); int(m.view.seat[h]) == i && m.view.part[h] < tailArmUp && m.grid[h] != outside {
			x, y := m.xy(h)
			dst = append(dst, int32(y*m.size+x))
		}
	}
	return dst
}

// String returns the glyphs.
func (b Board) String() string {
	glyphs := slices.Clone(b.glyphs)
	if m := b.live; m != nil {
		for y := range m.size {
			c := m.cell(0, y)
			for range m.size {
				glyphs = append(glyphs, m.glyph(&m.view, -1, c))
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
					b.glyphs[i], b.cells[i] = enemyGlyphs[v.part[c]], enemyInfos[v.part[c]]
				}
				c++
			}
		}
		v.board = b
	}
	return &View{Board: m.own(Board{glyphs: v.board.glyphs, cells: v.board.cells}, seat)}
}

// Peek returns a *View for seat like View, whose board reads the match
// until its next Step rather than a drawing of it.
func (m *match) Peek(seat int) any {
	m.layout()
	return &View{Board: m.own(Board{live: m}, seat)}
}

// own returns b with the cells of seat's own snake listed; the observer
// (any other seat) sees no own snake.
func (m *match) own(b Board, seat int) Board {
	v := &m.view
	if seat >= 0 && seat < len(m.snakes) {
		for _, c := range m.snakes[seat].body {
			if int(v.seat[c]) == seat && m.grid[c] != outside {
				x, y := m.xy(c)
				b.own = append(b.own, ownCell{int32(y*m.size + x), ownGlyphs[v.part[c]]})
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
		fmt.Fprintf(&b, "seat %d: %-8s len %2d  score %4d  stones %d  fury %2d  kills %d  deaths %d",
			i, m.state(s), len(s.body), s.score, s.stones, s.fury, s.kills, s.deaths)
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
