package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
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

// TestCriticalResume sweeps a 12-turn match into a database in three runs
// cut short by --max-forks, checks each resumes where the last stopped,
// with the stored forks counted done by the progress from the start, and
// that the final report is the one of an uninterrupted run.
func TestCriticalResume(t *testing.T) {
	dir := t.TempDir()
	won := filepath.Join(dir, "won.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--config", `{"turns":12}`, "--bot", "builtin:astar", "-o", won)
	id, _, _ := parentOf(t, won)
	want := mustCLI(t, "critical", won, "--seat", "1")
	wantJSON := mustCLI(t, "critical", won, "--seat", "1", "--json")
	db := filepath.Join(dir, "lab.db")
	// A command line mistake stores nothing, not even the match.
	if code, _, stderr := cli(t, "critical", "--db", db, "--seat", "2", won); code != 2 || !strings.Contains(stderr, "--seat 2") {
		t.Errorf("--seat 2: got exit %d, %q; want exit 2 naming it", code, stderr)
	}
	if got := storedMatches(t, db); got != 0 {
		t.Errorf("after a refused command: %d matches stored, want none", got)
	}
	runs := []struct {
		name    string
		args    []string
		resumed string // the line on stderr, "" for none
		stored  int    // forks in the database after it
	}{
		// River Toad has 4 alternatives a turn: 10 forks are 2 turns.
		{"first part", []string{won, "--max-forks", "10"}, "", 8},
		{"second part", []string{won, "--max-forks", "10"}, "resuming: 8 of 16 forks already played", 16},
		{"the rest, by the stored id", []string{id[:12]}, "resuming: 16 of 48 forks already played", 48},
		{"all played", []string{won}, "resuming: 48 of 48 forks already played", 48},
	}
	for _, r := range runs {
		code, out, stderr := cli(t, append([]string{"critical", "--db", db, "--seat", "1"}, r.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", r.name, code, stderr)
		}
		if r.resumed != "" && !strings.Contains(stderr, r.resumed) || r.resumed == "" && strings.Contains(stderr, "resuming") {
			t.Errorf("%s: stderr\n%s\nwant %q", r.name, stderr, r.resumed)
		}
		if got := storedForks(t, db, id); got != r.stored {
			t.Errorf("%s: %d forks stored, want %d", r.name, got, r.stored)
		}
		if r.stored == 48 && out != want {
			t.Errorf("%s: report\n%s\nwant as an uninterrupted run\n%s", r.name, out, want)
		}
		// Off a terminal progress prints a line per tenth of the forks:
		// none may count fewer than those found stored.
		for _, m := range regexp.MustCompile(`critical: (\d+)/`).FindAllStringSubmatch(stderr, -1) {
			if n, _ := strconv.Atoi(m[1]); r.stored == 48 && n < 16 {
				t.Errorf("%s: progress line %q counts fewer than the 16 forks resumed", r.name, m[0])
			}
		}
	}
	got := mustCLI(t, "critical", "--db", db, "--seat", "1", won, "--json")
	if strings.Replace(got, `"resumed": 48`, `"resumed": 0`, 1) != wantJSON {
		t.Errorf("--json of the resumed sweep:\n%s\nwant as an uninterrupted run's but resumed\n%s", got, wantJSON)
	}
	// Another bot is another sweep.
	_, _, stderr := cli(t, "critical", "--db", db, "--seat", "1", won, "--bot", "builtin:random")
	if strings.Contains(stderr, "resuming") {
		t.Errorf("a sweep with another bot: stderr %q, want it played afresh", stderr)
	}
}

// storedMatches counts the matches stored in the database at path.
func storedMatches(t *testing.T, path string) int {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n, err := db.CountMatches(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// storedForks counts the forks stored of the sweeps of match id.
func storedForks(t *testing.T, path, id string) int {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sweeps, err := db.Sweeps(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range sweeps {
		n += len(s.Forks)
	}
	return n
}

func TestCriticalJSON(t *testing.T) {
	dir := t.TempDir()
	lost := filepath.Join(dir, "lost.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", "builtin:random", "-o", lost)
	id, _, _ := parentOf(t, lost)
	tests := []struct {
		name    string
		args    []string
		stopped string
		swept   *sweptJSON
		turns   int
		changes []changeJSON
	}{
		{"whole", nil, "", &sweptJSON{From: 1, To: 5, Forks: 20}, 5, []changeJSON{
			{Turn: 1, Recorded: "A", Command: "S", resultJSON: resultJSON{sim.Win, 1, 5}, Better: true},
			{Turn: 1, Recorded: "A", Command: "D", resultJSON: resultJSON{sim.Win, 1, 5}, Better: true},
		}},
		{"max forks", []string{"--max-forks", "9"}, "max-forks", &sweptJSON{From: 1, To: 2, Forks: 8}, 2, nil},
		{"time limit", []string{"--time-limit", "1ns"}, "time-limit", nil, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mustCLI(t, append([]string{"critical", lost, "--seat", "1", "--bot", "builtin:astar", "--json"}, tt.args...)...)
			var got criticalJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v in\n%s", err, out)
			}
			if got.Match != id || got.SeatIndex != 0 || got.SeatNumber != 1 || got.Recorded != (resultJSON{sim.Loss, 1, 0}) || got.Bot != "builtin:astar" {
				t.Errorf("got match %s, seat index %d, number %d, recorded %+v, bot %s; want %s, 0, 1, a loss at rank 1, builtin:astar",
					got.Match, got.SeatIndex, got.SeatNumber, got.Recorded, got.Bot, id)
			}
			if got.Stopped != tt.stopped || !reflect.DeepEqual(got.Swept, tt.swept) {
				t.Errorf("got stopped %q, swept %+v; want %q, %+v", got.Stopped, got.Swept, tt.stopped, tt.swept)
			}
			if len(got.Turns) != tt.turns {
				t.Fatalf("got %d turns, want %d: %+v", len(got.Turns), tt.turns, got.Turns)
			}
			if tt.turns > 0 && got.Turns[0] != (sweptTurnJSON{Turn: 1, Forks: 4, Changes: 2, Better: 2}) {
				t.Errorf("turn 1: got %+v, want 4 forks, 2 better", got.Turns[0])
			}
			if tt.changes != nil && !reflect.DeepEqual(got.Changes, tt.changes) {
				t.Errorf("changes: got %+v, want %+v", got.Changes, tt.changes)
			}
		})
	}
}
