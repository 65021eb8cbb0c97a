package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCritical sweeps real matches and checks the decisive forks found,
// each one cross-checked by playing the same fork with 'replaylab fork'.
func TestCritical(t *testing.T) {
	dir := t.TempDir()
	// Random loses River Toad seed 1 on turn 5; A* from turn 2 on wins
	// it if turn 1 is S or D, not the recorded A.
	lost := filepath.Join(dir, "lost.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", "builtin:random", "-o", lost)
	// A* wins seed 1 staying at turn 2; leaping left (A) there loses.
	won := filepath.Join(dir, "won.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", "builtin:astar", "-o", won)
	snake := recordSnake(t, dir, "snake.rpl")
	tests := []struct {
		name  string
		args  []string
		lines []string // lines the report must hold, in order
		// forks are decisive forks to play again: at, command, the
		// outcome the report gives.
		forks [][3]string
	}{
		{
			name:  "a lost toad saved at turn 1",
			args:  []string{lost, "--seat", "1", "--bot", "builtin:astar"},
			lines: []string{"Seat 1 (random@builtin) recorded: loss, rank 1, score 0", "swept turns 1 to 5 (20 forks)", `1     "A"       "S"          win, rank 1, score 5`, `1     "A"       "D"          win, rank 1, score 5`},
		},
		{
			name:  "a won toad lost at turn 2",
			args:  []string{won, "--seat", "1", "--from", "2", "--to", "2"},
			lines: []string{"Seat 1 (astar@builtin) recorded: win, rank 1, score 5", "swept turns 2 to 2 (4 forks)", `2     "D"       "A"          loss, rank 1, score 0`},
			forks: [][3]string{{"1", "A", "loss"}},
		},
		{
			name:  "snake every 200th turn, first 2 alternatives",
			args:  []string{snake, "--seat", "1", "--every", "200", "--alternatives", "2"},
			lines: []string{"Seat 1 (greedy@builtin) recorded: loss, rank 3, score 261", "swept turns 1 to 801 (10 forks)"},
		},
		{
			name:  "max forks stops at a whole turn",
			args:  []string{snake, "--seat", "1", "--max-forks", "9"},
			lines: []string{"swept turns 1 to 1 (5 forks, --max-forks 9); later turns not swept"},
		},
		{
			name:  "time limit",
			args:  []string{snake, "--seat", "1", "--time-limit", "1ns"},
			lines: []string{"no turn swept within --time-limit 1ns"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mustCLI(t, append([]string{"critical"}, tt.args...)...)
			rest := out
			for _, want := range tt.lines {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("report:\n%s\nwant, after the lines before, %q", out, want)
				}
				rest = rest[i+len(want):]
			}
			if again := mustCLI(t, append([]string{"critical"}, tt.args...)...); again != out && !strings.Contains(tt.name, "time limit") {
				t.Errorf("a second run reports\n%s\nthe first\n%s", again, out)
			}
			for i, fk := range tt.forks {
				path := filepath.Join(dir, tt.name[:1]+string(rune('a'+i))+".rpl")
				mustCLI(t, "fork", tt.args[0], "--at", fk[0], "--command", "1="+fk[1], "-o", path)
				if got := mustCLI(t, "verify", path); !strings.Contains(got, fk[2]) {
					t.Errorf("fork at %s with %s: %s, want %s as critical reports", fk[0], fk[1], got, fk[2])
				}
			}
		})
	}
}

func TestCriticalErrors(t *testing.T) {
	dir := t.TempDir()
	snake := recordSnake(t, dir, "snake.rpl")
	external := filepath.Join(dir, "toad.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", botSpec("chatty", "json"), "-o", external)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no seat", []string{snake}, "--seat is required"},
		{"seat the match lacks", []string{snake, "--seat", "6"}, "--seat 6: the match has seats 1 to 5"},
		{"from 0", []string{snake, "--seat", "1", "--from", "0"}, "--from 0: the match has turns 1 to 915"},
		{"to past the end", []string{snake, "--seat", "1", "--to", "916"}, "--to 916: give a turn from --from (1) to the match's last, 915"},
		{"to before from", []string{snake, "--seat", "1", "--from", "10", "--to", "5"}, "--to 5: give a turn from --from (10)"},
		{"every 0", []string{snake, "--seat", "1", "--every", "0"}, "--every 0: give 1 or more"},
		{"bad alternatives", []string{snake, "--seat", "1", "--alternatives", "some"}, "--alternatives some: want all or a number from 1"},
		{"bot of another game", []string{snake, "--seat", "1", "--bot", "builtin:astar"}, `game snake has no built-in bot "astar"`},
		{"external seat unnamed", []string{external, "--seat", "1"}, "Seat 1 (json); give each a bot with --bot SEAT=SPEC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cli(t, append([]string{"critical"}, tt.args...)...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, %q; want exit 2 and %q", code, stderr, tt.want)
			}
		})
	}
}
