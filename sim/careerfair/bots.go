package careerfair

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// The built-in bots read only the View (through sim.ReadView), as an
// external controller reads its JSON, so a copy of them outside replaylab
// plays the same actions. Like the original's players they see only the
// tiles within their vision and remember the rest as they last saw it;
// what a player is told besides the view (a helper's reward is half the
// main bot's, both halve after each of the team's visits, a booth serves
// one bot every two steps) they take from the rules.

func newIdle(sim.Setup, int, uint64) (sim.Bot, error) { return idleBot{}, nil }

// idleBot plays NONE with every team bot.
type idleBot struct{}

func (idleBot) Act(any) string { return "" }

// The bots' judgement.
const (
	// maxViewTiles bounds the board a bot accepts: the largest board
	// the engine loads.
	maxViewTiles = maxTiles
	// maxCount bounds a tile's threshold and queue as a bot remembers
	// them, so no sum over the board overflows.
	maxCount = 1000
	// unseenQueue is the bots a bot assumes on a line tile it has never
	// seen: a busy floor keeps most lines full.
	unseenQueue = 3
	// stepsPerService is how long a booth takes per queued bot.
	stepsPerService = 2
	// stickiness is how much better another line must look before a bot
	// gives up the one it is walking to.
	stickiness = 1.25
	// swapWithin is the line position from which the replace bot's main
	// bot swaps in: nearer the front it waits less in line.
	swapWithin = 2
)

// tileMemo is a tile as a bot last saw it.
type tileMemo struct {
	seen      bool
	seenAt    int // the step it was last seen
	threshold int
	inLine    int
	end       bool
}

// floorMap is what a team's bot knows: the floor as last seen, the team's
// rewards left and the last view's states, to tell services and swaps
// from the next view.
type floorMap struct {
	rows, cols int
	tiles      []tileMemo
	booth      []bool
	lineOf     []int         // per tile: the company whose line it is, -1
	names      []string      // the companies with a line, sorted
	lines      [][]int       // per company: its line tiles
	rewards    [][2]int      // per company: the team's main and helper rewards left
	target     [teamSize]int // per team position: the line it heads for, -1
	prev       []State       // the last view's states
	prevScore  int
	sent       [teamSize]action // the actions sent after the last view

	// Search scratch: cost and first step per tile from one bot's tile.
	dist  []int
	first []int
	heap  []int
}

// read checks and learns the view; false when it does not decode or is
// no career fair view the bot can play.
func (f *floorMap) read(view any) (*View, bool) {
	v, ok := sim.ReadView[View](view)
	if !ok || v.Rows < 1 || v.Cols < 1 || v.Rows > maxViewTiles || v.Cols > maxViewTiles || v.Rows*v.Cols > maxViewTiles || len(v.Board) != v.Rows || len(v.States) != teamSize {
		return nil, false
	}
	for _, row := range v.Board {
		if len(row) != v.Cols {
			return nil, false
		}
	}
	for _, s := range v.States {
		if s.X < 0 || s.X >= v.Rows || s.Y < 0 || s.Y >= v.Cols {
			return nil, false
		}
	}
	if v.Rows != f.rows || v.Cols != f.cols || !f.sameFloor(v) {
		f.reset(v)
	}
	for x, row := range v.Board {
		for y, tv := range row {
			if tv.Visible {
				f.tiles[x*f.cols+y] = tileMemo{seen: true, seenAt: v.Step, threshold: min(max(tv.Threshold, 1), maxCount),
					inLine: min(max(tv.InLine, 0), maxCount), end: tv.EndOfLine}
			}
		}
	}
	f.account(v)
	return v, true
}

// sameFloor reports whether the view's lines and booths are those the bot
// knows.
func (f *floorMap) sameFloor(v *View) bool {
	for x, row := range v.Board {
		for y, tv := range row {
			t := x*f.cols + y
			if f.booth[t] != (tv.Booth != "") || f.company(t) != tv.Line {
				return false
			}
		}
	}
	return true
}

// company is the name of the company whose line holds tile t, "" for none.
func (f *floorMap) company(t int) string {
	if f.lineOf[t] < 0 {
		return ""
	}
	return f.names[f.lineOf[t]]
}

// reset starts over on the view's floor: lines and booths from its tiles,
// full rewards from its company_info.
func (f *floorMap) reset(v *View) {
	n := v.Rows * v.Cols
	*f = floorMap{rows: v.Rows, cols: v.Cols, tiles: make([]tileMemo, n), booth: make([]bool, n), lineOf: make([]int, n),
		dist: make([]int, n), first: make([]int, n), prevScore: v.Score}
	for x, row := range v.Board {
		for y, tv := range row {
			f.booth[x*f.cols+y] = tv.Booth != ""
			if tv.Line != "" {
				f.names = append(f.names, tv.Line)
			}
		}
	}
	slices.Sort(f.names)
	f.names = slices.Compact(f.names)
	f.lines = make([][]int, len(f.names))
	for x, row := range v.Board {
		for y, tv := range row {
			t := x*f.cols + y
			f.lineOf[t] = -1
			if k, ok := slices.BinarySearch(f.names, tv.Line); ok && tv.Line != "" {
				f.lineOf[t] = k
				f.lines[k] = append(f.lines[k], t)
			}
		}
	}
	f.rewards = make([][2]int, len(f.names))
	for k, name := range f.names {
		value := max(v.CompanyInfo[name], 0)
		f.rewards[k] = [2]int{value, value / 2}
	}
	for i := range f.target {
		f.target[i] = -1
	}
}

// at is the tile of a team bot's state.
func (f *floorMap) at(s State) int { return s.X*f.cols + s.Y }

// account follows the team from the last view to this one. A REPLACE the
// bot sent swapped the main bot with the helper standing on its tile. A
// bot that was first in line and is out of it now was served. A bot that
// sent ENTER and stands out of line on a line tile either failed to join
// or joined a line whose talker it still was and was served at once: the
// score tells, those served being the fullest set whose rewards make up
// the points left unexplained (a service worth 0 points leaves no trace).
// Each service halves the team's rewards of that company.
func (f *floorMap) account(v *View) {
	defer func() {
		f.prev, f.prevScore = append(f.prev[:0], v.States...), v.Score
		f.sent = [teamSize]action{}
	}()
	if len(f.prev) != teamSize {
		return
	}
	if f.sent[0] == replace {
		for h := 1; h < teamSize; h++ {
			if f.sent[h] == replace && f.at(f.prev[h]) == f.at(f.prev[0]) {
				f.prev[0], f.prev[h] = f.prev[h], f.prev[0]
				f.target[0], f.target[h] = f.target[h], f.target[0]
			}
		}
	}
	left := v.Score - f.prevScore
	var joined [teamSize][2]int // position, company
	n := 0
	for i, s := range v.States {
		p := f.prev[i]
		switch {
		case s.State == "inline":
		case p.State == "inline" && p.LinePos == 0:
			left -= f.visit(f.lineOf[f.at(p)], i)
		case f.sent[i] == enter && f.lineOf[f.at(s)] >= 0:
			joined[n] = [2]int{i, f.lineOf[f.at(s)]}
			n++
		}
	}
	for set := 1<<n - 1; set > 0 && left > 0; set-- {
		sum := 0
		for j, jk := range joined[:n] {
			if set&(1<<j) != 0 {
				sum += f.points(jk[1], jk[0], 0)
			}
		}
		if sum != left {
			continue
		}
		for j, jk := range joined[:n] {
			if set&(1<<j) != 0 {
				f.visit(jk[1], jk[0])
			}
		}
		return
	}
}

// points is what team position i earns from company k after the team's
// next extra visits there: the main bot (position 0) the major reward,
// a helper the minor one.
func (f *floorMap) points(k, i, extra int) int {
	if k < 0 {
		return 0
	}
	r := f.rewards[k][min(i, 1)]
	return r >> min(max(extra, 0), 62)
}

// visit records the service of team position i by company k and returns
// its points.
func (f *floorMap) visit(k, i int) int {
	if k < 0 {
		return 0
	}
	p := f.points(k, i, 0)
	f.rewards[k] = [2]int{f.rewards[k][0] / 2, f.rewards[k][1] / 2}
	return p
}

// send remembers the team's actions and returns them as a command.
func (f *floorMap) send(acts [teamSize]action) string {
	f.sent = acts
	names := make([]string, teamSize)
	for i, a := range acts {
		names[i] = a.String()
	}
	return strings.Join(names, ",")
}

// queued is the team's bots in each company's line.
func (f *floorMap) queued(v *View) []int {
	n := make([]int, len(f.names))
	for _, s := range v.States {
		if k := f.lineOf[f.at(s)]; s.State == "inline" && k >= 0 {
			n[k]++
		}
	}
	return n
}

// search finds the cheapest walks from tile src over tiles that are no
// booth, a step onto a tile costing its threshold as last seen: f.dist
// holds each tile's cost (-1 unreachable), f.first the first tile of the
// walk there.
func (f *floorMap) search(src int) {
	for t := range f.dist {
		f.dist[t], f.first[t] = -1, -1
	}
	f.dist[src], f.first[src] = 0, src
	h := append(f.heap[:0], src)
	for len(h) > 0 {
		u := h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		f.down(h, 0)
		x, y := u/f.cols, u%f.cols
		for _, d := range searchOrder {
			nx, ny := x+delta[d][0], y+delta[d][1]
			if nx < 0 || nx >= f.rows || ny < 0 || ny >= f.cols {
				continue
			}
			t := nx*f.cols + ny
			c := f.dist[u] + max(f.tiles[t].threshold, 1) // 1 for a tile never seen
			if f.booth[t] || f.dist[t] >= 0 && f.dist[t] <= c {
				continue
			}
			f.dist[t], f.first[t] = c, f.first[u]
			if u == src {
				f.first[t] = t
			}
			h = append(h, t)
			f.up(h, len(h)-1)
		}
	}
	f.heap = h
}

// up and down keep h a heap of tiles by cost. A tile whose cost fell is
// pushed again; its stale copy only expands its neighbours once more.
func (f *floorMap) up(h []int, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if f.dist[h[p]] <= f.dist[h[i]] {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (f *floorMap) down(h []int, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && f.dist[h[c+1]] < f.dist[h[c]] {
			c++
		}
		if f.dist[h[i]] <= f.dist[h[c]] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// toward is the move to make first on the last search's walk from tile
// src to tile t.
func (f *floorMap) toward(src, t int) action {
	next := f.first[t]
	for _, d := range searchOrder {
		if src/f.cols+delta[d][0] == next/f.cols && src%f.cols+delta[d][1] == next%f.cols {
			return d
		}
	}
	return none
}

// lineEnd is where to join company k's line: its end-of-line tile as last
// seen, else the nearest of its tiles; -1 when none can be reached.
func (f *floorMap) lineEnd(k int) int {
	end, near := -1, -1
	for _, t := range f.lines[k] {
		m := &f.tiles[t]
		if f.dist[t] < 0 {
			continue
		}
		if m.seen && m.end && (end < 0 || m.seenAt > f.tiles[end].seenAt) {
			end = t
		}
		if near < 0 || f.dist[t] < f.dist[near] {
			near = t
		}
	}
	if end >= 0 {
		return end
	}
	return near
}

// queue is the bots in company k's line as last seen.
func (f *floorMap) queue(k int) int {
	n := 0
	for _, t := range f.lines[k] {
		if m := &f.tiles[t]; m.seen {
			n += m.inLine
		} else {
			n += unseenQueue
		}
	}
	return n
}

// seekLine is the move of team position i, free at its tile, toward the
// line pickLine chooses for reward who (0 the main bot's, else a
// helper's); it joins the line on reaching its end. pending counts the
// visits the team has queued or is heading for, per company, and gains
// the one chosen.
func (f *floorMap) seekLine(s State, i, who int, pending []int) action {
	if a, ok := underWay(s); ok {
		if f.target[i] >= 0 {
			pending[f.target[i]]++
		}
		return a
	}
	src := f.at(s)
	f.search(src)
	k, _ := f.pickLine(i, who, pending)
	if k < 0 {
		return none
	}
	return f.joinLine(src, i, k, pending)
}

// pickLine is the line that pays team position i most per step by the
// last search: reward who after the team's pending visits there, over the
// steps to walk to the line's end and wait through its queue. It keeps
// the line i was heading for unless another pays stickiness times more;
// -1 when no line can be reached.
func (f *floorMap) pickLine(i, who int, pending []int) (int, float64) {
	best, bestValue, keepValue := -1, 0.0, 0.0
	for k := range f.names {
		end := f.lineEnd(k)
		if end < 0 {
			continue
		}
		value := float64(f.points(k, who, pending[k])) / float64(f.dist[end]+stepsPerService*(f.queue(k)+1))
		if k == f.target[i] {
			keepValue = value
		}
		if value > bestValue {
			best, bestValue = k, value
		}
	}
	if f.target[i] >= 0 && keepValue > 0 && keepValue*stickiness >= bestValue {
		return f.target[i], keepValue
	}
	return best, bestValue
}

// joinLine is the move of team position i, at tile src, toward line k's
// end, ENTER there; it records k as i's target and pending visit.
func (f *floorMap) joinLine(src, i, k int, pending []int) action {
	f.target[i] = k
	pending[k]++
	end := f.lineEnd(k)
	if end == src && f.tiles[src].end {
		return enter
	}
	return f.toward(src, end)
}

// underWay is the move a team bot has under way: changing it would waste
// its progress.
func underWay(s State) (action, bool) {
	a, ok := parseAction(s.Dir)
	return a, ok && a.cardinal()
}

func newGreedy(sim.Setup, int, uint64) (sim.Bot, error) { return &lineBot{}, nil }

func newReplace(sim.Setup, int, uint64) (sim.Bot, error) { return &lineBot{swap: true}, nil }

// lineBot is the greedy bot or, with swap, the replace bot.
//
// The greedy bot sends each team bot to the line that pays it most per
// step, as seekLine judges, and queues there.
//
// The replace bot lets the helpers hold places in the lines that would
// pay the main bot most, and the main bot walk from helper to helper: on
// a helper's tile, near the front, both send REPLACE, the main bot takes
// the helper's place and collects the major reward, and the helper it
// leaves behind queues again. When no helper's place pays it more than a
// line of its own, the main bot queues itself.
type lineBot struct {
	f    floorMap
	swap bool
	// states is where the team stood at the last Act, and sketch its
	// drawing (Drawing).
	states [teamSize]State
	acted  bool
	sketch sim.Sketch
}

func (b *lineBot) Act(view any) string {
	b.acted = false
	v, ok := b.f.read(view)
	if !ok || v.Phase != "play" {
		return ""
	}
	copy(b.states[:], v.States)
	b.acted = true
	pending := b.f.queued(v)
	var acts [teamSize]action
	for i, s := range v.States {
		switch {
		case s.State == "inline":
		case i == 0 && b.swap:
			var h int
			if acts[0], h = b.mainMove(v, pending); acts[0] == replace {
				acts[h] = replace
			}
		case b.swap:
			acts[i] = b.f.seekLine(s, i, 0, pending)
		default:
			acts[i] = b.f.seekLine(s, i, i, pending)
		}
	}
	return b.f.send(acts)
}

// Drawing draws where each team bot heads that is not in line: a line
// from it to the end of the line it chose, ringed.
func (b *lineBot) Drawing() json.RawMessage {
	b.sketch.Reset()
	if !b.acted {
		return nil
	}
	f := &b.f
	for i, s := range b.states {
		k := f.target[i]
		if s.State == "inline" || k < 0 || k >= len(f.names) {
			continue
		}
		if end := f.lineEnd(k); end >= 0 {
			x, y := float64(s.X), float64(s.Y)
			ex, ey := float64(end/f.cols), float64(end%f.cols)
			if ex != x || ey != y {
				b.sketch.Line(x, y, ex, ey, "")
			}
			b.sketch.Circle(ex, ey, 0.45, "")
		}
	}
	return b.sketch.JSON()
}

// mainMove is the free main bot's move: REPLACE with the queued helper h
// on its tile when h is near enough the front, a wait on such a helper's
// tile farther back, else a walk to the queued helper whose place pays
// most per step among those it reaches before their service, or to the
// line it would rather join itself (pickLine), whichever pays more.
func (b *lineBot) mainMove(v *View, pending []int) (action, int) {
	f := &b.f
	main := v.States[0]
	if a, ok := underWay(main); ok {
		return a, 0
	}
	src := f.at(main)
	f.search(src)
	best, bestValue := -1, 0.0
	for h := 1; h < teamSize; h++ {
		s := v.States[h]
		t := f.at(s)
		k := f.lineOf[t]
		if s.State != "inline" || k < 0 || f.dist[t] < 0 {
			continue
		}
		if t == src {
			if s.LinePos <= swapWithin {
				return replace, h
			}
			return none, 0
		}
		wait := stepsPerService * (s.LinePos + 1)
		if f.dist[t] >= wait {
			continue
		}
		value := float64(f.points(k, 0, pending[k]-1)) / float64(wait)
		if value > bestValue {
			best, bestValue = h, value
		}
	}
	if k, own := f.pickLine(0, 0, pending); k >= 0 && own > bestValue {
		return f.joinLine(src, 0, k, pending), 0
	}
	f.target[0] = -1
	if best < 0 {
		return none, 0
	}
	return f.toward(src, f.at(v.States[best])), 0
}
