package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim/games"
)

// TestViewIsTheFirstRequest compares view --raw with the first line a real
// external bot reads: the recorder's own request, byte for byte.
func TestViewIsTheFirstRequest(t *testing.T) {
	dir := t.TempDir()
	bot, got := filepath.Join(dir, "bot.sh"), filepath.Join(dir, "request")
	script := "read -r req\nprintf '%s\\n' \"$req\" >\"$1\"\necho D\nwhile read -r req; do echo D; done\n"
	if err := os.WriteFile(bot, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, "record", "--game", "toad", "--seed", "3", "--bot", "/bin/sh "+bot+" "+got, "-o", filepath.Join(dir, "m.rpl"))
	read, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if shown := mustCLI(t, "view", "--game", "toad", "--seed", "3", "--raw"); shown != string(read) {
		t.Errorf("view --raw printed\n%s\nthe bot read\n%s", shown, read)
	}
}

// TestViewIsTheRecordedMatch checks, for every game and ruleset, that view
// shows the match the game's last built-in bot records with the same
// flags: its request before --turn is the one the recorder would send,
// built from the regenerated match. The indented form is the same JSON.
func TestViewIsTheRecordedMatch(t *testing.T) {
	for _, g := range games.All() {
		for _, rs := range g.Rulesets {
			turn, seat := 7, g.DefaultPlayers-1
			t.Run(g.Name+"/"+rs, func(t *testing.T) {
				args := []string{"--game", g.Name, "--ruleset", rs, "--seed", "2"}
				out := filepath.Join(t.TempDir(), "m.rpl")
				record := append([]string{"record", "--players", strconv.Itoa(g.DefaultPlayers), "--bot", "builtin:" + g.Bots[len(g.Bots)-1].Name, "-o", out}, args...)
				mustCLI(t, record...)
				want := requestAt(t, out, turn, seat)
				viewArgs := append([]string{"view", "--turn", strconv.Itoa(turn), "--seat", strconv.Itoa(seat + 1)}, args...)
				if got := mustCLI(t, append(viewArgs, "--raw")...); got != want {
					t.Errorf("view --raw printed\n%.300s\nthe recorded match's request is\n%.300s", got, want)
				}
				indented := mustCLI(t, viewArgs...)
				var compact bytes.Buffer
				if err := json.Compact(&compact, []byte(indented)); err != nil {
					t.Fatalf("the indented view is not JSON: %v", err)
				}
				if compact.String()+"\n" != want {
					t.Errorf("the indented view is other JSON than the request:\n%.300s", indented)
				}
			})
		}
	}
}

// requestAt regenerates the replay at path and returns the request the
// recorder sends seat before turn.
func requestAt(t *testing.T, path string, turn, seat int) string {
	t.Helper()
	l, err := readReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	req, err := requestBefore(context.Background(), l, turn, seat)
	if err != nil {
		t.Fatalf("regenerate %s to turn %d: %v", path, turn-1, err)
	}
	return string(req)
}

func TestViewFields(t *testing.T) {
	all := mustCLI(t, "view", "--game", "worms", "--fields")
	base := mustCLI(t, "view", "--game", "worms", "--ruleset", "base", "--fields")
	for _, want := range []string{"| `myPlayer.worms[].weapon.range` |", "| `lavaDamage` | (final only) Damage"} {
		if !strings.Contains(all, want) {
			t.Errorf("view --fields of worms lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(base, "| `lavaDamage` |") || strings.Contains(base, "(final only)") {
		t.Errorf("view --fields of worms/base shows a final field or marks:\n%s", base)
	}
	if snake := mustCLI(t, "view", "--game", "snake", "--fields"); !strings.Contains(snake, "| `►` | own snake: head, moving right |") {
		t.Errorf("view --fields of snake lacks the legend:\n%s", snake)
	}
}

func TestViewErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess"}, `unknown game "chess"`},
		{[]string{"--game", "toad", "--turn", "0"}, "--turn 0: turns count from 1"},
		{[]string{"--game", "worms", "--seat", "3"}, "--seat 3: the match has seats 1 to 2"},
		{[]string{"--game", "worms", "--seat", "0"}, "--seat 0: the match has seats 1 to 2"},
		{[]string{"--game", "toad", "--config", `{"turns":3}`, "--turn", "5"}, "--turn 5: the match is over after turn 3"},
		{[]string{"--game", "toad", "--ruleset", "modern"}, `no ruleset "modern"`},
		{[]string{"--game", "toad", "--ruleset", "modern", "--fields"}, `no ruleset "modern"`},
		{[]string{"--game", "toad", "--raw", "--fields"}, "--raw and --fields: choose one"},
		{[]string{"--game", "snake", "--players", "1"}, "takes 2 to 15 players, got 1"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, append([]string{"view"}, tt.args...)...)
			if code != 2 || out != "" || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tt.want)
			}
		})
	}
}
