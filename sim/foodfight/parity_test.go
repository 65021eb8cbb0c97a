package foodfight

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
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

// The parity test plays our engine turn by turn beside the original FoodFight
// engine (github.com/bitbrawl/foodfight at b14e15e), which is the judge. The
// original draws from an unseeded ThreadLocalRandom, so both sides are made
// deterministic the same way (paritySource): in half the matches every
// "μ ± σ" is μ, IntN(n) is n-1 (every shuffle is the identity, every random
// pick the last option) and Float64 is 0.99 (no respawn); in the others
// every draw follows one fixed sequence. The original is built from its
// source outside this repository with those draws patched in; its Parity
// main plays scenario files through DefaultTurnRunner.runTurn. After each
// turn our floats are set to the original's (resync), so that every turn is
// compared from the same state.
//
// FOODFIGHT_ORIG is the command that runs the original's Parity main, split
// on spaces, e.g. "java -cp out/parity:gson.jar:jcip.jar Parity"; the tests
// are skipped without it. FOODFIGHT_ORIG_MATCHES is the number of 2000-turn
// matches per match type (default 10).
//
// A scenario file is one JSON object:
//
//	{"type": "FREE_FOR_ALL",     the match type
//	 "turn": 1,                   the turn about to be played
//	 "teams": [TeamView, ...],    in team order, players in seat order
//	 "food": [FoodView, ...],     the field's food in its order
//	 "actions": [["moveForward", null, "throwLeft"], ...],
//	 "float64": "golden"}         optional: every draw walks the sequence
//
// with one array of actions per turn in seat order (null is no action; any
// other text is passed on as is and the original plays text it does not
// know as no action). The command takes scenario paths as arguments and
// prints, for each in order, one line per turn: the field after the turn,
// {"turn", "teams", "food", "collisions": [{"location", "damage"}]} in the
// shapes of FieldView, or a single line {"error": "..."}. Called as
// "Parity setup TYPE fixed|golden" it prints instead the field the
// original's FieldGenerator lays out with those draws, as one such line.

// paritySource is the predictable randomness both engines play with here:
// IntN(n) is n-1, Float64 0.99 and NormFloat64 0 (every "μ ± σ" is μ). With
// golden set, the k-th call of any of the three (one count for all) takes
// g, the fractional part of k·0.6180339887498949 (the same IEEE operations
// in Java), and returns g, floor(g·n) or 2g-1: play orders, picks and
// random quantities then vary, food respawns about as often as in a real
// match, and both sides must draw in the same order to agree.
type paritySource struct {
	golden bool
	calls  int
}

func (s *paritySource) next() float64 {
	s.calls++
	x := float64(s.calls) * 0.6180339887498949
	return x - math.Floor(x)
}

func (s *paritySource) Float64() float64 {
	if !s.golden {
		return 0.99
	}
	return s.next()
}

func (s *paritySource) IntN(n int) int {
	if !s.golden {
		return n - 1
	}
	return min(int(s.next()*float64(n)), n-1)
}

func (s *paritySource) NormFloat64() float64 {
	if !s.golden {
		return 0
	}
	return 2*s.next() - 1
}

// scenario is the file handed to the original engine.
type scenario struct {
	Type    string      `json:"type"`
	Turn    int         `json:"turn"`
	Teams   []TeamView  `json:"teams"`
	Food    []FoodView  `json:"food"`
	Actions [][]*string `json:"actions"`
	Float64 string      `json:"float64,omitempty"`
}

// origTurn is one line of the original's answer: the field after the turn
// under FieldView's names, except that the turn number is "turn".
type origTurn struct {
	FieldView
	Turn  int    `json:"turn"`
	Error string `json:"error"`
}

// parityCase is one match: how to set it up again and the commands played.
type parityCase struct {
	mtype  matchType
	seed   uint64
	golden bool // every draw walks the golden sequence
	path   string
	cmds   [][]string
}

func (c *parityCase) String() string {
	if c.golden {
		return fmt.Sprintf("%s seed %d (golden draws)", c.mtype.name, c.seed)
	}
	return fmt.Sprintf("%s seed %d", c.mtype.name, c.seed)
}

// start sets up the case's match from our own seeded setup, then swaps in
// the fake source for the turns.
func (c *parityCase) start(t *testing.T) *match {
	t.Helper()
	mm, err := Game.New(sim.Setup{Ruleset: "bitbrawl2018", Seed: c.seed, Players: c.mtype.players,
		Config: []byte(`{"match_type":"` + c.mtype.name + `"}`)})
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*match)
	m.src = &paritySource{golden: c.golden}
	return m
}

// paritySeatPolicy chooses a seat's command; nil means a built-in bot plays.
type paritySeatPolicy func(m *match, seat int, r *rng.Rand) string

// parityCommands is the text of random commands: every action, no action in
// both spellings, and text no engine knows.
var parityCommands = append(append([]string(nil), actionNames[:]...), "", "null", "fly", "MOVE_FORWARD")

// uniformPolicy plays any command, valid in the state or not.
func uniformPolicy(_ *match, _ int, r *rng.Rand) string {
	return parityCommands[r.IntN(len(parityCommands))]
}

// chaserPolicy goes after food so that pickups, throws, flights, hits,
// landings, bounces and eating happen: it eats when low, picks up what it
// can, aims held food at the nearest other player, its own table or the
// nearest corner and throws when facing it, and otherwise walks to the
// nearest ground food or to a table with food on it.
func chaserPolicy(m *match, seat int, r *rng.Rand) string {
	p := &m.players[seat]
	for h := range 2 {
		if p.hands[h] != none && p.energy < 70 {
			return (eatLeft + action(h)).String()
		}
	}
	for _, a := range []action{pickupLeft, pickupRight} {
		if m.refusal(p, a) == allowed {
			return a.String()
		}
	}
	if p.hands[0] != none || p.hands[1] != none {
		h := 0
		if p.hands[0] == none {
			h = 1
		}
		var target vec
		switch m.turn % 450 / 150 {
		case 0:
			target = m.nearestPlayer(seat)
		case 1:
			target = m.teams[p.team].table
		default: // the nearest corner, to see food bounce off the walls
			target = vec{math.Round(p.loc.x/fieldWidth) * fieldWidth, math.Round(p.loc.y/fieldDepth) * fieldDepth}
		}
		return aim(p, armDirection(p, h), target, (throwLeft + action(h)).String())
	}
	best, target := math.Inf(1), vec{}
	for _, f := range m.food {
		if d := f.loc.sub(p.loc).length(); f.height == 0 && d < best {
			best, target = d, f.loc
		}
	}
	for _, t := range m.teams {
		if d := t.table.sub(p.loc).length(); t.tableFood != 0 && d < best {
			best, target = d, t.table
		}
	}
	if math.IsInf(best, 1) || r.IntN(8) == 0 {
		return uniformPolicy(m, seat, r)
	}
	return aim(p, p.heading, target, moveForward.String())
}

// rammerPolicy runs at the nearest other player, throws what it holds at
// it, picks up what it passes and ducks now and then, so that players
// collide and food hits them.
func rammerPolicy(m *match, seat int, r *rng.Rand) string {
	p := &m.players[seat]
	target := m.nearestPlayer(seat)
	for h := range 2 {
		if p.hands[h] != none {
			return aim(p, armDirection(p, h), target, (throwLeft + action(h)).String())
		}
	}
	for _, a := range []action{pickupLeft, pickupRight} {
		if m.refusal(p, a) == allowed {
			return a.String()
		}
	}
	if r.IntN(6) == 0 {
		return duck.String()
	}
	return aim(p, p.heading, target, moveForward.String())
}

// aim turns from direction from towards target and plays then once facing it.
func aim(p *player, from float64, target vec, then string) string {
	d := diff(from, direction(target.sub(p.loc)))
	switch {
	case math.Abs(d) < 0.1:
		return then
	case d > 0:
		return turnLeft.String()
	}
	return turnRight.String()
}

// nearestPlayer is the location of the player nearest to seat.
func (m *match) nearestPlayer(seat int) vec {
	p := &m.players[seat]
	best, at := math.Inf(1), p.loc
	for i := range m.players {
		if d := m.players[i].loc.sub(p.loc).length(); i != seat && d < best {
			best, at = d, m.players[i].loc
		}
	}
	return at
}

// playParityCase plays a match with a mix of the built-in bots, the chaser
// and uniform commands, and records the commands.
func playParityCase(t *testing.T, c *parityCase) {
	t.Helper()
	m := c.start(t)
	r := rng.New(c.seed ^ 0x9e3779b97f4a7c15)
	policies := []paritySeatPolicy{chaserPolicy, rammerPolicy, uniformPolicy}
	n := len(m.players)
	bots := make([]sim.Bot, n)
	seatPolicy := make([]paritySeatPolicy, n)
	for seat := range n {
		k := (int(c.seed) + seat) % (len(policies) + len(Game.Bots))
		if k < len(policies) {
			seatPolicy[seat] = policies[k]
			continue
		}
		b, err := Game.Bots[k-len(policies)].New(sim.Setup{Seed: c.seed, Players: n}, seat, c.seed+uint64(seat))
		if err != nil {
			t.Fatal(err)
		}
		bots[seat] = b
	}
	for !m.Over() {
		cmds := make([]string, n)
		for seat := range n {
			switch {
			case r.IntN(10) == 0:
				cmds[seat] = uniformPolicy(m, seat, r)
			case bots[seat] != nil:
				cmds[seat] = bots[seat].Act(m.View(seat))
			default:
				cmds[seat] = seatPolicy[seat](m, seat, r)
			}
		}
		c.cmds = append(c.cmds, cmds)
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
	}
}

// writeScenario writes the case's initial field and commands.
func writeScenario(t *testing.T, c *parityCase) {
	t.Helper()
	f := c.start(t).field()
	s := scenario{Type: f.Type, Turn: f.TurnNumber, Teams: f.Teams, Food: f.Food}
	if c.golden {
		s.Float64 = "golden"
	}
	for _, cmds := range c.cmds {
		row := make([]*string, len(cmds))
		for i, cmd := range cmds {
			if cmd != "" {
				row[i] = &cmd
			}
		}
		s.Actions = append(s.Actions, row)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// parityTally counts what the comparison found.
type parityTally struct {
	matches, sameMatches int
	turns, sameTurns     int
	// exactTurns counts the turns where every float was bit-identical.
	exactTurns int
	// events counts our engine's events by kind in the identical turns,
	// to show what the comparison covered.
	events map[string]int
}

// origCommand is FOODFIGHT_ORIG split on spaces; it skips the test when
// the variable is not set.
func origCommand(t *testing.T) []string {
	t.Helper()
	command := strings.Fields(os.Getenv("FOODFIGHT_ORIG"))
	if len(command) == 0 {
		t.Skip("FOODFIGHT_ORIG is not set: no original engine to compare with")
	}
	return command
}

// TestParitySetupWithOriginal compares our setup with the original's
// FieldGenerator, both drawing from paritySource: with the golden sequence
// every zone, symbol, position, heading and food type depends on drawing in
// the original's order.
func TestParitySetupWithOriginal(t *testing.T) {
	command := origCommand(t)
	for _, mt := range matchTypes {
		for _, mode := range []string{"fixed", "golden"} {
			t.Run(mt.name+"/"+mode, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
				defer cancel()
				args := append(slices.Clone(command[1:]), "setup", mt.name, mode)
				out, err := exec.CommandContext(ctx, command[0], args...).Output()
				if err != nil {
					t.Fatalf("%s: %v", strings.Join(command, " "), err)
				}
				var want origTurn
				if err := json.Unmarshal(out, &want); err != nil {
					t.Fatalf("decode the original's field: %v", err)
				}
				m := &match{mtype: mt, src: &paritySource{golden: mode == "golden"}}
				m.setup()
				got := m.field()
				if want.Turn != 0 {
					t.Fatalf("the original's turn: got %d, want 0", want.Turn)
				}
				want.Turn = got.TurnNumber
				if d := fieldDiff(got, m.collisions, &want, parityTolerance); d != "" {
					t.Errorf("%s\nours: %s\noriginal: %s", d, mustJSON(got), out)
				}
			})
		}
	}
}

// TestParityWithOriginal compares every turn of many 2000-turn matches of
// each match type with the original engine's.
func TestParityWithOriginal(t *testing.T) {
	command := origCommand(t)
	perType := 10
	if s := os.Getenv("FOODFIGHT_ORIG_MATCHES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1000 {
			t.Fatalf("FOODFIGHT_ORIG_MATCHES = %q, want 1 to 1000", s)
		}
		perType = n
	}
	dir := t.TempDir()
	var cases []*parityCase
	for _, mt := range matchTypes {
		for range perType {
			c := &parityCase{mtype: mt, seed: uint64(len(cases) + 1), golden: len(cases)%2 == 1}
			c.path = filepath.Join(dir, fmt.Sprintf("%s-%d.json", mt.name, c.seed))
			playParityCase(t, c)
			writeScenario(t, c)
			cases = append(cases, c)
		}
	}
	// One process for a batch of scenarios spares a JVM start per match.
	const batch = 25
	tally := parityTally{events: map[string]int{}}
	for len(cases) > 0 {
		n := min(batch, len(cases))
		runOriginal(t, command, cases[:n], &tally)
		cases = cases[n:]
	}
	t.Logf("%d of %d matches identical in every turn; %d of %d turns identical (turns of a match are compared up to its first difference)",
		tally.sameMatches, tally.matches, tally.sameTurns, tally.turns)
	t.Logf("%d turns bit-identical in every float, the others within %g relative", tally.exactTurns, parityTolerance)
	t.Logf("events in the identical turns: %v", tally.events)
}

// runOriginal runs the original on a batch of cases and compares its
// answer with our engine's, turn by turn.
func runOriginal(t *testing.T, command []string, cases []*parityCase, tally *parityTally) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	args := slices.Clone(command[1:])
	for _, c := range cases {
		args = append(args, c.path)
	}
	cmd := exec.CommandContext(ctx, command[0], args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	finished := false
	defer func() {
		if !finished { // the comparison stopped early: end the process
			cancel()
			_ = cmd.Wait()
		}
	}()
	lines := bufio.NewScanner(out)
	lines.Buffer(make([]byte, 0, 1<<16), 1<<22)
	for _, c := range cases {
		same := compareCase(t, c, lines, tally)
		tally.matches++
		tally.turns += len(c.cmds)
		tally.sameTurns += same
		if same == len(c.cmds) {
			tally.sameMatches++
		}
	}
	// Drain what is left so the process can finish.
	for lines.Scan() {
	}
	finished = true
	if err := cmd.Wait(); err != nil {
		t.Errorf("%s: %v", strings.Join(command, " "), err)
	}
}

// compareCase replays a case through our engine and reads the original's
// line for each turn; it reports the first difference and returns the
// number of turns before it.
func compareCase(t *testing.T, c *parityCase, lines *bufio.Scanner, tally *parityTally) int {
	t.Helper()
	m := c.start(t)
	for turn, cmds := range c.cmds {
		if !lines.Scan() {
			t.Fatalf("%s: the original stopped before turn %d: %v", c, turn+1, lines.Err())
		}
		var want origTurn
		if err := json.Unmarshal(lines.Bytes(), &want); err != nil {
			t.Fatalf("%s turn %d: decode the original's line: %v", c, turn+1, err)
		}
		if want.Error != "" {
			t.Errorf("%s: the original failed: %s", c, want.Error)
			return turn
		}
		before := m.field()
		flying := airborneHeadings(m)
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
		for _, f := range m.food {
			if h, ok := flying[f.kind]; ok && h != f.heading {
				tally.events["bounce"]++
			}
		}
		got := m.field()
		if fieldDiff(got, m.collisions, &want, 0) == "" {
			tally.exactTurns++
		}
		if d := fieldDiff(got, m.collisions, &want, parityTolerance); d != "" {
			t.Errorf("%s turn %d (commands %q): %s\nfield before the turn: %s", c, turn+1, cmds, d, mustJSON(before))
			skipLines(lines, len(c.cmds)-turn-1)
			return turn
		}
		resync(m, &want)
		for _, e := range m.Events() {
			k := e.Kind
			if k == eventPickup && strings.Contains(e.Detail, "from table") {
				k += " from a table"
			}
			tally.events[k]++
		}
	}
	return len(c.cmds)
}

// airborneHeadings maps each flying piece's type to its heading.
func airborneHeadings(m *match) map[kind]float64 {
	out := map[kind]float64{}
	for _, f := range m.food {
		if f.height > 0 {
			out[f.kind] = f.heading
		}
	}
	return out
}

// resync sets every float of our field to the original's, which the
// comparison found within the tolerance, so that each turn starts from the
// same state on both sides. Without it the last-bit differences of the two
// sides' exp, sin, cos and hypot add up over hundreds of turns, and a
// player pinned against a wall and knocked back every turn (hitWallX/Y
// divide by a small displacement) carries them past any tolerance.
func resync(m *match, want *origTurn) {
	for ti, wt := range want.Teams {
		for pi, wp := range wt.Players {
			p := &m.players[m.teams[ti].seats[pi]]
			p.loc = vec{wp.Location[0], wp.Location[1]}
			p.height, p.heading, p.energy = wp.Height, wp.Heading, wp.Energy
		}
	}
	for i, wf := range want.Food {
		f := &m.food[i]
		f.loc = vec{wf.Location[0], wf.Location[1]}
		f.height, f.heading = wf.Height, wf.Heading
	}
}

func skipLines(lines *bufio.Scanner, n int) {
	for range n {
		if !lines.Scan() {
			return
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// fieldDiff returns the first difference between our field after a turn and
// the original's, or "".
func fieldDiff(got FieldView, collisions []collision, want *origTurn, tol float64) string {
	if got.TurnNumber != want.Turn {
		return fmt.Sprintf("turn number: got %d, want %d", got.TurnNumber, want.Turn)
	}
	if len(got.Teams) != len(want.Teams) {
		return fmt.Sprintf("teams: got %d, want %d", len(got.Teams), len(want.Teams))
	}
	for ti, gt := range got.Teams {
		wt := want.Teams[ti]
		where := "team " + gt.Symbol
		switch {
		case gt.Symbol != wt.Symbol:
			return fmt.Sprintf("team %d symbol: got %s, want %s", ti, gt.Symbol, wt.Symbol)
		case gt.Score != wt.Score:
			return fmt.Sprintf("%s score: got %+v, want %+v", where, gt.Score, wt.Score)
		case gt.Points != wt.Points:
			return fmt.Sprintf("%s points: got %d, want %d", where, gt.Points, wt.Points)
		case !slices.Equal(gt.Table.Food, wt.Table.Food):
			return fmt.Sprintf("%s table food: got %q, want %q", where, gt.Table.Food, wt.Table.Food)
		case !withinXY(gt.Table.Location, wt.Table.Location, tol):
			return fmt.Sprintf("%s table: got %v, want %v", where, gt.Table.Location, wt.Table.Location)
		case len(gt.Players) != len(wt.Players):
			return fmt.Sprintf("%s players: got %d, want %d", where, len(gt.Players), len(wt.Players))
		}
		for pi, gp := range gt.Players {
			if d := playerDiff(gp, wt.Players[pi], tol); d != "" {
				return fmt.Sprintf("%s player %s %s", where, gp.Symbol, d)
			}
		}
	}
	if len(got.Food) != len(want.Food) {
		return fmt.Sprintf("food: got %s, want %s", mustJSON(got.Food), mustJSON(want.Food))
	}
	for i, gf := range got.Food {
		wf := want.Food[i]
		if gf.Type != wf.Type || !withinXY(gf.Location, wf.Location, tol) || !within(gf.Height, wf.Height, tol) || !withinAngle(gf.Heading, wf.Heading, tol) {
			return fmt.Sprintf("food %d: got %+v, want %+v", i, gf, wf)
		}
	}
	return collisionsDiff(collisions, want.Collisions, tol)
}

func playerDiff(got, want PlayerView, tol float64) string {
	switch {
	case got.Symbol != want.Symbol:
		return fmt.Sprintf("symbol: want %s", want.Symbol)
	case !withinXY(got.Location, want.Location, tol):
		return fmt.Sprintf("location: got %v, want %v", got.Location, want.Location)
	case !within(got.Height, want.Height, tol):
		return fmt.Sprintf("height: got %v, want %v", got.Height, want.Height)
	case !withinAngle(got.Heading, want.Heading, tol):
		return fmt.Sprintf("heading: got %v, want %v", got.Heading, want.Heading)
	case !within(got.Energy, want.Energy, tol):
		return fmt.Sprintf("energy: got %v, want %v", got.Energy, want.Energy)
	case got.Inventory != want.Inventory:
		return fmt.Sprintf("inventory: got %+v, want %+v", got.Inventory, want.Inventory)
	}
	return ""
}

// collisionsDiff compares the collisions as multisets: the original keeps
// them in a HashSet of objects without equals, in no fixed order.
func collisionsDiff(got []collision, want []CollisionView, tol float64) string {
	g := make([]CollisionView, len(got))
	for i, c := range got {
		g[i] = CollisionView{Location: xy(c.loc), Damage: c.damage}
	}
	w := slices.Clone(want)
	byPlace := func(a, b CollisionView) int {
		if a.Location[0] != b.Location[0] {
			return cmpFloat(a.Location[0], b.Location[0])
		}
		if a.Location[1] != b.Location[1] {
			return cmpFloat(a.Location[1], b.Location[1])
		}
		return cmpFloat(a.Damage, b.Damage)
	}
	slices.SortFunc(g, byPlace)
	slices.SortFunc(w, byPlace)
	if len(g) != len(w) {
		return fmt.Sprintf("collisions: got %+v, want %+v", g, w)
	}
	for i := range g {
		if !withinXY(g[i].Location, w[i].Location, tol) || !within(g[i].Damage, w[i].Damage, tol) {
			return fmt.Sprintf("collisions: got %+v, want %+v", g, w)
		}
	}
	return ""
}

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

// parityTolerance is how far apart, relatively, two floats may be: the
// original uses Java's Math.hypot, atan2, cos, sin and exp, we use sim/rng's.
const parityTolerance = 1e-9

// within says two floats agree within tol relative (tol absolute near 0).
func within(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*max(1, math.Abs(a), math.Abs(b))
}

func withinXY(a, b [2]float64, tol float64) bool {
	return within(a[0], b[0], tol) && within(a[1], b[1], tol)
}

// withinAngle compares headings around the circle, where 2π-ε and +ε meet.
func withinAngle(a, b, tol float64) bool { return math.Abs(math.Remainder(a-b, twoPi)) <= tol*twoPi }
