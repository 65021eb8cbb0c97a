package sim_test

import (
	"encoding/json"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

// TestMaxTurns checks each game's stated turn limit against its rules and
// plays every built-in bot to the end to see that no match outlasts it.
func TestMaxTurns(t *testing.T) {
	tests := []struct {
		game, ruleset, config string
		players               int
		want                  int
	}{
		{"toad", "", `{}`, 1, 50},
		{"toad", "", `{"turns":300}`, 1, 300},
		{"toad", "", `{"rolls":[21,21,10,14,27]}`, 1, 5},
		{"worms", "base", `{}`, 2, 300},
		{"worms", "final", `{}`, 2, 400},
		{"worms", "final", `{"rounds":12}`, 2, 12},
		{"snake", "", `{}`, 4, 3 * 305},
		{"snake", "codenjoy", `{}`, 2, 3 * 305},
	}
	for _, tt := range tests {
		t.Run(tt.game+"/"+tt.ruleset+tt.config, func(t *testing.T) {
			g, err := games.Lookup(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			setup := sim.Setup{Ruleset: tt.ruleset, Seed: 5, Players: tt.players, Config: json.RawMessage(tt.config)}
			for _, b := range g.Bots {
				m, err := g.New(setup)
				if err != nil {
					t.Fatal(err)
				}
				if got := m.MaxTurns(); got != tt.want {
					t.Fatalf("MaxTurns() = %d, want %d", got, tt.want)
				}
				playOut(t, setup, b, m)
				if m.Turn() > m.MaxTurns() {
					t.Errorf("bot %s: the match lasted %d turns, over its limit %d", b.Name, m.Turn(), m.MaxTurns())
				}
			}
		})
	}
}

// playOut plays bot b in every seat until the match is over or has gone
// one turn past its limit.
func playOut(t *testing.T, setup sim.Setup, b sim.BotDef, m sim.Match) {
	t.Helper()
	bots := make([]sim.Bot, setup.Players)
	for s := range bots {
		bot, err := b.New(setup, s, uint64(s)+1)
		if err != nil {
			t.Fatal(err)
		}
		bots[s] = bot
	}
	cmds := make([]string, len(bots))
	for !m.Over() && m.Turn() <= m.MaxTurns() {
		for s, bot := range bots {
			cmds[s] = bot.Act(m.View(s))
		}
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
	}
}
