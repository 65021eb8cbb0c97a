package worms

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// The parity tests play our engine beside the original Kotlin engine
// (EntelectChallenge/2019-Worms: tag 2019.1.0, phase 1, for base; tag
// 2019.3.2 for final), which is the judge. The original is built from its
// source outside this repository together with a driver that feeds each
// bot line through the runner's own BotInputHandler (the "C;<round>;"
// filter), turns a missing or empty command into "No Command", hands the
// engine one raw command (phase 1) or the ';'-split, trimmed parts (final)
// in a java.util.Hashtable keyed by the game player, as the runner does,
// and prints the full state after every round.
//
// WORMS_ORIG_BASE and WORMS_ORIG_FINAL are the commands that run the
// driver for each tag, split on spaces; a ruleset's tests are skipped
// without its variable. WORMS_ORIG_MATCHES is the number of matches per
// ruleset (default 20), WORMS_ORIG_SEEDS the number of seeds of the map
// check (default 500), WORMS_ORIG_FUZZ the percentage of commands
// replaced or dressed by fuzzCommand (default 30).
//
// The driver reads one request a line on stdin:
//
//	map SEED         print the state after map generation
//	match SEED       start a match (prints nothing)
//	r HEX1 HEX2      play a round: each player's bot line as UTF-8 in hex
//	done             print "end ROUNDS NANOS PROCNANOS": rounds played, the time
//	                 spent in the rounds' command handling and processRound, and
//	                 processRound's share of it
//
// A state is the lines of parityState ending with ".". Once the game is
// complete the driver ignores further rounds.
//
// Our text commands need no "C;<round>;" prefix (replaylab's protocol);
// a bot speaking the runner's protocol prints one, so the driver gets
// "C;<round>;" followed by our text when our text does not start with "C;"
// (sendLine). Line breaks are never fuzzed: the runner's Scanner cuts lines
// at \r, U+0085, U+2028 and U+2029 too, which is a transport matter.

// parityEnv is a ruleset's driver variable.
var parityEnv = map[string]string{"base": "WORMS_ORIG_BASE", "final": "WORMS_ORIG_FINAL"}

// parityCount reads a count in lo..hi from the environment.
func parityCount(t *testing.T, name string, def, lo, hi int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		t.Fatalf("%s = %q, want %d to %d", name, s, lo, hi)
	}
	return n
}

// origDriver is a running original driver.
type origDriver struct {
	in  io.WriteCloser
	out *bufio.Reader
}

// startOriginal starts the ruleset's driver, or skips the test when its
// variable is not set. The driver ends when the test does.
func startOriginal(t *testing.T, ruleset string, timeout time.Duration) *origDriver {
	t.Helper()
	command := strings.Fields(os.Getenv(parityEnv[ruleset]))
	if len(command) == 0 {
		t.Skipf("%s is not set: no original engine to compare with", parityEnv[ruleset])
	}
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", strings.Join(command, " "), err)
	}
	d := &origDriver{in: in, out: bufio.NewReaderSize(out, 1<<16)}
	t.Cleanup(func() {
		in.Close()
		cancel()
		_ = cmd.Wait()
	})
	return d
}

// send writes requests from a goroutine so that the driver's answers can
// be read while it is fed; the returned channel reports the write error.
func (d *origDriver) send(lines []string) <-chan error {
	done := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(d.in)
		for _, l := range lines {
			if _, err := w.WriteString(l + "\n"); err != nil {
				done <- err
				return
			}
		}
		done <- w.Flush()
	}()
	return done
}

// block reads one state, or the "end" line, which it returns as is.
func (d *origDriver) block() ([]string, error) {
	var lines []string
	for {
		l, err := d.out.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("read the original's answer: %w", err)
		}
		l = strings.TrimSuffix(l, "\n")
		if l == "." {
			return lines, nil
		}
		if strings.HasPrefix(l, "end ") || strings.HasPrefix(l, "error ") {
			return []string{l}, nil
		}
		lines = append(lines, l)
	}
}

// origTimes are the original's times for a match: all of the rounds'
// engine work (the runner's command handling included) and processRound
// alone.
type origTimes struct{ all, process time.Duration }

// end reads the "end ROUNDS NANOS PROCNANOS" line.
func (d *origDriver) end() (origTimes, error) {
	l, err := d.block()
	if err != nil {
		return origTimes{}, err
	}
	var rounds int
	var all, process int64
	if _, err := fmt.Sscanf(l[0], "end %d %d %d", &rounds, &all, &process); err != nil {
		return origTimes{}, fmt.Errorf("the original's end line %q: %w", l[0], err)
	}
	return origTimes{time.Duration(all), time.Duration(process)}, nil
}

// parityState is our state in the driver's lines: round and whether the
// game is over; per player the total and command score, do-nothing
// streak, active worm (and in final the select tokens) and per worm its
// HP and position (in final also frozen rounds, bananas and snowballs);
// the terrain rows in the Frame's bytes; the health packs.
func parityState(m *match) []string {
	f := m.Frame().(*Frame)
	lines := []string{fmt.Sprintf("round=%d over=%d", f.Round, b2i(m.over))}
	for s, p := range f.Players {
		l := fmt.Sprintf("player%d score=%d cmd=%d streak=%d active=%d", s+1, p.Score, p.CommandScore, p.Streak, p.ActiveWorm)
		if m.rules.final {
			l += fmt.Sprintf(" tokens=%d", p.Tokens)
		}
		lines = append(lines, l)
		for _, w := range f.Worms {
			if w.Player != s {
				continue
			}
			l := fmt.Sprintf("worm%d.%d hp=%d x=%d y=%d", s+1, w.ID, w.HP, w.X, w.Y)
			if m.rules.final {
				l += fmt.Sprintf(" frozen=%d bananas=%d snowballs=%d", w.Frozen, w.Bananas, w.Snowballs)
			}
			lines = append(lines, l)
		}
	}
	for y, row := range f.Map {
		lines = append(lines, fmt.Sprintf("row%d %s", y, row))
	}
	packs := "packs"
	for _, p := range f.Packs {
		packs += fmt.Sprintf(" %d,%d", p.X, p.Y)
	}
	return append(lines, packs)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// stateDiff names the first field where two states differ, or is "".
func stateDiff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g == w {
			continue
		}
		gf, wf := strings.Fields(g), strings.Fields(w)
		if strings.HasPrefix(g, "row") || len(gf) != len(wf) || len(gf) == 0 || gf[0] != wf[0] {
			return fmt.Sprintf("line %q: got %q, want %q", firstField(w), g, w)
		}
		for j := range gf {
			if gf[j] != wf[j] {
				return fmt.Sprintf("%s %s: got %q, want %q", gf[0], strings.SplitN(wf[j], "=", 2)[0], gf[j], wf[j])
			}
		}
	}
	return ""
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// paritySeeds are the map check's and the matches' seeds: the engine's
// signed 32-bit seeds, spread over the whole range.
func paritySeeds(n int, salt uint64) []int32 {
	r := rng.New(salt)
	seeds := make([]int32, n)
	for i := range seeds {
		seeds[i] = int32(uint32(r.Uint64()))
	}
	if n > 0 {
		seeds[0] = 0
	}
	return seeds
}

// TestParityMapsWithOriginal compares the generated map, worm positions
// and health packs with the original's over many seeds.
func TestParityMapsWithOriginal(t *testing.T) {
	for _, ruleset := range Game.Rulesets {
		t.Run(ruleset, func(t *testing.T) {
			d := startOriginal(t, ruleset, 30*time.Minute)
			seeds := paritySeeds(parityCount(t, "WORMS_ORIG_SEEDS", 500, 1, 1_000_000), 14)
			reqs := make([]string, len(seeds))
			for i, s := range seeds {
				reqs[i] = fmt.Sprintf("map %d", s)
			}
			sent := d.send(reqs)
			same := 0
			for _, s := range seeds {
				want, err := d.block()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := d.end(); err != nil {
					t.Fatal(err)
				}
				got := parityState(start(t, ruleset, uint64(uint32(s))))
				if diff := stateDiff(got, want); diff != "" {
					if t.Failed() {
						continue // report the first few only
					}
					t.Errorf("seed %d: %s", s, diff)
					continue
				}
				same++
			}
			if err := <-sent; err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d of %d maps identical", ruleset, same, len(seeds))
		})
	}
}

// parityMatch is one match played on our engine: its seed and the text
// each player sent each round.
type parityMatch struct {
	seed int32
	cmds [][2]string
}

// sendLine is the bot line the runner reads for our command text.
func sendLine(cmd string, round int) string {
	if !strings.HasPrefix(cmd, "C;") {
		cmd = "C;" + strconv.Itoa(round) + ";" + cmd
	}
	return hex.EncodeToString([]byte(cmd))
}

// digitZeros are the zeros of every decimal digit run in Go's unicode.Nd
// table: Kotlin's toIntOrNull accepts the BMP ones (through Java's
// Character.digit, so the JDK's Unicode version is part of the
// comparison) and rejects the supplementary ones (surrogate pairs).
var digitZeros = func() []rune {
	var zeros []rune
	for _, r := range unicode.Nd.R16 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += 10 {
			zeros = append(zeros, c)
		}
	}
	for _, r := range unicode.Nd.R32 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += 10 {
			zeros = append(zeros, c)
		}
	}
	return zeros
}()

// fuzzNumber writes n in ASCII or in one other digit script (now and then
// mixed with ASCII), and now and then with a sign, a leading zero or out
// of range.
func fuzzNumber(r *rng.Rand, n int) string {
	switch r.IntN(20) {
	case 0:
		n = -n
	case 1:
		n += 40
	case 2:
		return "+" + strconv.Itoa(n)
	case 3:
		return "0" + strconv.Itoa(n)
	case 4:
		return "99999999999"
	}
	s := strconv.Itoa(n)
	if r.IntN(3) > 0 {
		return s
	}
	zero, mixed := digitZeros[r.IntN(len(digitZeros))], r.IntN(4) == 0
	var b strings.Builder
	for _, c := range s {
		switch {
		case c < '0' || c > '9', mixed && r.IntN(2) == 0:
			b.WriteRune(c)
		default:
			b.WriteRune(zero + c - '0')
		}
	}
	return b.String()
}

var (
	fuzzKeywords   = []string{"move", "dig", "shoot", "banana", "snowball", "select", "nothing", "MOVE", "Dig", "SHOOT", "dİg", "No", "x", ""}
	fuzzDirections = []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW", "U", "UR", "R", "DR", "D", "DL", "L", "UL", "n", "ur", "dl", "Se", "ſ", "up"}
	fuzzSeparators = []string{" ", " ", " ", "  ", ";", " ; ", "\t", ";;"}
)

// fuzzBody is a command of random tokens aimed near (x, y).
func fuzzBody(r *rng.Rand, x, y int) string {
	kw := fuzzKeywords[r.IntN(len(fuzzKeywords))]
	switch strings.ToLower(kw) {
	case "shoot":
		return kw + " " + fuzzDirections[r.IntN(len(fuzzDirections))]
	case "select":
		return kw + " " + fuzzNumber(r, 1+r.IntN(3))
	case "nothing", "no":
		return kw + []string{"", " x", " Command", "  "}[r.IntN(4)]
	}
	dx, dy := r.IntN(5)-2, r.IntN(5)-2
	if kw == "dig" || kw == "move" || kw == "MOVE" || kw == "Dig" {
		dx, dy = r.IntN(3)-1, r.IntN(3)-1
	}
	return kw + " " + fuzzNumber(r, x+dx) + " " + fuzzNumber(r, y+dy)
}

// fuzzCommand dresses a bot's command (or random tokens) in what a bot
// might print: prefixes for the right and wrong rounds, ';' lists, select,
// stray spaces.
func fuzzCommand(r *rng.Rand, cmd string, round, x, y int) string {
	if r.IntN(3) == 0 {
		cmd = fuzzBody(r, x, y)
	}
	switch r.IntN(8) {
	case 0:
		cmd = "select " + fuzzNumber(r, 1+r.IntN(3)) + fuzzSeparators[r.IntN(len(fuzzSeparators))] + cmd
	case 1:
		cmd += fuzzSeparators[r.IntN(len(fuzzSeparators))] + fuzzBody(r, x, y)
	case 2:
		cmd = []string{" ", "  ", "\t"}[r.IntN(3)] + cmd + []string{"", " ", ";"}[r.IntN(3)]
	case 3:
		cmd = []string{"", " ", ";", " ;"}[r.IntN(4)]
	}
	switch r.IntN(10) {
	case 0:
		cmd = "C;" + strconv.Itoa(round) + ";" + cmd
	case 1:
		cmd = "C;0" + strconv.Itoa(round) + ";" + cmd
	case 2:
		cmd = "C;" + strconv.Itoa(round+1-2*r.IntN(2)) + ";" + cmd
	case 3:
		cmd = []string{"c;", "C;+", "C; ", "C;C;"}[r.IntN(4)] + strconv.Itoa(round) + ";" + cmd
	case 4:
		cmd = "C;" + strconv.Itoa(round) + ";C;" + strconv.Itoa(round) + ";" + cmd
	}
	return cmd
}

// crowdCommand sends the active worm to the centre of the map, digging
// its way, and shoots at the nearest worm of either player in a line
// within range once there is one: all six worms meet, so that worms are
// hit by both players in a round, die while active and push each other.
func crowdCommand(m *match, seat int, r *rng.Rand) string {
	w := &m.worms[seat*wormsPerPlayer+m.players[seat].active]
	best, dir := weaponRange+1, -1
	for g := range m.worms {
		o := &m.worms[g]
		dx, dy := o.x-w.x, o.y-w.y
		d := max(abs(dx), abs(dy))
		if o == w || !o.alive() || d > best || (dx != 0 && dy != 0 && abs(dx) != abs(dy)) {
			continue
		}
		for i, dd := range directions {
			if dd.dx == sign(dx) && dd.dy == sign(dy) {
				best, dir = d, i
			}
		}
	}
	if dir >= 0 && r.IntN(4) > 0 {
		return "shoot " + directions[dir].name
	}
	x, y := w.x+sign(center-w.x), w.y+sign(center-w.y)
	c := y*mapSize + x
	switch {
	case x == w.x && y == w.y:
		return "shoot " + directions[r.IntN(len(directions))].name
	case m.grid[c] == dirt:
		return fmt.Sprintf("dig %d %d", x, y)
	}
	return fmt.Sprintf("move %d %d", x, y)
}

// playParityMatch plays one match of our engine with a random or tactical
// bot per seat, or the crowd policy, fuzzing a share of the commands, and
// records the text.
func playParityMatch(t *testing.T, ruleset string, seed int32, fuzz int) *parityMatch {
	t.Helper()
	m := start(t, ruleset, uint64(uint32(seed)))
	r := rng.New(uint64(uint32(seed)) ^ 0x5eed)
	var bots [numSeats]sim.Bot // nil: crowdCommand
	for s := range bots {
		k := r.IntN(len(Game.Bots) + 1)
		if k == len(Game.Bots) {
			continue
		}
		def := Game.Bots[k]
		b, err := def.New(sim.Setup{Ruleset: ruleset, Seed: uint64(uint32(seed)), Players: numSeats}, s, uint64(uint32(seed))+uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		bots[s] = b
	}
	pm := &parityMatch{seed: seed}
	for !m.Over() {
		var cmds [2]string
		for s := range cmds {
			if bots[s] != nil {
				cmds[s] = bots[s].Act(m.View(s))
			} else {
				cmds[s] = crowdCommand(m, s, r)
			}
			if r.IntN(100) < fuzz {
				w := &m.worms[s*wormsPerPlayer+m.players[s].active]
				cmds[s] = fuzzCommand(r, cmds[s], m.round+1, w.x, w.y)
			}
		}
		pm.cmds = append(pm.cmds, cmds)
		if err := m.Step(cmds[:]); err != nil {
			t.Fatal(err)
		}
	}
	return pm
}

// tallyRound counts the round's events by kind, and the rounds where
// both players killed, where a worm hit by both players died (the order of
// same-priority commands decides who scores the kill), where an active worm died (base picks the next
// worm differently), where a player's feedback was "invalid" and where
// text with non-ASCII characters made a valid command.
func tallyRound(m *match, cmds [numSeats]string, active [numSeats]int, seen map[string]int) {
	var killers [numSeats]bool
	var hitBy [numWorms]int // bit set of the seats that hit the worm
	for _, e := range m.events {
		seen[e.Kind]++
		switch {
		case e.Kind == EventHit:
			hitBy[slices.Index(wormNames[:], e.Detail)] |= 1 << e.Seat
		case e.Kind == EventKill && e.Seat >= 0:
			killers[e.Seat] = true
		case e.Kind == EventDeath:
			if e.Unit == active[e.Seat] {
				seen["active worm died"]++
			}
			if hitBy[e.Seat*wormsPerPlayer+e.Unit] == 3 {
				seen["worm hit by both players died"]++
			}
		}
	}
	if killers[0] && killers[1] {
		seen["both players killed"]++
	}
	for s := range numSeats {
		switch {
		case strings.Contains(m.previousCommand(s), "invalid"):
			seen["invalid feedback"]++
		case strings.ContainsFunc(cmds[s], func(r rune) bool { return r > unicode.MaxASCII }):
			seen["valid non-ASCII text"]++
		}
	}
}

// TestParityWithOriginal plays random and tactical bots with fuzzed
// command text on our engine and on the original and compares the state
// after every round.
func TestParityWithOriginal(t *testing.T) {
	for _, ruleset := range Game.Rulesets {
		t.Run(ruleset, func(t *testing.T) {
			d := startOriginal(t, ruleset, 60*time.Minute)
			n := parityCount(t, "WORMS_ORIG_MATCHES", 20, 1, 100_000)
			fuzz := parityCount(t, "WORMS_ORIG_FUZZ", 30, 0, 100)
			var matches, same, rounds, sameRounds, reported int
			seen := map[string]int{}
			var ours time.Duration
			var orig origTimes
			for k, seed := range paritySeeds(n, 1914) {
				pm := playParityMatch(t, ruleset, seed, fuzz)
				reqs := []string{fmt.Sprintf("match %d", seed)}
				for i, c := range pm.cmds {
					reqs = append(reqs, "r "+sendLine(c[0], i+1)+" "+sendLine(c[1], i+1))
				}
				sent := d.send(append(reqs, "done"))
				m := start(t, ruleset, uint64(uint32(seed)))
				diverged, ended := false, false
				var stepped time.Duration
				for i, c := range pm.cmds {
					active := [numSeats]int{m.players[0].active, m.players[1].active}
					t0 := time.Now()
					if err := m.Step(c[:]); err != nil {
						t.Fatal(err)
					}
					stepped += time.Since(t0)
					tallyRound(m, c, active, seen)
					rounds++
					if ended {
						continue
					}
					want, err := d.block()
					if err != nil {
						t.Fatal(err)
					}
					diff := stateDiff(parityState(m), want)
					if len(want) == 1 && strings.HasPrefix(want[0], "end ") {
						// The original's game was complete before this round.
						ended, diff = true, fmt.Sprintf("the original's game ended after round %d", i)
					}
					if diverged {
						continue
					}
					if diff != "" {
						diverged = true
						if reported < 5 {
							reported++
							t.Errorf("%s seed %d round %d: %s\n  commands: P1 %q, P2 %q", ruleset, seed, i+1, diff, c[0], c[1])
						}
						continue
					}
					sameRounds++
				}
				if !ended {
					elapsed, err := d.end()
					if err != nil {
						t.Fatal(err)
					}
					// The first half warms up the original's JIT.
					if !diverged && k >= n/2 {
						ours += stepped
						orig.all += elapsed.all
						orig.process += elapsed.process
					}
				}
				if err := <-sent; err != nil {
					t.Fatal(err)
				}
				matches++
				if !diverged {
					same++
				}
			}
			t.Logf("%s: %d of %d matches identical in every round; %d of %d rounds identical (a match's rounds after its first difference count as different)",
				ruleset, same, matches, sameRounds, rounds)
			t.Logf("%s: what the rounds held (our events, all rounds): %v", ruleset, seen)
			t.Logf("%s: engine time over the identical matches of the second half: ours %v (Step), original %v (runner command handling and processRound; %v in processRound), ratio %.1fx (%.1fx)",
				ruleset, ours, orig.all, orig.process, float64(orig.all)/float64(max(ours, 1)), float64(orig.process)/float64(max(ours, 1)))
		})
	}
}
