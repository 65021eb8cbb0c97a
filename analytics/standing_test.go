package analytics

import (
	"testing"

	"github.com/replaylab/replaylab/store"
)

func TestStandings(t *testing.T) {
	bots := []store.BotSummary{
		{Name: "lucky", Version: "1", Matches: 2, Wins: 2},
		{Name: "steady", Version: "1", Matches: 100, Wins: 60, Losses: 40},
		{Name: "never", Version: "1", Matches: 0},
		{Name: "weak", Version: "2", Matches: 50, Wins: 5, Losses: 45},
	}
	got := Standings(bots)
	order := []string{"steady", "lucky", "weak", "never"}
	for i, name := range order {
		if got[i].Name != name {
			t.Fatalf("rank %d: got %s, want %s (order %v)", i, got[i].Name, name, order)
		}
	}
	if s := got[0]; s.WinRate != 0.6 || s.WinCI.Low >= 0.6 || s.WinCI.High <= 0.6 {
		t.Errorf("steady: got rate %v in %v, want 0.6 inside its interval", s.WinRate, s.WinCI)
	}
	if s := got[3]; s.WinRate != 0 || s.WinCI != (Interval{0, 1}) {
		t.Errorf("never: got rate %v in %v, want 0 in [0, 1]", s.WinRate, s.WinCI)
	}
}
