package careerfair

import (
	"fmt"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// View is what a team's player gets before each step: the arguments of the
// original Team.step(visible_board, states, score) plus the company_info
// and team_size of Team.__init__, so a bot written against the original API
// ports line by line:
//
//	visible_board[x][y]            Board[x][y] (x is the row)
//	tile.is_visible()              .visible
//	tile.get_num_bots()            .num_bots (free and in line)
//	len(tile.get_bots_in_line())   .in_line
//	tile.is_end_of_line()          .end_of_line
//	tile.get_threshold()           .threshold
//	tile.get_line(), get_booth()   .line, .booth (company name; absent for None)
//	tile.get_loc()                 (.x, .y)
//	states[i].dir, id, x, y, progress, threshold, line_pos, state
//	score                          Score (cumulative)
//	company_info                   CompanyInfo (company name: major value)
//
// Tiles within the vision radius (Chebyshev distance) of any of the team's
// bots are live; the others are the blank initial copy (B.8): not visible,
// no bots, not an end of line, threshold 1, with their line and booth.
// Bots on tiles are counted only, as the original's copies carry no team.
type View struct {
	Step   int    `json:"step"`  // steps played so far
	Phase  string `json:"phase"` // the next step's phase: "idle" (moves ignored) or "play"
	Rows   int    `json:"rows"`
	Cols   int    `json:"cols"`
	Vision int    `json:"vision"`
	// TeamSize is always 4.
	TeamSize    int            `json:"team_size"`
	Board       [][]TileView   `json:"board"`
	States      []State        `json:"states"`
	Score       int            `json:"score"`
	CompanyInfo map[string]int `json:"company_info"`
}

// viewDoc explains View to bot authors, with the numbers of the rules'
// constants.
var viewDoc = sim.ViewDoc{Fields: []sim.ViewField{
	{Path: "step", Meaning: "Steps played so far: 0 before the first."},
	{Path: "phase", Meaning: fmt.Sprintf("The coming step's phase: idle for the first %d steps (the crowd moves, every team bot plays NONE whatever is sent), then play for %d steps.", idleSteps, playSteps)},
	{Path: "rows", Meaning: "Rows of the board."},
	{Path: "cols", Meaning: "Columns of the board."},
	{Path: "vision", Meaning: "The board's vision radius: the team sees the tiles at most this many rows and columns (Chebyshev distance) from any of its bots."},
	{Path: "team_size", Meaning: fmt.Sprintf("Bots per team (%d).", teamSize)},
	{Path: "board", Meaning: "The board as the team sees it: board[x][y], x the row (0 at the top), y the column."},
	{Path: "board[]", Meaning: "A row of the board."},
	{Path: "board[][]", Meaning: "A tile. A tile out of vision shows its blank start: not visible, no bots, not the end of a line, threshold 1, with its line and booth."},
	{Path: "board[][].x", Meaning: "The tile's row."},
	{Path: "board[][].y", Meaning: "The tile's column."},
	{Path: "board[][].visible", Meaning: "Whether the tile is in vision (see vision)."},
	{Path: "board[][].num_bots", Meaning: "Bots on the tile, free and queued, of both teams and the crowd alike (they cannot be told apart)."},
	{Path: "board[][].in_line", Meaning: "Bots queued in a line on the tile."},
	{Path: "board[][].end_of_line", Meaning: fmt.Sprintf("Whether a bot joins its line here (ENTER): the line tile nearest the front with fewer than %d queued, or the last one.", perLineTile)},
	{Path: "board[][].threshold", Meaning: "Steps a bot needs to move onto the tile, by its crowd at the end of the last step: " + thresholdTable() + "."},
	{Path: "board[][].line", Meaning: "The company whose line the tile is part of; absent for none. Line tiles are floor to bots not in line."},
	{Path: "board[][].booth", Meaning: "The company whose booth the tile is; absent for none. Booths cannot be entered."},
	{Path: "states", Meaning: "The team's bots, in team order: the main bot first."},
	{Path: "states[]", Meaning: "A bot of the team."},
	{Path: "states[].dir", Meaning: "The move under way: NONE, LEFT, UP, RIGHT or DOWN. A move completes once progress reaches the destination's threshold; any other command cancels it."},
	{Path: "states[].id", Meaning: "0 for the main bot, whose services earn the major reward; 1 to 3 for the helpers, which earn the minor one. REPLACE swaps the main bot into a helper's place."},
	{Path: "states[].x", Meaning: "The bot's row."},
	{Path: "states[].y", Meaning: "The bot's column."},
	{Path: "states[].progress", Meaning: "Steps spent on the move under way."},
	{Path: "states[].threshold", Meaning: "The threshold of the tile dir leads to, or of the bot's own tile when it is not moving."},
	{Path: "states[].line_pos", Meaning: "Place in its line, 0 at the front (served next); -1 when not in line."},
	{Path: "states[].state", Meaning: "inline when queued, else dir in lower case (none, left, up, right, down)."},
	{Path: "score", Meaning: "The team's score so far."},
	{Path: "company_info", Meaning: "Every company at the fair, by name."},
	{Path: "company_info.*", Meaning: "The company's value: what the team's first service there pays the main bot (a helper's pays half, rounded down). Each of the team's services there halves both, rounded down."},
}}

// thresholdTable says in words which crowd gives which threshold.
func thresholdTable() string {
	const enough = 64 // past every step of thresholdOf
	var parts []string
	from := int32(0)
	for pop := int32(1); pop <= enough; pop++ {
		if thresholdOf(pop) != thresholdOf(from) {
			parts = append(parts, fmt.Sprintf("%d for %d to %d bots", thresholdOf(from), from, pop-1))
			from = pop
		}
	}
	return strings.Join(append(parts, fmt.Sprintf("%d for %d or more", thresholdOf(from), from)), ", ")
}

// TileView is one tile of the player's board.
type TileView struct {
	X         int    `json:"x"`
	Y         int    `json:"y"`
	Visible   bool   `json:"visible"`
	NumBots   int    `json:"num_bots"`
	InLine    int    `json:"in_line"`
	EndOfLine bool   `json:"end_of_line"`
	Threshold int    `json:"threshold"`
	Line      string `json:"line,omitempty"`
	Booth     string `json:"booth,omitempty"`
}

// State is one team bot's state (the original State), in team order.
type State struct {
	Dir      string `json:"dir"` // NONE, LEFT, UP, RIGHT or DOWN: the move under way
	ID       int    `json:"id"`  // 0 for the main bot
	X        int    `json:"x"`   // row
	Y        int    `json:"y"`   // column
	Progress int    `json:"progress"`
	// Threshold is the cached threshold of the tile Dir leads to, or of
	// the bot's own tile.
	Threshold int `json:"threshold"`
	LinePos   int `json:"line_pos"` // 0 = front of the line, -1 not in line
	// State is "inline", or the direction in lower case ("none").
	State string `json:"state"`
}

func (m *match) phase() string {
	if m.idle() {
		return "idle"
	}
	return "play"
}

// visible marks the tiles within the vision radius of team ti's bots.
func (m *match) visible(ti int, mask []bool) int {
	clear(mask)
	n, r := 0, m.b.vision
	for _, i := range m.teams[ti].bots {
		br, bc := m.b.rc(m.bots[i].loc)
		for x := max(br-r, 0); x <= min(br+r, m.b.rows-1); x++ {
			for y := max(bc-r, 0); y <= min(bc+r, m.b.cols-1); y++ {
				if t := m.b.tile(x, y); !mask[t] {
					mask[t] = true
					n++
				}
			}
		}
	}
	return n
}

// View returns the player's view for seat (its team). Views share their
// CompanyInfo map: readers must not write to it.
func (m *match) View(seat int) any {
	b := m.b
	t := &m.teams[seat]
	if m.companyInfo == nil {
		m.companyInfo = make(map[string]int, len(m.companies))
		for _, c := range m.companies {
			m.companyInfo[c.name] = c.value
		}
		m.mask = make([]bool, b.rows*b.cols)
	}
	v := &View{Step: m.turn, Phase: m.phase(), Rows: b.rows, Cols: b.cols, Vision: b.vision, TeamSize: teamSize,
		Score: t.score, CompanyInfo: m.companyInfo}
	m.visible(seat, m.mask)
	tiles := make([]TileView, b.rows*b.cols)
	v.Board = make([][]TileView, b.rows)
	for x := range v.Board {
		v.Board[x] = tiles[x*b.cols : (x+1)*b.cols : (x+1)*b.cols]
		for y := range v.Board[x] {
			tl := b.tile(x, y)
			tv := TileView{X: x, Y: y, Threshold: 1, Line: m.company(b.lineOf[tl]), Booth: m.company(b.boothOf[tl])}
			if m.mask[tl] {
				tv.Visible, tv.NumBots, tv.InLine = true, int(m.population(tl)), int(m.queued[tl])
				tv.EndOfLine, tv.Threshold = m.endOfLine(tl), int(thresholdOf(m.population(tl)))
			}
			v.Board[x][y] = tv
		}
	}
	v.States = make([]State, 0, len(t.bots))
	for id, i := range t.bots {
		bt := &m.bots[i]
		x, y := b.rc(bt.loc)
		to := m.dest(bt.loc, bt.dir)
		if to < 0 {
			to = bt.loc
		}
		st := strings.ToLower(bt.dir.String())
		if bt.inLine {
			st = "inline"
		}
		v.States = append(v.States, State{Dir: bt.dir.String(), ID: id, X: x, Y: y, Progress: int(bt.progress),
			Threshold: int(m.threshold[to]), LinePos: int(bt.linePos), State: st})
	}
	return v
}

// company is the name of slot k's company, "" for -1.
func (m *match) company(k int16) string {
	if k < 0 {
		return ""
	}
	return m.companies[k].name
}

// Frame is the inspector's state after a step. Tiles are listed row-major;
// bots are rows of integers (see BotColumns): the teams' bots in team order,
// team 0 first, then the crowd in list order. Queues and talkers refer to
// bots by their row in Bots.
type Frame struct {
	Turn  int    `json:"turn"`
	Phase string `json:"phase"` // the phase of the step just played
	Over  bool   `json:"over"`
	Rows  int    `json:"rows"`
	Cols  int    `json:"cols"`
	// Vision is the board's vision radius.
	Vision     int          `json:"vision"`
	Start      [2]int       `json:"start"`
	Population []int32      `json:"population"`
	Threshold  []int32      `json:"threshold"`
	Booths     []FrameBooth `json:"booths"`
	BotColumns []string     `json:"bot_columns"`
	Bots       [][]int32    `json:"bots"`
	Teams      []FrameTeam  `json:"teams"`
	Events     []sim.Event  `json:"events"`
}

// BotColumns name the columns of Frame.Bots: team (-1 for the crowd); id
// (the team position, 0 = main; the crowd's own numbering); row; col;
// direction (0 NONE, 1 LEFT, 2 UP, 3 RIGHT, 4 DOWN); progress; in_line
// (0/1); main (0/1); line (the booth slot whose queue holds it, -1);
// line_pos (-1 out of line); kind (0 team, 1 Jittery, 2 Extrovert,
// 3 RandomBot).
var BotColumns = []string{"team", "id", "row", "col", "direction", "progress", "in_line", "main", "line", "line_pos", "kind"}

// FrameBooth is a booth, its line and queue.
type FrameBooth struct {
	Company string   `json:"company"`
	Size    string   `json:"size"`
	Value   int      `json:"value"`
	Tiles   [][2]int `json:"tiles"` // (row, col) of the booth
	Line    [][2]int `json:"line"`  // front to tail
	End     [2]int   `json:"end"`   // the end-of-line tile
	Queue   []int    `json:"queue"` // rows of Bots, front first
	// Talker is the row of the registered talker, -1 for none.
	Talker   int `json:"talker"`
	Progress int `json:"progress"`
}

// FrameTeam is a team's score, rewards left and vision.
type FrameTeam struct {
	Score int `json:"score"`
	Delta int `json:"delta"` // points of this step
	// Rewards holds per booth (in Booths order) the (main, helper)
	// points a service would earn now.
	Rewards [][2]int `json:"rewards"`
	// Visible has one '1' or '0' per tile, row-major.
	Visible string `json:"visible"`
}

// Frame returns the inspector's state.
func (m *match) Frame() any {
	b := m.b
	n := b.rows * b.cols
	sr, sc := b.rc(b.start)
	f := &Frame{Turn: m.turn, Phase: "idle", Over: m.over, Rows: b.rows, Cols: b.cols, Vision: b.vision, Start: [2]int{sr, sc},
		Population: make([]int32, n), Threshold: append([]int32(nil), m.threshold...), BotColumns: BotColumns,
		Events: append([]sim.Event{}, m.events...)}
	if m.turn > idleSteps {
		f.Phase = "play"
	}
	for t := range n {
		f.Population[t] = m.population(int32(t))
	}
	row := make([]int, len(m.bots)) // each bot's row in f.Bots
	for i := range m.bots {
		row[i] = i
	}
	for ti := range m.teams {
		for p, i := range m.teams[ti].bots {
			row[i] = ti*teamSize + p
		}
	}
	f.Bots = make([][]int32, len(m.bots))
	for i := range m.bots {
		bt := &m.bots[i]
		r, c := b.rc(bt.loc)
		id, main := int32(i-m.crowd()), int32(0)
		if bt.team >= 0 {
			id = int32(row[i] % teamSize)
			if id == 0 {
				main = 1
			}
		}
		f.Bots[row[i]] = []int32{int32(bt.team), id, int32(r), int32(c), int32(bt.dir), bt.progress, b2i(bt.inLine), main,
			int32(bt.line), int32(bt.linePos), int32(bt.kind)}
	}
	for k, l := range m.lines {
		co := m.companies[k]
		fb := FrameBooth{Company: co.name, Size: string(co.size), Value: co.value, Tiles: m.coords(b.slots[k].booth),
			Line: m.coords(l.tiles), End: m.coords([]int32{l.end})[0], Queue: make([]int, len(l.queue)), Talker: -1, Progress: int(l.progress)}
		for q, i := range l.queue {
			fb.Queue[q] = row[i]
		}
		if l.talker >= 0 {
			fb.Talker = row[l.talker]
		}
		f.Booths = append(f.Booths, fb)
	}
	mask := make([]bool, n)
	for ti := range m.teams {
		t := &m.teams[ti]
		m.visible(ti, mask)
		vis := make([]byte, n)
		for i, v := range mask {
			vis[i] = '0' + byte(b2i(v))
		}
		f.Teams = append(f.Teams, FrameTeam{Score: t.score, Delta: t.delta, Rewards: append([][2]int(nil), t.rewards...), Visible: string(vis)})
	}
	return f
}

func b2i(v bool) int32 {
	if v {
		return 1
	}
	return 0
}

// coords lists tiles as (row, col).
func (m *match) coords(ts []int32) [][2]int {
	out := make([][2]int, len(ts))
	for i, t := range ts {
		r, c := m.b.rc(t)
		out[i] = [2]int{r, c}
	}
	return out
}

// AppendStats appends per team one row, then one per team position (unit
// = position, 0 the main bot).
func (m *match) AppendStats(dst []sim.Stat) []sim.Stat {
	crowdQueued := 0
	for _, l := range m.lines {
		crowdQueued += len(l.queue)
	}
	for ti := range m.teams {
		for _, i := range m.teams[ti].bots {
			if m.bots[i].line >= 0 {
				crowdQueued--
			}
		}
	}
	var mask []bool
	for ti := range m.teams {
		t := &m.teams[ti]
		if mask == nil {
			mask = make([]bool, m.b.rows*m.b.cols)
		}
		var row []float64
		dst, row = sim.AppendStat(dst, numMetrics, ti, sim.NoUnit, true)
		row[metricScore] = float64(t.score)
		row[metricMainServices] = float64(t.main)
		row[metricHelperServices] = float64(t.helper)
		row[metricCrowdQueued] = float64(crowdQueued)
		row[metricVisible] = float64(m.visible(ti, mask))
		seatRow := len(dst) - 1
		for p, i := range t.bots {
			u := &t.units[p]
			in := float64(b2i(m.bots[i].line >= 0))
			var ur []float64
			dst, ur = sim.AppendStat(dst, numMetrics, ti, p, true)
			ur[metricServices] = float64(u.services)
			ur[metricInLine] = in
			ur[metricLineTurns] = float64(u.lineTurns)
			ur[metricWasted] = float64(u.wasted)
			for _, k := range []int{metricServices, metricInLine, metricLineTurns, metricWasted} {
				dst[seatRow].Values[k] += ur[k]
			}
		}
	}
	return dst
}

// Over reports whether the match has ended.
func (m *match) Over() bool { return m.over }

// Turn is the number of steps played.
func (m *match) Turn() int { return m.turn }

// MaxTurns is the idle and play steps.
func (m *match) MaxTurns() int { return totalSteps }

// Events are the last step's events.
func (m *match) Events() []sim.Event { return m.events }

// Result ranks the teams by score: the higher score wins, equal scores
// draw. Under the runner a lone team wins only by reaching 200.
func (m *match) Result() sim.Result {
	r := sim.Result{Winner: -1, Players: make([]sim.PlayerResult, len(m.teams))}
	best, nBest := -1, 0
	for ti := range m.teams {
		s := m.teams[ti].score
		rank := 1
		for tj := range m.teams {
			if m.teams[tj].score > s {
				rank++
			}
		}
		r.Players[ti] = sim.PlayerResult{Rank: rank, Score: float64(s)}
		switch {
		case s > best:
			best, nBest = s, 1
		case s == best:
			nBest++
		}
	}
	if !m.over {
		return r
	}
	play := max(m.turn-idleSteps, 0)
	won := m.runner && best >= winScore
	switch {
	case won:
		r.Reason = fmt.Sprintf("won: score %d reached %d after %d play steps", best, winScore, play)
	case m.runner:
		r.Reason = fmt.Sprintf("timed out after %d play steps", play)
	default:
		r.Reason = fmt.Sprintf("%d play steps", play)
	}
	lone := len(m.teams) == 1 && !won
	for ti := range r.Players {
		switch s := m.teams[ti].score; {
		case s < best || lone:
			r.Players[ti].Outcome = sim.Loss
		case nBest == 1:
			r.Players[ti].Outcome = sim.Win
			r.Winner = ti
		default:
			r.Players[ti].Outcome = sim.Draw
		}
	}
	if len(m.teams) > 1 {
		if nBest == 1 {
			r.Reason += ", higher score"
		} else {
			r.Reason += ", equal scores"
		}
	}
	return r
}

// Hash digests the state that decides the rest of the match, in this
// order: turn, over; every tile's cached threshold; per line its end tile,
// talker, progress and queue; per team its bots in team order, score,
// last delta and rewards; per bot its tile, direction, requested direction,
// progress, queue membership, in_line flag, line_pos and crowd state
// (booth, next_loc, direction list, remaining path). The PRNG's state is
// left out: it follows from the seed and the steps played.
func (m *match) Hash() uint64 {
	h := sim.NewHasher(Game.Name)
	h.Int(m.turn)
	h.Bool(m.over)
	for _, t := range m.threshold {
		h.Int(int(t))
	}
	for _, l := range m.lines {
		h.Int(int(l.end))
		h.Int(int(l.talker))
		h.Int(int(l.progress))
		h.Int(len(l.queue))
		for _, i := range l.queue {
			h.Int(int(i))
		}
	}
	for ti := range m.teams {
		t := &m.teams[ti]
		for _, i := range t.bots {
			h.Int(int(i))
		}
		h.Int(t.score)
		h.Int(t.delta)
		for _, r := range t.rewards {
			h.Int(r[0])
			h.Int(r[1])
		}
	}
	for i := range m.bots {
		b := &m.bots[i]
		h.Int(int(b.loc))
		h.Int(int(b.dir))
		h.Int(int(b.want))
		h.Int(int(b.progress))
		h.Int(int(b.line))
		h.Bool(b.inLine)
		h.Int(int(b.linePos))
		h.Int(int(b.booth))
		h.Int(int(b.next))
		for _, d := range b.dirs {
			h.Int(int(d))
		}
		h.Int(len(b.path) - b.head)
		for _, t := range b.path[b.head:] {
			h.Int(int(t))
		}
	}
	return h.Sum()
}

// Render draws the board as the engine's debug print of its grid (Tile
// __repr__: BOOTH, E or L for a line tile at or off its end, T for floor,
// then the free and queued bot counts), then each team's bots.
func (m *match) Render() string {
	var s strings.Builder
	b := m.b
	fmt.Fprintf(&s, "step %d (%s)\n", m.turn, m.phase())
	for x := range b.rows {
		for y := range b.cols {
			t := b.tile(x, y)
			if y > 0 {
				s.WriteByte(' ')
			}
			switch {
			case b.boothOf[t] >= 0:
				s.WriteString("BOOTH")
			case m.endOfLine(t):
				fmt.Fprintf(&s, "E%02d%02d", m.free[t], m.queued[t])
			case b.lineOf[t] >= 0:
				fmt.Fprintf(&s, "L%02d%02d", m.free[t], m.queued[t])
			default:
				fmt.Fprintf(&s, "T%02d%02d", m.free[t], m.queued[t])
			}
		}
		s.WriteByte('\n')
	}
	for ti := range m.teams {
		t := &m.teams[ti]
		fmt.Fprintf(&s, "%s score %d:", sim.SeatName(ti), t.score)
		for id, i := range t.bots {
			bt := &m.bots[i]
			x, y := b.rc(bt.loc)
			fmt.Fprintf(&s, " %d@%d.%d %s", id, x, y, strings.ToLower(bt.dir.String()))
			if bt.line >= 0 {
				fmt.Fprintf(&s, " line %s #%d", m.companies[bt.line].name, bt.linePos)
			}
			if id < teamSize-1 {
				s.WriteByte(',')
			}
		}
		s.WriteByte('\n')
	}
	return s.String()
}

// Alternatives lists, for each of the team's bots in turn, its six
// actions with the other bots idle (NONE), then all idle: 25 commands.
// Every combination of the four bots' actions would be 7⁴, too many to
// fork at each turn, so the list tries one bot's move at a time.
func (m *match) Alternatives(int) []string {
	out := make([]string, 0, teamSize*(numActions-1)+1)
	idle := [teamSize]string{}
	for i := range idle {
		idle[i] = actionNames[none]
	}
	for b := range teamSize {
		for a := none + 1; a < numActions; a++ {
			cmd := idle
			cmd[b] = actionNames[a]
			out = append(out, strings.Join(cmd[:], ","))
		}
	}
	return append(out, strings.Join(idle[:], ","))
}
