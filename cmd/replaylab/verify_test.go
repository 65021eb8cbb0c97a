package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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

// TestVerifyJobsKeepOrder verifies good and bad files several at a time:
// each is reported once, in the order given, with the exit status of any
// failure; a count of jobs below one is a usage error.
func TestVerifyJobsKeepOrder(t *testing.T) {
	dir := t.TempDir()
	var files, want []string
	for i := range 8 {
		f := filepath.Join(dir, fmt.Sprintf("m%d.rlog", i))
		if i%3 == 2 {
			os.WriteFile(f, []byte("not a replay\n"), 0o644)
			want = append(want, f+": FAIL ")
		} else {
			mustCLI(t, "record", "--game", "toad", "--seed", strconv.Itoa(i+1), "--config", `{"turns":20}`, "--bot", "builtin:astar", "-o", f)
			want = append(want, fmt.Sprintf("%s: ok toad/classic seed %d, ", f, i+1))
		}
		files = append(files, f)
	}
	for _, jobs := range []string{"1", "3", "16"} {
		code, out, _ := cli(t, append([]string{"verify", "--jobs", jobs}, files...)...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != 1 || len(lines) != len(want) {
			t.Fatalf("--jobs %s: exit %d, %d lines, want 1 and %d:\n%s", jobs, code, len(lines), len(want), out)
		}
		for i, l := range lines {
			if !strings.HasPrefix(l, want[i]) {
				t.Errorf("--jobs %s: line %d is %q, want it to start %q", jobs, i+1, l, want[i])
			}
		}
	}
	if code, _, errOut := cli(t, "verify", "--jobs", "0", files[0]); code != 2 || !strings.Contains(errOut, "--jobs must be at least 1") {
		t.Errorf("--jobs 0: exit %d, %s", code, errOut)
	}
}
