package careerfair

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// botMatch plays a whole awap2019 match on the board of cfg of built-in
// bots, seat i's bot seeded with seed*10+i, calling before (when not nil)
// with the state and the commands of each step before it is played.
func botMatch(t testing.TB, seed uint64, cfg string, names [2]string, before func(m *match, cmds []string)) *match {
	t.Helper()
	m := newCustom(t, rulesetAWAP, 2, seed, cfg)
	setup := sim.Setup{Ruleset: rulesetAWAP, Seed: seed, Players: 2}
	var bots [2]sim.Bot
	for i, name := range names {
		bots[i] = newBot(t, name, setup, i, seed*10+uint64(i))
	}
	cmds := make([]string, 2)
	for !m.Over() {
		for i, b := range bots {
			cmds[i] = b.Act(m.View(i))
		}
		if before != nil {
			before(m, cmds)
		}
		step(t, m, cmds...)
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

// TestBotsReadJSONViews: a bot given each view's JSON, as an external
// process gets it, plays the same commands through a whole match as its
// twin given the views themselves.
func TestBotsReadJSONViews(t *testing.T) {
	for _, def := range Game.Bots {
		t.Run(def.Name, func(t *testing.T) {
			const seed = 3
			twin := newBot(t, def.Name, sim.Setup{Ruleset: rulesetAWAP, Seed: seed, Players: 2}, 0, seed*10)
			differ, acted := 0, 0
			botMatch(t, seed, "", [2]string{def.Name, "greedy"}, func(m *match, cmds []string) {
				raw, err := json.Marshal(m.View(0))
				if err != nil {
					t.Fatal(err)
				}
				if want := twin.Act(json.RawMessage(raw)); cmds[0] != want {
					differ++
					if differ == 1 {
						t.Errorf("step %d: %q from the view, %q from its JSON", m.turn+1, cmds[0], want)
					}
				}
				if strings.Trim(cmds[0], "NOE,") != "" {
					acted++
				}
			})
			if differ > 0 {
				t.Errorf("%d steps differ", differ)
			}
			if def.Name != "idle" && acted == 0 {
				t.Errorf("the bot never acted")
			}
		})
	}
}

// TestBotsTrackRewards: the rewards a bot believes its team has left, kept
// from its views' score and states alone, are the engine's after every
// step of two matches on every board (but for services worth 0 points).
func TestBotsTrackRewards(t *testing.T) {
	for _, name := range []string{"greedy", "replace"} {
		for _, board := range boardNames {
			for seed := uint64(4); seed <= 5; seed++ {
				t.Run(fmt.Sprintf("%s/%s/%d", name, board, seed), func(t *testing.T) {
					checkRewards(t, name, seed, `{"board":"`+board+`"}`)
				})
			}
		}
	}
}

// checkRewards plays bot name against greedy and compares, before every
// step, the rewards a twin of the bot believes its team has left with the
// engine's.
func checkRewards(t *testing.T, name string, seed uint64, cfg string) {
	t.Helper()
	setup := sim.Setup{Ruleset: rulesetAWAP, Seed: seed, Players: 2}
	twin := newBot(t, name, setup, 0, seed*10)
	f := &twin.(*lineBot).f
	m := botMatch(t, seed, cfg, [2]string{name, "greedy"}, func(m *match, _ []string) {
		twin.Act(m.View(0))
		for k, c := range m.companies {
			j, ok := slices.BinarySearch(f.names, c.name)
			if !ok {
				t.Fatalf("the bot knows no line of %s", c.name)
			}
			// A helper's service worth 0 points (minor 0, major 1) leaves
			// no trace the bot could see.
			if got, want := f.rewards[j], m.teams[0].rewards[k]; got != want && (got != [2]int{1, 0} || want != [2]int{}) {
				t.Fatalf("step %d: %s's rewards left %v, want %v", m.turn, c.name, got, want)
			}
		}
	})
	if m.teams[0].main+m.teams[0].helper == 0 {
		t.Errorf("no services in the match: nothing was tracked")
	}
}

// botTally sums one bot's results over the matches it played.
type botTally struct {
	matches              int
	score, main, helpers float64
}

func (b *botTally) add(m *match, seat int) {
	t := &m.teams[seat]
	b.matches++
	b.score += float64(t.score)
	b.main += float64(t.main)
	b.helpers += float64(t.helper)
}

func (b *botTally) mean() float64 { return b.score / float64(b.matches) }

func (b *botTally) row(name string) string {
	n := float64(b.matches)
	return fmt.Sprintf("%-8s %7d %10.1f %13.2f %15.2f", name, b.matches, b.score/n, b.main/n, b.helpers/n)
}

// TestBotsRanking: over 50 seeds on gates6, the seats alternating, the
// replace bot's mean score is higher than greedy's when they play each
// other, and greedy's higher than idle's.
func TestBotsRanking(t *testing.T) {
	seeds := 50
	if testing.Short() {
		seeds = 10
	}
	pairs := [][2]string{{"replace", "greedy"}, {"greedy", "idle"}}
	tallies := make([][2]botTally, len(pairs))
	for k := range seeds {
		seed := uint64(100 + k)
		for p, pair := range pairs {
			names, first := pair, 0
			if k%2 == 1 {
				names, first = [2]string{pair[1], pair[0]}, 1
			}
			m := botMatch(t, seed, "", names, nil)
			tallies[p][0].add(m, first)
			tallies[p][1].add(m, 1-first)
		}
	}
	var b strings.Builder
	for p, pair := range pairs {
		fmt.Fprintf(&b, "%s vs %s, gates6, %d seeds\nbot      matches mean score mean main svc mean helper svc\n%s\n%s\n",
			pair[0], pair[1], seeds, tallies[p][0].row(pair[0]), tallies[p][1].row(pair[1]))
	}
	t.Log("\n" + b.String())
	for p, pair := range pairs {
		if got, other := tallies[p][0].mean(), tallies[p][1].mean(); got <= other {
			t.Errorf("%s vs %s: mean scores %.1f and %.1f; want %s's higher", pair[0], pair[1], got, other, pair[0])
		}
	}
}

// TestBotsOddViews: a view that does not decode, or that no match could
// show, gets "" from every bot, and none panics on a view changed in
// ways a careless controller might.
func TestBotsOddViews(t *testing.T) {
	m := newCustom(t, rulesetAWAP, 2, 1, "")
	idleThrough(t, m)
	good := m.View(0).(*View)
	for _, tc := range []struct {
		name string
		view any
	}{
		{"nil", nil},
		{"junk", json.RawMessage(`"junk"`)},
		{"array", json.RawMessage(`[1,2,3]`)},
		{"empty", &View{}},
		{"no states", func() *View { v := *good; v.States = nil; return &v }()},
		{"short row", func() *View {
			v := *good
			v.Board = slices.Clone(v.Board)
			v.Board[3] = v.Board[3][:2]
			return &v
		}()},
		{"bot off the board", func() *View {
			v := *good
			v.States = slices.Clone(v.States)
			v.States[2].X = v.Rows
			return &v
		}()},
		{"huge sides", func() *View { v := *good; v.Rows, v.Cols = 1<<40, 1<<40; return &v }()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, def := range Game.Bots {
				b := newBot(t, def.Name, sim.Setup{Ruleset: rulesetAWAP, Seed: 1, Players: 2}, 0, 1)
				if got := b.Act(tc.view); got != "" {
					t.Errorf("%s: got %q, want \"\"", def.Name, got)
				}
			}
		})
	}
}

// FuzzBotViews hands every bot real views of a match on the sample board
// with one field of one tile, bot state or the score changed to an
// arbitrary value: no panic (nor in a drawing), and each command is "" or
// four actions.
func FuzzBotViews(f *testing.F) {
	f.Add(uint16(0), uint8(0), -7)
	f.Add(uint16(9), uint8(3), -99)
	f.Add(uint16(20), uint8(6), math.MinInt)
	f.Add(uint16(2), uint8(7), 1<<40)
	f.Fuzz(func(t *testing.T, at uint16, field uint8, value int) {
		m := newCustom(t, rulesetAWAP, 2, 1, `{"board":"sample"}`)
		idleThrough(t, m)
		var bots []sim.Bot
		for _, def := range Game.Bots {
			bots = append(bots, newBot(t, def.Name, sim.Setup{Ruleset: rulesetAWAP, Seed: 1, Players: 2}, 0, 1))
		}
		for range 3 {
			v := m.View(0).(*View)
			tv := &v.Board[int(at)/v.Cols%v.Rows][int(at)%v.Cols]
			st := &v.States[int(at)%teamSize]
			for i, p := range []*int{&tv.NumBots, &tv.InLine, &tv.Threshold, &st.X, &st.Y, &st.LinePos, &st.Progress, &v.Score, &v.Step} {
				if int(field)%9 == i {
					*p = value
				}
			}
			for _, b := range bots {
				if got := b.Act(v); got != "" && strings.Count(got, ",") != teamSize-1 {
					t.Fatalf("command %q", got)
				}
				if d, ok := b.(sim.Drawer); ok {
					d.Drawing() // no panic on any view; ParseDebug bounds the shapes
				}
			}
			step(t, m, "", "")
		}
	})
}

// TestReplaceBotSwaps: on every board each swap of the replace bot is
// followed by the main bot's service within the wait of the places it
// swaps into, and on gates6 it swaps. (On gates4 its 53 short lines pay
// the main bot more when it queues itself.)
func TestReplaceBotSwaps(t *testing.T) {
	for _, board := range boardNames {
		t.Run(board, func(t *testing.T) {
			swapped := -1 // the step of a swap not yet followed by a service
			swaps := 0
			m := botMatch(t, 5, `{"board":"`+board+`"}`, [2]string{"replace", "idle"}, func(m *match, _ []string) {
				for _, e := range m.Events() {
					switch {
					case e.Seat != 0:
					case e.Kind == eventReplace:
						swaps++
						swapped = m.turn
					case e.Kind == eventService && e.Unit == 0:
						swapped = -1
					}
				}
				if swapped >= 0 && m.turn-swapped > stepsPerService*(swapWithin+1) {
					t.Fatalf("step %d: no service of the main bot since its swap at step %d", m.turn, swapped)
				}
			})
			if swaps == 0 && board == "gates6" {
				t.Errorf("no swaps in %d steps", m.turn)
			}
			t.Logf("%d swaps, %d main and %d helper services, score %d", swaps, m.teams[0].main, m.teams[0].helper, m.teams[0].score)
		})
	}
}
