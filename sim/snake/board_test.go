package snake

import "testing"

// glyphAt is the glyph a seat's view (or the observer's, seat -1) shows at
// board cell (x, y).
func glyphAt(t *testing.T, m *match, seat, x, y int) rune {
	t.Helper()
	var board string
	if seat < 0 {
		for _, row := range m.board(-1) {
			board += row
		}
	} else {
		board = m.View(seat).(*View).Board.String()
	}
	return []rune(board)[y*m.size+x]
}

// TestDrawSharedCell: where two snake parts share a cell, the view shows
// the part drawn first (dead heads, then flying snakes, then the others,
// shorter snakes first), even when a later one is a head.
func TestDrawSharedCell(t *testing.T) {
	type want struct {
		seat, x, y int
		glyph      rune
	}
	tests := []struct {
		name   string
		rows   []string
		flying [3]int
		cmds   []string
		want   []want
	}{
		{
			// B goes up onto flying A's body: no bite (a flying snake
			// cannot be bitten), and the flying group is drawn first.
			name: "a head on a flying snake's body shows the body",
			rows: []string{
				"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
				"☼ aaaaA       ☼",
				"☼   B         ☼",
				"☼   b         ☼",
				"☼   b         ☼",
				"☼#    ☼#    ☼#☼",
			},
			flying: [3]int{5, 0},
			cmds:   []string{"", ""},
			want: []want{
				{-1, 4, 1, '─'}, {0, 4, 1, '═'}, {1, 4, 1, '─'}, // B's head is hidden, in its own view too
				{-1, 7, 1, '♦'}, // A's flying head
				{1, 4, 2, '║'},  // B's own neck below it
			},
		},
		{
			// A (seat 0, 3 cells) runs into C's tail and dies, before B
			// (seat 1, 5 cells) goes up onto A's tail, which no longer
			// bites. A's dead head is drawn first, then the non-flying
			// snakes shortest first: A's tail hides B's head.
			name: "a dead head first, then a shorter snake's tail over a longer one's head",
			rows: []string{
				"☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
				"☼    C        ☼",
				"☼ aaAc        ☼",
				"☼  B c        ☼",
				"☼  b          ☼",
				"☼  bbb        ☼",
				"☼#    ☼#    ☼#☼",
			},
			cmds: []string{"", "", "RIGHT"},
			want: []want{
				{-1, 5, 2, '☺'}, {0, 5, 2, '☻'}, {2, 5, 2, '☺'}, // A's dead head over C's tail
				{-1, 3, 2, '×'}, {1, 3, 2, '×'}, {0, 3, 2, '╘'}, // B's head under A's tail
				{-1, 3, 3, '│'}, {1, 3, 3, '║'}, // B's neck
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := scenarioIn(t, "codenjoy", 10, tc.rows...)
			for i, f := range tc.flying {
				if i < len(m.snakes) {
					m.snakes[i].flying = f
				}
			}
			step(t, m, tc.cmds...)
			for _, w := range tc.want {
				if got := glyphAt(t, m, w.seat, w.x, w.y); got != w.glyph {
					t.Errorf("seat %d sees %q at (%d,%d), want %q", w.seat, got, w.x, w.y, w.glyph)
				}
			}
		})
	}
}

// TestItems: the word test finds an apple or a later object in any of 8
// cells, at its byte, and nothing among cells below apple.
func TestItems(t *testing.T) {
	for o := range flyingPill + 1 {
		for i := range 8 {
			cells := []object{outside, outside, outside, outside, outside, outside, outside, outside}
			cells[i] = o
			want := uint64(0)
			if o >= apple {
				want = 0x80 << (8 * i)
			}
			if got := items(cells); got != want {
				t.Errorf("object %d in cell %d: got %#x, want %#x", o, i, got, want)
			}
		}
	}
}
