package main

import (
	"context"
	"database/sql"
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

// recordSnake records a 5-seat Snake match of greedy bots to dir/name.
func recordSnake(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	mustCLI(t, "record", "--game", "snake", "--seed", "3", "--bot", "builtin:greedy", "-o", path)
	return path
}

// recordExternalSnake records a 3-seat Snake match to dir/external.rlog
// whose Seats 2 and 3 play an external bot, which a replay cannot start.
func recordExternalSnake(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "external.rlog")
	mustCLI(t, "record", "--game", "snake", "--seed", "3", "--players", "3", "--bot", "builtin:greedy", "--bot", botSpec("chatty", "json"), "-o", path)
	return path
}

// parentOf returns a replay's match id and the parent its header names.
func parentOf(t *testing.T, path string) (id, parent string, turn int) {
	t.Helper()
	l, err := readReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	if id, err = l.ID(); err != nil {
		t.Fatal(err)
	}
	if p := l.Header.Parent; p != nil {
		return id, p.Match, p.Turn
	}
	return id, "", 0
}

func TestFork(t *testing.T) {
	dir := t.TempDir()
	snake := recordSnake(t, dir, "snake.rpl")
	toadPath := filepath.Join(dir, "toad.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", botSpec("chatty", "json"), "-o", toadPath)
	tests := []struct {
		name   string
		args   []string
		report []string // lines the report must hold
		check  func(t *testing.T, out string)
	}{
		{
			name:   "built-in bot replaced",
			args:   []string{snake, "--at", "100", "--bot", "2=builtin:random"},
			report: []string{"Seat 1 (greedy@builtin): the bot repeats the recorded commands up to turn 100", "Seat 2 (random@builtin): the bot differs first at turn"},
		},
		{
			name:   "joining external bot repeats",
			args:   []string{toadPath, "--at", "3", "--bot", "1=" + botSpec("chatty", "json")},
			report: []string{"Seat 1 (json): the bot repeats the recorded commands up to turn 3"},
		},
		{
			name: "forced command",
			args: []string{snake, "--at", "100", "--command", "3=LEFT,ACT"},
			check: func(t *testing.T, out string) {
				l, err := readReplay(out)
				if err != nil {
					t.Fatal(err)
				}
				if got := l.Turns[100][2]; got != "LEFT,ACT" {
					t.Errorf("Seat 3 at turn 101: got %q, want the forced LEFT,ACT", got)
				}
			},
		},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "fork"+string(rune('a'+i))+".rpl")
			code, _, stderr := cli(t, append([]string{"fork", "-o", out}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, want := range tt.report {
				if !strings.Contains(stderr, want) {
					t.Errorf("report:\n%s\nwant a line with %q", stderr, want)
				}
			}
			mustCLI(t, "verify", out)
			parentID, _, _ := parentOf(t, tt.args[0])
			if _, p, turn := parentOf(t, out); p != parentID || turn != atOf(tt.args) {
				t.Errorf("got parent %s at %d, want %s at %s", p, turn, parentID, tt.args[2])
			}
			if tt.check != nil {
				tt.check(t, out)
			}
		})
	}
}

// atOf is the --at of a fork's arguments (REPLAY --at N ...).
func atOf(args []string) int {
	n, _ := strconv.Atoi(args[2])
	return n
}

// TestForkLineage forks a fork of a fork: each generation names its
// direct parent, and each verifies.
func TestForkLineage(t *testing.T) {
	dir := t.TempDir()
	path := recordSnake(t, dir, "g0.rpl")
	for gen, at := range []string{"100", "300", "500"} {
		next := filepath.Join(dir, "g"+string(rune('1'+gen))+".rpl")
		mustCLI(t, "fork", path, "--at", at, "--bot", "2=builtin:random", "-o", next)
		mustCLI(t, "verify", next)
		id, _, _ := parentOf(t, path)
		if _, p, turn := parentOf(t, next); p != id || at != strconv.Itoa(turn) {
			t.Errorf("generation %d: got parent %s at %d, want %s at %s", gen+1, p, turn, id, at)
		}
		path = next
	}
}

func TestForkErrors(t *testing.T) {
	dir := t.TempDir()
	snake := recordSnake(t, dir, "snake.rlog")
	text, err := os.ReadFile(snake)
	if err != nil {
		t.Fatal(err)
	}
	// A changed recorded hash: the parent no longer verifies.
	broken := filepath.Join(dir, "broken.rlog")
	lines := strings.Split(string(text), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#hash\t100\t") {
			lines[i] = "#hash\t100\t0000000000000000"
		}
	}
	os.WriteFile(broken, []byte(strings.Join(lines, "\n")), 0o644)
	external := recordExternalSnake(t, dir)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"turn 0", []string{snake, "--at", "0"}, 2, "--at 0: the match has turns 1 to 915"},
		{"turn past the end", []string{snake, "--at", "915"}, 2, "give a turn from 1 to 914"},
		{"seat the match lacks", []string{snake, "--at", "5", "--bot", "6=builtin:greedy"}, 2, "--bot 6=builtin:greedy: the match has seats 1 to 5"},
		{"forced seat the match lacks", []string{snake, "--at", "5", "--command", "0=UP"}, 2, "--command 0=UP: the match has seats 1 to 5"},
		{"bot of another game", []string{snake, "--at", "5", "--bot", "2=builtin:astar"}, 2, `--bot for Seat 2: game snake has no built-in bot "astar"`},
		{"external bot not named", []string{external, "--at", "5"}, 2, "Seat 2 (json), Seat 3 (json); give each a bot with --bot SEAT=SPEC"},
		{"parent does not verify", []string{broken, "--at", "5"}, 1, "does not verify, so it cannot be played on: turn 100: state hash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "out.rpl")
			code, _, stderr := cli(t, append([]string{"fork", "-o", out}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, %q; want exit %d and %q", code, stderr, tt.code, tt.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output file was written")
			}
		})
	}
}

// TestForkOlderRevision: a parent of an older rules revision is forked
// when this build reproduces it (the fork is of the current revision),
// and refused as such when it does not.
func TestForkOlderRevision(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "3", "--config", `{"turns":8}`, "--bot", "builtin:astar", "-o", path)
	t.Run("reproduced", func(t *testing.T) {
		revtest.Bump(t, toad.Game, "classic", 2, -1)
		out := filepath.Join(dir, "fork.rlog")
		mustCLI(t, "fork", path, "--at", "3", "-o", out)
		if data, _ := os.ReadFile(out); !strings.Contains(string(data), `"revision":2`) {
			t.Errorf("got header %.200s, want revision 2", data)
		}
	})
	t.Run("not reproduced", func(t *testing.T) {
		revtest.Bump(t, toad.Game, "classic", 2, 2)
		out := filepath.Join(dir, "fork2.rlog")
		code, _, stderr := cli(t, "fork", path, "--at", "3", "-o", out)
		if code != 1 || !strings.Contains(stderr, "recorded with an older engine revision") {
			t.Errorf("got exit %d, %q; want exit 1 and an older revision", code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Error("an output file was written")
		}
	})
}

// importInto imports replay files into a new database in dir and returns
// its path.
func importInto(t *testing.T, dir string, paths ...string) string {
	t.Helper()
	db := filepath.Join(dir, "m.db")
	mustCLI(t, append([]string{"import", "--db", db}, paths...)...)
	return db
}

// openStore opens the database at path for a test to read.
func openStore(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.OpenExisting(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// storedCount is how many matches the database at path holds.
func storedCount(t *testing.T, path string) int {
	t.Helper()
	db := openStore(t, path)
	_, n, err := db.Matches(context.Background(), store.MatchFilter{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	return n
}

// TestForkStored forks a stored match named by an id prefix and stores
// the fork with its parent, with and without a replay file.
func TestForkStored(t *testing.T) {
	dir := t.TempDir()
	snake := recordSnake(t, dir, "snake.rpl")
	dbPath := importInto(t, dir, snake)
	parentID, _, _ := parentOf(t, snake)
	ctx := context.Background()

	code, out, stderr := cli(t, "fork", "--db", dbPath, parentID[:8], "--at", "100", "--bot", "2=builtin:random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := regexp.MustCompile(`^match ([0-9a-f]{64}) stored in .*m\.db: /matches/([0-9a-f]{12})\n$`).FindStringSubmatch(out)
	if m == nil || m[2] != m[1][:12] {
		t.Fatalf("got %q, want the new match's id and page", out)
	}
	lin, err := openStore(t, dbPath).Lineage(ctx, m[1])
	if err != nil {
		t.Fatal(err)
	}
	if p := lin.Parent; p == nil || p.ID != parentID || p.Turn != 100 || !p.Stored {
		t.Errorf("got parent %+v, want the stored %s at turn 100", p, parentID)
	}

	// The same fork to a file too: the file is the stored match.
	file := filepath.Join(dir, "fork.rpl")
	if out := mustCLI(t, "fork", "--db", dbPath, parentID, "--at", "100", "--bot", "2=builtin:random", "-o", file); !strings.Contains(out, m[1]+" stored already") {
		t.Errorf("got %q, want the fork stored already", out)
	}
	if id, _, _ := parentOf(t, file); id != m[1] {
		t.Errorf("the file holds match %s, want %s", id, m[1])
	}

	// A fork of a replay file into a new database, with its external
	// bot's output, which the database keeps.
	toadPath := filepath.Join(dir, "toad.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", botSpec("chatty", "json"), "-o", toadPath)
	fresh := filepath.Join(dir, "new.db")
	out = mustCLI(t, "fork", "--db", fresh, toadPath, "--at", "3", "--bot", "1="+botSpec("chatty", "json"))
	id := strings.Fields(out)[1]
	output, err := openStore(t, fresh).BotOutputAt(ctx, id, 5)
	if err != nil || len(output) == 0 {
		t.Errorf("bot output at turn 5: got %v, %v; want chatty's", output, err)
	}
}

func TestForkStoredErrors(t *testing.T) {
	dir := t.TempDir()
	snake := recordSnake(t, dir, "snake.rpl")
	other := filepath.Join(dir, "other.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", "builtin:astar", "-o", other)
	dbPath := importInto(t, dir, snake, other)
	// Two ids sharing 10 digits, which no two real matches are likely to:
	// the toad match takes the snake match's first digits.
	id, _, _ := parentOf(t, snake)
	otherID, _, _ := parentOf(t, other)
	raw, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Exec(`UPDATE matches SET id = ? WHERE id = ?`, id[:10]+otherID[10:], otherID)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"ambiguous prefix", []string{"--db", dbPath, id[:10]}, "match id " + id[:10] + " is ambiguous: give more digits"},
		{"unknown id", []string{"--db", dbPath, "0123456789abcdef"}, "0123456789abcdef: no such replay file, and " + dbPath + " has no match with that id"},
		{"not an id", []string{"--db", dbPath, "nope.rpl"}, "nope.rpl: no such replay file, and not a match id (8 to 64 hex digits)"},
		{"no file without --db", []string{"nope.rpl", "-o", filepath.Join(dir, "x.rpl")}, "nope.rpl: no such replay file (with --db FILE"},
		{"no database", []string{"--db", filepath.Join(dir, "none.db"), "0123456789abcdef"}, "none.db does not exist"},
		{"nowhere to go", []string{snake}, "give -o FILE, --db FILE or both"},
		{"fork fails", []string{"--db", dbPath, snake, "--bot", "2=builtin:astar"}, `no built-in bot "astar"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cli(t, append(append([]string{"fork"}, tt.args...), "--at", "5")...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, %q; want exit 2 and %q", code, stderr, tt.want)
			}
		})
	}
	if n := storedCount(t, dbPath); n != 2 {
		t.Errorf("%d matches stored, want the two imported", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("a database was created")
	}
}
