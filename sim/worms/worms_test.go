package worms

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

func start(t testing.TB, ruleset string, seed uint64) *match {
	t.Helper()
	m, err := Game.New(sim.Setup{Ruleset: ruleset, Seed: seed, Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	return m.(*match)
}

func play(t testing.TB, m *match, cmds ...string) {
	t.Helper()
	if err := m.Step(cmds); err != nil {
		t.Fatalf("Step(%q): %v", cmds, err)
	}
}

// arena is a match on an open map (air inside the deep-space ring, no
// packs) with the six worms at the given cells, seat 0's first.
func arena(t testing.TB, ruleset string, pos [numWorms][2]int) *match {
	t.Helper()
	m := start(t, ruleset, 1)
	for c := range numCells {
		m.occ[c] = 0
		m.pack[c] = false
		if m.grid[c] != deepSpace {
			m.grid[c] = air
		}
	}
	for g, p := range pos {
		m.worms[g].x, m.worms[g].y = p[0], p[1]
		m.occ[p[1]*mapSize+p[0]] = int8(g + 1)
	}
	return m
}

// far keeps worms out of each other's way: only the first two matter.
var far = [numWorms][2]int{{10, 10}, {6, 12}, {6, 14}, {20, 10}, {26, 12}, {26, 14}}

// TestSeats recomputes each ruleset's seats with its engine's rounding.
func TestSeats(t *testing.T) {
	for name, r := range rulesets {
		for i, want := range r.seats {
			x, y := circlePoint(15, float64(2*math.Pi*(float64(i)/6)), r.final)
			if x != want[0] || y != want[1] {
				t.Errorf("%s seat %d = (%d,%d), want %v", name, i, x, y, want)
			}
		}
	}
}

// TestSpawn checks rules §5 step 3 and the roster.
func TestSpawn(t *testing.T) {
	m := start(t, "final", 0)
	want := [numWorms]struct {
		x, y int
		prof profession
		hp   int
	}{{24, 4, commando, 150}, {24, 28, agent, 100}, {1, 16, technologist, 100}, {8, 28, commando, 150}, {8, 4, agent, 100}, {31, 16, technologist, 100}}
	for g, w := range want {
		got := m.worms[g]
		if got.x != w.x || got.y != w.y || got.prof != w.prof || got.hp != w.hp || !m.onMapWorm(g) {
			t.Errorf("worm %d: got %+v, want %+v", g, got, w)
		}
	}
	if b := start(t, "base", 0); b.worms[1].prof != commando || b.worms[1].hp != 150 || b.worms[1].bananas != 0 {
		t.Errorf("base worm 2 = %+v, want a Commando", b.worms[1])
	}
}

// TestSpawnBase: the phase-1 engine rounds the seats half up and gives
// each player's worms the seats in id order (the seed-0
// positions), and digs the spawn rooms around those cells.
func TestSpawnBase(t *testing.T) {
	m := start(t, "base", 0)
	want := [numWorms][2]int{{24, 29}, {1, 16}, {24, 3}, {31, 16}, {9, 29}, {8, 3}}
	for g, w := range want {
		if got := m.worms[g]; got.x != w[0] || got.y != w[1] || !m.onMapWorm(g) {
			t.Errorf("worm %d at (%d,%d), want %v", g, got.x, got.y, w)
		}
	}
	for _, c := range []struct {
		x, y int
		want cellType
	}{
		{7, 27, dirt}, {11, 31, dirt}, {9, 28, air}, {10, 30, air}, // room of (9,29)
		{22, 27, dirt}, {22, 31, dirt}, {24, 28, air}, {24, 30, air}, // room of (24,29)
		{10, 1, dirt}, {10, 5, dirt}, {8, 4, air}, // room of (8,3)
	} {
		if got := m.grid[c.y*mapSize+c.x]; got != c.want {
			t.Errorf("(%d,%d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// TestPacks: the final engine rounds the packs' cells by quadrant, the
// phase-1 engine half up; seeds 42 and 11 tell them apart.
func TestPacks(t *testing.T) {
	for _, c := range []struct {
		ruleset string
		seed    uint64
		want    [2][2]int
	}{
		{"final", 0, [2][2]int{{14, 15}, {18, 17}}},
		{"final", 42, [2][2]int{{19, 16}, {13, 16}}},
		{"base", 0, [2][2]int{{14, 15}, {18, 17}}},
		{"base", 42, [2][2]int{{14, 16}, {18, 16}}},
		{"base", 11, [2][2]int{{15, 14}, {17, 18}}},
		{"final", 11, [2][2]int{{14, 15}, {18, 17}}},
	} {
		m := start(t, c.ruleset, c.seed)
		n := 0
		for i, p := range m.pack {
			if p {
				n++
				if cell := [2]int{i % mapSize, i / mapSize}; cell != c.want[0] && cell != c.want[1] {
					t.Errorf("%s seed %d: pack at %v, want %v", c.ruleset, c.seed, cell, c.want)
				}
			}
		}
		if n != 2 {
			t.Errorf("%s seed %d: %d packs, want 2", c.ruleset, c.seed, n)
		}
	}
}

// TestExampleMap compares seed 0 with the engine's published example
// state (round 100 of a seed-0 match): equal everywhere except lava, which
// was air, and at most the 9 cells its banana destroyed.
func TestExampleMap(t *testing.T) {
	data, err := os.ReadFile("testdata/example_seed0_round100.txt")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	m := start(t, "final", 0)
	f := m.Frame().(*Frame)
	banana := 0
	for y, row := range rows {
		for x := range mapSize {
			got, want := f.Map[y][x], row[x]
			switch {
			case got == want, got == '.' && want == '~':
			case got == '#' && want == '.':
				banana++
			default:
				t.Errorf("(%d,%d) = %q, example %q", x, y, got, want)
			}
		}
	}
	if banana > 9 {
		t.Errorf("%d dirt cells are air in the example, a banana destroys at most 9", banana)
	}
}

// TestParse covers the runner's framing and both engines' parsers, for a
// text played in round 3.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		in    string
		final bool
		sel   int // select id, 0 none
		kind  kind
		x, y  int // coordinates, select id or direction index
	}{
		{"move 1 2", false, 0, cmdMove, 1, 2},
		{"MOVE 1 2", false, 0, cmdMove, 1, 2},
		{"move  1 2", false, 0, cmdInvalid, 0, 0},
		{"move 1 2 3", false, 0, cmdInvalid, 0, 0},
		{"move +1 -2", false, 0, cmdMove, 1, -2},
		{"move 1 x", false, 0, cmdInvalid, 0, 0},
		{"move 99999999999 1", false, 0, cmdInvalid, 0, 0},
		{"move 2147483647 -2147483648", true, 0, cmdMove, 1<<31 - 1, -1 << 31},
		{"move 2147483648 1", true, 0, cmdInvalid, 0, 0},
		{"move - 1", true, 0, cmdInvalid, 0, 0},
		{"dig 3 4", false, 0, cmdDig, 3, 4},
		{"shoot ne", false, 0, cmdShoot, 1, 0},
		{"shoot ſ", false, 0, cmdShoot, 4, 0},
		{"shoot north", false, 0, cmdInvalid, 0, 0},
		{"shoot", false, 0, cmdInvalid, 0, 0},
		{"nothing at all", false, 0, cmdNothing, 0, 0},
		{"banana 1 2", false, 0, cmdInvalid, 0, 0},
		{"banana 1 2", true, 0, cmdBanana, 1, 2},
		{"snowball 1 2", true, 0, cmdSnowball, 1, 2},
		{"select 2;shoot N", true, 2, cmdShoot, 0, 0},
		{"select 2 ; ", true, 2, cmdNothing, 0, 0},
		{"select 2", false, 0, cmdInvalid, 0, 0},
		{"", false, 0, cmdInvalid, 0, 0},
		{"", true, 0, cmdInvalid, 0, 0},
		{"jump", false, 0, cmdInvalid, 0, 0},

		// The phase-1 runner passes the line whole: no ';' split, no trim.
		{"   ", false, 0, cmdInvalid, 0, 0},
		{"   ", true, 0, cmdNothing, 0, 0},
		{"move 1 2 ", false, 0, cmdInvalid, 0, 0},
		{"move 1 2 ", true, 0, cmdMove, 1, 2},
		{" move 1 2", false, 0, cmdInvalid, 0, 0},
		{"shoot N;move 1 1", false, 0, cmdInvalid, 0, 0},
		{"shoot N;move 1 1", true, 0, cmdMove, 1, 1},
		{"nothing;whatever", false, 0, cmdInvalid, 0, 0},
		{"nothing x", false, 0, cmdNothing, 0, 0},

		// Phase 1's other direction names, any case; not in final.
		{"shoot u", false, 0, cmdShoot, 0, 0},
		{"shoot UR", false, 0, cmdShoot, 1, 0},
		{"shoot r", false, 0, cmdShoot, 2, 0},
		{"shoot dR", false, 0, cmdShoot, 3, 0},
		{"shoot D", false, 0, cmdShoot, 4, 0},
		{"shoot dl", false, 0, cmdShoot, 5, 0},
		{"shoot L", false, 0, cmdShoot, 6, 0},
		{"shoot Ul", false, 0, cmdShoot, 7, 0},
		{"shoot U", true, 0, cmdInvalid, 0, 0},
		{"shoot dl", true, 0, cmdInvalid, 0, 0},

		// The runner's framing: this round's number only.
		{"C;3;shoot W", false, 0, cmdShoot, 6, 0},
		{"C;3;select 2;shoot W", true, 2, cmdShoot, 6, 0},
		{"C;03;shoot W", false, 0, cmdInvalid, 0, 0},
		{"C;03;shoot W", true, 0, cmdInvalid, 0, 0},
		{"C;4;shoot W", true, 0, cmdInvalid, 0, 0},
		{"C;2;shoot W", false, 0, cmdInvalid, 0, 0},
		{"C;33;shoot W", true, 0, cmdInvalid, 0, 0},
		{"C;+3;shoot W", true, 0, cmdInvalid, 0, 0},
		{"C; 3;shoot W", true, 0, cmdInvalid, 0, 0},
		{"C;3", true, 0, cmdInvalid, 0, 0},
		{"C;", true, 0, cmdInvalid, 0, 0},
		{"C;3;", false, 0, cmdInvalid, 0, 0},
		{"C;3;", true, 0, cmdInvalid, 0, 0},
		{"C;3; ", false, 0, cmdInvalid, 0, 0},
		{"C;3; ", true, 0, cmdNothing, 0, 0},
		{"C;3;;", true, 0, cmdNothing, 0, 0},
		{"C;3;C;3;move 1 2", false, 0, cmdInvalid, 0, 0},
		{"C;3;C;3;move 1 2", true, 0, cmdMove, 1, 2},
		{"c;3;move 1 2", true, 0, cmdMove, 1, 2},
		{"c;3;move 1 2", false, 0, cmdInvalid, 0, 0},

		// Kotlin's toIntOrNull takes decimal digits of any script in the
		// Basic Multilingual Plane, not beyond it.
		{"move ٢٣ ٥", false, 0, cmdMove, 23, 5},
		{"dig １ ２", true, 0, cmdDig, 1, 2},
		{"move -٣ +३", true, 0, cmdMove, -3, 3},
		{"move 1٣ 0", false, 0, cmdMove, 13, 0},
		{"select ٢", true, 2, cmdNothing, 0, 0},
		{"move 𝟏 2", false, 0, cmdInvalid, 0, 0},
		{"move 𝟏 2", true, 0, cmdInvalid, 0, 0},
		{"move ³ 2", true, 0, cmdInvalid, 0, 0},
		{"move 1\xff 2", true, 0, cmdInvalid, 0, 0},
		{"move ٢١٤٧٤٨٣٦٤٨ 1", true, 0, cmdInvalid, 0, 0},
	} {
		sel, has, act := parseTurn(c.in, c.final, 3)
		ax := act.x
		if act.kind == cmdShoot {
			ax = act.dir
		}
		if act.kind != c.kind || has != (c.sel != 0) || has && sel.x != c.sel || act.kind != cmdInvalid && (ax != c.x || act.y != c.y) {
			t.Errorf("parseTurn(%q, final=%v, 3) = select %v %+v, act %+v; want select %d, kind %d (%d,%d)", c.in, c.final, has, sel, act, c.sel, c.kind, c.x, c.y)
		}
	}
}

// TestJavaDigit compares javaDigit with JDK 17's Character.digit(c, 10)
// over the whole Basic Multilingual Plane: jdkZeros are the chars whose
// digit value is 0, dumped once from JDK 17 (each starts a run 0 to 9 and
// no other char is a digit).
func TestJavaDigit(t *testing.T) {
	jdkZeros := []rune{0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6,
		0x0C66, 0x0CE6, 0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946,
		0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0,
		0xAA50, 0xABF0, 0xFF10}
	want := make(map[rune]int)
	for _, z := range jdkZeros {
		for d := range 10 {
			want[z+rune(d)] = d
		}
	}
	for r := rune(0); r <= 0x10FFFF; r++ {
		w, ok := want[r]
		if !ok {
			w = -1
		}
		if got := javaDigit(r); got != w {
			t.Errorf("javaDigit(%U) = %d, want %d", r, got, w)
		}
	}
}

func TestShootScores(t *testing.T) {
	for _, c := range []struct {
		ruleset string
		cmd     string
		hp      int // target HP before the shot
		score   int // seat 0 command score after
		target  int // worm hit
	}{
		{"base", "shoot E", 150, 20, 3},
		{"base", "shoot E", 8, 40, 3},
		{"base", "shoot W", 150, -20, 1},
		{"base", "shoot N", 150, 2, -1},
		{"final", "shoot E", 150, 16, 3},
		{"final", "shoot E", 8, 16 + 40, 3},
		{"final", "shoot W", 8, -16 - 40, 1},
	} {
		pos := far
		pos[1] = [2]int{7, 10}  // own worm 3 west
		pos[3] = [2]int{14, 10} // enemy 4 east
		m := arena(t, c.ruleset, pos)
		if c.target >= 0 {
			m.worms[c.target].hp = c.hp
		}
		play(t, m, c.cmd, "nothing")
		if got := m.players[0].cmdScore; got != c.score {
			t.Errorf("%s %s at %d HP: score %d, want %d", c.ruleset, c.cmd, c.hp, got, c.score)
		}
		if c.target >= 0 && m.worms[c.target].hp != c.hp-weaponDamage {
			t.Errorf("%s %s: target HP %d, want %d", c.ruleset, c.cmd, m.worms[c.target].hp, c.hp-weaponDamage)
		}
	}
}

func TestShotRange(t *testing.T) {
	pos := far
	pos[3] = [2]int{14, 14} // 4 diagonal: floor(5.66) = 5 > 4
	m := arena(t, "final", pos)
	play(t, m, "shoot SE", "nothing")
	if m.worms[3].hp != 150 || m.shots[0].Result != "OUT_OF_RANGE" || m.shots[0].To != (Point{14, 14}) {
		t.Errorf("diagonal 4: hp %d shot %+v", m.worms[3].hp, m.shots[0])
	}
	m = arena(t, "final", pos)
	m.grid[11*mapSize+11] = dirt
	play(t, m, "shoot SE", "nothing")
	if m.shots[0].Result != "BLOCKED" || m.players[0].cmdScore != 2 {
		t.Errorf("blocked shot %+v score %d", m.shots[0], m.players[0].cmdScore)
	}
}

// TestCollision: both movers into one cell take 20 and are pushed back or
// swapped by the coin; each scores 5.
// TestCollision: two worms moving onto one cell. The phase-1 engine plays
// player 2's move first, which makes the other worm the mover; swap and
// push-back end the same either way.
func TestCollision(t *testing.T) {
	for _, ruleset := range []string{"base", "final"} {
		t.Run(ruleset, func(t *testing.T) { testCollision(t, ruleset) })
	}
}

func testCollision(t *testing.T, ruleset string) {
	outcomes := map[string]bool{}
	for seed := uint64(0); seed < 8; seed++ {
		pos := far
		pos[3] = [2]int{12, 10}
		m := arena(t, ruleset, pos)
		m.coin = newXorWow(int32(seed))
		coin := m.coin
		push := coin.nextBoolean()
		play(t, m, "move 11 10", "move 11 10")
		a, b := m.worms[0], m.worms[3]
		want := [4]int{10, 10, 12, 10}
		if !push {
			want = [4]int{12, 10, 10, 10}
		}
		if a.hp != 130 || b.hp != 130 || [4]int{a.x, a.y, b.x, b.y} != want || m.players[0].cmdScore != 5 || m.players[1].cmdScore != 5 {
			t.Errorf("seed %d: push %v, worms %+v %+v, scores %d %d", seed, push, a, b, m.players[0].cmdScore, m.players[1].cmdScore)
		}
		if m.occ[10*mapSize+11] != 0 || m.occ[10*mapSize+want[0]] != 1 || m.occ[10*mapSize+want[2]] != 4 {
			t.Errorf("seed %d: occupancy wrong", seed)
		}
		outcomes[m.events[len(m.events)-1].Detail] = true
	}
	if len(outcomes) != 2 {
		t.Errorf("outcomes %v, want both", outcomes)
	}
}

// TestSnapshotValidation: a move into a cell dug or vacated this round is
// invalid (rules §7.2).
func TestSnapshotValidation(t *testing.T) {
	pos := far
	pos[3] = [2]int{11, 10}
	m := arena(t, "final", pos)
	play(t, m, "move 11 10", "move 12 10")
	if m.worms[0].x != 10 || m.players[0].cmdScore != scoreInvalid || m.worms[3].x != 12 {
		t.Errorf("moved into a vacated cell: %+v score %d", m.worms[0], m.players[0].cmdScore)
	}
}

func TestBanana(t *testing.T) {
	pos := far
	pos[1] = [2]int{14, 12} // the Agent (worm id 2), throwing
	pos[3] = [2]int{14, 14} // enemy at the impact: 20
	pos[4] = [2]int{15, 15} // enemy at √2: 11
	pos[5] = [2]int{14, 16} // enemy at 2: 7
	m := arena(t, "final", pos)
	m.grid[13*mapSize+14] = dirt
	m.grid[14*mapSize+12] = dirt
	m.pack[15*mapSize+13] = true
	play(t, m, "select 2;banana 14 14", "nothing")
	hp := [3]int{m.worms[3].hp, m.worms[4].hp, m.worms[5].hp}
	if hp != [3]int{130, 89, 93} || m.worms[1].hp != 93 {
		t.Errorf("HP %v thrower %d, want [130 89 93] 93", hp, m.worms[1].hp)
	}
	// 2 dirt ×7 + 2×(20+11+7 to enemies − 7 to the thrower)
	if got, want := m.players[0].cmdScore, 2*7+2*(20+11+7-7); got != want {
		t.Errorf("score %d, want %d", got, want)
	}
	if m.grid[13*mapSize+14] != air || m.pack[15*mapSize+13] || m.worms[1].bananas != 2 || m.players[0].tokens != 4 {
		t.Error("dirt, pack, banana count or token not updated")
	}
}

func TestSnowballFreezes(t *testing.T) {
	pos := far
	pos[2] = [2]int{12, 12} // the Technologist
	pos[3] = [2]int{15, 15}
	m := arena(t, "final", pos)
	m.players[0].active = 2
	play(t, m, "snowball 15 15", "move 16 16") // moves before the snowball
	if m.worms[3].frozen != 5 || m.players[0].cmdScore != 17 || m.worms[3].x != 16 {
		// the enemy moved to (16,16), still inside the 3x3 square
		t.Fatalf("frozen %d score %d at %d", m.worms[3].frozen, m.players[0].cmdScore, m.worms[3].x)
	}
	// Inert for 4 rounds, acting again in the 5th (rules §7.6).
	for r := 1; r <= 5; r++ {
		m.players[1].active = 0
		x := m.worms[3].x
		play(t, m, "shoot N", "move "+strconv.Itoa(x+1)+" 16")
		moved := m.worms[3].x == x+1
		if moved != (r == 5) {
			t.Errorf("round %d after the freeze: moved %v", r, moved)
		}
	}
}

func TestSelectAndRotation(t *testing.T) {
	m := arena(t, "final", far)
	play(t, m, "select 3;nothing", "nothing")
	if m.players[0].active != 0 || m.players[0].tokens != 4 {
		t.Errorf("after select 3 the next worm is 1 (wrap), got %d, tokens %d", m.players[0].active+1, m.players[0].tokens)
	}
	m.worms[1].hp = 0 // worm 2 dead: rotation skips it
	play(t, m, "nothing", "nothing")
	if m.players[0].active != 2 {
		t.Errorf("rotation past a dead worm: active %d, want 3", m.players[0].active+1)
	}
	play(t, m, "select 2;nothing", "nothing")
	if m.players[0].cmdScore != scoreInvalid || m.players[0].tokens != 4 {
		t.Errorf("select of a dead worm: score %d tokens %d", m.players[0].cmdScore, m.players[0].tokens)
	}
}

func TestTimeoutAndDisqualification(t *testing.T) {
	m := arena(t, "base", far)
	for r := 1; r <= 13; r++ {
		play(t, m, "", "shoot N")
		if m.Over() != (r == 13) {
			t.Fatalf("round %d: over %v", r, m.Over())
		}
	}
	if m.players[0].cmdScore != 13*scoreInvalid {
		t.Errorf("13 time-outs score %d", m.players[0].cmdScore)
	}
	res := m.Result()
	if res.Winner != 1 || !strings.Contains(res.Reason, "disqualified") || m.onMapWorm(0) {
		t.Errorf("result %+v, worms still on the map %v", res, m.onMapWorm(0))
	}
	if err := m.Step([]string{"nothing", "nothing"}); !errors.Is(err, sim.ErrOver) {
		t.Errorf("Step after the end: %v", err)
	}
}

func TestLavaAndPacks(t *testing.T) {
	m := arena(t, "final", far)
	m.maxRounds = 8 // lava from round 2, full at round 7
	m.pack[10*mapSize+11] = true
	play(t, m, "move 11 10", "nothing")
	if m.worms[0].hp != 160 || m.pack[10*mapSize+11] {
		t.Errorf("pack: hp %d", m.worms[0].hp)
	}
	play(t, m, "nothing", "nothing")
	if m.safe != 16 || m.grid[0*mapSize+16] != air || m.grid[4*mapSize+4] != lava {
		t.Errorf("round 2 safe radius %v, (16,0) %v (at 16: air), (4,4) %v (at 16.97: lava)", m.safe, m.grid[16], m.grid[4*mapSize+4])
	}
	for !m.Over() {
		play(t, m, "nothing", "nothing")
	}
	if m.safe != minSafeRadius {
		t.Errorf("final safe radius %v", m.safe)
	}
	if m.worms[5].hp >= 100 {
		t.Errorf("a worm at (26,14) took no lava damage: %d", m.worms[5].hp)
	}
}

func TestSetupErrors(t *testing.T) {
	for _, s := range []sim.Setup{
		{Ruleset: "p2", Players: 2},
		{Players: 3},
		{Players: 2, Config: json.RawMessage(`{"rounds":0}`)},
		{Players: 2, Config: json.RawMessage(`{"turns":5}`)},
	} {
		var se *sim.SetupError
		if _, err := Game.New(s); !errors.As(err, &se) {
			t.Errorf("New(%+v) = %v, want a SetupError", s, err)
		}
	}
	m, err := Game.New(sim.Setup{Players: 2, Config: json.RawMessage(`{"rounds":5}`)})
	if err != nil || m.(*match).maxRounds != 5 || m.(*match).rules.name != "base" {
		t.Errorf("rounds 5: %v", err)
	}
	if err := m.Step([]string{"nothing"}); err == nil {
		t.Error("Step with one command succeeded")
	}
}

func TestStatsAndViews(t *testing.T) {
	m := start(t, "final", 3)
	stats := m.AppendStats(nil)
	if len(stats) != 8 || stats[3].Unit != sim.NoUnit || stats[3].Values[metricHP] != 350 || stats[0].Values[metricHP] != 150 {
		t.Errorf("stats %+v", stats)
	}
	data, err := json.Marshal(m.View(0))
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"currentRound":1`, `"maxRounds":400`, `"currentWormId":1`, `"remainingWormSelections":5`, `"bananaBombs"`, `"occupier"`, `"powerup":{"type":"HEALTH_PACK","value":10}`, `"type":"DEEP_SPACE"`} {
		if !strings.Contains(string(data), field) {
			t.Errorf("view JSON lacks %s", field)
		}
	}
	if _, err := json.Marshal(m.Frame()); err != nil {
		t.Error(err)
	}
}

func roundTrip(v any, out any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// TestActiveAfterDeath: when the active worm dies, the phase-1 engine
// hands over to the lowest-id living worm, the final engine to the next
// living id; a living active worm passes to the next in both.
func TestActiveAfterDeath(t *testing.T) {
	for _, c := range []struct {
		ruleset string
		want    int // seat 0's active worm index after round 2
	}{{"base", 0}, {"final", 2}} {
		pos := [numWorms][2]int{{6, 6}, {10, 10}, {6, 20}, {26, 6}, {10, 12}, {26, 20}}
		m := arena(t, c.ruleset, pos)
		play(t, m, "nothing", "nothing")
		if m.players[0].active != 1 || m.players[1].active != 1 {
			t.Fatalf("%s: after round 1 active worms %d %d, want 2 2", c.ruleset, m.players[0].active+1, m.players[1].active+1)
		}
		m.worms[1].hp = weaponDamage
		play(t, m, "nothing", "shoot N") // seat 1's worm 2 kills seat 0's worm 2
		if m.worms[1].alive() {
			t.Fatalf("%s: worm 2 of player 1 alive at %d HP", c.ruleset, m.worms[1].hp)
		}
		if got := m.players[0].active; got != c.want {
			t.Errorf("%s: active worm after the death %d, want %d", c.ruleset, got+1, c.want+1)
		}
		if got := m.players[1].active; got != 2 {
			t.Errorf("%s: living active worm passed to %d, want 3", c.ruleset, got+1)
		}
	}
}

// TestSameRoundShots: both players shoot the same worm in round 1, the
// first shot leaves it at 8 HP and the second kills it. The phase-1
// engine plays player 2's shot first, so player 1's shot scores the kill
// (+40, even on its own worm) and player 2's the hit.
func TestSameRoundShots(t *testing.T) {
	for _, c := range []struct {
		name       string
		target     int // worm index, between the two shooters
		want       [2]int
		wantKills  int // seat 0's kill count
		wantKilled bool
	}{
		{"own worm", 1, [2]int{scoreKillShot, scoreBaseHit}, 0, true},
		{"enemy worm", 4, [2]int{scoreKillShot, -scoreBaseHit}, 1, true},
	} {
		// Seat 0's worm 1 at (10,12) shoots north, seat 1's worm 1 at
		// (10,7) shoots south; the target stands between at (10,10).
		pos := [numWorms][2]int{{10, 12}, {6, 20}, {6, 24}, {10, 7}, {26, 20}, {26, 24}}
		pos[c.target] = [2]int{10, 10}
		m := arena(t, "base", pos)
		m.worms[c.target].hp = 2 * weaponDamage
		play(t, m, "shoot N", "shoot S")
		got := [2]int{m.players[0].cmdScore, m.players[1].cmdScore}
		if got != c.want || m.players[0].kills != c.wantKills || m.worms[c.target].alive() == c.wantKilled {
			t.Errorf("%s: scores %v, kills %d, target %d HP; want %v, %d kills, dead", c.name, got, m.players[0].kills, m.worms[c.target].hp, c.want, c.wantKills)
		}
	}
}

// TestFramedCommands plays the runner's framing in round 1: the round's
// own prefix is stripped, any other, or one with nothing after it, is
// "No Command" (−4 and a streak step); a blank remainder is an invalid
// command in base and an empty list (nothing, no penalty) in final.
func TestFramedCommands(t *testing.T) {
	for _, c := range []struct {
		ruleset string
		cmd     string
		score   int
		streak  int
		x       int // worm 1's x after the round
	}{
		{"base", "C;1;move 11 10", scoreMove, 0, 11},
		{"final", "C;1;move 11 10", scoreMove, 0, 11},
		{"base", "C;01;move 11 10", scoreInvalid, 1, 10},
		{"final", "C;2;move 11 10", scoreInvalid, 1, 10},
		{"base", "C;1;", scoreInvalid, 1, 10},
		{"final", "C;1;", scoreInvalid, 1, 10},
		{"base", "C;1; ", scoreInvalid, 1, 10},
		{"final", "C;1; ", scoreNothing, 1, 10},
		{"base", "C;1;move 11 10 ", scoreInvalid, 1, 10},
		{"base", "C;1;nothing;move 11 10", scoreInvalid, 1, 10},
		{"final", "C;1;nothing;move 11 10", scoreMove, 0, 11},
		{"base", "C;1;nothing x", scoreNothing, 1, 10},
		{"base", "move ١١ ١٠", scoreMove, 0, 11},
		{"final", "move １１ １０", scoreMove, 0, 11},
		{"final", "move 𝟏𝟏 10", scoreInvalid, 1, 10},
	} {
		m := arena(t, c.ruleset, far)
		play(t, m, c.cmd, "nothing")
		p := m.players[0]
		if p.cmdScore != c.score || p.streak != c.streak || m.worms[0].x != c.x {
			t.Errorf("%s %q: score %d, streak %d, x %d; want %d, %d, %d", c.ruleset, c.cmd, p.cmdScore, p.streak, m.worms[0].x, c.score, c.streak, c.x)
		}
	}
}

// TestPhase1Directions: the phase-1 engine's U..UL names shoot (here u
// at an enemy 3 cells north); the final engine calls them invalid.
func TestPhase1Directions(t *testing.T) {
	for _, c := range []struct {
		ruleset string
		cmd     string
		score   int
		hp      int // the enemy's HP after
	}{
		{"base", "shoot u", scoreBaseHit, 150 - weaponDamage},
		{"base", "shoot N", scoreBaseHit, 150 - weaponDamage},
		{"base", "shoot dl", scoreMissed, 150},
		{"final", "shoot u", scoreInvalid, 150},
	} {
		pos := far
		pos[3] = [2]int{10, 7}
		m := arena(t, c.ruleset, pos)
		play(t, m, c.cmd, "nothing")
		if m.players[0].cmdScore != c.score || m.worms[3].hp != c.hp {
			t.Errorf("%s %q: score %d, enemy HP %d; want %d, %d", c.ruleset, c.cmd, m.players[0].cmdScore, m.worms[3].hp, c.score, c.hp)
		}
	}
}

// BenchmarkParse reads the commands the built-in bots send most.
func BenchmarkParse(b *testing.B) {
	cmds := []string{"move 12 17", "dig 11 16", "shoot NE", "select 2;banana 20 25", "snowball 3 17", "nothing"}
	for b.Loop() {
		for _, c := range cmds {
			parseTurn(c, true, 1)
		}
	}
}

// TestSelectOrder: the final engine runs the selects in the runner's
// Hashtable order, player 2 first, as its events show.
func TestSelectOrder(t *testing.T) {
	m := arena(t, "final", far)
	play(t, m, "select 2;nothing", "select 3;nothing")
	var seats []int
	for _, e := range m.Events() {
		if e.Kind == EventSelect {
			seats = append(seats, e.Seat)
		}
	}
	if len(seats) != 2 || seats[0] != 1 || seats[1] != 0 {
		t.Errorf("select events by seat %v, want [1 0]", seats)
	}
}
