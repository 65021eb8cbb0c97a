package games_test

import (
	"encoding/json"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

// TestClone: a copy of a match (sim.Cloner) taken at any turn, stepped
// with the original's commands, has the original's hash, frame, events
// and every seat's view at every turn after, in every ruleset; the two
// share nothing that stepping either one changes.
func TestClone(t *testing.T) {
	for _, g := range games.All() {
		for _, rs := range g.Rulesets {
			t.Run(g.Name+"/"+rs, func(t *testing.T) {
				setup := sim.Setup{Ruleset: rs, Seed: 11, Players: g.DefaultPlayers}
				m, err := g.New(setup)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := m.(sim.Cloner); !ok {
					t.Skipf("%s matches do not copy themselves: the inspector replays them", g.Name)
				}
				bots := seatBots(t, g, setup)
				type copied struct {
					m    sim.Match
					from int
				}
				var copies []copied
				for !m.Over() {
					if m.Turn()%5 == 0 {
						copies = append(copies, copied{m.(sim.Cloner).Clone(), m.Turn()})
					}
					cmds := make([]string, len(bots))
					for seat, b := range bots {
						cmds[seat] = b.Act(m.View(seat))
					}
					if err := m.Step(cmds); err != nil {
						t.Fatal(err)
					}
					kept := copies[:0]
					for _, c := range copies {
						if err := c.m.Step(cmds); err != nil {
							t.Fatalf("copy of turn %d at turn %d: %v", c.from, m.Turn(), err)
						}
						if got, want := encodeState(t, c.m), encodeState(t, m); got != want {
							t.Fatalf("copy of turn %d at turn %d: got %.300s, want %.300s", c.from, m.Turn(), got, want)
						}
						if m.Turn()-c.from < 12 {
							kept = append(kept, c)
						}
					}
					copies = kept
				}
			})
		}
	}
}

// seatBots builds a built-in bot for every seat: random where the game
// has it, for the widest range of states.
func seatBots(t *testing.T, g *sim.Game, setup sim.Setup) []sim.Bot {
	t.Helper()
	def, ok := g.Bot("random")
	if !ok {
		def = g.Bots[len(g.Bots)-1]
	}
	bots := make([]sim.Bot, setup.Players)
	for seat := range bots {
		var err error
		if bots[seat], err = def.New(setup, seat, uint64(seat)+1); err != nil {
			t.Fatal(err)
		}
	}
	return bots
}

// encodeState is what a match shows of its state: its hash, frame, last
// events and every seat's view.
func encodeState(t *testing.T, m sim.Match) string {
	t.Helper()
	views := make([]any, 0)
	for seat := range len(m.Result().Players) {
		views = append(views, m.View(seat))
	}
	b, err := json.Marshal([]any{m.Hash(), m.Turn(), m.Over(), m.Frame(), m.Events(), views})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
