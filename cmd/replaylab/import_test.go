package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/internal/revtest"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/store"
)

// TestProgressOffTerminal checks that off a terminal progress prints one
// line per tenth of the work, with the rate and the time left.
func TestProgressOffTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, 40, "tournament", "matches")
	for range 40 {
		p.step()
	}
	p.done()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 10 {
		t.Fatalf("got %d lines, want 10:\n%s", len(lines), buf.String())
	}
	line := regexp.MustCompile(`^tournament: (\d+)/40 \((\d+)%\), [\d.]+ matches/s, ETA \d`)
	for i, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil || m[1] != strconv.Itoa(4*(i+1)) || m[2] != strconv.Itoa(10*(i+1)) {
			t.Errorf("line %d: got %q, want %d/40 (%d%%) with a rate and an ETA", i, l, 4*(i+1), 10*(i+1))
		}
	}
}

// TestImportOlderRevision imports a toad/classic replay recorded at
// revision 1 into builds at revision 2: stored when they reproduce it,
// reported with both revisions when a rule change alters it.
func TestImportOlderRevision(t *testing.T) {
	dir := t.TempDir()
	rlog := filepath.Join(dir, "r1.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "5", "--bot", "builtin:astar", "-o", rlog)
	tests := []struct {
		name     string
		changeAt int // the turn from which revision 2 differs; -1 = never
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"reproduced", -1, 0, "imported 1 new matches, 0 already present, 0 failed", ""},
		{"changed", 2, 1, "imported 0 new matches, 0 already present, 1 failed", "r1.rlog: recorded with an older engine revision of toad/classic (r1; this build plays r2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			revtest.Bump(t, toad.Game, "classic", 2, tt.changeAt)
			code, out, errOut := cli(t, "import", "--db", filepath.Join(t.TempDir(), "r.db"), rlog)
			if code != tt.wantCode || !strings.Contains(out, tt.wantOut) || !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("exit %d\nstdout: %s\nstderr: %s\nwant exit %d, %q and %q", code, out, errOut, tt.wantCode, tt.wantOut, tt.wantErr)
			}
		})
	}
}

// TestImportAttachesOutput imports a replay without its bot output file,
// then with it: the second import adds the output to the stored match.
func TestImportAttachesOutput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	out := filepath.Join(dir, "m.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", botSpec("chatty", "json"), "-o", out)
	aside := filepath.Join(t.TempDir(), "kept.jsonl")
	if err := os.Rename(out+".output.jsonl", aside); err != nil {
		t.Fatal(err)
	}
	if got := mustCLI(t, "import", "--db", db, out); !strings.Contains(got, "imported 1 new matches") {
		t.Fatalf("first import: %s", got)
	}
	if err := os.Rename(aside, out+".output.jsonl"); err != nil {
		t.Fatal(err)
	}
	if got := mustCLI(t, "import", "--db", db, out); !strings.Contains(got, "1 already present (bot output added to 1 of them)") {
		t.Errorf("second import: got %q, want the output added", got)
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ms, _, err := st.Matches(context.Background(), store.MatchFilter{Limit: 1})
	if err != nil || len(ms) != 1 {
		t.Fatalf("matches: %v, %v", ms, err)
	}
	got, err := st.BotOutputAt(context.Background(), ms[0].ID, 2)
	if err != nil || len(got) == 0 {
		t.Errorf("bot output of turn 2: got %v, %v; want the chatty bot's", got, err)
	}
	if got := mustCLI(t, "import", "--db", db, out); strings.Contains(got, "bot output added") {
		t.Errorf("third import: got %q, want nothing added again", got)
	}
}

// TestProgressResumed checks that work done before the run counts from
// the start: the lines go on from its tenth.
func TestProgressResumed(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, 40, "critical", "forks")
	p.resume(16)
	for range 24 {
		p.step()
	}
	p.done()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "critical: 20/40 (50%), ") {
		t.Errorf("got\n%s\nwant 6 lines from 20/40 (50%%)", buf.String())
	}
}
