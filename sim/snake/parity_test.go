package snake

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// The parity test plays the codenjoy ruleset tick by tick beside codenjoy's
// snakebattle engine (codenjoyme/codenjoy at cd78533c0), which is the judge.
// The original is built outside this repository with a driver that runs one
// room as the server's PlayerGames.tick does: every player's command in seat
// order, then a dead player leaves (last round) or gets a new snake, then
// the board ticks. Its Dice is a port of sim/rng's generator seeded with the
// match seed, so both engines draw the same numbers as long as they draw in
// the same order and with the same bounds.
//
// SNAKE_ORIG is the command that runs the driver, split on spaces; the test
// is skipped without it. SNAKE_ORIG_MATCHES is the number of matches
// (default 10). codebattle2020 is not compared: the original has no switch
// for its rules (no flying pills, WIN +110, one command per tick).
//
// The driver reads, for each match, a line "match SEED PLAYERS TICKS", the
// map rows, then per tick one line per seat with the command in hex ("-"
// for none), and prints one JSON line per tick (origTick).

// origTick is the original's state after one tick.
type origTick struct {
	Tick    int        `json:"t"`
	Draws   []int      `json:"draws"`
	Players []origSeat `json:"p"`
}

// origSeat is one player after a tick; coordinates are ours (y down).
type origSeat struct {
	Board  []string `json:"board"`
	Score  int      `json:"score"`
	Alive  bool     `json:"alive"`
	Active bool     `json:"active"`
	Left   bool     `json:"left"`
	Body   [][2]int `json:"body"`
	Stones int      `json:"stones"`
	Fury   int      `json:"fury"`
	Flying int      `json:"flying"`
	Events []string `json:"events"`
}

// smallMap (FuzzStep's) has as many start floors as it may have players,
// so a snake that dies asleep finds no free start and crowding comes early.
var smallMap = []string{
	"☼☼☼☼☼☼☼☼",
	"☼#  ○  ☼",
	"☼# ●   ☼",
	"☼#  ®  ☼",
	"☼#$    ☼",
	"☼#     ☼",
	"☼  ●   ☼",
	"☼☼☼☼☼☼☼☼",
}

// parityMatch is one match: its setup and the commands played.
type parityMatch struct {
	seed    uint64
	players int
	rows    []string
	cmds    [][]string
}

func (p *parityMatch) String() string {
	return fmt.Sprintf("seed %d (%d players, %dx%d map)", p.seed, p.players, len(p.rows), len(p.rows))
}

func (p *parityMatch) start(t *testing.T) *match {
	t.Helper()
	cfg, err := json.Marshal(config{Map: p.rows})
	if err != nil {
		t.Fatal(err)
	}
	mm, err := Game.New(sim.Setup{Ruleset: "codenjoy", Seed: p.seed, Players: p.players, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return mm.(*match)
}

// fuzzPieces are command fragments the original's pattern reads in
// surprising ways: keywords inside words, ACT parameters it reads as a
// suicide, a plain ACT or nothing, messages, and case and spacing.
var fuzzPieces = []string{
	"LEFT", "right", "Up", "dOwN", "ACT", "act", "ACT(0)", "ACT(-0)", "ACT(00)", "ACT(0,)", "ACT(0 ,)",
	"ACT( 0 )", "ACT()", "ACT(,0)", "ACT(-)", "ACT(1)", "ACT(0,1)", "ACT(99999999999)", "ACT (0)",
	"MOVE LEFT", "LEFTACT", "SUPER", "UPDOWN", "message('x')", "MESSAGE('y') RIGHT", "RİGHT", "ſ",
	"jump", " ", "", "٠",
}

var fuzzSeparators = []string{",", " ", "", ", ", " ,", ";"}

// fuzzCommand joins one to three pieces; a suicide piece is kept rare by
// the caller's rate.
func fuzzCommand(r *rng.Rand) string {
	var b strings.Builder
	for k := range 1 + r.IntN(3) {
		if k > 0 {
			b.WriteString(fuzzSeparators[r.IntN(len(fuzzSeparators))])
		}
		b.WriteString(fuzzPieces[r.IntN(len(fuzzPieces))])
	}
	return b.String()
}

// playParityMatch plays a match on our engine with a mix of the built-in
// bots and the alphabet at random, plus fuzzed text in odd-seeded matches
// (so that the even ones show the engine's mechanics apart from command
// reading), and records the commands.
func playParityMatch(t *testing.T, p *parityMatch) {
	t.Helper()
	m := p.start(t)
	r := rng.New(p.seed ^ 0x5eed)
	bots := make([]sim.Bot, p.players)
	for seat := range bots {
		if k := (int(p.seed) + seat) % (len(Game.Bots) + 1); k < len(Game.Bots) {
			b, err := Game.Bots[k].New(sim.Setup{Ruleset: "codenjoy", Seed: p.seed, Players: p.players}, seat, p.seed+uint64(seat))
			if err != nil {
				t.Fatal(err)
			}
			bots[seat] = b
		}
	}
	for !m.Over() {
		cmds := make([]string, p.players)
		for seat := range cmds {
			switch k := r.IntN(100); {
			case k < 4 && p.seed%2 == 1:
				cmds[seat] = fuzzCommand(r)
			case k < 8 || bots[seat] == nil:
				cmds[seat] = Game.Alphabet[r.IntN(len(Game.Alphabet)-1)] // no ACT(0): the fuzz has it
			default:
				cmds[seat] = bots[seat].Act(m.View(seat))
			}
		}
		p.cmds = append(p.cmds, cmds)
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
	}
}

// writeInput appends the match in the driver's input format.
func (p *parityMatch) writeInput(w *bufio.Writer) {
	fmt.Fprintf(w, "match %d %d %d\n", p.seed, p.players, len(p.cmds))
	for _, row := range p.rows {
		w.WriteString(row + "\n")
	}
	for _, cmds := range p.cmds {
		for _, c := range cmds {
			if c == "" {
				w.WriteString("-\n")
			} else {
				w.WriteString(hex.EncodeToString([]byte(c)) + "\n")
			}
		}
	}
}

// parityTally counts what the comparison found.
type parityTally struct {
	matches, sameMatches int
	ticks, sameTicks     int
	// events counts the original's events and rare situations, by kind,
	// in identical ticks (tallyTick).
	events map[string]int
	// replayTicks and replayTime measure our side of the same work as the
	// driver's timing: every tick of every match, Step and every seat's
	// board.
	replayTicks int
	replayTime  time.Duration
}

// TestParityWithOriginal compares every tick of many codenjoy matches with
// the original engine's and reports each match's first difference.
func TestParityWithOriginal(t *testing.T) {
	command := strings.Fields(os.Getenv("SNAKE_ORIG"))
	if len(command) == 0 {
		t.Skip("SNAKE_ORIG is not set: no original engine to compare with")
	}
	n := 10
	if s := os.Getenv("SNAKE_ORIG_MATCHES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > 10000 {
			t.Fatalf("SNAKE_ORIG_MATCHES = %q, want 1 to 10000", s)
		}
		n = v
	}
	tally := parityTally{events: map[string]int{}}
	const batch = 20 // one JVM for a batch of matches
	for first := 1; first <= n; first += batch {
		var ms []*parityMatch
		for seed := first; seed < first+batch && seed <= n; seed++ {
			p := &parityMatch{seed: uint64(seed), rows: defaultMap, players: 2 + seed%14}
			if seed%5 == 0 {
				p.rows, p.players = smallMap, 2+seed%4
			}
			playParityMatch(t, p)
			ms = append(ms, p)
		}
		runOriginal(t, command, ms, &tally)
		for _, p := range ms {
			replay(t, p, &tally)
		}
	}
	t.Logf("%d of %d matches identical in every tick; %d of %d ticks identical (a match's ticks are compared up to its first difference)",
		tally.sameMatches, tally.matches, tally.sameTicks, tally.ticks)
	t.Logf("original's events in identical ticks: %v", tally.events)
	t.Logf("ours: %d ticks in %.1f ms (Step and every seat's board)", tally.replayTicks, float64(tally.replayTime)/1e6)
}

// replay times our engine on a whole match, the work the driver times.
func replay(t *testing.T, p *parityMatch, tally *parityTally) {
	t.Helper()
	m := p.start(t)
	began := time.Now()
	for _, cmds := range p.cmds {
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
		for seat := range m.snakes {
			m.board(seat)
		}
	}
	tally.replayTime += time.Since(began)
	tally.replayTicks += len(p.cmds)
}

// runOriginal feeds a batch of matches to the driver and compares its
// answer with our engine's tick by tick.
func runOriginal(t *testing.T, command []string, ms []*parityMatch, tally *parityTally) {
	t.Helper()
	in := filepath.Join(t.TempDir(), "matches.txt")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, p := range ms {
		p.writeInput(w)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stdin, cmd.Stderr = f, os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	lines.Buffer(make([]byte, 0, 1<<16), 1<<24)
	for _, p := range ms {
		same := compareMatch(t, p, lines, tally)
		tally.matches++
		tally.ticks += len(p.cmds)
		tally.sameTicks += same
		if same == len(p.cmds) {
			tally.sameMatches++
		}
	}
	for lines.Scan() { // drain, so the process can finish
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("%s: %v", strings.Join(command, " "), err)
	}
}

// compareMatch replays a match through our engine beside the original's
// lines; it reports the first difference and returns the ticks before it.
func compareMatch(t *testing.T, p *parityMatch, lines *bufio.Scanner, tally *parityTally) int {
	t.Helper()
	m := p.start(t)
	src := logDraws(m)
	left := make([]bool, p.players)
	for i, cmds := range p.cmds {
		if !lines.Scan() {
			t.Fatalf("%s: the original stopped before tick %d: %v", p, i+1, lines.Err())
		}
		var want origTick
		if err := json.Unmarshal(lines.Bytes(), &want); err != nil {
			t.Fatalf("%s tick %d: decode the original's line: %v", p, i+1, err)
		}
		before := m.Render()
		src.ns = src.ns[:0]
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
		boards := make([][]string, len(m.snakes))
		for seat := range boards {
			boards[seat] = m.board(seat)
		}
		if d := tickDiff(m, boards, src.ns, &want); d != "" {
			t.Errorf("%s tick %d, commands %q:\n%s\nbefore the tick (ours):\n%s", p, i+1, cmds, d, before)
			for range len(p.cmds) - i - 1 {
				if !lines.Scan() {
					break
				}
			}
			return i
		}
		tallyTick(tally, left, &want, m.size)
	}
	return len(p.cmds)
}

// tallyTick counts the original's events of an identical tick and two rare
// situations: a seat leaving the room (LEAVE, once per leave) and a
// sleeping snake at codenjoy's pt(0, 0), our bottom-left cell, put there
// because no start floor was free (NO_START, once per tick it sleeps there).
func tallyTick(tally *parityTally, left []bool, want *origTick, size int) {
	for i, s := range want.Players {
		for _, e := range s.Events {
			tally.events[strings.SplitN(e, "[", 2)[0]]++
		}
		if s.Left && !left[i] {
			tally.events["LEAVE"]++
		}
		left[i] = s.Left
		if n := len(s.Body); n == 2 && s.Alive && !s.Active && s.Body[1] == [2]int{0, size - 1} {
			tally.events["NO_START"]++
		}
	}
}

// tickDiff returns the first difference between our state after a tick and
// the original's, or "". A seat that left the room (last round) has only
// its score compared: the original moved it to another room.
func tickDiff(m *match, boards [][]string, draws []int, want *origTick) string {
	if !slices.Equal(draws, want.Draws) {
		return fmt.Sprintf("draws (bounds): ours %v, original %v", draws, want.Draws)
	}
	if len(want.Players) != len(m.snakes) {
		return fmt.Sprintf("players: ours %d, original %d", len(m.snakes), len(want.Players))
	}
	for i := range m.snakes {
		s, w := &m.snakes[i], &want.Players[i]
		if s.score != w.Score {
			return fmt.Sprintf("seat %d score: ours %d, original %d", i, s.score, w.Score)
		}
		if got, want := ourEvents(m, i), origEvents(w.Events); !slices.Equal(got, want) {
			return fmt.Sprintf("seat %d events: ours %v, original %v", i, got, want)
		}
		if w.Left {
			continue
		}
		switch {
		case s.alive != w.Alive:
			return fmt.Sprintf("seat %d alive: ours %v, original %v", i, s.alive, w.Alive)
		case s.active != w.Active:
			return fmt.Sprintf("seat %d active: ours %v, original %v", i, s.active, w.Active)
		case s.stones != w.Stones || s.fury != w.Fury || s.flying != w.Flying:
			return fmt.Sprintf("seat %d stones/fury/flying: ours %d/%d/%d, original %d/%d/%d", i, s.stones, s.fury, s.flying, w.Stones, w.Fury, w.Flying)
		}
		body := make([][2]int, len(s.body))
		for k, c := range s.body {
			x, y := m.xy(c)
			body[k] = [2]int{x, y}
		}
		if !slices.Equal(body, w.Body) {
			return fmt.Sprintf("seat %d body (tail first): ours %v, original %v", i, body, w.Body)
		}
	}
	// Boards last: a difference in a snake shows on every board, and the
	// lines above name it better.
	for i := range m.snakes {
		w := &want.Players[i]
		if w.Left {
			continue
		}
		for y, row := range boards[i] {
			if y >= len(w.Board) || row != w.Board[y] {
				return fmt.Sprintf("seat %d board row %d:\nours:\n%s\noriginal:\n%s", i, y, strings.Join(boards[i], "\n"), strings.Join(w.Board, "\n"))
			}
		}
	}
	return ""
}

// ourEvents lists seat i's scoring events of the tick in the original's
// names, sorted: WIN, APPLE, GOLD, STONE and EAT[n].
func ourEvents(m *match, i int) []string {
	var out []string
	for _, e := range m.events {
		if e.Seat != i {
			continue
		}
		switch {
		case e.Kind == "win":
			out = append(out, "WIN")
		case e.Kind == "eat" && e.Target >= 0:
			out = append(out, fmt.Sprintf("EAT[%d]", int(e.Amount)/eatPoints))
		case e.Kind == "eat" && e.Detail == "apple":
			out = append(out, "APPLE")
		case e.Kind == "eat" && e.Detail == "gold":
			out = append(out, "GOLD")
		case e.Kind == "eat" && e.Detail == "stone":
			out = append(out, "STONE")
		}
	}
	slices.Sort(out)
	return out
}

// origEvents keeps the original's scoring events, sorted. DIE is left out:
// the original fires it on every die() call, even for a dead snake, and
// alive already says who died; START carries no state.
func origEvents(evs []string) []string {
	var out []string
	for _, e := range evs {
		if e != "DIE" && e != "START" {
			out = append(out, e)
		}
	}
	slices.Sort(out)
	return out
}
