package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim/games"
)

// liner is the example-style AWAP 2019 team of package awap's tests.
var liner = filepath.Join("..", "..", "replay", "awap", "testdata", "liner", "team.py")

func TestProtocolSpecs(t *testing.T) {
	tests := []struct {
		game, spec string
		wantErr    string // "" = accepted
		wantName   string
	}{
		{"snake", "codenjoy:python3 bot.py {url}", "", "bot.py"},
		{"snake", "codenjoy-listen", "", "codenjoy-listen"},
		{"snake", "codenjoy:", "no bot command", ""},
		{"toad", "codenjoy:python3 bot.py {url}", "codenjoy bots play snake only, not toad", ""},
		{"careerfair", "awap2019:" + liner, "", "liner"},
		{"careerfair", "awap2019:bots/best.py", "", "best.py"},
		{"careerfair", "awap2019:", "no bot command", ""},
		{"snake", "awap2019:" + liner, "awap2019 bots play careerfair only, not snake", ""},
		{"worms", "entelect:bots/mine", "", "mine"},
		{"worms", "entelect:", "no bot command", ""},
		{"toad", "entelect:bots/mine", "entelect bots play worms only, not toad", ""},
		{"toad", "toad-solver:python3 src/puzzle4.py {input} {output}", "", "puzzle4.py"},
		{"worms", "toad-solver:./solve", "toad-solver bots play toad only, not worms", ""},
		{"foodfight", "foodfight-runner:java -Xmx32m -jar runner.jar bot.jar org.me.Main", "", "org.me.Main"},
		{"foodfight", "foodfight-runner:", "no bot command", ""},
	}
	for _, tc := range tests {
		t.Run(tc.game+" "+tc.spec, func(t *testing.T) {
			g, err := games.Lookup(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			err = checkProtocol(g, tc.spec)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v", err)
			}
			if got := playerFor(tc.spec, 0, &recordFlags{}).Name; got != tc.wantName {
				t.Errorf("name %q, want %q", got, tc.wantName)
			}
		})
	}
}

// TestProtocolFingerprints: a team's fingerprint digests its file and
// the protocol, so the same file run as a JSON-lines bot differs, and a
// bot started by hand has none.
func TestProtocolFingerprints(t *testing.T) {
	adapted, err := botFingerprint("awap2019:" + liner)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := botFingerprint("python3 " + liner)
	if err != nil {
		t.Fatal(err)
	}
	if adapted == "" || adapted == plain {
		t.Errorf("awap2019 fingerprint %q, JSON lines %q: want two different ones", adapted, plain)
	}
	if fp, err := botFingerprint(codenjoyListen); err != nil || fp != "" {
		t.Errorf("codenjoy-listen: got %q, %v; want none", fp, err)
	}
}

// TestAWAPRecordAndFork records a match of the example team through its
// adapter, then forks it with the same team: the team repeats the
// recorded commands, as a deterministic bot should.
func TestAWAPRecordAndFork(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cf.rpl")
	code, _, stderr := cli(t, "record", "--game", "careerfair", "--seed", "5", "--bot", "awap2019:"+liner, "--bot", "builtin:greedy", "-o", path)
	if code != 0 || strings.Contains(stderr, "Seat 1 (liner):") {
		t.Fatalf("record: exit %d, trouble:\n%s", code, stderr)
	}
	code, out, stderr := cli(t, "fork", path, "--at", "200", "--bot", "1=awap2019:"+liner, "-o", filepath.Join(dir, "fork.rpl"))
	if want := "Seat 1 (liner): the bot repeats the recorded commands up to turn 200"; code != 0 || !strings.Contains(out+stderr, want) {
		t.Errorf("fork: exit %d, says:\n%s%s\nwant %q", code, out, stderr, want)
	}
}

// TestCodenjoyRecordAndFork records a Snake match of package codenjoy's
// test bot through the websocket, then forks it with the same bot: the
// bot repeats the recorded commands.
func TestCodenjoyRecordAndFork(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "bot")
	build := exec.Command("go", "build", "-o", bot, "../../replay/codenjoy/testdata/bot")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build the test bot: %v", err)
	}
	spec := "codenjoy:" + bot + " -mode walk {url}"
	path := filepath.Join(dir, "snake.rpl")
	code, _, stderr := cli(t, "record", "--game", "snake", "--seed", "3", "--bot", spec, "--bot", "builtin:greedy", "-o", path)
	if code != 0 || strings.Contains(stderr, "Seat 1 (walk):") {
		t.Fatalf("record: exit %d, trouble:\n%s", code, stderr)
	}
	code, out, stderr := cli(t, "fork", path, "--at", "150", "--bot", "1="+spec, "-o", filepath.Join(dir, "fork.rpl"))
	if want := "Seat 1 (walk): the bot repeats the recorded commands up to turn 150"; code != 0 || !strings.Contains(out+stderr, want) {
		t.Errorf("fork: exit %d, says:\n%s%s\nwant %q", code, out, stderr, want)
	}
}

// TestRunnerProtocols records a match with a bot of each original
// runner's protocol the CLI accepts, forks it with the same bot, and
// refuses a spec of another game.
func TestRunnerProtocols(t *testing.T) {
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
		// A spec the game cannot seat is a mistake in the flags: exit 2.
		if code != 2 || !strings.Contains(errOut, "toad-solver bots play toad only, not snake") {
			t.Errorf("got exit %d, stderr %q; want exit 2 and a refusal naming the games", code, errOut)
		}
	})
}
