package foodfight

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// The scenarios below are small fields set up by hand, each with the
// outcome the rules file (shared/rules/foodfight.md) gives, worked out from
// the rules with the standard library's math: they check the engine against
// the rules, not against itself. The fake source makes every draw known.

// fakeSource makes the match's draws predictable: queued values first, then
// NormFloat64 0 (every "μ ± σ" is exactly μ), Float64 0.5 (never a respawn)
// and IntN n-1 (a shuffle keeps its order; a pick takes the last choice).
type fakeSource struct {
	floats, norms []float64
	ints          []int
	nFloat        int // Float64 draws made
}

func (s *fakeSource) Float64() float64 {
	s.nFloat++
	if len(s.floats) == 0 {
		return 0.5
	}
	f := s.floats[0]
	s.floats = s.floats[1:]
	return f
}

func (s *fakeSource) IntN(n int) int {
	if len(s.ints) == 0 {
		return n - 1
	}
	i := s.ints[0]
	s.ints = s.ints[1:]
	if i < 0 || i >= n {
		panic(fmt.Sprintf("fake IntN(%d) queued %d", n, i))
	}
	return i
}

func (s *fakeSource) NormFloat64() float64 {
	if len(s.norms) == 0 {
		return 0
	}
	z := s.norms[0]
	s.norms = s.norms[1:]
	return z
}

// at is a standing player at full energy with empty hands.
func at(x, y, heading float64) player {
	return player{loc: vec{x, y}, heading: heading, height: playerHeight, energy: maxEnergy, hands: [2]kind{none, none}, valid: true}
}

// holding is p with food of kind k in the hand (0 left, 1 right).
func holding(p player, hand int, k kind) player {
	p.hands[hand] = k
	return p
}

// withHeight is p at height h.
func withHeight(p player, h float64) player {
	p.height = h
	return p
}

// ground is a piece of food lying on the ground.
func ground(k kind, x, y float64) food {
	return food{kind: k, loc: vec{x, y}, heading: north, thrower: -1}
}

// flying is a piece of food in the air.
func flying(k kind, x, y, height, heading float64) food {
	return food{kind: k, loc: vec{x, y}, height: height, heading: heading, thrower: -1}
}

// The food types by name, in the rules' table order.
const (
	apple kind = iota
	banana
	raspberry
	broccoli
	milk
	chocolate
	sandwich
	pie
)

// newField builds a match of the named type by hand: players in seat order
// (teams take consecutive seats), one table per team, the field's food. Teams
// are A, B, C and players 0, 1, 2... in seat order.
func newField(t *testing.T, mtype string, players []player, tables []vec, food ...food) (*match, *fakeSource) {
	t.Helper()
	mt, err := pickType(mtype, len(players))
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != mt.teams {
		t.Fatalf("%d tables for %d teams", len(tables), mt.teams)
	}
	src := &fakeSource{}
	m := &match{mtype: mt, src: src, players: append([]player(nil), players...), food: food,
		order: make([]int, len(players)), knock: make([]vec, len(players))}
	perTeam := mt.players / mt.teams
	for ti, tb := range tables {
		m.teams = append(m.teams, team{symbol: byte('A' + ti), table: tb})
	}
	for i := range m.players {
		p := &m.players[i]
		p.symbol = byte('0' + i)
		p.team = i / perTeam
		m.teams[p.team].seats = append(m.teams[p.team].seats, i)
	}
	return m, src
}

// step plays one turn and fails the test on an error.
func step(t *testing.T, m *match, cmds ...string) {
	t.Helper()
	if err := m.Step(cmds); err != nil {
		t.Fatal(err)
	}
}

// near reports whether got is want up to rounding.
func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

// checkLoc fails unless got is the point want up to rounding.
func checkLoc(t *testing.T, what string, got, want vec) {
	t.Helper()
	if !near(got.x, want.x) || !near(got.y, want.y) {
		t.Errorf("%s: got (%.12g, %.12g), want (%.12g, %.12g)", what, got.x, got.y, want.x, want.y)
	}
}

// checkFloat fails unless got is want up to rounding.
func checkFloat(t *testing.T, what string, got, want float64) {
	t.Helper()
	if !near(got, want) {
		t.Errorf("%s: got %.15g, want %.15g", what, got, want)
	}
}

// countEvents counts the last turn's events of a kind.
func countEvents(m *match, kind string) int {
	n := 0
	for _, e := range m.events {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// points returns every team's score.
func points(m *match) []int {
	out := make([]int, len(m.teams))
	for i := range m.teams {
		out[i] = m.teams[i].points()
	}
	return out
}

func deg(d float64) float64 { return d * math.Pi / 180 }

// polarStd is r in direction a, computed with the standard library.
func polarStd(r, a float64) vec { return vec{r * math.Cos(a), r * math.Sin(a)} }

// Far-away corners for the players and tables a scenario does not use.
var (
	farPlayer = at(1300, 950, 0)
	farTables = []vec{{1250, 150}, {200, 950}, {1250, 500}}
)

// TestPickupReach: a hand reaches ground food within 100 and within π/6 of
// its arm, which points π/6 off the heading (A.6, the code's rule): the left
// hand covers heading to heading+60°, the right heading-60° to heading. The
// wiki's wider sector would also take the food at +70° and at -10°.
func TestPickupReach(t *testing.T) {
	tests := []struct {
		name   string
		offset vec // from the player, who faces east
		height float64
		cmd    string
		want   bool
	}{
		{"left at +50°", polarStd(80, deg(50)), 0, "pickupLeft", true},
		{"left at +70°", polarStd(80, deg(70)), 0, "pickupLeft", false},
		{"left at -10°", polarStd(80, deg(-10)), 0, "pickupLeft", false},
		{"left at +5°", polarStd(80, deg(5)), 0, "pickupLeft", true},
		{"right at -50°", polarStd(80, deg(-50)), 0, "pickupRight", true},
		{"right at +50°", polarStd(80, deg(50)), 0, "pickupRight", false},
		{"right at -70°", polarStd(80, deg(-70)), 0, "pickupRight", false},
		{"left at exactly 100", vec{60, 80}, 0, "pickupLeft", true},
		{"left just beyond 100", vec{60.01, 80}, 0, "pickupLeft", false},
		{"left, food in the air", polarStd(80, deg(50)), 10, "pickupLeft", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ground(apple, 500+tt.offset.x, 500+tt.offset.y)
			f.height = tt.height
			m, _ := newField(t, "DUEL", []player{at(500, 500, 0), farPlayer}, farTables[:2], f)
			step(t, m, tt.cmd, "")
			p := &m.players[0]
			h := 0
			if tt.cmd == "pickupRight" {
				h = 1
			}
			got := p.hands[h] == apple
			if got != tt.want || p.valid != tt.want {
				t.Fatalf("%s: holds apple %v, valid %v; want %v", tt.cmd, got, p.valid, tt.want)
			}
			wantFood, wantPoints := 0, eventPoints[firstPickup]
			if !tt.want {
				wantFood, wantPoints = 1, 0
			}
			if len(m.food) != wantFood {
				t.Errorf("got %d pieces on the field, want %d", len(m.food), wantFood)
			}
			if got := m.teams[0].points(); got != wantPoints {
				t.Errorf("got %d points, want %d", got, wantPoints)
			}
		})
	}
}

// TestPickupFromTable: a player against a table and facing it takes its
// food, any team's table (stealing), but ground food in reach comes first;
// the table loses the type (A.6).
func TestPickupFromTable(t *testing.T) {
	table := vec{700, 540}
	tests := []struct {
		name      string
		y         float64 // of the player below the table, facing north
		food      []food
		wantHand  kind
		wantTable uint8
	}{
		{"against the table", 395, nil, banana, 0},
		{"one short of the table", 389, nil, none, 1 << banana},
		// The apple is 60 away, 20° off the left arm, not on the table.
		{"ground food first", 395, []food{ground(apple, 700+60*math.Cos(deg(140)), 395+60*math.Sin(deg(140)))}, apple, 1 << banana},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newField(t, "DUEL", []player{at(700, tt.y, north), farPlayer}, []vec{farTables[0], table}, tt.food...)
			m.teams[1].tableFood = 1 << banana
			step(t, m, "pickupLeft", "")
			if got := m.players[0].hands[0]; got != tt.wantHand {
				t.Errorf("left hand: got %v, want %v", got, tt.wantHand)
			}
			if got := m.teams[1].tableFood; got != tt.wantTable {
				t.Errorf("table B holds %08b, want %08b", got, tt.wantTable)
			}
		})
	}
}

// TestThrowStart: a throw creates the food 100 along the arm, heading along
// the arm, at height 150±10 (a log-normal draw), and it flies 20±1 the same
// turn and falls 2±1 (A.6, A.7).
func TestThrowStart(t *testing.T) {
	m, src := newField(t, "DUEL", []player{at(500, 500, 0), farPlayer}, farTables[:2])
	m.players[0].hands[0] = milk
	src.norms = []float64{1, 0, -1} // throw height, then flight speed, then fall
	step(t, m, "throwLeft", "")
	if len(m.food) != 1 {
		t.Fatalf("got %d pieces on the field, want 1", len(m.food))
	}
	f := m.food[0]
	arm := math.Pi / 6
	checkLoc(t, "food", f.loc, vec{500, 500}.add(polarStd(100+20, arm)))
	checkFloat(t, "heading", f.heading, arm)
	checkFloat(t, "height", f.height, 150*math.Exp(10.0/150)-2*math.Exp(-1.0/2))
	if f.kind != milk || m.players[0].hands[0] != none {
		t.Errorf("got %v thrown and %v in hand, want milk and nothing", f.kind, m.players[0].hands[0])
	}
	if got := m.teams[0].points(); got != eventPoints[firstThrow] {
		t.Errorf("got %d points, want %d", got, eventPoints[firstThrow])
	}
	checkFloat(t, "energy", m.players[0].energy, 100-0.02)
}

// TestThrowLandsOnTable follows a throw due east turn by turn: 20 a turn
// from 100 ahead, 2 lower a turn, until it is over the own table (edges
// included, whatever its height); from then on the team scores a point a
// turn (A.7, A.9).
func TestThrowLandsOnTable(t *testing.T) {
	// Heading π/6, right hand: the arm points due east.
	m, _ := newField(t, "DUEL", []player{at(200, 540, math.Pi/6), farPlayer}, []vec{{600, 540}, farTables[0]})
	m.players[0].hands[1] = apple
	cmd := "throwRight"
	for turn := 1; turn <= 9; turn++ {
		step(t, m, cmd, "")
		cmd = ""
		if len(m.food) != 1 {
			t.Fatalf("turn %d: got %d pieces, want 1", turn, len(m.food))
		}
		f := m.food[0]
		checkLoc(t, fmt.Sprintf("turn %d", turn), f.loc, vec{300 + 20*float64(turn), 540})
		checkFloat(t, fmt.Sprintf("turn %d height", turn), f.height, 150-2*float64(turn))
	}
	// Turn 10 brings it to x=500, the table's west edge.
	step(t, m, "", "")
	if len(m.food) != 0 || m.teams[0].tableFood != 1<<apple {
		t.Fatalf("turn 10: %d pieces on the field, table holds %08b; want the apple on the table", len(m.food), m.teams[0].tableFood)
	}
	if countEvents(m, eventLand) != 1 {
		t.Errorf("turn 10: got %d land events, want 1", countEvents(m, eventLand))
	}
	throw := eventPoints[firstThrow]
	for turn := 10; turn <= 12; turn++ {
		if turn > 10 {
			step(t, m, "", "")
		}
		want := []int{throw + (turn - 9), 0}
		if got := points(m); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("after turn %d: got points %v, want %v", turn, got, want)
		}
	}
}

// TestBounce: food crossing a wall band is mirrored about the wall for the
// table test and its heading reflected when it heads into the wall; the
// original stores the un-mirrored point, fixed_bounce the mirrored one
// (A.7).
func TestBounce(t *testing.T) {
	tests := []struct {
		name        string
		fixed       bool
		start       vec
		heading     float64
		want        []vec // after each turn
		wantHeading float64
	}{
		// West: at -5 after one turn, mirrored to 5, heading turned east.
		// The quirk then flies from -5: 15 is still in the band, mirrored
		// again, but the heading, east, is kept.
		{"west, original", false, vec{15, 540}, math.Pi, []vec{{-5, 540}, {15, 540}, {35, 540}}, 0},
		// Fixed: mirrored about x = r, where the apple's edge touches the
		// wall: -5 becomes 2*20+5 = 45, and the flight goes on east.
		{"west, fixed", true, vec{15, 540}, math.Pi, []vec{{45, 540}, {65, 540}, {85, 540}}, 0},
		// North: 1070 is past 1080-20; the original tests the table at
		// 2160-1070 = 1090 and keeps 1070; fixed keeps 2*1060-1070 = 1050.
		{"north, original", false, vec{700, 1050}, math.Pi / 2, []vec{{700, 1070}, {700, 1050}}, 1.5 * math.Pi},
		{"north, fixed", true, vec{700, 1050}, math.Pi / 2, []vec{{700, 1050}, {700, 1030}}, 1.5 * math.Pi},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newField(t, "DUEL", []player{at(720, 300, 0), farPlayer}, farTables[:2], flying(apple, tt.start.x, tt.start.y, 100, tt.heading))
			m.cfg.FixedBounce = tt.fixed
			for i, want := range tt.want {
				step(t, m, "", "")
				if len(m.food) != 1 {
					t.Fatalf("turn %d: got %d pieces, want 1", i+1, len(m.food))
				}
				checkLoc(t, fmt.Sprintf("turn %d", i+1), m.food[0].loc, want)
				checkFloat(t, fmt.Sprintf("turn %d heading", i+1), m.food[0].heading, tt.wantHeading)
			}
		})
	}
}

// TestBounceLandsByMirror: the table test uses the mirrored point, so food
// at x=-5 lands on a table that spans x 0 to 200 (A.7).
func TestBounceLandsByMirror(t *testing.T) {
	m, _ := newField(t, "DUEL", []player{at(720, 300, 0), farPlayer}, []vec{{100, 540}, farTables[0]}, flying(apple, 15, 540, 100, math.Pi))
	step(t, m, "", "")
	if len(m.food) != 0 || m.teams[0].tableFood != 1<<apple {
		t.Fatalf("got %d pieces on the field, table holds %08b; want the apple on the table", len(m.food), m.teams[0].tableFood)
	}
}

// TestPlayerCollision: two players closer than 100 collide at their
// midpoint; both take the one 2±1 damage, both teams lose 2 once and 1 per
// player, everyone on the field is knocked 50·exp(-d/50) away from the
// point, and food within its own radius of the point is destroyed (A.8).
func TestPlayerCollision(t *testing.T) {
	players := []player{at(500, 500, 0), at(560, 500, 0), at(500, 700, 0)}
	m, _ := newField(t, "FREE_FOR_ALL", players, farTables,
		ground(apple, 530, 500), ground(banana, 530, 525))
	step(t, m, "", "", "")
	if len(m.collisions) != 1 {
		t.Fatalf("got %d collisions, want 1", len(m.collisions))
	}
	c := vec{530, 500}
	checkLoc(t, "collision", m.collisions[0].loc, c)
	checkFloat(t, "damage", m.collisions[0].damage, 2)
	for i, want := range []float64{98, 98, 100} {
		checkFloat(t, fmt.Sprintf("seat %d energy", i), m.players[i].energy, want)
	}
	for i, p := range players {
		v := p.loc.sub(c)
		d := math.Hypot(v.x, v.y)
		k := 50 * math.Exp(-d/50)
		checkLoc(t, fmt.Sprintf("seat %d", i), m.players[i].loc, vec{p.loc.x + k*v.x/d, p.loc.y + k*v.y/d})
	}
	collision := eventPoints[firstPlayerCollision] + eventPoints[everyPlayerCollision]
	if got, want := points(m), []int{collision, collision, 0}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got points %v, want %v", got, want)
	}
	if len(m.food) != 1 || m.food[0].kind != banana {
		t.Errorf("got food %v, want the banana only (the apple at the point is destroyed)", m.food)
	}
	if countEvents(m, eventCollision) != 1 || countEvents(m, eventDestroy) != 1 {
		t.Errorf("got %d collision and %d destroy events, want 1 and 1", countEvents(m, eventCollision), countEvents(m, eventDestroy))
	}
}

// TestTeammatesCollide: teammates colliding cost their team twice the
// per-player penalty (A.8, A.9).
func TestTeammatesCollide(t *testing.T) {
	players := []player{at(500, 500, 0), at(560, 500, 0), at(500, 800, 0), at(1300, 300, 0)}
	m, _ := newField(t, "TEAM", players, farTables[:2])
	step(t, m, "", "", "", "")
	want := []int{eventPoints[firstPlayerCollision] + 2*eventPoints[everyPlayerCollision], 0}
	if got := points(m); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got points %v, want %v", got, want)
	}
}

// TestCollisionOnTheSpot: players at the same point are knocked east by 50,
// the full knockback at distance 0 (A.8).
func TestCollisionOnTheSpot(t *testing.T) {
	m, _ := newField(t, "DUEL", []player{at(500, 500, 1), at(500, 500, 2)}, farTables[:2])
	step(t, m, "", "")
	for i := range m.players {
		checkLoc(t, fmt.Sprintf("seat %d", i), m.players[i].loc, vec{550, 500})
	}
}

// TestFoodHit: airborne food hits a player when it is no higher than the
// player and closer than 50 plus its radius after it moved; the hit is at
// (P·r + F·50)/(50+r), costs the type's damage and 600 points, knocks
// everyone back and destroys the food. A ducking player at 100 lets food at
// 150 pass (A.8).
func TestFoodHit(t *testing.T) {
	tests := []struct {
		name       string
		players    []player
		cmds       []string
		foodHeight float64 // before the turn's fall of 2
		wantHits   []bool
	}{
		{"standing", []player{at(600, 500, 0), farPlayer}, []string{"", ""}, 152, []bool{true, false}},
		{"ducking under", []player{withHeight(at(600, 500, 0), minHeight), farPlayer}, []string{"duck", ""}, 152, []bool{false, false}},
		{"ducking, level", []player{withHeight(at(600, 500, 0), minHeight), farPlayer}, []string{"duck", ""}, 102, []bool{true, false}},
		{"two at once", []player{at(550, 565, 0), at(550, 435, 0)}, []string{"", ""}, 152, []bool{true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// After its move the apple (radius 20) is at (550, 500).
			m, _ := newField(t, "DUEL", tt.players, farTables[:2], flying(apple, 530, 500, tt.foodHeight, 0))
			step(t, m, tt.cmds...)
			f := vec{550, 500}
			hits := 0
			for i, p := range tt.players {
				want := 100.0
				wantPoints := 0
				if tt.wantHits[i] {
					want = 100 - 20
					wantPoints = eventPoints[firstFoodCollision] + eventPoints[everyFoodCollision]
					at := vec{(p.loc.x*20 + f.x*50) / 70, (p.loc.y*20 + f.y*50) / 70}
					checkLoc(t, "collision", m.collisions[hits].loc, at)
					hits++
				}
				checkFloat(t, fmt.Sprintf("seat %d energy", i), m.players[i].energy, want)
				if got := m.teams[i].points(); got != wantPoints {
					t.Errorf("team %d: got %d points, want %d", i, got, wantPoints)
				}
			}
			if len(m.collisions) != hits {
				t.Fatalf("got %d collisions, want %d", len(m.collisions), hits)
			}
			if wantFood := map[bool]int{true: 0, false: 1}[hits > 0]; len(m.food) != wantFood {
				t.Errorf("got %d pieces on the field, want %d", len(m.food), wantFood)
			}
			// The knockback, for every player, from every hit.
			for i, p := range tt.players {
				var k vec
				for _, c := range m.collisions {
					v := p.loc.sub(c.loc)
					d := math.Hypot(v.x, v.y)
					k = k.add(vec{50 * math.Exp(-d/50) * v.x / d, 50 * math.Exp(-d/50) * v.y / d})
				}
				checkLoc(t, fmt.Sprintf("seat %d", i), m.players[i].loc, p.loc.add(k))
			}
		})
	}
}

// TestLandingBeforeHits: food over a table lands before collisions are
// found, so it hits nobody that turn, even a player within reach of it
// (A.7 step 4).
func TestLandingBeforeHits(t *testing.T) {
	// The apple moves to (510, 540), over the table's west edge at 500 and
	// 60 from the player, closer than the 70 of a hit.
	m, _ := newField(t, "DUEL", []player{at(450, 540, 0), farPlayer}, []vec{{600, 540}, farTables[0]}, flying(apple, 490, 540, 100, 0))
	step(t, m, "", "")
	if len(m.collisions) != 0 || m.teams[0].tableFood != 1<<apple {
		t.Errorf("got %d collisions, table holds %08b; want none and the apple", len(m.collisions), m.teams[0].tableFood)
	}
	checkFloat(t, "energy", m.players[0].energy, 100)
}

// TestThrowerEarnsNothing: a hit costs the victim's team, and nothing is
// gained by the thrower's, who can be hit by their own food (A.8).
func TestThrowerEarnsNothing(t *testing.T) {
	hit := eventPoints[firstFoodCollision] + eventPoints[everyFoodCollision]
	for _, tt := range []struct {
		name        string
		thrower     int
		wantPoints  []int
		wantGivenBy []int // the hits_given metric of each seat
	}{
		{"by the opponent", 1, []int{hit, 0}, []int{0, 1}},
		{"by oneself", 0, []int{hit, 0}, []int{0, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := flying(apple, 530, 500, 150, 0)
			f.thrower = tt.thrower
			m, _ := newField(t, "DUEL", []player{at(600, 500, 0), farPlayer}, farTables[:2], f)
			step(t, m, "", "")
			if got := points(m); fmt.Sprint(got) != fmt.Sprint(tt.wantPoints) {
				t.Errorf("got points %v, want %v", got, tt.wantPoints)
			}
			for i, want := range tt.wantGivenBy {
				if got := m.players[i].hitsGiven; got != want {
					t.Errorf("seat %d: got %d hits given, want %d", i, got, want)
				}
			}
		})
	}
}

// TestEat: eating adds the type's energy up to 100, costs no energy, frees
// the type and scores 50 once and 5 every time (A.6, A.9).
func TestEat(t *testing.T) {
	tests := []struct {
		name   string
		energy float64
		k      kind
		want   float64
	}{
		{"apple", 60, apple, 80},
		{"pie, capped", 90, pie, 100},
		{"raspberry, from nothing", 0, raspberry, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newField(t, "DUEL", []player{at(500, 500, 0), farPlayer}, farTables[:2])
			p := &m.players[0]
			p.energy = tt.energy
			p.hands = [2]kind{tt.k, broccoli}
			step(t, m, "eatLeft", "")
			checkFloat(t, "energy", p.energy, tt.want)
			if p.hands[0] != none {
				t.Errorf("left hand holds %v after eating", p.hands[0])
			}
			first := eventPoints[firstEat] + eventPoints[everyEat]
			if got := m.teams[0].points(); got != first {
				t.Errorf("got %d points, want %d", got, first)
			}
			step(t, m, "eatRight", "")
			if got := m.teams[0].points(); got != first+eventPoints[everyEat] {
				t.Errorf("after a second eat: got %d points, want %d", got, first+eventPoints[everyEat])
			}
		})
	}
}

// TestScoring plays one team's first move, pickup, throw and eat twice
// each: the first-time events count once, every eat counts each time (A.9).
func TestScoring(t *testing.T) {
	m, _ := newField(t, "DUEL", []player{at(500, 500, 0), farPlayer}, farTables[:2],
		ground(apple, 560, 540), ground(raspberry, 580, 530))
	m.players[0].hands[1] = banana
	turns := []struct {
		cmd  string
		want int
	}{
		{"moveForward", 1},
		{"moveForward", 1},
		{"pickupLeft", 1 + 5},
		{"eatLeft", 1 + 5 + 50 + 5},
		{"pickupLeft", 1 + 5 + 50 + 5},
		{"throwLeft", 1 + 5 + 50 + 5 + 10},
		{"throwRight", 1 + 5 + 50 + 5 + 10},
		{"moveBackward", 1 + 5 + 50 + 5 + 10},
	}
	for i, turn := range turns {
		step(t, m, turn.cmd, "")
		if !m.players[0].valid {
			t.Fatalf("turn %d: %s was refused: %v", i+1, turn.cmd, m.events)
		}
		if got := m.teams[0].points(); got != turn.want {
			t.Errorf("turn %d (%s): got %d points, want %d", i+1, turn.cmd, got, turn.want)
		}
	}
	step(t, m, "", "")
	m.players[0].hands[0] = sandwich
	step(t, m, "eatLeft", "")
	if got, want := m.teams[0].points(), 1+5+50+5+10+5; got != want {
		t.Errorf("after a second eat: got %d points, want %d", got, want)
	}
	want := Score{FirstMove: 1, FirstPickup: 1, FirstThrow: 1, FirstEat: 1, EveryEat: 2}
	if got := scoreOf(&m.teams[0].counts); got != want {
		t.Errorf("got counts %+v, want %+v", got, want)
	}
	if got := m.teams[1].points(); got != 0 {
		t.Errorf("the idle team: got %d points, want 0", got)
	}
}

// TestInvalidAction: an action the field does not allow, or text that is
// no action, is played as no action: no energy cost, no score event, the
// height back to 200, and an "invalid" event saying why (A.6).
func TestInvalidAction(t *testing.T) {
	table := vec{700, 540}
	tests := []struct {
		name   string
		player player
		cmd    string
		reason string
	}{
		{"unknown text", at(500, 300, 0), "jump", "unknown action"},
		{"wrong case", at(500, 300, 0), "MoveForward", "unknown action"},
		{"eat, empty hand", at(500, 300, 0), "eatLeft", "empty"},
		{"throw, empty hand", at(500, 300, 0), "throwRight", "empty"},
		{"pickup, nothing in reach", at(500, 300, 0), "pickupLeft", "no food in reach"},
		{"pickup, hand full", holding(at(500, 300, 0), 0, apple), "pickupLeft", "already holds"},
		{"forward into the west wall", at(50, 300, deg(135)), "moveForward", "west wall"},
		{"backward into the west wall", at(50, 300, deg(330)), "moveBackward", "west wall"},
		{"forward into the north wall", at(400, 1030, deg(60)), "moveForward", "north wall"},
		{"forward into a table", at(700, 390, deg(80)), "moveForward", "table"},
		{"backward into a table", at(850, 540, deg(10)), "moveBackward", "table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.player
			p.height, p.energy = 150, 50
			m, _ := newField(t, "DUEL", []player{p, farPlayer}, []vec{table, farTables[0]}, ground(pie, 200, 900))
			step(t, m, tt.cmd, "")
			got := &m.players[0]
			if got.valid || got.invalid != 1 {
				t.Errorf("valid %v, %d invalid; want false, 1", got.valid, got.invalid)
			}
			checkFloat(t, "energy", got.energy, 50)
			checkFloat(t, "height", got.height, playerHeight)
			checkLoc(t, "location", got.loc, p.loc)
			checkFloat(t, "heading", got.heading, p.heading)
			if pts := m.teams[0].points(); pts != 0 {
				t.Errorf("got %d points, want 0", pts)
			}
			var ev []sim.Event
			for _, e := range m.events {
				if e.Kind == sim.EventInvalid {
					ev = append(ev, e)
				}
			}
			if len(ev) != 1 || ev[0].Seat != 0 || !strings.Contains(ev[0].Detail, tt.reason) {
				t.Errorf("got invalid events %+v, want one for seat 0 saying %q", ev, tt.reason)
			}
		})
	}
}

// TestActionEffects: each action's effect on a player standing by a table
// at (700, 540): the energy cost of 0.02 for all but duck and eat, moves of
// (10±1)·exp(E/100-1) forward and (5±1)·exp(E/100-1) backward stopped by
// walls and table sides along the displacement, turns of 0.05±0.01 and
// ducks of 5±1 down to 100 (A.6).
func TestActionEffects(t *testing.T) {
	tests := []struct {
		name       string
		player     player
		energy     float64
		cmd        string
		wantLoc    vec
		wantHead   float64 // -1: unchanged
		wantHeight float64
		wantEnergy float64
	}{
		{"forward", at(500, 300, 0), 100, "moveForward", vec{510, 300}, -1, 200, 99.98},
		{"forward, tired", at(500, 300, 0), 50, "moveForward", vec{500 + 10*math.Exp(-0.5), 300}, -1, 200, 49.98},
		{"forward, exhausted", at(500, 300, 0), 0.01, "moveForward", vec{500 + 10*math.Exp(0.01/100-1), 300}, -1, 200, 0},
		{"backward", at(500, 300, 0), 100, "moveBackward", vec{495, 300}, -1, 200, 99.98},
		{"forward into the west wall", at(55, 300, math.Pi), 100, "moveForward", vec{50, 300}, -1, 200, 99.98},
		{"forward, slanted into the west wall", at(55, 300, deg(135)), 100, "moveForward", vec{50, 305}, -1, 200, 99.98},
		{"forward, slanted into the south wall", at(300, 55, deg(315)), 100, "moveForward", vec{305, 50}, -1, 200, 99.98},
		{"forward into the table's south side", at(700, 385, math.Pi/2), 100, "moveForward", vec{700, 390}, -1, 200, 99.98},
		{"forward, slanted into the table's south side", at(695, 385, deg(45)), 100, "moveForward", vec{700, 390}, -1, 200, 99.98},
		{"backward into the table's east side", at(852, 540, deg(10)), 100, "moveBackward", vec{850, 540 - 2*math.Tan(deg(10))}, -1, 200, 99.98},
		{"turn left", at(500, 300, 0), 100, "turnLeft", vec{500, 300}, 0.05, 200, 99.98},
		{"turn right", at(500, 300, 0), 100, "turnRight", vec{500, 300}, 2*math.Pi - 0.05, 200, 99.98},
		{"duck", at(500, 300, 0), 100, "duck", vec{500, 300}, -1, 195, 100},
		{"duck to the floor", withHeight(at(500, 300, 0), 103), 100, "duck", vec{500, 300}, -1, 100, 100},
		{"no action stands up", withHeight(at(500, 300, 0), 100), 60, "", vec{500, 300}, -1, 200, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.player
			p.energy = tt.energy
			m, _ := newField(t, "DUEL", []player{p, farPlayer}, []vec{{700, 540}, farTables[0]})
			step(t, m, tt.cmd, "")
			got := &m.players[0]
			if !got.valid {
				t.Fatalf("%s was refused: %v", tt.cmd, m.events)
			}
			checkLoc(t, "location", got.loc, tt.wantLoc)
			wantHead := tt.wantHead
			if wantHead < 0 {
				wantHead = p.heading
			}
			checkFloat(t, "heading", got.heading, wantHead)
			checkFloat(t, "height", got.height, tt.wantHeight)
			checkFloat(t, "energy", got.energy, tt.wantEnergy)
		})
	}
}

// TestRespawn: with fewer than 4 types in play (more than 4 free) a 0.01
// draw decides a respawn, of a free type drawn uniformly (in the food
// table's order), at a uniform spot redrawn while it is near a player or
// food or, in the original, inside either band of a table; the fixed
// config only avoids the table squares (A.10).
func TestRespawn(t *testing.T) {
	// Candidate spots: x = 20 + 1400·u, y = 20 + 1040·u for the chocolate.
	inBand := []float64{0.5, 0.05}   // (720, 72): below table A, in its x band
	clear := []float64{0.1, 0.3}     // (160, 332): outside every band
	onPlayer := []float64{0.7, 0.25} // (1000, 280): 20 from the player at (1000, 300)
	onFood := []float64{0.3, 0.2}    // (440, 228): 12 from the apple at (450, 240)
	join := func(us ...[]float64) []float64 {
		out := []float64{0.005} // the 0.01 draw: a respawn
		for _, u := range us {
			out = append(out, u...)
		}
		return out
	}
	tests := []struct {
		name   string
		fixed  bool
		floats []float64
		want   vec
	}{
		{"band quirk", false, join(inBand, clear), vec{160, 332}},
		{"fixed bands", true, join(inBand, clear), vec{720, 72}},
		{"near a player", true, join(onPlayer, clear), vec{160, 332}},
		{"on food", true, join(onFood, clear), vec{160, 332}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, src := newField(t, "DUEL", []player{holding(at(1000, 300, 0), 0, banana), at(300, 700, 0)}, []vec{{700, 540}, {1200, 900}},
				ground(apple, 450, 240))
			m.teams[1].tableFood = 1 << raspberry
			m.cfg.FixedSpawnBands = tt.fixed
			// Play order, then the type: the third free one of broccoli,
			// milk, chocolate, sandwich, pie.
			src.ints = []int{1, 2}
			src.floats = tt.floats
			step(t, m, "", "")
			if len(m.food) != 2 {
				t.Fatalf("got %d pieces on the field, want 2", len(m.food))
			}
			f := m.food[1]
			if f.kind != chocolate || f.height != 0 || f.heading != north {
				t.Errorf("got %v at height %g heading %g, want chocolate on the ground heading north", f.kind, f.height, f.heading)
			}
			checkLoc(t, "spawn", f.loc, tt.want)
		})
	}
}

// TestRespawnDraw: the 0.01 draw is made only when more than 4 types are
// free, and a draw of 0.01 or more spawns nothing (A.10).
func TestRespawnDraw(t *testing.T) {
	tests := []struct {
		name      string
		inPlay    int
		wantDraws int
	}{
		{"four in play", 4, 0},
		{"three in play", 3, 1},
		{"none in play", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Up to four types: one on the ground, one in a hand, two on a table.
			places := []func(m *match){
				func(m *match) { m.food = append(m.food, ground(apple, 450, 240)) },
				func(m *match) { m.players[0].hands[1] = banana },
				func(m *match) { m.teams[1].tableFood |= 1 << pie },
				func(m *match) { m.teams[1].tableFood |= 1 << milk },
			}
			m, src := newField(t, "DUEL", []player{at(1000, 300, 0), at(300, 700, 0)}, []vec{{700, 540}, {1200, 900}})
			for _, place := range places[:tt.inPlay] {
				place(m)
			}
			src.floats = []float64{0.01}
			step(t, m, "", "")
			if src.nFloat != tt.wantDraws {
				t.Errorf("got %d Float64 draws, want %d", src.nFloat, tt.wantDraws)
			}
			if countEvents(m, eventSpawn) != 0 {
				t.Error("a draw of 0.01 spawned food")
			}
		})
	}
}

// TestTieBreak: on turn 2000 teams are ordered by points, the larger sum of
// squared distances to the centre first among ties, and each team is
// raised to one above the team before it (A.11).
func TestTieBreak(t *testing.T) {
	// Distances to (720, 540): seat 0 at 100, seat 1 at 300, seat 2 at 200.
	players := []player{at(820, 540, 0), at(720, 840, 0), at(520, 540, 0)}
	tests := []struct {
		name   string
		points []int
		want   []int
	}{
		{"three equal", []int{10, 10, 10}, []int{12, 10, 11}},
		{"two equal below", []int{10, 10, 11}, []int{11, 10, 12}},
		{"two equal above", []int{10, 11, 11}, []int{10, 11, 12}},
		{"distinct", []int{3, 10, 7}, []int{3, 10, 7}},
		{"negative", []int{-600, -600, 0}, []int{-599, -600, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newField(t, "FREE_FOR_ALL", append([]player(nil), players...), farTables)
			for i, p := range tt.points {
				m.teams[i].counts[foodOnTable] = p // a point each, tables empty
			}
			m.turn = totalTurns - 2
			step(t, m, "", "", "")
			if got := points(m); fmt.Sprint(got) != fmt.Sprint(tt.points) {
				t.Fatalf("turn 1999 changed the points to %v", got)
			}
			step(t, m, "", "", "")
			if got := points(m); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if !m.Over() {
				t.Error("not over after turn 2000")
			}
			if err := m.Step([]string{"", "", ""}); !errors.Is(err, sim.ErrOver) {
				t.Errorf("Step after the end: got %v, want sim.ErrOver", err)
			}
		})
	}
}

// TestTieBreakShuffle: with equal points and distances the shuffled order
// decides, the first team in it keeping its points (A.11).
func TestTieBreakShuffle(t *testing.T) {
	for _, tt := range []struct {
		swap int // the shuffle's one draw: 0 swaps the two teams
		want []int
	}{{1, []int{5, 6}}, {0, []int{6, 5}}} {
		t.Run(fmt.Sprint(tt.want), func(t *testing.T) {
			m, src := newField(t, "DUEL", []player{at(620, 540, 0), at(820, 540, 0)}, farTables[:2])
			m.turn = totalTurns - 1
			m.teams[0].counts[foodOnTable], m.teams[1].counts[foodOnTable] = 5, 5
			src.ints = []int{1, tt.swap} // the play order, then the teams
			step(t, m, "", "")
			if got := points(m); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestResult: when the match is over the top team's seats win and the
// others lose, ranked by points; before the end nobody has an outcome.
// Seats 1-2 and 3-4 are the TEAM match's two teams.
func TestResult(t *testing.T) {
	players := []player{at(300, 300, 0), at(300, 800, 0), at(1100, 300, 0), at(1100, 800, 0)}
	m, _ := newField(t, "TEAM", players, farTables[:2])
	m.teams[0].counts[everyEat], m.teams[1].counts[everyEat] = 2, 4
	step(t, m, "", "", "", "")
	r := m.Result()
	for i, p := range r.Players {
		if p.Outcome != sim.Pending {
			t.Errorf("before the end, seat %d: got %q, want pending", i, p.Outcome)
		}
	}
	m.turn = totalTurns - 1
	step(t, m, "", "", "", "")
	r = m.Result()
	lose, win := sim.PlayerResult{Rank: 2, Score: 10, Outcome: sim.Loss, Team: 1}, sim.PlayerResult{Rank: 1, Score: 20, Outcome: sim.Win, Team: 2}
	want := []sim.PlayerResult{lose, lose, win, win}
	if fmt.Sprint(r.Players) != fmt.Sprint(want) || r.Winner != 2 {
		t.Errorf("got winner %d %v, want 2 %v", r.Winner, r.Players, want)
	}
	if r.Reason != "most points after 2000 turns" {
		t.Errorf("got reason %q", r.Reason)
	}
}

// TestEngineAngles: the arm and reach angles are the engine's double
// arithmetic, Math.PI / 6.0 and (Math.PI / 3.0) / 2, not the exact π/6.
func TestEngineAngles(t *testing.T) {
	pi := math.Pi // a variable, so the divisions below round as Java's do
	if want := pi / 6; armAngle != want {
		t.Errorf("got arm angle %v, want %v", armAngle, want)
	}
	if want := pi / 3 / 2; reachHalf != want {
		t.Errorf("got reach half-angle %v, want %v", reachHalf, want)
	}
}
