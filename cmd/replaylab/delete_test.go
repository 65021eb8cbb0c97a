package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDelete deletes imported matches by id and prefix: it says what it
// deleted and refitted, refuses unknown ids without deleting anything,
// and a deleted match can be imported again.
func TestDelete(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	var files, ids []string
	for _, seed := range []string{"1", "2", "3"} {
		f := filepath.Join(dir, seed+".rpl")
		mustCLI(t, "record", "--game", "toad", "--seed", seed, "--bot", "builtin:astar", "-o", f)
		files = append(files, f)
		ids = append(ids, regexp.MustCompile(`id ([0-9a-f]{12})`).FindStringSubmatch(mustCLI(t, "verify", f))[1])
	}
	mustCLI(t, append([]string{"import", "--db", db}, files...)...)
	unknown := strings.Repeat("f", 16)
	tests := []struct {
		name      string
		args      []string
		code      int
		out, err  []string
		remaining int
	}{
		{"unknown", []string{unknown}, 1, nil, []string{"nothing deleted: match " + unknown + " not found"}, 3},
		{"known and unknown", []string{ids[0], unknown, "not-an-id"}, 1, nil,
			[]string{"nothing deleted", unknown + " not found", `"not-an-id"`}, 3},
		{"no id", nil, 1, nil, []string{"requires at least 1 arg"}, 3},
		{"by prefix", []string{ids[0][:8]}, 0,
			[]string{"deleted match " + ids[0] + " (toad/classic)\n", "refitted the ratings of toad/classic: 2 matches left\n"}, nil, 2},
		{"again", []string{ids[0]}, 1, nil, []string{"not found"}, 2},
		{"the rest", []string{ids[1], ids[2], ids[1]}, 0,
			[]string{"deleted match " + ids[1], "deleted match " + ids[2], "toad/classic has no match left: its ratings are gone\n"}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := cli(t, append([]string{"delete", "--db", db}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			for _, w := range tt.out {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.err {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			n := 0
			for _, id := range ids {
				if code, _, _ := cli(t, "export", "--db", db, "--match", id); code == 0 {
					n++
				}
			}
			if n != tt.remaining {
				t.Errorf("%d matches left, want %d", n, tt.remaining)
			}
		})
	}
	out := mustCLI(t, "import", "--db", db, files[0])
	if !strings.Contains(out, "imported 1 new matches, 0 already present") {
		t.Errorf("import of a deleted match: %s", out)
	}
	if code, _, errOut := cli(t, "delete", "--db", filepath.Join(dir, "none.db"), ids[0]); code == 0 || !strings.Contains(errOut, "no such file") {
		t.Errorf("delete from a missing db: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); !os.IsNotExist(err) {
		t.Errorf("delete from a missing db created it: %v", err)
	}
}
