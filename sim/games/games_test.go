package games_test

import (
	"math"
	"slices"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

// TestRevisions checks every game's rules revisions: each names one of the
// game's rulesets and counts from 1, as replay headers do.
func TestRevisions(t *testing.T) {
	for _, g := range games.All() {
		for rs, rev := range g.Revisions {
			if !slices.Contains(g.Rulesets, rs) {
				t.Errorf("%s: revision of unknown ruleset %q", g.Name, rs)
			}
			if rev < 1 {
				t.Errorf("%s/%s: revision %d, want at least 1", g.Name, rs, rev)
			}
		}
	}
}

// TestResolutions checks every game's metric resolutions, which storage
// rounds to: none for an Integer metric, and for the others none or a
// power of ten from 1 down to 1e-9, so a rounded value is a decimal of a
// few digits that storage keeps in whole steps.
func TestResolutions(t *testing.T) {
	for _, g := range games.All() {
		for _, md := range g.Metrics {
			r := md.Resolution
			if r == 0 {
				continue
			}
			if md.Integer {
				t.Errorf("%s: metric %s is Integer and has resolution %g, want 0", g.Name, md.Name, r)
			}
			if d := -math.Log10(r); r != math.Pow(10, -math.Round(d)) || d < -0.5 || d > 9.5 {
				t.Errorf("%s: metric %s has resolution %g, want 1, 0.1, 0.01, ... down to 1e-9", g.Name, md.Name, r)
			}
		}
	}
}

// maxShortLabel is the longest short label of a metric, in characters: a
// table of FoodFight's 19 metrics must fit 1280 pixels.
const maxShortLabel = 10

// TestMetricLabels checks what a match page and the inspector's table need
// of every game's metrics: a few key ones to draw first, short labels that
// fit a narrow column, and yes-or-no flags only on whole numbers.
func TestMetricLabels(t *testing.T) {
	for _, g := range games.All() {
		keys := 0
		for _, md := range g.Metrics {
			if md.Key {
				keys++
			}
			if n := len([]rune(md.ShortLabel())); n > maxShortLabel {
				t.Errorf("%s: metric %s has short label %q of %d characters, want at most %d", g.Name, md.Name, md.ShortLabel(), n, maxShortLabel)
			}
			if md.Flag && !md.Integer {
				t.Errorf("%s: metric %s is a Flag but not Integer", g.Name, md.Name)
			}
		}
		if keys == 0 || keys > 3 {
			t.Errorf("%s: %d key metrics, want 1 to 3", g.Name, keys)
		}
	}
}

// TestViewDocs checks that every game explains its bot view, which each
// game's own TestViewDoc holds to real views: a new game cannot leave bot
// authors without it.
func TestViewDocs(t *testing.T) {
	for _, g := range games.All() {
		if len(g.View.Fields) == 0 {
			t.Errorf("%s: no view fields documented (sim.Game.View; see internal/viewdoc)", g.Name)
		}
	}
}

// TestAlternatives checks every game's list of a seat's alternatives at a
// few positions of a match of built-in bots: not empty, without
// duplicates, the same when asked twice, and each accepted by the game
// (no invalid-command event for the seat when it is played).
func TestAlternatives(t *testing.T) {
	for _, g := range games.All() {
		for _, rs := range g.Rulesets {
			t.Run(g.Name+"/"+rs, func(t *testing.T) {
				setup := sim.Setup{Ruleset: rs, Seed: 1, Players: g.DefaultPlayers}
				if rs == "awap2019" {
					setup.Players = 2
				}
				start := func() sim.Match {
					m, err := g.New(setup)
					if err != nil {
						t.Fatal(err)
					}
					return m
				}
				m := start()
				if _, ok := m.(sim.Alternator); !ok {
					t.Fatalf("the match does not list alternatives (sim.Alternator)")
				}
				bots := make([]sim.Bot, setup.Players)
				for s := range bots {
					b, err := g.Bots[0].New(setup, s, uint64(s))
					if err != nil {
						t.Fatal(err)
					}
					bots[s] = b
				}
				var played [][]string
				for _, at := range []int{0, 5, 20} {
					for len(played) < at && !m.Over() {
						cmds := make([]string, setup.Players)
						for s, b := range bots {
							cmds[s] = b.Act(m.View(s))
						}
						if err := m.Step(cmds); err != nil {
							t.Fatal(err)
						}
						played = append(played, cmds)
					}
					if m.Over() {
						break
					}
					for s := range setup.Players {
						checkAlternatives(t, start, played, m.(sim.Alternator), s)
					}
				}
			})
		}
	}
}

// checkAlternatives checks seat's alternatives after the turns played,
// playing each in a match that start begins and played brings there.
func checkAlternatives(t *testing.T, start func() sim.Match, played [][]string, m sim.Alternator, seat int) {
	t.Helper()
	alts := m.Alternatives(seat)
	if len(alts) == 0 {
		t.Fatalf("turn %d, seat %d: no alternatives", len(played)+1, seat)
	}
	if again := m.Alternatives(seat); !slices.Equal(alts, again) {
		t.Errorf("turn %d, seat %d: got %q, then %q", len(played)+1, seat, alts, again)
	}
	for i, a := range alts {
		if slices.Contains(alts[:i], a) {
			t.Errorf("turn %d, seat %d: %q listed twice", len(played)+1, seat, a)
		}
		fork := start()
		for _, cmds := range played {
			if err := fork.Step(cmds); err != nil {
				t.Fatal(err)
			}
		}
		cmds := make([]string, len(fork.Result().Players))
		cmds[seat] = a
		if err := fork.Step(cmds); err != nil {
			t.Fatal(err)
		}
		for _, e := range fork.Events() {
			if e.Seat == seat && e.Kind == sim.EventInvalid {
				t.Errorf("turn %d, seat %d: alternative %q is invalid: %s", len(played)+1, seat, a, e.Detail)
			}
		}
	}
}
