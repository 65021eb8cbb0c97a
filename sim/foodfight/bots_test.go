package foodfight

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// botMatch plays a whole match of built-in bots, one per seat, seat i's
// bot seeded with seed*10+i, calling before (when not nil) with the state
// and the commands of each turn before the turn is played.
func botMatch(t testing.TB, seed uint64, names []string, before func(m *match, cmds []string)) *match {
	t.Helper()
	setup := sim.Setup{Seed: seed, Players: len(names)}
	mm, err := Game.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*match)
	bots := make([]sim.Bot, len(names))
	for i, name := range names {
		bots[i] = newBot(t, name, setup, i, seed*10+uint64(i))
	}
	cmds := make([]string, len(names))
	for !m.Over() {
		for i, b := range bots {
			cmds[i] = b.Act(m.View(i))
		}
		if before != nil {
			before(m, cmds)
		}
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// newBot builds the built-in bot called name.
func newBot(t testing.TB, name string, setup sim.Setup, seat int, seed uint64) sim.Bot {
	t.Helper()
	def, ok := Game.Bot(name)
	if !ok {
		t.Fatalf("no bot %q", name)
	}
	b, err := def.New(setup, seat, seed)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func botNames() []string {
	names := make([]string, len(Game.Bots))
	for i, b := range Game.Bots {
		names[i] = b.Name
	}
	return names
}

// TestBotsReadJSONViews: a bot given each view's JSON, as an external
// process gets it, or the view Peek lends, as a recorder gives built-in
// bots, plays the same actions through a whole match as its twin given the
// views themselves; a lent view encodes as the view.
func TestBotsReadJSONViews(t *testing.T) {
	for _, tc := range []struct {
		name string
		view func(t *testing.T, m *match) any
	}{
		{"json", func(t *testing.T, m *match) any {
			raw, err := json.Marshal(m.View(0))
			if err != nil {
				t.Fatal(err)
			}
			return json.RawMessage(raw)
		}},
		{"lent", func(t *testing.T, m *match) any {
			got, err := json.Marshal(m.Peek(0))
			if err != nil {
				t.Fatal(err)
			}
			if want, _ := json.Marshal(m.View(0)); string(got) != string(want) {
				t.Fatalf("turn %d: got lent view %s, want %s", m.turn+1, got, want)
			}
			return m.Peek(0)
		}},
	} {
		for _, name := range botNames() {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				const seed = 7
				twin := newBot(t, name, sim.Setup{Seed: seed, Players: 3}, 0, seed*10)
				differ, acted := 0, 0
				botMatch(t, seed, []string{name, "walls", "thrower"}, func(m *match, cmds []string) {
					got := cmds[0]
					if want := twin.Act(tc.view(t, m)); got != want {
						differ++
						if differ == 1 {
							t.Errorf("turn %d: %q from the view, %q from the %s view", m.turn+1, got, want, tc.name)
						}
					}
					if got != "" {
						acted++
					}
				})
				if differ > 0 {
					t.Errorf("%d turns differ", differ)
				}
				if name != "dummy" && acted == 0 {
					t.Errorf("the bot never acted")
				}
			})
		}
	}
}

// botTally sums one bot's results over the matches it played.
type botTally struct {
	matches                    int
	score, table, given, taken float64
}

func (b *botTally) add(m *match, seat int) {
	p := &m.players[seat]
	t := &m.teams[p.team]
	b.matches++
	b.score += float64(t.points())
	b.table += float64(t.counts[foodOnTable])
	b.given += float64(p.hitsGiven)
	b.taken += float64(p.foodHits)
}

func (b *botTally) mean() float64 { return b.score / float64(b.matches) }

func (b *botTally) row(name string) string {
	n := float64(b.matches)
	return fmt.Sprintf("%-8s %7d %10.1f %11.1f %10.2f %10.2f", name, b.matches, b.score/n, b.table/n, b.given/n, b.taken/n)
}

// samples are the bots written after the original's sample players.
var samples = []string{"dummy", "random", "hider", "walls"}

// TestThrowerBeatsSamples: over 50 seeds the thrower's mean team score is
// higher than every sample bot's, in FREE_FOR_ALL matches against two
// samples (every pair in turn, the thrower's seat rotating) and in DUELs
// against each sample.
func TestThrowerBeatsSamples(t *testing.T) {
	seeds := 50
	if testing.Short() {
		seeds = 8
	}
	var pairs [][2]string
	for i, a := range samples {
		for _, b := range samples[i:] {
			pairs = append(pairs, [2]string{a, b})
		}
	}
	ffa := map[string]*botTally{}
	duel := map[string]*[2]botTally{} // per sample: the thrower's, the sample's
	tally := func(set map[string]*botTally, name string) *botTally {
		if set[name] == nil {
			set[name] = &botTally{}
		}
		return set[name]
	}
	for k := range seeds {
		seed := uint64(1000 + k)
		pair := pairs[k%len(pairs)]
		names := []string{pair[0], pair[1]}
		seat := k % 3
		names = slices.Insert(names, seat, "thrower")
		m := botMatch(t, seed, names, nil)
		for i, name := range names {
			tally(ffa, name).add(m, i)
		}
		for _, s := range samples {
			names := []string{"thrower", s}
			if k%2 == 1 {
				names[0], names[1] = s, "thrower"
			}
			m := botMatch(t, seed, names, nil)
			if duel[s] == nil {
				duel[s] = &[2]botTally{}
			}
			for i, name := range names {
				if name == "thrower" {
					duel[s][0].add(m, i)
				} else {
					duel[s][1].add(m, i)
				}
			}
		}
	}
	var b strings.Builder
	const head = "bot      matches mean score mean table  hits given hits taken\n"
	fmt.Fprintf(&b, "FREE_FOR_ALL, %d seeds\n%s", seeds, head)
	for _, name := range append([]string{"thrower"}, samples...) {
		fmt.Fprintln(&b, tally(ffa, name).row(name))
	}
	for _, s := range samples {
		fmt.Fprintf(&b, "DUEL thrower vs %s, %d seeds\n%s%s\n%s\n", s, seeds, head, duel[s][0].row("thrower"), duel[s][1].row(s))
	}
	t.Log("\n" + b.String())
	for _, s := range samples {
		if got, other := ffa["thrower"].mean(), ffa[s].mean(); got <= other {
			t.Errorf("FREE_FOR_ALL: thrower's mean score %.1f, %s's %.1f; want the thrower's higher", got, s, other)
		}
		if got, other := duel[s][0].mean(), duel[s][1].mean(); got <= other {
			t.Errorf("DUEL vs %s: thrower's mean score %.1f, %s's %.1f; want the thrower's higher", s, got, s, other)
		}
	}
}

// TestBotsInvalidActions plays a few matches and reports how often each bot
// asks for an action the engine refuses. The samples, like the original's,
// ask only for actions valid on the field they were shown, and the
// thrower does the same, so the only refusals are pickups of food that a
// player earlier in the turn's order took first; the hider never picks up.
func TestBotsInvalidActions(t *testing.T) {
	lineups := [][]string{
		{"thrower", "walls", "random"},
		{"hider", "thrower", "walls"},
		{"random", "thrower"},
		{"walls", "walls", "thrower", "thrower"},
	}
	type count struct{ turns, invalid, pickups int }
	counts := map[string]*count{}
	for k, names := range lineups {
		note := func(m *match) {
			for i := range m.players {
				p := &m.players[i]
				c := counts[names[i]]
				c.turns++
				if p.valid {
					continue
				}
				c.invalid++
				if p.action.picksUp() {
					c.pickups++
				} else {
					t.Errorf("%s in seat %d of %v, turn %d: %s refused", names[i], i, names, m.turn, p.action)
				}
			}
		}
		for _, n := range names {
			if counts[n] == nil {
				counts[n] = &count{}
			}
		}
		m := botMatch(t, uint64(500+k), names, func(m *match, _ []string) {
			if m.turn > 0 {
				note(m)
			}
		})
		note(m)
	}
	for _, name := range []string{"random", "hider", "walls", "thrower"} {
		c := counts[name]
		t.Logf("%-8s %6d turns, %d invalid (%.3f%%), all of them pickups: %v", name, c.turns, c.invalid, 100*float64(c.invalid)/float64(c.turns), c.invalid == c.pickups)
	}
	if c := counts["hider"]; c.invalid != 0 {
		t.Errorf("hider: %d invalid actions, want 0", c.invalid)
	}
}

// TestBotsSurviveBadViews: every bot answers a view it cannot read with no
// action, and any view, however strange its numbers, with no action or an
// action name, without panicking.
func TestBotsSurviveBadViews(t *testing.T) {
	good := func() *View {
		return &View{Team: "A", Player: "1", Field: FieldView{TurnNumber: 5, Type: "DUEL", Teams: []TeamView{
			{Symbol: "A", Players: []PlayerView{{Symbol: "1", Location: [2]float64{500, 500}, Height: 200, Energy: 100, Inventory: Inventory{Left: "pie"}}}, Table: TableView{Location: [2]float64{500, 150}, Food: []string{"apple"}}},
			{Symbol: "B", Players: []PlayerView{{Symbol: "2", Location: [2]float64{600, 520}, Height: 200, Energy: 100}}, Table: TableView{Location: [2]float64{1200, 900}}},
		}, Food: []FoodView{{Type: "milk", Location: [2]float64{560, 540}}, {Type: "banana", Location: [2]float64{900, 500}, Height: 150, Heading: math.Pi}}}}
	}
	edit := func(f func(v *View)) *View { v := good(); f(v); return v }
	unreadable := []struct {
		name string
		view any
	}{
		{"nil", nil},
		{"number", 42},
		{"text", "moveForward"},
		{"broken JSON", json.RawMessage(`{"team":`)},
		{"wrong types", json.RawMessage(`{"team":1,"field":{"teams":"A"}}`)},
		{"no own player", edit(func(v *View) { v.Player = "9" })},
		{"unknown food", edit(func(v *View) { v.Field.Food[0].Type = "cake" })},
		{"unknown held food", edit(func(v *View) { v.Field.Teams[0].Players[0].Inventory.Right = "cake" })},
		{"unknown table food", edit(func(v *View) { v.Field.Teams[1].Table.Food = []string{"cake"} })},
		{"long symbol", edit(func(v *View) { v.Field.Teams[0].Symbol, v.Team = "AB", "AB" })},
		{"too many teams", edit(func(v *View) {
			for range 4 {
				v.Field.Teams = append(v.Field.Teams, TeamView{Symbol: "C"})
			}
		})},
		{"too much food", edit(func(v *View) {
			for range numKinds {
				v.Field.Food = append(v.Field.Food, FoodView{Type: "pie"})
			}
		})},
	}
	strange := []struct {
		name string
		view any
	}{
		{"the view", good()},
		{"its JSON", func() json.RawMessage { b, _ := json.Marshal(good()); return b }()},
		{"NaN", edit(func(v *View) {
			p := &v.Field.Teams[0].Players[0]
			p.Location[0], p.Heading, p.Energy = math.NaN(), math.NaN(), math.NaN()
			v.Field.Food[1].Height = math.NaN()
		})},
		{"infinities", edit(func(v *View) {
			p := &v.Field.Teams[1].Players[0]
			p.Location, p.Heading = [2]float64{math.Inf(1), math.Inf(-1)}, math.Inf(1)
			v.Field.Teams[0].Table.Location[0] = math.Inf(-1)
		})},
		{"huge numbers", edit(func(v *View) {
			v.Field.TurnNumber = math.MaxInt
			v.Field.Teams[0].Players[0].Location = [2]float64{1e308, -1e308}
			v.Field.Food[1].Heading = 1e300
		})},
		{"everyone on one spot", edit(func(v *View) {
			v.Field.Teams[1].Players[0].Location = v.Field.Teams[0].Players[0].Location
			v.Field.Food[0].Location = v.Field.Teams[0].Players[0].Location
			v.Field.Teams[1].Table.Location = v.Field.Teams[0].Table.Location
		})},
		{"no opponents", edit(func(v *View) { v.Field.Teams = v.Field.Teams[:1] })},
	}
	for _, name := range botNames() {
		for _, c := range unreadable {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				if got := newBot(t, name, sim.Setup{Players: 2}, 0, 1).Act(c.view); got != "" {
					t.Errorf("got %q, want no action", got)
				}
			})
		}
		for _, c := range strange {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				b := newBot(t, name, sim.Setup{Players: 2}, 0, 1)
				for range 3 { // a second and third turn use what the bot remembers
					if got := b.Act(c.view); got != "" && !slices.Contains(actionNames[:], got) {
						t.Errorf("got %q, want an action name or none", got)
					}
				}
			})
		}
	}
}

// TestThrowerChooses sets up small fields by hand, each with the one action
// the thrower should pick. The bot stands at (500, 500), its table is due
// south at (500, 150), and an opponent stands far away unless a case moves
// it.
func TestThrowerChooses(t *testing.T) {
	// tableArm is the heading that points the left arm at the table.
	tableArm := fixAngle(-math.Pi/2 - armAngle)
	me := vec{500, 500}
	at := func(r, a float64) [2]float64 { return xy(me.add(polar(r, a))) }
	cases := []struct {
		name string
		edit func(p *PlayerView, v *FieldView)
		want string
	}{
		{"throws onto its table", func(p *PlayerView, v *FieldView) {
			p.Heading, p.Inventory.Left = tableArm, "apple"
		}, "throwLeft"},
		{"turns its arm toward its table", func(p *PlayerView, v *FieldView) {
			p.Heading, p.Inventory.Left = tableArm+0.8, "apple"
		}, "turnRight"},
		{"throws at an opponent close by", func(p *PlayerView, v *FieldView) {
			p.Heading, p.Inventory.Left = 0, "apple"
			v.Teams[1].Players[0].Location = at(250, armAngle)
		}, "throwLeft"},
		{"keeps food from an opponent far off, for its table", func(p *PlayerView, v *FieldView) {
			p.Heading, p.Inventory.Left = tableArm, "apple"
			v.Teams[1].Players[0].Location = at(700, tableArm-armAngle+math.Pi)
		}, "throwLeft"},
		{"picks up food by its left arm", func(p *PlayerView, v *FieldView) {
			v.Food = []FoodView{{Type: "milk", Location: at(80, armAngle)}}
		}, "pickupLeft"},
		{"picks up food by its right arm", func(p *PlayerView, v *FieldView) {
			v.Food = []FoodView{{Type: "milk", Location: at(80, -armAngle)}}
		}, "pickupRight"},
		{"does not take food from its own table", func(p *PlayerView, v *FieldView) {
			p.Location, p.Heading = [2]float64{500, 300}, north
			v.Teams[0].Table = TableView{Location: [2]float64{500, 450}, Food: []string{"pie"}}
		}, "duck"},
		{"takes food from an opponent's table", func(p *PlayerView, v *FieldView) {
			p.Location, p.Heading = [2]float64{500, 300}, north
			v.Teams[1].Table = TableView{Location: [2]float64{500, 450}, Food: []string{"pie"}}
		}, "pickupLeft"},
		{"walks to food ahead", func(p *PlayerView, v *FieldView) {
			v.Food = []FoodView{{Type: "milk", Location: [2]float64{900, 500}}}
		}, "moveForward"},
		{"walks round a player in its way", func(p *PlayerView, v *FieldView) {
			v.Food = []FoodView{{Type: "milk", Location: [2]float64{900, 500}}}
			v.Teams[1].Players[0].Location = [2]float64{605, 500}
		}, "turnLeft"},
		{"eats when its energy is low", func(p *PlayerView, v *FieldView) {
			p.Energy, p.Inventory.Right = 10, "apple"
		}, "eatRight"},
		{"eats for the first eat's points at the end", func(p *PlayerView, v *FieldView) {
			p.Heading, p.Inventory.Left = tableArm, "apple"
			v.TurnNumber = totalTurns - 30
		}, "eatLeft"},
		{"stocks its table rather than eat again at the end", func(p *PlayerView, v *FieldView) {
			p.Heading, p.Inventory.Left = tableArm, "apple"
			v.TurnNumber = totalTurns - 30
			v.Teams[0].Score.FirstEat = 1
		}, "throwLeft"},
		{"steps out of the way of food", func(p *PlayerView, v *FieldView) {
			p.Heading = north
			v.Food = []FoodView{{Type: "apple", Location: at(140, 0), Height: 150, Heading: west}}
		}, "moveForward"},
		{"ducks under food that will pass over", func(p *PlayerView, v *FieldView) {
			p.Heading, p.Height = north, minHeight
			v.Food = []FoodView{{Type: "apple", Location: at(400, 0), Height: 160, Heading: west}}
		}, "duck"},
		{"ignores food flying away", func(p *PlayerView, v *FieldView) {
			p.Heading = east
			v.Food = []FoodView{{Type: "apple", Location: at(140, 0), Height: 150, Heading: east}, {Type: "milk", Location: [2]float64{900, 500}}}
		}, "moveForward"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := &View{Team: "A", Player: "1", Field: FieldView{TurnNumber: 100, Type: "DUEL", Teams: []TeamView{
				{Symbol: "A", Players: []PlayerView{{Symbol: "1", Location: xy(me), Height: playerHeight, Energy: maxEnergy}}, Table: TableView{Location: [2]float64{500, 150}}},
				{Symbol: "B", Players: []PlayerView{{Symbol: "2", Location: [2]float64{1300, 950}, Height: playerHeight, Energy: maxEnergy}}, Table: TableView{Location: [2]float64{1250, 200}}},
			}}}
			c.edit(&v.Field.Teams[0].Players[0], &v.Field)
			if got := newBot(t, "thrower", sim.Setup{Players: 2}, 0, 1).Act(v); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
