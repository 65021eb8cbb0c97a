package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/internal/revtest"
	"github.com/replaylab/replaylab/sim/toad"
)

// recordSnake records a 5-seat Snake match of greedy bots to dir/name.
func recordSnake(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	mustCLI(t, "record", "--game", "snake", "--seed", "3", "--bot", "builtin:greedy", "-o", path)
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
	external := filepath.Join(dir, "external.rlog")
	mustCLI(t, "record", "--game", "snake", "--seed", "3", "--players", "3", "--bot", "builtin:greedy", "--bot", botSpec("chatty", "json"), "-o", external)
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
