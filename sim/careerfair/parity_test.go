package careerfair

import (
	"bufio"
	"context"
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

// The parity test plays our engine step by step beside the original AWAP
// 2019 engine (github.com/cuebeomc/AWAP2019-codebase at 8cf9a06), which is
// the judge. Both sides draw from the same generator: the original's calls
// to Python's random module are pointed at a Python port of sim/rng, one
// draw for one as the package doc lists them, so a seed gives both sides the
// same match.
//
// CAREERFAIR_ORIG is the command that runs the original through a headless
// runner, split on spaces, e.g. "python3 /path/to/run_orig.py --rng
// xoshiro"; the test is skipped without it. The test appends
//
//	--board FILE --companies FILE --seed N --teams T --steps 300
//	--commands FILE --dump FILE --log FILE [--win 200]
//
// The commands file has one line per step, idle steps included, with one
// token per team bot, team 0's four first: an action name, or BAD for a
// value that is not an action. The runner plays NONE in the 10 idle steps,
// stops after the first play step at which a team's score reaches --win,
// and writes the state after setup and after every step in the text form
// of parityRecord. CAREERFAIR_ORIG_SEEDS is the number of seeds per board
// and policy (default 2).
//
// Where the original crashes (parityCrashes) the package doc records what
// we do instead: the steps before the crash are compared and the crash is
// logged, not failed.

// parityTimeout bounds one match of the original (gates4 takes about 20 s).
const parityTimeout = 5 * time.Minute

// parityCase is one match: its board, teams, policy and seed.
type parityCase struct {
	board  string
	teams  int // 1: ruleset runner, 2: awap2019
	policy string
	seed   uint64
	// rich plays the built-in companies with every value times ten, so
	// that a single team reaches the runner's 200 points and wins early.
	rich bool
}

func (c parityCase) String() string {
	s := fmt.Sprintf("%s/%dteam/%s/seed%d", c.board, c.teams, c.policy, c.seed)
	if c.rich {
		s += "/rich"
	}
	return s
}

// companies is the companies.txt text the case plays with.
func (c parityCase) companies(t *testing.T) string {
	t.Helper()
	text, err := data.ReadFile("companies.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !c.rich {
		return string(text)
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(text)), "\n") {
		f := strings.Fields(line)
		v, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("companies.txt: %q: %v", line, err)
		}
		fmt.Fprintf(&out, "%s %s %d\n", f[0], f[1], 10*v)
	}
	return out.String()
}

// parityTokens are one team's four actions as sent: an action name, or
// text that is none.
type parityTokens [teamSize]string

// parityPolicy chooses a team's actions. It may read the whole state.
type parityPolicy func(m *match, team int, r *rng.Rand) parityTokens

// parityPolicies make the matches: idle teams, teams sending random actions
// held for a few steps, bad text included, teams that queue and swap, and
// teams whose queued bots push forward while their line moves them.
var parityPolicies = map[string]func() parityPolicy{
	"idle":   func() parityPolicy { return idlePolicy },
	"random": newRandomPolicy,
	"seeker": newSeekerPolicy,
	"pusher": newPusherPolicy,
}

func idlePolicy(*match, int, *rng.Rand) parityTokens {
	return parityTokens{"NONE", "NONE", "NONE", "NONE"}
}

// parityRandomTokens are what the random policy sends: every action, moves
// more often, and text that is no action.
var parityRandomTokens = []string{"LEFT", "UP", "RIGHT", "DOWN", "LEFT", "UP", "RIGHT", "DOWN",
	"NONE", "ENTER", "ENTER", "REPLACE", "REPLACE", "jump"}

// newRandomPolicy sends random actions, each held for 1 to 4 steps so that
// moves into crowded tiles can complete.
func newRandomPolicy() parityPolicy {
	var held [2]parityTokens
	var left [2][teamSize]int
	return func(_ *match, team int, r *rng.Rand) parityTokens {
		for i := range held[team] {
			if left[team][i] == 0 {
				held[team][i] = parityRandomTokens[r.IntN(len(parityRandomTokens))]
				left[team][i] = 1 + r.IntN(4)
			}
			left[team][i]--
		}
		return held[team]
	}
}

// newSeekerPolicy queues and swaps: a free bot walks to the nearest
// end-of-line tile and sends ENTER; a queued helper holds its place; a free
// main bot walks to a queued helper's tile and, once there, both send
// REPLACE, so the main bot takes the helper's place. One action in twenty
// is random.
func newSeekerPolicy() parityPolicy {
	return func(m *match, team int, r *rng.Rand) parityTokens {
		t := &m.teams[team]
		var out parityTokens
		for i, bi := range t.bots {
			out[i] = seek(m, bi, func(tile int32) bool { return m.endOfLine(tile) }, enter)
		}
		main := &m.bots[t.bots[0]]
		if main.line < 0 {
			for i := 1; i < teamSize; i++ {
				h := &m.bots[t.bots[i]]
				if h.line < 0 {
					continue
				}
				if h.loc == main.loc {
					out[0], out[i] = "REPLACE", "REPLACE"
				} else {
					out[0] = seek(m, t.bots[0], func(tile int32) bool { return tile == h.loc }, none)
				}
				break
			}
		}
		for i := range out {
			if r.IntN(20) == 0 {
				out[i] = parityRandomTokens[r.IntN(len(parityRandomTokens))]
			}
		}
		return out
	}
}

// newPusherPolicy queues like the seeker, without swaps; a bot queued
// behind the front tile then heads for the tile in front of it and holds
// that direction while queued, so that its line may carry it mid-move to the
// front tile, from which the held direction leads into the booth or off the
// grid: the quirk the package doc follows.
func newPusherPolicy() parityPolicy {
	var held [2][teamSize]action
	return func(m *match, team int, _ *rng.Rand) parityTokens {
		var out parityTokens
		for p, i := range m.teams[team].bots {
			b := &m.bots[i]
			switch {
			case b.line < 0:
				held[team][p] = none
				out[p] = seek(m, i, func(tile int32) bool { return m.endOfLine(tile) }, enter)
				continue
			case held[team][p] == none:
				tiles := m.lines[b.line].tiles
				if k := slices.Index(tiles, b.loc); k > 0 {
					held[team][p] = m.dirTo(b.loc, tiles[k-1])
				}
			}
			out[p] = held[team][p].String()
		}
		return out
	}
}

// seek is the action that takes bot i one tile along a shortest path to the
// nearest tile where goal holds, or at, when it stands on one; NONE when
// it is queued or no such tile can be reached.
func seek(m *match, i int32, goal func(int32) bool, at action) string {
	b := &m.bots[i]
	if b.line >= 0 {
		return "NONE"
	}
	if goal(b.loc) {
		return at.String()
	}
	from := make(map[int32]int32, len(m.free))
	from[b.loc] = -1
	for q := []int32{b.loc}; len(q) > 0; q = q[1:] {
		for _, a := range searchOrder {
			t := m.b.step(q[0], a)
			if _, seen := from[t]; seen || t < 0 || m.b.boothOf[t] >= 0 {
				continue
			}
			from[t] = q[0]
			if goal(t) {
				for from[t] != b.loc {
					t = from[t]
				}
				return m.dirTo(b.loc, t).String()
			}
			q = append(q, t)
		}
	}
	return "NONE"
}

// parityCases are every board with every policy, two teams, and the
// runner's single team with the seeker on the small boards and gates6, with
// the built-in companies and with rich ones.
func parityCases(seeds int) []parityCase {
	var cases []parityCase
	for _, board := range boardNames {
		for _, policy := range []string{"idle", "random", "seeker", "pusher"} {
			for s := range seeds {
				cases = append(cases, parityCase{board: board, teams: 2, policy: policy, seed: uint64(s + 1)})
			}
		}
	}
	for _, board := range []string{"tiny", "sample", "gates6"} {
		for s := range seeds {
			for _, rich := range []bool{false, true} {
				cases = append(cases, parityCase{board: board, teams: 1, policy: "seeker", seed: uint64(s + 1), rich: rich})
			}
		}
	}
	return cases
}

func TestParity(t *testing.T) {
	orig := strings.Fields(os.Getenv("CAREERFAIR_ORIG"))
	if len(orig) == 0 {
		t.Skip("CAREERFAIR_ORIG is not set: no original engine to compare with")
	}
	seeds := 2
	if s := os.Getenv("CAREERFAIR_ORIG_SEEDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("CAREERFAIR_ORIG_SEEDS=%q: want a positive number", s)
		}
		seeds = n
	}
	var matches, same, steps, sameSteps int
	for _, c := range parityCases(seeds) {
		t.Run(c.String(), func(t *testing.T) {
			matches++
			n, ok := playParity(t, orig, c)
			steps += n.steps
			sameSteps += n.same
			if ok {
				same++
			}
		})
	}
	t.Logf("%d of %d matches identical at every step; %d of %d steps identical", same, matches, sameSteps, steps)
}

// parityCount is how many steps a match compared and found identical.
type parityCount struct{ steps, same int }

// playParity plays case c on our engine, then on the original with the same
// commands, and compares the two after setup and after every step. It
// reports the steps compared and whether all were identical; at the first
// difference it logs every differing line and stops comparing.
func playParity(t *testing.T, orig []string, c parityCase) (parityCount, bool) {
	t.Helper()
	ruleset := rulesetAWAP
	if c.teams == 1 {
		ruleset = rulesetRunner
	}
	companies := c.companies(t)
	cfg, err := json.Marshal(config{Board: c.board, CompaniesText: companies})
	if err != nil {
		t.Fatal(err)
	}
	mm, err := Game.New(sim.Setup{Ruleset: ruleset, Seed: c.seed, Players: c.teams, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*match)
	policy := parityPolicies[c.policy]()
	r := rng.New(rng.SubSeed(c.seed, 12))

	ours := [][]string{parityRecord(m)}
	// onBooth counts team bots standing on a booth tile after a step: a
	// queued bot's move that its line turned towards a booth (the package
	// doc), which the original lets complete.
	var services, swaps, onBooth int
	var cmdFile strings.Builder
	cmds := make([]string, c.teams)
	for !m.Over() {
		for team := range cmds {
			toks := policy(m, team, r)
			cmds[team] = strings.Join(toks[:], ",")
			for _, tok := range toks {
				if _, ok := parseAction(tok); !ok {
					tok = "BAD"
				}
				cmdFile.WriteString(strings.ToUpper(tok) + " ")
			}
		}
		cmdFile.WriteString("\n")
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
		for ti := range m.teams {
			for _, i := range m.teams[ti].bots {
				if m.b.boothOf[m.bots[i].loc] >= 0 {
					onBooth++
				}
			}
		}
		for _, e := range m.Events() {
			switch e.Kind {
			case eventService:
				services++
			case eventReplace:
				swaps++
			}
		}
		ours = append(ours, parityRecord(m))
	}
	scores := make([]int, c.teams)
	for ti := range scores {
		scores[ti] = m.teams[ti].score
	}
	t.Logf("%d steps, scores %v, %d team services, %d REPLACE swaps, %d bot-steps on a booth", m.Turn(), scores, services, swaps, onBooth)

	theirs, crash := runOriginal(t, orig, c, companies, cmdFile.String())
	var n parityCount
	for step, want := range theirs {
		if step >= len(ours) {
			t.Errorf("the original played %d steps, we played %d", len(theirs)-1, len(ours)-1)
			return n, false
		}
		n.steps++
		if diffs := diffRecords(ours[step], want); len(diffs) > 0 {
			t.Errorf("step %d: %d lines differ (got ours, want the original's):\n%s", step, len(diffs), strings.Join(diffs, "\n"))
			return n, false
		}
		n.same++
	}
	if crash != "" {
		// The engine crashed where the package doc records our choice; the
		// steps before the crash were compared above.
		t.Logf("the original crashed in step %d:\n%s", len(theirs), crash)
		return n, true
	}
	if len(theirs) != len(ours) {
		t.Errorf("the original played %d steps, we played %d", len(theirs)-1, len(ours)-1)
		return n, false
	}
	return n, true
}

// parityCrashes are the original's crashes where the package doc records
// our own choice (a queued bot's move carried off the grid; an Extrovert
// whose search fails while it has a path).
var parityCrashes = []string{
	"AttributeError: 'NoneType' object has no attribute 'get_threshold'",
	"TypeError: 'NoneType' object is not subscriptable",
}

// runOriginal plays the case on the original engine and returns its
// records, and the error line when it crashed in one of parityCrashes.
func runOriginal(t *testing.T, orig []string, c parityCase, companies, commands string) ([][]string, string) {
	t.Helper()
	dir := t.TempDir()
	cmdPath := filepath.Join(dir, "commands.txt")
	companiesPath := filepath.Join(dir, "companies.txt")
	dumpPath := filepath.Join(dir, "dump.txt")
	for path, text := range map[string]string{cmdPath: commands, companiesPath: companies} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	args := append(orig[1:len(orig):len(orig)],
		"--board", filepath.Join(abs, "boards", c.board+".txt"),
		"--companies", companiesPath,
		"--seed", strconv.FormatUint(c.seed, 10),
		"--teams", strconv.Itoa(c.teams),
		"--steps", strconv.Itoa(playSteps),
		"--commands", cmdPath,
		"--dump", dumpPath,
		"--log", filepath.Join(dir, "log.txt"))
	if c.teams == 1 {
		args = append(args, "--win", strconv.Itoa(winScore))
	}
	ctx, cancel := context.WithTimeout(context.Background(), parityTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, orig[0], args...)
	cmd.WaitDelay = 5 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	records := readRecords(t, dumpPath)
	if runErr == nil {
		return records, ""
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	for _, known := range parityCrashes {
		if lines[len(lines)-1] == known {
			// The traceback's last two frames say where the engine crashed.
			from, frames := len(lines)-1, 0
			for from > 0 && frames < 2 {
				from--
				if strings.HasPrefix(lines[from], "  File ") {
					frames++
				}
			}
			return records, strings.Join(lines[from:], "\n")
		}
	}
	t.Fatalf("original: %v\n%s", runErr, stderr.String())
	return nil, ""
}

// readRecords splits the runner's dump into records: the companies line and
// the state after setup, then the state after each step.
func readRecords(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var records [][]string
	var head []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "match "):
		case strings.HasPrefix(line, "companies "):
			head = append(head, line)
		case strings.HasPrefix(line, "step "):
			records = append(records, append(head, line))
			head = nil
		case len(records) == 0:
			t.Fatalf("%s: %q before the first record", path, line)
		default:
			records[len(records)-1] = append(records[len(records)-1], line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return records
}

// diffRecords lists the lines of two records that differ, as "got ... /
// want ...".
func diffRecords(got, want []string) []string {
	var out []string
	for i := range max(len(got), len(want)) {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			out = append(out, "  got  "+g+"\n  want "+w)
		}
	}
	return out
}

// parityRecord writes our state in the runner's text form: the companies
// (after setup only), the scores, every bot (teams in team order, then the
// crowd), every line and every tile.
func parityRecord(m *match) []string {
	var out []string
	if m.turn == 0 {
		cs := make([]string, len(m.companies))
		for k, c := range m.companies {
			cs[k] = fmt.Sprintf("%s:%c:%d", c.name, c.size, c.value)
		}
		out = append(out, "companies "+strings.Join(cs, " "))
	}
	step := "step " + strconv.Itoa(m.turn)
	for ti := range m.teams {
		step += " " + strconv.Itoa(m.teams[ti].score)
	}
	out = append(out, step)
	for ti := range m.teams {
		for _, i := range m.teams[ti].bots {
			out = append(out, parityBot(m, i, "T"))
		}
	}
	for i := m.crowd(); i < len(m.bots); i++ {
		b := &m.bots[i]
		var extra string
		switch b.kind {
		case jittery:
			var dirs strings.Builder
			for _, d := range b.dirs {
				dirs.WriteByte(d.String()[0])
			}
			extra = "J " + parityLoc(m, b.next) + " " + dirs.String()
		case extrovert:
			extra = "X " + parityPath(m, b.path[b.head:])
		case randomBot:
			booth := "-"
			if b.booth >= 0 {
				booth = m.companies[b.booth].name
			}
			extra = "R " + booth + " " + parityPath(m, b.path[b.head:])
		}
		out = append(out, parityBot(m, int32(i), extra))
	}
	for k, l := range m.lines {
		q := make([]string, len(l.queue))
		for j, i := range l.queue {
			q[j] = parityRef(m, i)
		}
		talker := "-"
		if l.talker >= 0 {
			talker = parityRef(m, l.talker)
		}
		queue := strings.Join(q, " ")
		if queue == "" {
			queue = "-"
		}
		out = append(out, fmt.Sprintf("line %s %s %d %s %s", m.companies[k].name, talker, l.progress, parityLoc(m, l.end), queue))
	}
	rows := make([]string, m.b.rows)
	for r := range rows {
		cells := make([]string, m.b.cols)
		for c := range cells {
			t := m.b.tile(r, c)
			e := ""
			if m.endOfLine(t) {
				e = "e"
			}
			cells[c] = fmt.Sprintf("%d%s:%d/%d", m.threshold[t], e, m.free[t], m.queued[t])
		}
		rows[r] = strings.Join(cells, " ")
	}
	return append(out, "tiles "+strings.Join(rows, " | "))
}

// parityBot is one bot's line of a record.
func parityBot(m *match, i int32, extra string) string {
	b := &m.bots[i]
	r, c := m.b.rc(b.loc)
	return fmt.Sprintf("bot %s %d %d %s %s %d %d %d %s", parityRef(m, i), r, c, b.dir, b.want, b.progress, b2i(b.inLine), b.linePos, extra)
}

// parityRef names a bot as the runner does: t<team>.<id> for a team bot,
// c<index> for the crowd.
func parityRef(m *match, i int32) string {
	b := &m.bots[i]
	if b.team < 0 {
		return "c" + strconv.Itoa(int(i)-m.crowd())
	}
	for p, j := range m.teams[b.team].bots {
		if j == i {
			return fmt.Sprintf("t%d.%d", b.team, p)
		}
	}
	return fmt.Sprintf("t%d.?", b.team) // not in its team: shows as a difference
}

// parityLoc is a tile as r,c, or "off" off the grid.
func parityLoc(m *match, t int32) string {
	if t < 0 {
		return "off"
	}
	r, c := m.b.rc(t)
	return fmt.Sprintf("%d,%d", r, c)
}

// parityPath is a path of tiles as r,c;r,c, or "-" when empty.
func parityPath(m *match, p []int32) string {
	if len(p) == 0 {
		return "-"
	}
	s := make([]string, len(p))
	for i, t := range p {
		s[i] = parityLoc(m, t)
	}
	return strings.Join(s, ";")
}
