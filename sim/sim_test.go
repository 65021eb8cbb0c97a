package sim_test

import (
	"errors"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// TestGameNew checks the one start path: Start sees only setups with a
// known ruleset (the default filled in) and a player count in range.
func TestGameNew(t *testing.T) {
	var started []sim.Setup
	g := &sim.Game{
		Name: "demo", Rulesets: []string{"classic", "fixed"}, MinPlayers: 2, MaxPlayers: 4,
		Start: func(s sim.Setup) (sim.Match, error) {
			started = append(started, s)
			return nil, nil
		},
	}
	duel := &sim.Game{Name: "duel", Rulesets: []string{"base"}, MinPlayers: 2, MaxPlayers: 2, Start: g.Start}
	tests := []struct {
		g           *sim.Game
		setup       sim.Setup
		wantRuleset string
		wantErr     string
	}{
		{g, sim.Setup{Players: 2}, "classic", ""},
		{g, sim.Setup{Ruleset: "fixed", Players: 4}, "fixed", ""},
		{g, sim.Setup{Ruleset: "Fixed", Players: 2}, "", `ruleset: game demo has no ruleset "Fixed" (have [classic fixed])`},
		{g, sim.Setup{Players: 5}, "", "players: game demo takes 2 to 4 players, got 5"},
		{g, sim.Setup{Players: 1}, "", "players: game demo takes 2 to 4 players, got 1"},
		{duel, sim.Setup{Players: 3}, "", "players: game duel takes 2 players, got 3"},
	}
	for _, tt := range tests {
		t.Run(tt.wantRuleset+tt.wantErr, func(t *testing.T) {
			started = nil
			_, err := tt.g.New(tt.setup)
			if tt.wantErr != "" {
				var se *sim.SetupError
				if !errors.As(err, &se) || err.Error() != tt.wantErr {
					t.Fatalf("New(%+v) = %v, want *SetupError %q", tt.setup, err, tt.wantErr)
				}
				if len(started) != 0 {
					t.Fatalf("Start was called with %+v", started[0])
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%+v): %v", tt.setup, err)
			}
			if len(started) != 1 || started[0].Ruleset != tt.wantRuleset {
				t.Fatalf("Start calls %+v, want one with ruleset %s", started, tt.wantRuleset)
			}
		})
	}
}

// TestRevision checks that a ruleset absent from Revisions is at revision
// 1 and that "" names the default ruleset.
func TestRevision(t *testing.T) {
	g := &sim.Game{Name: "demo", Rulesets: []string{"classic", "fixed", "open"}, Revisions: map[string]int{"fixed": 3, "classic": 2}}
	tests := []struct {
		ruleset string
		want    int
	}{
		{"", 2},
		{"classic", 2},
		{"fixed", 3},
		{"open", 1},
	}
	for _, tt := range tests {
		if got := g.Revision(tt.ruleset); got != tt.want {
			t.Errorf("Revision(%q) = %d, want %d", tt.ruleset, got, tt.want)
		}
	}
	if got := (&sim.Game{Rulesets: []string{"base"}}).Revision(""); got != 1 {
		t.Errorf("Revision of a game without Revisions = %d, want 1", got)
	}
}

func TestTeamOf(t *testing.T) {
	tests := []struct {
		name  string
		teams []int // PlayerResult.Team per seat
		want  []int
	}{
		{"no teams", []int{0, 0, 0}, []int{0, 1, 2}},
		{"two teams of two", []int{1, 1, 2, 2}, []int{0, 0, 2, 2}},
		{"interleaved", []int{2, 1, 2, 1}, []int{0, 1, 0, 1}},
		{"teams of one", []int{1, 2, 3}, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sim.Result{Players: make([]sim.PlayerResult, len(tt.teams))}
			for s, team := range tt.teams {
				r.Players[s].Team = team
			}
			for s, want := range tt.want {
				if got := r.TeamOf(s); got != want {
					t.Errorf("seat %d: got team %d, want %d", s, got, want)
				}
			}
		})
	}
}
