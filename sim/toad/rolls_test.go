package toad

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseRolls(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []int
		line int    // of the error, 0 for none
		err  string // substring of the error
	}{
		{"example", "5 # number of rolls following this line\n21\n21\n10\n14\n27\n", []int{21, 21, 10, 14, 27}, 0, ""},
		{"no final newline", "2\n0\n33", []int{0, 33}, 0, ""},
		{"crlf and blank lines", "\r\n3\r\n\r\n32\r\n  1 \r\n\r\n2\r\n\r\n", []int{32, 1, 2}, 0, ""},
		{"comments", "# rolls\n2 #n\n5 # first\n# between\n6\n", []int{5, 6}, 0, ""},
		{"empty", "", nil, 1, "empty"},
		{"only blanks", "\n\n  \n", nil, 3, "empty"},
		{"count not a number", "five\n1\n", nil, 1, `"five" is not an integer`},
		{"count zero", "0\n", nil, 1, "0 is outside"},
		{"count negative", "-2\n", nil, 1, "-2 is outside"},
		{"roll too big", "2\n1\n34\n", nil, 3, "roll 34 is outside 0..33"},
		{"roll negative", "2\n-1\n3\n", nil, 2, "roll -1 is outside"},
		{"roll not a number", "2\n1\nx\n", nil, 3, `roll "x" is not an integer`},
		{"two on a line", "2\n1 2\n", nil, 2, `roll "1 2" is not an integer`},
		{"too few", "3\n1\n2\n", nil, 3, "announces 3 rolls, the file has 2"},
		{"too many", "1\n1\n\n2\n", nil, 4, "more rolls than the 1 announced"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRolls(strings.NewReader(tt.in))
			if tt.line == 0 {
				if err != nil || !slices.Equal(got, tt.want) {
					t.Errorf("got %v, %v; want %v", got, err, tt.want)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tt.line || !strings.Contains(pe.Reason, tt.err) {
				t.Errorf("got %v, %v; want a ParseError on line %d containing %q", got, err, tt.line, tt.err)
			}
		})
	}
	_, err := ParseRolls(iotest.ErrReader(io.ErrUnexpectedEOF))
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("read error: got %v", err)
	}
}

// TestGeneratorChecksAsItDraws: every accepted prefix is survivable through
// the turn its last roll lands, the property the generator promises.
func TestGeneratorChecksAsItDraws(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		const n, hp = 60, 4
		rolls, _ := generateRolls(seed, n, hp, true)
		for k := 1; k <= n; k++ {
			if _, ok := layerAlive(reachable(hp, rolls, k, true)); !ok {
				t.Fatalf("seed %d: no survivor after turn %d with rolls %v", seed, k, rolls[:max(0, k-4)])
			}
		}
	}
}

// layerAlive returns a live column of a DP layer.
func layerAlive(d hpByCol) (int, bool) {
	for c := river1; c <= river5; c++ {
		if d[c] > 0 {
			return c, true
		}
	}
	return 0, false
}

// layerBySurvive is the DP step written directly from survive.
func layerBySurvive(d hpByCol, arriving uint8, strict bool) (hpByCol, bool) {
	next := hpByCol{-1, -1, -1, -1, -1, -1, -1}
	ok := false
	for c := river1; c <= river5; c++ {
		if d[c] < 0 {
			continue
		}
		for a := range actions {
			if nc, hp, live := survive(c, d[c], a, arriving, strict); live && hp > next[nc] {
				next[nc], ok = hp, true
			}
		}
	}
	return next, ok
}

func TestLayerMatchesSurvive(t *testing.T) {
	for _, a := range actions {
		if a.cost > maxCost {
			t.Fatalf("action %s costs %d, more than maxCost %d", a.letter, a.cost, maxCost)
		}
	}
	hps := []int{-1, 1, 3, 4, 7}
	n := 0
	var d hpByCol
	var walk func(c int)
	walk = func(c int) {
		if c > river5 {
			for mask := range 1 << numCols {
				for _, strict := range []bool{false, true} {
					got, gotOK := layer(d, uint8(mask), strict)
					want, wantOK := layerBySurvive(d, uint8(mask), strict)
					if got != want || gotOK != wantOK {
						t.Fatalf("layer(%v, %07b, %v) = %v %v, want %v %v", d, mask, strict, got, gotOK, want, wantOK)
					}
					n++
				}
			}
			return
		}
		for _, hp := range hps {
			d[c] = hp
			walk(c + 1)
		}
	}
	d = hpByCol{-1, -1, -1, -1, -1, -1, -1}
	walk(river1)
	if n != 3125*128*2 {
		t.Fatalf("checked %d cases", n)
	}
}
