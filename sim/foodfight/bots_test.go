package foodfight

import (
	"encoding/json"
	"fmt"
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
// process gets it, plays the same actions through a whole match as its twin
// given the views themselves.
func TestBotsReadJSONViews(t *testing.T) {
	for _, name := range botNames() {
		t.Run(name, func(t *testing.T) {
			const seed = 7
			twin := newBot(t, name, sim.Setup{Seed: seed, Players: 3}, 0, seed*10)
			differ, acted := 0, 0
			botMatch(t, seed, []string{name, "walls", "thrower"}, func(m *match, cmds []string) {
				got := cmds[0]
				raw, err := json.Marshal(m.View(0))
				if err != nil {
					t.Fatal(err)
				}
				if want := twin.Act(json.RawMessage(raw)); got != want {
					differ++
					if differ == 1 {
						t.Errorf("turn %d: %q from the view, %q from its JSON", m.turn+1, got, want)
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
