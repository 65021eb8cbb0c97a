package careerfair

import (
	"embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// data holds the original's boards (distribution/boards and the
// competition's gates6) and its companies.txt.
//
//go:embed boards/*.txt companies.txt
var data embed.FS

// boardNames are the built-in boards; the first is the default.
var boardNames = []string{"gates6", "tiny", "debug", "sample", "gates4"}

// Bounds on custom input, far above the original's boards (gates4: 18x24,
// 53 companies, 1000 crowd bots, vision 4; debug: vision 100).
const (
	maxTextBytes = 64 << 10
	maxSide      = 100
	maxTiles     = 4096
	maxCrowd     = 10000
	maxVision    = 1000
	maxValue     = 1000000
)

// slot is a company slot of the board: its size, booth tiles and line.
type slot struct {
	size  byte
	booth []int32
	line  []int32 // front to tail
}

// board is a parsed board file (B.2).
type board struct {
	rows, cols int
	crowd      int // numCrowdBots of the header
	vision     int
	start      int32
	boothOf    []int16 // per tile: the slot whose booth it is, or -1
	lineOf     []int16 // per tile: the slot whose line it is, or -1
	slots      []slot
	// neighbours holds per tile its neighbours in searchOrder, offGrid()
	// for a side on the grid's edge.
	neighbours [][4]int32
}

// tile is the index of (row, col).
func (b *board) tile(r, c int) int32 { return int32(r*b.cols + c) }

// rc is the (row, col) of a tile.
func (b *board) rc(t int32) (int, int) { return int(t) / b.cols, int(t) % b.cols }

// offGrid is the neighbour beyond the grid's edge: one past the last tile,
// so a search can keep a closed mark for it.
func (b *board) offGrid() int32 { return int32(b.rows * b.cols) }

// step is the tile a cardinal action leads to from t, or -1 off the grid.
func (b *board) step(t int32, a action) int32 {
	if n := b.neighbours[t][a-left]; n != b.offGrid() {
		return n
	}
	return -1
}

// count is the number of slots of a size.
func (b *board) count(size byte) int {
	n := 0
	for _, s := range b.slots {
		if s.size == size {
			n++
		}
	}
	return n
}

// boardError is a setup error about the board text, at a line.
func boardError(field string, line int, format string, args ...any) error {
	return &sim.SetupError{Field: field, Reason: fmt.Sprintf("line %d: ", line) + fmt.Sprintf(format, args...)}
}

// loadBoard parses the board the config names.
func loadBoard(cfg config) (*board, error) {
	if cfg.BoardText != "" {
		if cfg.Board != "" {
			return nil, &sim.SetupError{Field: "config", Reason: "give board or board_text, not both"}
		}
		if len(cfg.BoardText) > maxTextBytes {
			return nil, &sim.SetupError{Field: "config.board_text", Reason: fmt.Sprintf("longer than %d bytes", maxTextBytes)}
		}
		return parseBoard("config.board_text", cfg.BoardText)
	}
	name := cfg.Board
	if name == "" {
		name = boardNames[0]
	}
	if !slices.Contains(boardNames, name) {
		return nil, &sim.SetupError{Field: "config.board", Reason: fmt.Sprintf("unknown board %s (have %s)", sim.QuoteCommand(name), strings.Join(boardNames, ", "))}
	}
	text, err := data.ReadFile("boards/" + name + ".txt")
	if err != nil {
		return nil, fmt.Errorf("careerfair: read built-in board %s: %w", name, err)
	}
	return parseBoard("config.board", string(text))
}

// parseBoard reads a board file (B.2) and checks every company slot.
func parseBoard(field, text string) (*board, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	head := strings.Fields(lines[0])
	if len(head) < 5 {
		return nil, boardError(field, 1, "header has %d fields, want rows cols companies crowd vision", len(head))
	}
	var v [5]int
	limits := [5]struct {
		name   string
		lo, hi int
	}{{"rows", 1, maxSide}, {"cols", 1, maxSide}, {"companies", 1, maxTiles}, {"crowd", 0, maxCrowd}, {"vision", 0, maxVision}}
	for i, l := range limits {
		n, err := strconv.Atoi(head[i])
		if err != nil || n < l.lo || n > l.hi {
			return nil, boardError(field, 1, "%s %s is not a whole number from %d to %d", l.name, sim.QuoteCommand(head[i]), l.lo, l.hi)
		}
		v[i] = n
	}
	b := &board{rows: v[0], cols: v[1], crowd: v[3], vision: v[4], start: -1}
	n := b.rows * b.cols
	if n > maxTiles {
		return nil, boardError(field, 1, "%dx%d is more than %d tiles", b.rows, b.cols, maxTiles)
	}
	if v[2] > n {
		return nil, boardError(field, 1, "%d companies do not fit in %d tiles", v[2], n)
	}
	b.boothOf = make([]int16, n)
	b.lineOf = make([]int16, n)
	for i := range b.boothOf {
		b.boothOf[i], b.lineOf[i] = -1, -1
	}
	b.slots = make([]slot, v[2])
	tails := make([][]int32, v[2])
	where := make([]int, v[2]) // the line of the file naming each slot first
	rows := lines[1:]
	for len(rows) > b.rows && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1]
	}
	if len(rows) != b.rows {
		return nil, boardError(field, len(lines), "the board has %d rows after the header, want %d", len(rows), b.rows)
	}
	for r, row := range rows {
		ln := r + 2
		tokens := strings.Fields(row)
		if len(tokens) != b.cols {
			return nil, boardError(field, ln, "row has %d tiles, want %d", len(tokens), b.cols)
		}
		for c, tok := range tokens {
			t := b.tile(r, c)
			switch tok[0] {
			case 'F':
				if tok != "F" {
					return nil, boardError(field, ln, "unknown tile %s", sim.QuoteCommand(tok))
				}
				continue
			case 'B':
				if tok != "B" {
					return nil, boardError(field, ln, "unknown tile %s", sim.QuoteCommand(tok))
				}
				b.start = t
				continue
			}
			k, letter, err := slotOf(tok, len(b.slots))
			if err != "" {
				return nil, boardError(field, ln, "tile %s: %s", sim.QuoteCommand(tok), err)
			}
			if where[k] == 0 {
				where[k] = ln
			}
			s := &b.slots[k]
			switch letter {
			case 'S', 'M', 'L':
				if s.size != 0 && s.size != letter {
					return nil, boardError(field, ln, "booth %d is both %c and %c", k, s.size, letter)
				}
				s.size = letter
				s.booth = append(s.booth, t)
				b.boothOf[t] = int16(k)
			case 'E':
				tails[k] = append(tails[k], t)
				b.lineOf[t] = int16(k)
			default:
				s.line = append(s.line, t)
				b.lineOf[t] = int16(k)
			}
		}
	}
	if b.start < 0 {
		return nil, boardError(field, len(rows)+1, "the board has no start tile B")
	}
	for k := range b.slots {
		if err := b.orderLine(k, tails[k]); err != "" {
			return nil, boardError(field, max(where[k], 1), "company %d: %s", k, err)
		}
	}
	b.link()
	return b, nil
}

// slotOf reads a booth, tail or line token: its slot and letter (0 for a
// plain line tile), or why it is not one.
func slotOf(tok string, slots int) (int, byte, string) {
	letter, digits := byte(0), tok
	switch tok[0] {
	case 'S', 'M', 'L', 'E':
		letter, digits = tok[0], tok[1:]
	}
	if digits == "" || strings.Trim(digits, "0123456789") != "" || len(digits) > 6 {
		return 0, 0, "not a tile (F, B, S<k>, M<k>, L<k>, E<k> or <k>)"
	}
	k, _ := strconv.Atoi(digits)
	if k >= slots {
		return 0, 0, fmt.Sprintf("company %d, but the header has %d", k, slots)
	}
	return k, letter, ""
}

// orderLine checks slot k (a booth, and a straight unbroken line with one
// tail tile at an end) and orders its line from the front to the tail.
func (b *board) orderLine(k int, tails []int32) string {
	s := &b.slots[k]
	switch {
	case s.size == 0:
		return "no booth tile"
	case len(tails) != 1:
		return fmt.Sprintf("%d tail tiles E%d, want 1", len(tails), k)
	}
	tail := tails[0]
	tr, tc := b.rc(tail)
	across := func(t int32) int { r, _ := b.rc(t); return r - tr }
	along := func(t int32) int { _, c := b.rc(t); return c - tc }
	if len(s.line) > 0 && along(s.line[0]) == 0 {
		across, along = along, across
	}
	// offsets[i] is true once a tile lies i+1 tiles from the tail.
	offsets := make([]bool, len(s.line))
	sign := 0
	for _, t := range s.line {
		d := along(t)
		if across(t) != 0 {
			return "the line is not straight"
		}
		if sign == 0 {
			sign = d
		}
		if d*sign < 0 {
			return "the line lies on both sides of its tail tile"
		}
		d = max(d, -d)
		if d > len(s.line) || offsets[d-1] {
			return "the line is broken"
		}
		offsets[d-1] = true
	}
	line := append(s.line, tail)
	slices.SortFunc(line, func(a, c int32) int { return abs(along(c)) - abs(along(a)) })
	s.line = line
	return ""
}

func abs(x int) int { return max(x, -x) }

// link computes every tile's neighbours.
func (b *board) link() {
	b.neighbours = make([][4]int32, b.rows*b.cols)
	for t := range b.neighbours {
		r, c := b.rc(int32(t))
		for i, a := range searchOrder {
			nr, nc := r+delta[a][0], c+delta[a][1]
			if nr < 0 || nr >= b.rows || nc < 0 || nc >= b.cols {
				b.neighbours[t][i] = b.offGrid()
			} else {
				b.neighbours[t][i] = b.tile(nr, nc)
			}
		}
	}
}

// loadCompanies parses a companies.txt ("Name Size Value" lines), the
// built-in one when text is empty, into pools per size sorted by name.
func loadCompanies(text string) (map[byte][]company, error) {
	field := "config.companies_text"
	if text == "" {
		b, err := data.ReadFile("companies.txt")
		if err != nil {
			return nil, fmt.Errorf("careerfair: read built-in companies: %w", err)
		}
		text, field = string(b), "companies"
	} else if len(text) > maxTextBytes {
		return nil, &sim.SetupError{Field: field, Reason: fmt.Sprintf("longer than %d bytes", maxTextBytes)}
	}
	pool := map[byte][]company{}
	seen := map[string]int{}
	for i, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, boardError(field, i+1, "%d fields, want Name Size Value", len(f))
		}
		if len(f[1]) != 1 || !strings.Contains(sizes, f[1]) {
			return nil, boardError(field, i+1, "company %s has size %s, want S, M or L", sim.QuoteCommand(f[0]), sim.QuoteCommand(f[1]))
		}
		v, err := strconv.Atoi(f[2])
		if err != nil || v < 0 || v > maxValue {
			return nil, boardError(field, i+1, "company %s has value %s, want a whole number from 0 to %d", sim.QuoteCommand(f[0]), sim.QuoteCommand(f[2]), maxValue)
		}
		if at, dup := seen[f[0]]; dup {
			return nil, boardError(field, i+1, "company %s is already on line %d", sim.QuoteCommand(f[0]), at)
		}
		seen[f[0]] = i + 1
		pool[f[1][0]] = append(pool[f[1][0]], company{name: f[0], size: f[1][0], value: v})
	}
	for _, p := range pool {
		slices.SortFunc(p, func(a, b company) int { return strings.Compare(a.name, b.name) })
	}
	return pool, nil
}
