package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// troubledBot is the --bot of replay/testdata/bots/troubled.sh playing
// Worms: "nothing" on turn 1, text Worms rejects on turn 2, an answer
// 2.5 s late on turn 3 (past the 1 s --turn-timeout the tests give, which
// a loaded machine does not reach on the other turns),
// then an exit with a line on stderr.
var troubledBot = botSpec("troubled", "nothing", "2.5")

// seatTrouble matches the summary line of the troubled bot in a seat
// (counting from 1): the turn of the exit and the time-outs depend on
// when the late answer comes in, the rejected turn 2 does not.
func seatTrouble(seat string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^ *Seat ` + seat + ` \(troubled\): crashed at turn \d+, \d+ time-outs? (\(first )?at turn 3\)?, \d+ invalid commands \(first at turn 2\)$`)
}

// troubleLine matches a line of a seat's trouble, which starts with its
// seat; the result line names seats too, but further on.
var troubleLine = regexp.MustCompile(`(?m)^\s*Seat \d+`)

func TestRecordSaysTrouble(t *testing.T) {
	tests := []struct {
		name string
		bots []string
		want []*regexp.Regexp // lines stderr must hold
		// wantOutput says whether the summary names the bot output file.
		wantOutput bool
	}{
		{"troubled first", []string{"--bot", troubledBot, "--name", "troubled", "--bot", "builtin:random"}, []*regexp.Regexp{seatTrouble("1")}, true},
		{"troubled second", []string{"--bot", "builtin:random", "--name", "random", "--bot", troubledBot, "--name", "troubled"}, []*regexp.Regexp{seatTrouble("2")}, true},
		{"no trouble", []string{"--bot", "builtin:random", "--bot", "builtin:random"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "m.rpl")
			args := append([]string{"record", "--game", "worms", "--seed", "3", "--turn-timeout", "1s", "-o", out}, tt.bots...)
			code, _, stderr := cli(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, re := range tt.want {
				if !re.MatchString(stderr) {
					t.Errorf("stderr %q: want a line matching %s", stderr, re)
				}
			}
			if len(tt.want) == 0 && troubleLine.MatchString(stderr) {
				t.Errorf("stderr %q: want no trouble said", stderr)
			}
			outputLine := "the bots' stderr and stray output, turn by turn: " + out + ".output.jsonl"
			if got := strings.Contains(stderr, outputLine); got != tt.wantOutput {
				t.Errorf("stderr %q: holds %q is %v, want %v", stderr, outputLine, got, tt.wantOutput)
			}
		})
	}
}

func TestTournamentSaysTrouble(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lab.db")
	out := mustCLI(t, "tournament", "--db", db, "--game", "worms", "--seeds", "1", "--turn-timeout", "1s", "--workers", "2",
		"--bot", troubledBot, "--name", "troubled", "--bot", "builtin:random", "--bot", "builtin:tactical")
	// Two lineups with the troubled bot, each in both seat orders.
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^trouble in 4 of the 6 matches played; `),
		regexp.MustCompile(`(?m)^  seed 1, troubled vs random@builtin, match [0-9a-f]{12}:\n` + seatTrouble("1").String()[4:]),
		regexp.MustCompile(`(?m)^  seed 1, random@builtin vs troubled, match [0-9a-f]{12}:\n` + seatTrouble("2").String()[4:]),
	} {
		if !want.MatchString(out) {
			t.Errorf("stdout %q: want a match of %s", out, want)
		}
	}
	if n := len(seatTrouble(`\d`).FindAllString(out, -1)); n != 4 {
		t.Errorf("stdout %q: got %d trouble lines, want 4", out, n)
	}
	// A run that plays nothing new says nothing of the stored trouble.
	if again := mustCLI(t, "tournament", "--db", db, "--game", "worms", "--seeds", "1", "--turn-timeout", "1s",
		"--bot", troubledBot, "--name", "troubled", "--bot", "builtin:random", "--bot", "builtin:tactical"); strings.Contains(again, "trouble in") {
		t.Errorf("rerun: stdout %q, want no trouble: it played no match", again)
	}
}
