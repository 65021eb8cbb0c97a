package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOriginalProtocols records a match with a bot of each original
// runner's protocol the CLI accepts, forks it with the same bot, and
// refuses a spec of another game.
func TestOriginalProtocols(t *testing.T) {
	if testing.Short() {
		t.Skip("real bot processes")
	}
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	solver := write("solver.sh", "#!/bin/sh\nread -r n\ni=0\nwhile [ $i -lt $n ]; do printf D; i=$((i+1)); done\necho\n")
	write("worm/bot.json", `{"botLocation":"/","botFileName":"bot.sh","botLanguage":"cplusplus"}`)
	write("worm/bot.sh", "#!/bin/sh\nwhile read -r n; do echo \"C;$n;nothing\"; done\n")

	for _, tc := range []struct{ name, game, config, spec, command string }{
		{"toad", "toad", `{"rolls":[0,0,0,0,0,0]}`, "toad-solver:" + solver, "D"},
		{"worms", "worms", `{"rounds":4}`, "entelect:" + filepath.Join(dir, "worm"), "C;1;nothing"},
		// The stand-in for BitBrawl's runner jar that the adapter's tests use.
		{"foodfight", "foodfight", `{"match_type":"DUEL"}`, "foodfight-runner:python3 " + filepath.Join("..", "..", "replay", "bitbrawl", "testdata", "runner.py"), "turnLeft"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath("python3"); err != nil && strings.Contains(tc.spec, "python3") {
				t.Skip("no python3")
			}
			out := filepath.Join(dir, tc.name+".rlog")
			args := []string{"record", "--game", tc.game, "--seed", "1", "--config", tc.config, "--bot", tc.spec, "-o", out}
			if tc.game != "toad" { // the bot plays itself
				args = append(args, "--bot", tc.spec)
			}
			mustCLI(t, args...)
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), "1\t"+tc.command) {
				t.Errorf("the replay lacks turn 1's %q:\n%s", tc.command, data)
			}
			if strings.Contains(string(data), `"fingerprint":""`) {
				t.Errorf("a seat has no fingerprint:\n%s", data)
			}
			fork := filepath.Join(dir, tc.name+"-fork.rlog")
			args = []string{"fork", out, "--at", "2", "--bot", "1=" + tc.spec, "-o", fork}
			if tc.game != "toad" {
				args = append(args, "--bot", "2="+tc.spec)
			}
			code, stdout, stderr := cli(t, args...)
			if code != 0 || !strings.Contains(stdout+stderr, "repeats the recorded commands") {
				t.Errorf("fork: got exit %d, %q; want the bot to repeat the recorded commands", code, stdout+stderr)
			}
		})
	}
	t.Run("other game", func(t *testing.T) {
		code, _, errOut := cli(t, "record", "--game", "snake", "--bot", "toad-solver:"+solver, "-o", filepath.Join(dir, "x.rlog"))
		if code == 0 || !strings.Contains(errOut, "a solver plays toad, not snake") {
			t.Errorf("got exit %d, stderr %q; want a refusal naming the games", code, errOut)
		}
	})
}
