package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/internal/revtest"
	"github.com/replaylab/replaylab/sim/toad"
)

// TestVerifyRevisions verifies replays of toad/classic recorded at
// revision 1, and one at revision 2, in builds that play revision 1 or 2,
// with or without a rule change in revision 2 from turn 3 on.
func TestVerifyRevisions(t *testing.T) {
	dir := t.TempDir()
	r1 := filepath.Join(dir, "r1.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "3", "--config", `{"turns":10}`, "--bot", "builtin:astar", "--hash-every", "1", "-o", r1)
	r2 := filepath.Join(dir, "r2.rlog")
	t.Run("record at revision 2", func(t *testing.T) {
		revtest.Bump(t, toad.Game, "classic", 2, -1)
		mustCLI(t, "record", "--game", "toad", "--seed", "3", "--config", `{"turns":10}`, "--bot", "builtin:astar", "--hash-every", "1", "-o", r2)
	})
	tests := []struct {
		name      string
		file      string
		rev       int // the revision this build plays
		changeAt  int // the turn from which revision 2 differs; -1 = never
		wantCode  int
		want      string
		wantLacks string
	}{
		{"current", r1, 1, -1, 0, "r1.rlog: ok toad/classic seed 3, 10 turns", "revision"},
		{"older, reproduced", r1, 2, -1, 0, "11 hashes match (recorded under rules revision r1; this build plays r2 and reproduces it); end record matches", ""},
		{"older, changed", r1, 2, 3, 1, "r1.rlog: FAIL recorded with an older engine revision of toad/classic (r1; this build plays r2), which this build does not reproduce: turn 3: state hash", "checked before it"},
		{"newer", r2, 1, -1, 1, "r2.rlog: FAIL line 1: header: recorded with a newer engine revision of toad/classic (r2; this build plays r1)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.rev > 1 {
				revtest.Bump(t, toad.Game, "classic", tt.rev, tt.changeAt)
			}
			code, out, _ := cli(t, "verify", tt.file)
			if code != tt.wantCode || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, output:\n%s\nwant exit %d and %q", code, out, tt.wantCode, tt.want)
			}
			if tt.wantLacks != "" && strings.Contains(out, tt.wantLacks) {
				t.Errorf("output:\n%s\nwant no %q", out, tt.wantLacks)
			}
		})
	}
}
