package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/internal/revtest"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/sim/worms"
)

// cli runs the program with args and returns its exit code and outputs.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := cli(t, args...)
	if code != 0 {
		t.Fatalf("replaylab %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// dropMatches deletes every match of the database at path and what hangs
// off it, keeping the replays, as the upgrade from schema version 1 does.
func dropMatches(t *testing.T, path string) {
	t.Helper()
	raw, err := sql.Open("sqlite3", path+"?_foreign_keys=on") // as the store connects: deletes cascade
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Exec("DELETE FROM matches")
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRecordVerifyImportExport(t *testing.T) {
	dir := t.TempDir()
	rpl := filepath.Join(dir, "a.rpl")
	rlog := filepath.Join(dir, "sub", "b.rlog")
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	mustCLI(t, "record", "--game", "toad", "--seed", "7", "--bot", "builtin:astar", "-o", rpl)
	mustCLI(t, "record", "--game", "toad", "--seed", "0", "--bot", "builtin:random", "--name", "rnd", "--version", "2", "--hash-every", "1", "-o", rlog)
	if fi, err := os.Stat(rpl); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o644 {
		t.Errorf("the recorded replay: mode %v, want -rw-r--r-- like any file meant to be shared", fi.Mode().Perm())
	}

	out := mustCLI(t, "verify", rpl, rlog)
	if !strings.Contains(out, "a.rpl: ok toad/classic seed 7, 50 turns, winner Seat 1 (astar)") {
		t.Errorf("verify output:\n%s", out)
	}

	// A text replay whose first move was changed after recording: its end
	// record's digest no longer matches. The same change in a replaylab/1
	// copy, which has no end record, is found by regeneration: the toad
	// starts in River 3, where every move is legal, so the state after turn
	// 1 must differ.
	text, err := os.ReadFile(rlog)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "1\t") {
			lines[i] = "1\tD"
			if l == "1\tD" {
				lines[i] = "1\tG"
			}
			break
		}
	}
	bad := filepath.Join(dir, "sub", "tampered.rlog")
	os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644)
	badV1 := filepath.Join(dir, "tampered-v1.rlog")
	os.WriteFile(badV1, []byte(asV1(strings.Join(lines, "\n"))), 0o644)
	trash := filepath.Join(dir, "sub", "trash.rpl")
	os.WriteFile(trash, []byte("RPL\x01\x01garbage"), 0o644)

	code, out, _ := cli(t, "verify", rpl, bad, badV1)
	if code != 1 || !strings.Contains(out, "tampered.rlog: FAIL corrupt: the end record's digest") ||
		!strings.Contains(out, "tampered-v1.rlog: FAIL turn 1: state hash") {
		t.Errorf("verify of a tampered replay: exit %d\n%s", code, out)
	}

	db := filepath.Join(dir, "x.db")
	code, out, errOut := cli(t, "import", "--db", db, rpl, filepath.Join(dir, "sub"))
	if code != 1 {
		t.Errorf("import with bad files: exit %d, want 1", code)
	}
	if !strings.Contains(out, "imported 2 new matches, 0 already present, 2 failed, from 4 files") {
		t.Errorf("import summary: %s", out)
	}
	for _, want := range []string{"tampered.rlog: corrupt: the end record's digest", "trash.rpl: corrupt compressed body"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("import errors lack %q:\n%s", want, errOut)
		}
	}
	out = mustCLI(t, "import", "--db", db, rpl)
	if !strings.Contains(out, "imported 0 new matches, 1 already present, 0 failed") {
		t.Errorf("re-import summary: %s", out)
	}
	// A schema upgrade that cannot convert the matches drops them and
	// keeps the replays; import without paths regenerates them.
	dropMatches(t, db)
	out = mustCLI(t, "import", "--db", db)
	if !strings.Contains(out, "imported 2 new matches, 0 already present, 0 failed, from 2 stored replays") {
		t.Errorf("import of the stored replays: %s", out)
	}

	id := regexp.MustCompile(`id ([0-9a-f]{12})`).FindStringSubmatch(mustCLI(t, "verify", rpl))[1]
	out = mustCLI(t, "export", "--db", db, "--match", id, "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 52 || strings.Join(rows[0][:5], ",") != "turn,seat,unit,alive,hp" || rows[1][4] != "20" {
		t.Errorf("csv export: %d rows, head %v, first %v", len(rows), rows[0], rows[1])
	}
	out = mustCLI(t, "export", "--db", db, "--match", id, "--format", "jsonl")
	if n := strings.Count(out, "\n"); n != 51 || !strings.Contains(out, `"hp":20`) {
		t.Errorf("jsonl export: %d lines:\n%.200s", n, out)
	}
	if code, _, errOut := cli(t, "export", "--db", db, "--match", "ffffffffff"); code == 0 || !strings.Contains(errOut, "not found") {
		t.Errorf("export of a missing match: exit %d, %s", code, errOut)
	}
	if code, _, errOut := cli(t, "export", "--db", filepath.Join(dir, "none.db"), "--match", id); code == 0 || !strings.Contains(errOut, "no such file") {
		t.Errorf("export from a missing db: exit %d, %s", code, errOut)
	}
}

// asV1 turns a replaylab/2 text replay into the replaylab/1 form an older
// build wrote: the same lines without the end record.
func asV1(text string) string {
	text = strings.Replace(text, `"format":"replaylab/2"`, `"format":"replaylab/1"`, 1)
	return regexp.MustCompile(`(?m)^#end\t.*\n?`).ReplaceAllString(text, "")
}

// TestVerifyEnd: verify says when a replay has no end record, and refuses a
// replaylab/2 replay that lost its last line, naming its last turn.
func TestVerifyEnd(t *testing.T) {
	dir := t.TempDir()
	rlog := filepath.Join(dir, "m.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "3", "--config", `{"turns":10}`, "--bot", "builtin:astar", "-o", rlog)
	text, err := os.ReadFile(rlog)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.rlog")
	os.WriteFile(old, []byte(asV1(string(text))), 0o644)
	cut := filepath.Join(dir, "cut.rlog")
	lines := strings.SplitAfter(strings.TrimSuffix(string(text), "\n"), "\n")
	os.WriteFile(cut, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644)

	code, out, _ := cli(t, "verify", rlog, old, cut)
	for _, want := range []string{
		"m.rlog: ok toad/classic seed 3, 10 turns",
		"hashes match; end record matches; id ",
		"old.rlog: ok toad/classic seed 3, 10 turns",
		"no end record (replaylab/1, recorded by an older build: truncation cannot be detected)",
		"cut.rlog: FAIL truncated: the replay ends after turn 10 (no end record)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("verify output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	ids := regexp.MustCompile(`id ([0-9a-f]{12})`).FindAllStringSubmatch(out, -1)
	if len(ids) != 2 || ids[0][1] != ids[1][1] {
		t.Errorf("ids %v: the replaylab/1 copy must be the same match", ids)
	}
}

func TestInspectShowsTheOriginalBoard(t *testing.T) {
	dir := t.TempDir()
	rolls := filepath.Join(dir, "input.txt")
	os.WriteFile(rolls, []byte("5 # number of rolls following this line\n21\n21\n10\n14\n27\n"), 0o644)
	// --rolls takes the original input file; astar finds a plan better
	// than the published one.
	best := filepath.Join(dir, "best.rlog")
	mustCLI(t, "record", "--game", "toad", "--rolls", rolls, "--bot", "builtin:astar", "-o", best)
	if out := mustCLI(t, "verify", best); !strings.Contains(out, "survived all 5 rolls") {
		t.Errorf("astar on the worked example: %s", out)
	}
	// The published worked example, plan GAGAF, written by hand.
	example := filepath.Join(dir, "example.rlog")
	os.WriteFile(example, []byte(`{"format":"replaylab/1","game":"toad","seed":0,"config":{"rolls":[21,21,10,14,27]},"players":[{"name":"published"}]}
1	G
2	A
3	G
4	A
5	F
`), 0o644)
	out := mustCLI(t, "inspect", example)
	for _, want := range []string{"#SS SS#\n# SSS #\n# S S #\n#S S S#\n#   T #", "HP 7"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, out)
		}
	}
	if code, _, errOut := cli(t, "inspect", example, "--turn", "9"); code == 0 || !strings.Contains(errOut, "turn 9 is past the end") {
		t.Errorf("inspect past the end: exit %d, %s", code, errOut)
	}
	// A rolls file is not a replay, and the error says what to do.
	if code, out, _ := cli(t, "verify", rolls); code != 1 || !strings.Contains(out, "River Toad input file") {
		t.Errorf("verify of a rolls file: exit %d, %s; want 1 and an explanation", code, out)
	}
}

func TestRecordErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.rpl")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"record", "--game", "chess", "--bot", "builtin:x", "-o", out}, `unknown game "chess"`},
		{[]string{"record", "--game", "toad", "--bot", "builtin:nobody", "-o", out}, `no built-in bot "nobody"`},
		{[]string{"record", "--game", "toad", "--bot", "builtin:astar", "--bot", "builtin:astar", "-o", out}, "takes 1 players, got 2"},
		{[]string{"record", "--game", "toad", "--bot", "builtin:astar", "--config", `{"rolls":[40]}`, "-o", out}, "config.rolls"},
		{[]string{"record", "--game", "toad", "--bot", "builtin:astar", "--ruleset", "modern", "-o", out}, `no ruleset "modern"`},
		{[]string{"record", "--game", "toad", "--bot", "/nonexistent/bot", "-o", out}, "bot 1 (/nonexistent/bot): exec"},
		{[]string{"record", "--game", "toad", "-o", out}, "no --bot given"},
	}
	for _, tt := range tests {
		code, _, errOut := cli(t, tt.args...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to contain %q", tt.args, code, errOut, tt.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed record left a file behind")
	}
}

func TestGames(t *testing.T) {
	out := mustCLI(t, "games")
	if !strings.Contains(out, "toad") || !strings.Contains(out, "builtin:astar") || strings.Contains(out, "(r1)") {
		t.Errorf("games output:\n%s", out)
	}
	revtest.Bump(t, worms.Game, "final", 3, -1)
	if out := mustCLI(t, "games"); !strings.Contains(out, "final (r3)") {
		t.Errorf("games output with worms/final at revision 3:\n%s", out)
	}
}

// TestInspectNamesTheRulesRevision records a match, moves the ruleset to a
// later revision that plays it the same, and checks that inspect names the
// recorded revision and the one it replays under.
func TestInspectNamesTheRulesRevision(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "3", "--config", `{"turns":5}`, "--bot", "builtin:astar", "-o", path)
	if out := mustCLI(t, "inspect", path); !strings.HasPrefix(out, "toad/classic (rules r1) seed 3, turn 5 of 5\n") {
		t.Errorf("got first line %q, want the ruleset at r1", strings.SplitN(out, "\n", 2)[0])
	}
	revtest.Bump(t, toad.Game, "classic", 2, -1)
	if out := mustCLI(t, "inspect", path); !strings.HasPrefix(out, "toad/classic (rules r1, replayed under r2) seed 3, turn 5 of 5\n") {
		t.Errorf("after a revision: got first line %q, want r1 replayed under r2", strings.SplitN(out, "\n", 2)[0])
	}
}
