package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFirstBot: the README's starter bot (docs/examples/first_bot.py)
// plays whole Worms matches without a rejected command, a time-out or a
// crash, and beats the random bot: a newcomer's copy starts from a bot
// that works.
func TestFirstBot(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	bot := "python3 " + filepath.Join("..", "..", "docs", "examples", "first_bot.py")
	for _, seed := range []string{"3", "4"} {
		out := filepath.Join(t.TempDir(), "w.rpl")
		code, _, got := cli(t, "record", "--game", "worms", "--seed", seed, "--bot", bot, "--bot", "builtin:random", "-o", out)
		// A seat that had trouble gets a line of its own after the result.
		if code != 0 || !strings.Contains(got, "winner Seat 1 (first_bot.py)") || strings.Contains(got, "\nSeat 1") {
			t.Errorf("seed %s: want a clean win of Seat 1, got:\n%q", seed, got)
		}
	}
}
