package toad

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/replaylab/replaylab/sim/rng"
)

// generateRolls draws n rolls from the seed, uniform in 0..33 in turn
// order, keeping the game solvable (A10: the assignment guarantees every
// input has a winning plan) and counting the redraws.
//
// A10 proposes redrawing the whole sequence until it is solvable; for long
// games almost every sequence fails, so instead each roll is checked as it
// is drawn. Roll t first lands on turn t+4, so the rolls 1..t decide
// everything through turn min(t+4, n). After drawing roll t, a forward DP
// over "column -> most HP he can have there, alive" (exact, since more HP
// never hurts) is advanced by that one turn; if no column is left, roll t
// is redrawn with the next draws. Roll 0 always passes (from any live state
// Stay costs nothing and nothing lands), so this ends, and the last check
// covers the whole game, so the result always has a win. The rolls are not
// distributed like whole-sequence rejection would give: a roll is only
// judged against the rolls before it. The DP follows the match's
// start_hp and strict_hp, so those are part of what the seed generates.
func generateRolls(seed uint64, n, startHP int, strict bool) (rolls []int, redraws int) {
	r := rng.New(seed)
	rolls = make([]int, n)
	// ahead is the DP layer after turn min(t+3, n) while roll t is drawn:
	// everything up to there is already decided by rolls before t.
	ahead := reachable(startHP, nil, min(4, n), strict)
	for t := 1; t <= n; t++ {
		for {
			roll := r.IntN(maxRoll + 1)
			if t+4 > n { // it never reaches the bottom row
				rolls[t-1] = roll
				break
			}
			if next, ok := layer(ahead, spawnMask(roll), strict); ok {
				rolls[t-1], ahead = roll, next
				break
			}
			redraws++
		}
	}
	return rolls, redraws
}

// hpByCol holds, per column 1..5, the most HP the toad can have there alive
// after some turn, or -1 where he cannot be.
type hpByCol [numCols]int

// reachable returns the DP layer after turn `to` of a game over rolls
// (only rolls 1..to-4 matter), from the start.
func reachable(startHP int, rolls []int, to int, strict bool) hpByCol {
	d := hpByCol{-1, -1, -1, -1, -1, -1, -1}
	d[startCol] = startHP
	for k := 1; k <= to; k++ {
		d, _ = layer(d, arrival(rolls, k), strict)
	}
	return d
}

// layer advances the DP by one turn in which the row arriving lands, and
// reports whether any column is still alive. It is survive (the one-turn
// rule the search and the generator share) unrolled per target column, with
// no calls in the loop, because the seeded generator runs it for every roll;
// TestLayerMatchesSurvive proves the two agree on every input.
func layer(d hpByCol, arriving uint8, strict bool) (hpByCol, bool) {
	// p is d shifted by two with every non-river or unreachable column far
	// below any HP, so a move's source needs no range test: p[nc+2-delta].
	const gone = -1 << 30
	var p [numCols + 4]int
	for i := range p {
		p[i] = gone
	}
	for c := river1; c <= river5; c++ {
		if d[c] >= 0 {
			p[c+2] = d[c]
		}
	}
	next := hpByCol{-1, -1, -1, -1, -1, -1, -1}
	ok := false
	for nc := river1; nc <= river5; nc++ {
		if arriving&(1<<nc) != 0 {
			continue // a snake lands here
		}
		best := gone
		for a := range actions {
			best = max(best, p[nc+2-actions[a].delta]-actions[a].cost)
		}
		switch {
		case best < -maxCost:
			continue // no live column reaches nc
		case strict && best <= 0:
			continue // the move itself starves him
		}
		best = max(best, 0) // the HP floor; a fly may still save him
		if arriving&(1<<leftBank) != 0 && beside(leftBank, nc) || arriving&(1<<rightBank) != 0 && beside(rightBank, nc) {
			best += flyBonus
		}
		if best > 0 {
			next[nc], ok = best, true
		}
	}
	return next, ok
}

// maxCost is the dearest move's HP cost.
const maxCost = 3

// ParseError reports a malformed River Toad input file.
type ParseError struct {
	Line   int // 1-based line number
	Reason string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

// ParseRolls reads the original game's input file (A6): the first line
// holds N, the number of rolls, possibly followed by a "# comment"; then N
// lines hold one roll each, 0..33. Blank lines, CRLF line ends and "#"
// comments after a value or on a line of their own are tolerated. Errors
// are *ParseError naming the line, except read errors, returned as they
// come.
func ParseRolls(r io.Reader) ([]int, error) {
	sc := bufio.NewScanner(r)
	n := -1
	var rolls []int
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		v, err := strconv.Atoi(text)
		if n < 0 {
			if err != nil {
				return nil, &ParseError{Line: line, Reason: fmt.Sprintf("the number of rolls %q is not an integer", text)}
			}
			if v < 1 || v > maxTurns {
				return nil, &ParseError{Line: line, Reason: fmt.Sprintf("the number of rolls %d is outside 1..%d", v, maxTurns)}
			}
			n = v
			continue
		}
		switch {
		case err != nil:
			return nil, &ParseError{Line: line, Reason: fmt.Sprintf("roll %q is not an integer", text)}
		case v < 0 || v > maxRoll:
			return nil, &ParseError{Line: line, Reason: fmt.Sprintf("roll %d is outside 0..%d", v, maxRoll)}
		case len(rolls) == n:
			return nil, &ParseError{Line: line, Reason: fmt.Sprintf("more rolls than the %d announced on the first line", n)}
		}
		rolls = append(rolls, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if n < 0 {
		return nil, &ParseError{Line: max(line, 1), Reason: "no number of rolls: the file is empty"}
	}
	if len(rolls) != n {
		return nil, &ParseError{Line: line, Reason: fmt.Sprintf("the first line announces %d rolls, the file has %d", n, len(rolls))}
	}
	return rolls, nil
}
