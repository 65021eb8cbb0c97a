package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// forkResult is a played fork of a test sweep.
func forkResult(turn int, command string, of int, outcome sim.Outcome, rank int) ForkResult {
	return ForkResult{Turn: turn, Command: command, TurnForks: of, Result: sim.PlayerResult{Outcome: outcome, Rank: rank, Score: float64(turn)}}
}

// TestSweeps stores the forks of two sweeps of a match, opens each again
// as a rerun would and reads them back, then deletes the match.
func TestSweeps(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 20, winner: 1})
		mustIngest(t, db, rec)
		other := makeRecord(t, recordSpec{id: testID(2), turns: 20, winner: 0})
		mustIngest(t, db, other)

		astar := Sweep{Match: rec.ID[:10], Seat: 0, Bot: "builtin:astar", Player: Player{"astar", "builtin"}}
		id, played, err := db.OpenSweep(ctx, astar)
		if err != nil || len(played) != 0 {
			t.Fatalf("OpenSweep of a new sweep: got %v, %v; want no forks", played, err)
		}
		first := []ForkResult{forkResult(3, "B", 2, sim.Win, 1), forkResult(3, "A", 2, sim.Loss, 2)}
		if err := db.SaveForks(ctx, id, first); err != nil {
			t.Fatalf("SaveForks: %v", err)
		}
		// Another run stored turn 3's A already: its first result stays.
		if err := db.SaveForks(ctx, id, []ForkResult{forkResult(3, "A", 2, sim.Win, 1), forkResult(4, "C", 1, sim.Draw, 1)}); err != nil {
			t.Fatalf("SaveForks again: %v", err)
		}
		want := []ForkResult{first[1], first[0], forkResult(4, "C", 1, sim.Draw, 1)}

		tests := []struct {
			name  string
			sweep Sweep
			same  bool // the sweep of astar
		}{
			{"the same sweep by the full id", Sweep{Match: rec.ID, Seat: 0, Bot: "builtin:astar"}, true},
			{"another bot", Sweep{Match: rec.ID, Seat: 0, Bot: "builtin:random"}, false},
			{"other code of the bot", Sweep{Match: rec.ID, Seat: 0, Bot: "builtin:astar", Fingerprint: "ab12"}, false},
			{"another seat", Sweep{Match: rec.ID, Seat: 1, Bot: "builtin:astar"}, false},
			{"fewer alternatives", Sweep{Match: rec.ID, Seat: 0, Bot: "builtin:astar", Alternatives: 2}, false},
			{"another match", Sweep{Match: other.ID, Seat: 0, Bot: "builtin:astar"}, false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, played, err := db.OpenSweep(ctx, tt.sweep)
				if err != nil {
					t.Fatalf("OpenSweep: %v", err)
				}
				if (got == id) != tt.same {
					t.Errorf("got sweep %d, the first is %d; want the same: %v", got, id, tt.same)
				}
				if tt.same && !reflect.DeepEqual(played, want) {
					t.Errorf("played: got %+v, want %+v", played, want)
				}
				if !tt.same && len(played) != 0 {
					t.Errorf("played: got %+v, want none", played)
				}
			})
		}

		sweeps, err := db.Sweeps(ctx, rec.ID)
		if err != nil {
			t.Fatalf("Sweeps: %v", err)
		}
		if len(sweeps) != 5 {
			t.Fatalf("Sweeps: got %d, want the 5 of the match", len(sweeps))
		}
		s := sweeps[0]
		wantSweep := Sweep{Match: rec.ID, Seat: 0, Bot: "builtin:astar", Player: Player{"astar", "builtin"}}
		if !reflect.DeepEqual(s.Sweep, wantSweep) || !reflect.DeepEqual(s.Forks, want) {
			t.Errorf("first sweep: got %+v with %+v, want %+v with %+v", s.Sweep, s.Forks, wantSweep, want)
		}
		if s.Recorded.Outcome != sim.Loss || s.Recorded.Rank != 2 {
			t.Errorf("recorded: got %+v, want Seat 1's loss, rank 2", s.Recorded)
		}

		if _, err := db.DeleteMatches(ctx, []string{rec.ID}); err != nil {
			t.Fatal(err)
		}
		if got, want := countRows(t, db, "critical_sweeps", "critical_forks"), map[string]int{"critical_sweeps": 1, "critical_forks": 0}; !reflect.DeepEqual(got, want) {
			t.Errorf("after deleting the match: got %v, want %v (the other match's sweep only)", got, want)
		}
	})
}

func TestSweepErrors(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 20, winner: 1})
		mustIngest(t, db, rec)
		for _, tt := range []struct {
			name  string
			sweep Sweep
			want  error
		}{
			{"match not stored", Sweep{Match: testID(3), Bot: "builtin:astar"}, ErrNotFound},
			{"seat the match lacks", Sweep{Match: rec.ID, Seat: 2, Bot: "builtin:astar"}, ErrInvalid},
			{"no bot", Sweep{Match: rec.ID}, ErrInvalid},
		} {
			t.Run(tt.name, func(t *testing.T) {
				if _, _, err := db.OpenSweep(ctx, tt.sweep); !errors.Is(err, tt.want) {
					t.Errorf("got %v, want %v", err, tt.want)
				}
			})
		}
		id, _, err := db.OpenSweep(ctx, Sweep{Match: rec.ID, Bot: "builtin:astar"})
		if err != nil {
			t.Fatal(err)
		}
		bad := []ForkResult{forkResult(2, "A", 1, sim.Win, 1), forkResult(3, "B", 1, sim.Pending, 1)}
		if err := db.SaveForks(ctx, id, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("SaveForks of a fork not over: got %v, want %v", err, ErrInvalid)
		}
		if got := countRows(t, db, "critical_forks")["critical_forks"]; got != 0 {
			t.Errorf("after a refused batch: got %d forks stored, want none", got)
		}
	})
}

// TestOpenUpgradesVersion14 opens a database of schema version 14 with a
// match: the upgrade adds the sweeps' tables, and a sweep of the match can
// be stored.
func TestOpenUpgradesVersion14(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v14.db")
	makeV1DB(t, path)
	stmts := append([]string{}, upgrades[:13]...)
	stmts = append(stmts, "PRAGMA user_version = 14", fmt.Sprintf("PRAGMA application_id = %d", applicationID), `
		INSERT INTO replays VALUES ('`+testID(1)+`', 'toad', 'classic', 1, '{}', x'00', 0);
		INSERT INTO matches VALUES (1, '`+testID(1)+`', 'toad', 'classic', 1, 0, 'won', 'old', 1, 0);
		INSERT INTO bots VALUES (1, 'toad', 'astar', 'builtin');
		INSERT INTO match_players VALUES (1, 0, 1, 5, 1, 'win', 0, '');`)
	rawExec(t, path, stmts...)
	db := openUpgraded(t, path)
	ctx := context.Background()
	sweeps, err := db.Sweeps(ctx, testID(1))
	if err != nil || len(sweeps) != 0 {
		t.Fatalf("Sweeps after the upgrade: got %v, %v; want none", sweeps, err)
	}
	id, _, err := db.OpenSweep(ctx, Sweep{Match: testID(1), Bot: "builtin:astar"})
	if err != nil {
		t.Fatalf("OpenSweep: %v", err)
	}
	if err := db.SaveForks(ctx, id, []ForkResult{forkResult(1, "A", 4, sim.Loss, 1)}); err != nil {
		t.Fatalf("SaveForks: %v", err)
	}
	if sweeps, err = db.Sweeps(ctx, testID(1)); err != nil || len(sweeps) != 1 || len(sweeps[0].Forks) != 1 {
		t.Errorf("Sweeps: got %+v, %v; want one sweep with one fork", sweeps, err)
	}
}
