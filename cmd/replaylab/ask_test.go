package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestAsk(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.rpl")
	// The game's last built-in bot in every seat: the match view shows.
	mustCLI(t, "record", "--game", "snake", "--seed", "2", "--players", "5", "--bot", "builtin:greedy", "-o", path)
	l, err := readReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	last := len(l.Turns)
	tests := []struct {
		name  string
		args  []string
		lines []string
	}{
		{
			name: "one turn",
			args: []string{"--turn", "7", "--seat", "5"},
			lines: []string{
				"Seat 5 (greedy@builtin): the bot repeats the recorded commands up to turn 6",
				fmt.Sprintf("turn 7, Seat 5 (greedy@builtin): recorded %q, now %q", l.Turns[6][4], l.Turns[6][4]),
			},
		},
		{
			name:  "turns on",
			args:  []string{"--turn", "7", "--seat", "5", "--turns", "3"},
			lines: []string{fmt.Sprintf("turn 9, Seat 5 (greedy@builtin): recorded %q, now %q", l.Turns[8][4], l.Turns[8][4])},
		},
		{
			name:  "to the end",
			args:  []string{"--turn", fmt.Sprint(last - 1), "--seat", "5", "--turns", "10"},
			lines: []string{fmt.Sprintf("the match ends at turn %d: winner", last)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mustCLI(t, append([]string{"ask", path, "--bot", "builtin:greedy"}, tt.args...)...)
			for _, want := range tt.lines {
				if !strings.Contains(out, want) {
					t.Errorf("got\n%s\nwant a line %q", lastLines(out, 6), want)
				}
			}
		})
	}
	// The request is the one the recorder sent, whatever the bot asked:
	// view prints it from the same match (the same flags, greedy in every
	// seat).
	out := mustCLI(t, "ask", path, "--turn", "7", "--seat", "5", "--bot", "builtin:random")
	req, _, _ := strings.Cut(out, "\nSeat 5")
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(req)); err != nil {
		t.Fatalf("the request is not JSON: %v\n%.300s", err, req)
	}
	if want := mustCLI(t, "view", "--game", "snake", "--seed", "2", "--turn", "7", "--seat", "5", "--raw"); compact.String()+"\n" != want {
		t.Errorf("ask printed the request\n%.300s\nview prints\n%.300s", compact.String(), want)
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestAskExternalSeats: seats whose external bots the replay cannot
// start play their recorded commands.
func TestAskExternalSeats(t *testing.T) {
	path := recordExternalSnake(t, t.TempDir())
	out := mustCLI(t, "ask", path, "--turn", "20", "--seat", "1", "--bot", "builtin:greedy", "--turns", "5")
	if !strings.Contains(out, "turn 24, Seat 1 (greedy@builtin): recorded") {
		t.Errorf("got\n%s\nwant 5 turns played", lastLines(out, 6))
	}
	// The asked bot is external: fed turns 1-19, it repeats them.
	out = mustCLI(t, "ask", path, "--turn", "20", "--seat", "2", "--bot", botSpec("chatty", "json"))
	if !strings.Contains(out, "Seat 2 (json): the bot repeats the recorded commands up to turn 19") {
		t.Errorf("got\n%s\nwant the external bot to repeat", lastLines(out, 3))
	}
}

func TestAskErrors(t *testing.T) {
	path := recordSnake(t, t.TempDir(), "m.rpl")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"turn 0", []string{"--turn", "0", "--seat", "1", "--bot", "builtin:greedy"}, "--turn 0: the match has turns 1 to 915"},
		{"turn past the end", []string{"--turn", "916", "--seat", "1", "--bot", "builtin:greedy"}, "--turn 916: the match has turns 1 to 915"},
		{"seat the match lacks", []string{"--turn", "5", "--seat", "6", "--bot", "builtin:greedy"}, "--seat 6: the match has seats 1 to 5"},
		{"bot of another game", []string{"--turn", "5", "--seat", "2", "--bot", "builtin:astar"}, `--bot for Seat 2: game snake has no built-in bot "astar"`},
		{"no turn", []string{"--seat", "2", "--bot", "builtin:greedy"}, "--turn is required (or give --suite)"},
		{"no turns", []string{"--turn", "5", "--seat", "2", "--bot", "builtin:greedy", "--turns", "0"}, "--turns 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cli(t, append([]string{"ask", path}, tt.args...)...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, %q; want exit 2 and %q", code, stderr, tt.want)
			}
		})
	}
}

func TestAskSuite(t *testing.T) {
	dir := t.TempDir()
	recordSnake(t, dir, "m.rpl")
	l, err := readReplay(filepath.Join(dir, "m.rpl"))
	if err != nil {
		t.Fatal(err)
	}
	rec := l.Turns[19][0] // greedy's command at turn 20, which it repeats
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	pass := fmt.Sprintf(`{"replay":"m.rpl","turn":20,"seat":1,"expect":%q}`, regexp.QuoteMeta(rec))
	fail := fmt.Sprintf(`{"replay":"m.rpl","turn":20,"seat":1,"forbid":%q}`, regexp.QuoteMeta(rec))
	// The same positions in TOML, whose literal strings keep backslashes.
	tomlPass := fmt.Sprintf("[[position]]\nreplay = \"m.rpl\"\nturn = 20\nseat = 1\nexpect = '%s'\n", regexp.QuoteMeta(rec))
	tomlFail := fmt.Sprintf("[[position]]\nreplay = \"m.rpl\"\nturn = 20\nseat = 1\nforbid = '%s'\n", regexp.QuoteMeta(rec))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	tests := []struct {
		name, suite string
		json        bool
		code        int
		want        string
	}{
		{"all pass", write("pass.jsonl", "# greedy\n"+pass+"\n\n"+pass+"\n"), false, 0, "2 of 2 positions pass"},
		{"a failure", write("fail.json", "["+pass+","+fail+"]"), false, 1, "FAIL: matches forbidden"},
		{"json", write("fail2.json", "["+fail+"]"), true, 1, `"seat_index": 0`},
		{"turn past the end", write("bad.jsonl", `{"replay":"m.rpl","turn":916,"seat":1,"expect":"UP"}`), false, 2, "position 1: --turn 916: the match has turns 1 to 915"},
		{"neither pattern", write("none.jsonl", `{"replay":"m.rpl","turn":9,"seat":1}`), false, 2, "give one of expect and forbid"},
		{"unknown key", write("key.jsonl", `{"replay":"m.rpl","turn":9,"seat":1,"expct":"UP"}`), false, 2, `unknown field "expct"`},
		{"toml", write("pass.toml", "# greedy\n"+tomlPass+"\n"+tomlFail), false, 1, "1 of 2 positions pass"},
		{"toml by content", write("toml.suite", "\n# greedy\n"+tomlPass+tomlPass), false, 0, "2 of 2 positions pass"},
		{"toml relative to the suite", write("sub/up.toml", strings.Replace(tomlPass, "m.rpl", "../m.rpl", 1)), false, 0, "1 of 1 positions pass"},
		{"toml json output", write("fail.toml", tomlFail), true, 1, `"seat_index": 0`},
		{"toml unknown key", write("key.toml", tomlPass+"\n[[position]]\nreplay = \"m.rpl\"\nturn = 9\nseat = 1\nexpct = \"UP\"\n"), false, 2, `key.toml:11: unknown key "position.expct"`},
		{"toml wrong type", write("type.toml", "[[position]]\nreplay = \"m.rpl\"\nturn = \"9\"\n"), false, 2, "line 3"},
		{"toml neither pattern", write("none.toml", "[[position]]\nreplay = \"m.rpl\"\nturn = 9\nseat = 1\n"), false, 2, "position 1: give one of expect and forbid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"ask", "--suite", tt.suite, "--bot", "builtin:greedy"}
			if tt.json {
				args = append(args, "--json")
			}
			code, out, stderr := cli(t, args...)
			if code != tt.code || !strings.Contains(out+stderr, tt.want) {
				t.Errorf("got exit %d,\n%s%s\nwant exit %d and %q", code, out, stderr, tt.code, tt.want)
			}
		})
	}
}

// TestAskStored asks about a stored match named by an id prefix, and
// about one in a suite entry.
func TestAskStored(t *testing.T) {
	dir := t.TempDir()
	path := recordSnake(t, dir, "m.rpl")
	dbPath := importInto(t, dir, path)
	id, _, _ := parentOf(t, path)
	l, err := readReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	out := mustCLI(t, "ask", "--db", dbPath, id[:10], "--turn", "7", "--seat", "2", "--bot", "builtin:greedy")
	if want := fmt.Sprintf("turn 7, Seat 2 (greedy@builtin): recorded %q, now %q", l.Turns[6][1], l.Turns[6][1]); !strings.Contains(out, want) {
		t.Errorf("got\n%s\nwant a line %q", lastLines(out, 3), want)
	}
	suite := filepath.Join(dir, "stored.jsonl")
	os.WriteFile(suite, fmt.Appendf(nil, `{"replay":%q,"turn":7,"seat":2,"expect":%q}`, id[:8], regexp.QuoteMeta(l.Turns[6][1])), 0o644)
	if out := mustCLI(t, "ask", "--db", dbPath, "--suite", suite, "--bot", "builtin:greedy"); !strings.Contains(out, "1 of 1 positions pass") {
		t.Errorf("got\n%s\nwant the stored position to pass", out)
	}
	code, _, stderr := cli(t, "ask", "--db", dbPath, "feedfacefeedface", "--turn", "7", "--seat", "2", "--bot", "builtin:greedy")
	if code != 2 || !strings.Contains(stderr, "has no match with that id") {
		t.Errorf("unknown id: got exit %d, %q; want exit 2", code, stderr)
	}
}

// TestAskWrite writes the match ask played on: turns 1 to N-1 as
// recorded, then the turns played, naming its parent.
func TestAskWrite(t *testing.T) {
	dir := t.TempDir()
	path := recordSnake(t, dir, "m.rpl")
	l, err := readReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	last := len(l.Turns)
	out := filepath.Join(dir, "on.rpl")
	turn := fmt.Sprint(last - 5)
	code, stdout, stderr := cli(t, "ask", path, "--turn", turn, "--seat", "2", "--bot", "builtin:random", "--turns", "100", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "the match ends at turn") || !strings.Contains(stderr, "-> "+out) {
		t.Errorf("got\n%s%s\nwant the result and the file written", lastLines(stdout, 2), stderr)
	}
	mustCLI(t, "verify", out)
	parentID, _, _ := parentOf(t, path)
	if _, p, at := parentOf(t, out); p != parentID || at != last-6 {
		t.Errorf("got parent %s at %d, want %s at %d", p, at, parentID, last-6)
	}
	w, err := readReplay(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Header.Players[1].Name; got != "random" {
		t.Errorf("Seat 2 of the written match: got %q, want the bot asked", got)
	}

	external := recordExternalSnake(t, dir)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"not over", []string{path, "--turn", "7", "--seat", "2", "--turns", "3"}, "the match is not over after turn 9, and a replay holds a whole match"},
		{"stdout", []string{path, "--turn", "7", "--seat", "2", "-o", "-"}, "-o -: ask prints its report on stdout"},
		{"external seats", []string{external, "--turn", "7", "--seat", "1", "--turns", "1000"}, "Seat 2 (json), Seat 3 (json); fork the match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := filepath.Join(dir, "bad.rpl")
			args := append([]string{"ask", "--bot", "builtin:greedy", "-o", bad}, tt.args...)
			code, _, stderr := cli(t, args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, %q; want exit 2 and %q", code, stderr, tt.want)
			}
			if _, err := os.Stat(bad); err == nil {
				t.Error("a replay was written")
			}
		})
	}
}
