package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/replaylab/replaylab/store"
)

// botSpec is the --bot value running the test bot replay/testdata/bots/NAME.sh.
func botSpec(name string, args ...string) string {
	return strings.Join(append([]string{"/bin/sh", filepath.Join("..", "..", "replay", "testdata", "bots", name+".sh")}, args...), " ")
}

func TestRecordSavesBotOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", botSpec("chatty", "json"), "-o", out)
	mustCLI(t, "verify", out)
	f, err := os.Open(out + ".output.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type line struct {
		Turn   int    `json:"turn"`
		Seat   int    `json:"seat"`
		Stream string `json:"stream"`
		Text   string `json:"text"`
	}
	texts := map[int]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("bad output line %q: %v", sc.Text(), err)
		}
		if l.Stream == store.Times {
			continue // TestRecordKeepsAnswerTimes
		}
		if l.Stream != "stdout" || l.Seat != 0 {
			t.Errorf("got stream %q of seat %d, want stdout of seat 0", l.Stream, l.Seat)
		}
		texts[l.Turn] += l.Text
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(texts) < 2 {
		t.Errorf("got output for %d turns, want every turn but the first", len(texts))
	}
	for turn, text := range texts {
		// The debug lines of a turn follow its answer, so they are the
		// next turn's.
		if want := "debug " + strconv.Itoa(turn-1) + ".0\n"; !strings.Contains(text, want) {
			t.Errorf("turn %d: got output %.40q, want it to hold %q", turn, text, want)
		}
	}
}

// TestRecordOutputOnePiecePerTurn: however much a bot writes after its
// last answer, and in bytes that are not UTF-8, the output file holds one
// line per turn, seat and stream, each one the store takes, and import
// stores them so.
func TestRecordOutputOnePiecePerTurn(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", botSpec("farewell", "binary"), "-o", out)
	data, err := os.ReadFile(out + ".output.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		turn   int
		stream string
	}
	seen := map[key]bool{}
	last := 0
	for line := range bytes.Lines(data) {
		var o struct {
			Turn   int    `json:"turn"`
			Stream string `json:"stream"`
			Text   string `json:"text"`
		}
		if err := json.Unmarshal(line, &o); err != nil {
			t.Fatalf("bad output line %.60q: %v", line, err)
		}
		if k := (key{o.Turn, o.Stream}); seen[k] {
			t.Errorf("turn %d: got a second %s line, want one", o.Turn, o.Stream)
		} else {
			seen[k] = true
		}
		if len(o.Text) > store.MaxBotOutput || !utf8.ValidString(o.Text) {
			t.Errorf("turn %d: got %d bytes of %s, valid UTF-8 %v; want at most %d, valid", o.Turn, len(o.Text), o.Stream, utf8.ValidString(o.Text), store.MaxBotOutput)
		}
		last = max(last, o.Turn)
	}
	if last < 2 {
		t.Fatalf("got output up to turn %d, want a match of two turns at least", last)
	}
	if _, err := store.ReadBotOutput(bytes.NewReader(data)); err != nil {
		t.Errorf("read the output file: %v", err)
	}
	got := importedOutput(t, out, last)
	if len(got) != 2 || !strings.HasSuffix(got[0].Text, " bytes truncated]\n") || !strings.HasSuffix(got[1].Text, " bytes truncated]\n") {
		t.Errorf("turn %d: got %.300v, want a cut stderr and stdout", last, got)
	}
}

// importedOutput imports the replay at path, with the bot output file
// beside it, into a new database and returns the output stored for turn.
func importedOutput(t *testing.T, path string, turn int) []store.BotOutput {
	t.Helper()
	db, m := importOne(t, path)
	got, err := db.BotOutputAt(context.Background(), m.ID, turn)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// importOne imports the replay at path into a new database and returns
// the database, open until the test ends, and the match.
func importOne(t *testing.T, path string) (*store.DB, store.MatchSummary) {
	t.Helper()
	dbPath := filepath.Join(t.TempDir(), "x.db")
	mustCLI(t, "import", "--db", dbPath, path)
	db, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ms, _, err := db.Matches(context.Background(), store.MatchFilter{Limit: 1})
	if err != nil || len(ms) != 1 {
		t.Fatalf("matches: got %d, %v; want 1", len(ms), err)
	}
	return db, ms[0]
}

// TestImportReadsBotOutput checks that import stores the output file
// record saved beside the replay, so the inspector can show it.
func TestImportReadsBotOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", botSpec("chatty", "json"), "-o", out)
	got := importedOutput(t, out, 3)
	if len(got) != 1 || got[0].Stream != store.Stdout || !strings.Contains(got[0].Text, "debug 2.0\n") {
		t.Errorf("turn 3 output: got %.200v, want seat 0's stdout holding the debug lines of turn 2", got)
	}
}

// TestRecordKeepsAnswerTimes: record saves each external bot's answer
// times in the output file, at least what the bot slept before each
// answer, and import stores them.
func TestRecordKeepsAnswerTimes(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.rpl")
	const sleep = 30 * time.Millisecond
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--turn-timeout", "10s", "--bot", botSpec("slow", "0.03"), "-o", out)
	lines := readOutputFile(t, out+".output.jsonl")
	if len(lines) != 1 || lines[0].Stream != store.Times || lines[0].Seat != 0 || len(lines[0].Times) == 0 {
		t.Fatalf("got output file %+v, want only seat 0's answer times", lines)
	}
	if lines[0].Limit != 10*time.Second {
		t.Errorf("got turn limit %v, want --turn-timeout's 10s", lines[0].Limit)
	}
	file := lines[0].Times
	for i, d := range file {
		if d < sleep {
			t.Errorf("turn %d: got time %v, want at least the bot's sleep %v", i+1, d, sleep)
		}
	}
	db, m := importOne(t, out)
	if m.Turns != len(file) {
		t.Errorf("got times for %d turns of %d, want every turn", len(file), m.Turns)
	}
	got, err := db.BotTimes(context.Background(), m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !slices.Equal(got[0].Times, file) {
		t.Errorf("stored times: got %+v, want the file's %v", got, file)
	}
}

// TestRecordKeepsDebugDrawings: record saves what an external bot drew
// in the output file, a debug line per turn, and import stores them.
func TestRecordKeepsDebugDrawings(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "1", "--turn-timeout", "10s", "--bot", botSpec("drawing"), "-o", out)
	lines := readOutputFile(t, out+".output.jsonl")
	drawn := map[int]string{}
	for _, l := range lines {
		if l.Stream == store.Debug {
			drawn[l.Turn] = l.Text
		}
	}
	db, m := importOne(t, out)
	if len(drawn) != m.Turns {
		t.Fatalf("got debug lines for turns %v, want one for each of %d turns", drawn, m.Turns)
	}
	got, err := db.BotDebugAt(context.Background(), m.ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"mark":[3,1]},{"line":[0,0,2,3],"color":"red"},{"text":"t2","at":[1,2]}]`; len(got) != 1 || got[0].Text != want || drawn[2] != want {
		t.Errorf("turn 2: stored %+v, file %s; want %s in both", got, drawn[2], want)
	}
}

// TestRecordBuiltinDebug: --builtin-debug keeps a built-in bot's drawings
// as an external bot's are kept, in the output file and the store, with
// the replay of a record without it; without it there is no output file.
func TestRecordBuiltinDebug(t *testing.T) {
	dir := t.TempDir()
	plain, drawn := filepath.Join(dir, "plain.rpl"), filepath.Join(dir, "drawn.rpl")
	args := []string{"record", "--game", "worms", "--seed", "4", "--bot", "builtin:tactical", "--bot", "builtin:random"}
	mustCLI(t, append(args, "-o", plain)...)
	mustCLI(t, append(args, "--builtin-debug", "-o", drawn)...)
	if _, err := os.Stat(plain + ".output.jsonl"); !os.IsNotExist(err) {
		t.Errorf("an output file without --builtin-debug: %v", err)
	}
	turns := map[int]bool{}
	for _, l := range readOutputFile(t, drawn+".output.jsonl") {
		if l.Stream != store.Debug || l.Seat != 0 {
			t.Errorf("output line %+v, want only Seat 1's drawings", l)
		}
		turns[l.Turn] = true
	}
	db, m := importOne(t, drawn)
	if len(turns) < m.Turns/2 {
		t.Errorf("drawings in %d of %d turns, want most", len(turns), m.Turns)
	}
	if want := regexp.MustCompile(`id ([0-9a-f]{12})`).FindStringSubmatch(mustCLI(t, "verify", plain))[1]; !strings.HasPrefix(m.ID, want) {
		t.Errorf("id %s with drawings, %s without", m.ID, want)
	}
	seats, err := db.BotDebugSeats(context.Background(), m.ID)
	if err != nil || len(seats) != 1 || seats[0] != 0 {
		t.Errorf("stored drawings of seats %v (%v), want Seat 1's", seats, err)
	}
}

// readOutputFile reads the bot output file at path.
func readOutputFile(t *testing.T, path string) []store.BotOutput {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := store.ReadBotOutput(f)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestRecordInterrupted(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.rpl")
	old := []byte("an earlier replay")
	if err := os.WriteFile(out, old, 0o644); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "bot.pid")
	// The bot never answers and ignores SIGTERM; the user gives up.
	code, errOut := runInterrupted(t, pidFile, "record", "--game", "toad", "--seed", "1", "--turn-timeout", "1m", "--start-timeout", "1m",
		"--bot", botSpec("noterm", pidFile, "mute"), "-o", out)
	if code == 0 || !strings.Contains(errOut, "no replay written") {
		t.Errorf("got exit %d and stderr %q, want a failure saying no replay was written", code, errOut)
	}
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, old) {
		t.Errorf("got output file %q (%v), want it untouched: %q", got, err, old)
	}
	checkBotEnded(t, pidFile)
}

// runInterrupted runs the program with args and ends its context once
// the bot has started (pidFile, which the test bot writes, exists) and
// 200 ms more have passed, as a user giving up on a silent bot would, and
// returns its exit code and stderr. The program must stop within 20 s of
// that. Waiting for the bot, rather than a fixed time, keeps a loaded
// machine from interrupting the program before the bot is started.
func runInterrupted(t *testing.T, pidFile string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr bytes.Buffer
	done := make(chan int)
	go func() { done <- run(ctx, args, strings.NewReader(""), &stdout, &stderr) }()
	started := time.NewTicker(10 * time.Millisecond)
	defer started.Stop()
	var stop <-chan time.Time
	giveUp := time.After(2 * time.Minute)
	for {
		select {
		case code := <-done:
			return code, stderr.String()
		case <-started.C:
			if _, err := os.Stat(pidFile); err == nil && stop == nil {
				stop = time.After(200 * time.Millisecond)
			}
		case <-stop:
			cancel()
			select {
			case code := <-done:
				return code, stderr.String()
			case <-time.After(20 * time.Second):
				t.Fatalf("%s did not stop within 20 s of its context's end", args[0])
				return 0, ""
			}
		case <-giveUp:
			t.Fatalf("%s: the bot did not start within 2 minutes", args[0])
			return 0, ""
		}
	}
}

// checkBotEnded checks that the bot whose pid is in pidFile (a test bot
// such as noterm writes it) no longer runs. The bot was a child of this
// test, so once its exit has been waited for, no process has its pid.
func checkBotEnded(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the bot (pid %d) still runs: kill 0 says %v", pid, err)
	}
}

// TestRecordSeats checks the seat count of a recording without --players
// against what record --help promises: one seat per --bot, unless the game
// or ruleset cannot seat that few, then the game's default count.
func TestRecordSeats(t *testing.T) {
	const promise = "default: one per --bot, or the game's default count when it cannot seat that few"
	if help := mustCLI(t, "record", "--help"); !strings.Contains(help, promise) {
		t.Errorf("record --help does not say %q:\n%s", promise, help)
	}
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"--game", "foodfight", "--bot", "builtin:dummy", "--bot", "builtin:hider"}, 2}, // a DUEL, not FREE_FOR_ALL
		{[]string{"--game", "foodfight", "--bot", "builtin:dummy"}, 3},
		{[]string{"--game", "foodfight", "--players", "4", "--bot", "builtin:dummy", "--bot", "builtin:hider"}, 4},
		{[]string{"--game", "snake", "--bot", "builtin:random"}, 5},
		{[]string{"--game", "snake", "--bot", "builtin:random", "--bot", "builtin:random", "--bot", "builtin:random"}, 3},
		{[]string{"--game", "worms", "--bot", "builtin:random"}, 2},
		{[]string{"--game", "careerfair", "--bot", "builtin:idle"}, 2}, // awap2019 seats two teams
		{[]string{"--game", "careerfair", "--ruleset", "runner", "--bot", "builtin:idle"}, 1},
		{[]string{"--game", "toad", "--bot", "builtin:random"}, 1},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			text := mustCLI(t, append([]string{"record", "--seed", "1", "-o", "-"}, tt.args...)...)
			header, _, _ := strings.Cut(text, "\n")
			var h struct{ Players []json.RawMessage }
			if err := json.Unmarshal([]byte(header), &h); err != nil {
				t.Fatalf("header %q: %v", header, err)
			}
			if len(h.Players) != tt.want {
				t.Errorf("got %d players, want %d", len(h.Players), tt.want)
			}
		})
	}
}

// TestRecordNamesWinningTeam names every seat of the winning team of a
// FoodFight TEAM match, as the match page marks them all.
func TestRecordNamesWinningTeam(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.rpl")
	code, _, stderr := cli(t, "record", "--game", "foodfight", "--seed", "4", "--config", `{"match_type":"TEAM"}`, "-o", out,
		"--bot", "builtin:thrower", "--bot", "builtin:random", "--bot", "builtin:dummy", "--bot", "builtin:random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "winners Seat 1, Seat 2 (thrower, random)") && !strings.Contains(stderr, "winners Seat 3, Seat 4 (dummy, random)") {
		t.Errorf("stderr %q: want both seats of the winning team named", stderr)
	}
}
