package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFirstBot: the README's starter bot (docs/examples/first_bot.py)
// plays whole Worms matches without a rejected command, a time-out or a
// crash, beats the random bot and draws valid debug shapes: a newcomer's
// copy starts from a bot that works.
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
		// Its debug drawing is kept, every shape of it valid.
		output, err := os.ReadFile(out + ".output.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(output, []byte(`"stream":"debug"`)) || bytes.Contains(output, []byte("[debug:")) {
			t.Errorf("seed %s: want debug drawings and no note about them in the output file, got:\n%.500s", seed, output)
		}
	}
}
