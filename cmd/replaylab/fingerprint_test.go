package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/store"
)

// writeScriptBot writes a shell bot that answers every turn with command
// and returns the --bot spec running it through an interpreter, as
// "python3 bot.py" would, and the fingerprint of that spec. note goes into
// a comment: editing it changes the code, not what the bot plays.
func writeScriptBot(t *testing.T, path, command, note string) (spec, fp string) {
	t.Helper()
	script := fmt.Sprintf("#!/bin/sh\n# %s\nwhile read -r req; do echo %s; done\n", note, command)
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	spec = "/bin/sh " + path
	fp, err := replay.Fingerprint(strings.Fields(spec))
	if err != nil {
		t.Fatal(err)
	}
	return spec, fp
}

// TestTournamentFingerprint runs a tournament into one database again and
// again while its external bot's script changes: unchanged, its matches
// are skipped; edited, the run is refused before playing, naming the bot,
// both fingerprints and what to do; with --new-version the edited bot
// plays as a version of its own, which the next such run finds again.
// Every stored replay names the code that played each seat.
func TestTournamentFingerprint(t *testing.T) {
	if testing.Short() {
		t.Skip("starts external bots")
	}
	dir := t.TempDir()
	db, path := filepath.Join(dir, "t.db"), filepath.Join(dir, "bot.sh")
	spec, fpA := writeScriptBot(t, path, "nothing", "first")
	_, fpB := writeScriptBot(t, path, "nothing", "edited")
	short := replay.ShortFingerprint
	edited := "2+" + short(fpB)
	steps := []struct {
		name     string
		note     string // the script's comment during the run
		flags    []string
		wantCode int
		want     []string // in stdout, or in stderr when the run fails
		stored   int      // matches stored after the run
	}{
		{"first run", "first", nil, 0, []string{"0 already stored (skipped), 2 to play"}, 2},
		{"unchanged: skipped", "first", nil, 0, []string{"2 already stored (skipped), 0 to play"}, 2},
		{"edited: refused", "edited", nil, 2, []string{fmt.Sprintf(
			"bot 2 (%s): mine@2 is stored with other code (fingerprint %s, 2 matches), and its code now has fingerprint %s: "+
				"give the changed bot a new --version, or add --new-version to play it as mine@%s", spec, short(fpA), short(fpB), edited)}, 2},
		{"edited, --new-version: a new version", "edited", []string{"--new-version"}, 0, []string{
			fmt.Sprintf("bot 2: mine@2 is stored with other code (fingerprint %s), playing the changed bot as mine@%s", short(fpA), edited),
			"0 already stored (skipped), 2 to play", "mine@" + edited}, 4},
		{"edited, --new-version again: skipped", "edited", []string{"--new-version"}, 0, []string{"2 already stored (skipped), 0 to play"}, 4},
		{"edited back: skipped as mine@2", "first", nil, 0, []string{"2 already stored (skipped), 0 to play"}, 4},
	}
	for _, st := range steps {
		writeScriptBot(t, path, "nothing", st.note)
		args := append([]string{"tournament", "--db", db, "--game", "worms", "--seeds", "1", "--workers", "2",
			"--bot", "builtin:random", "--bot", spec, "--name", "random", "--name", "mine", "--version", "1", "--version", "2"}, st.flags...)
		code, out, errOut := cli(t, args...)
		if code != st.wantCode {
			t.Fatalf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", st.name, code, st.wantCode, out, errOut)
		}
		for _, w := range st.want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("%s: got\nstdout: %s\nstderr: %s\nwant %q", st.name, out, errOut, w)
			}
		}
		if got := storedFingerprints(t, db); len(got) != st.stored {
			t.Errorf("%s: %d matches stored, want %d", st.name, len(got), st.stored)
		}
	}

	// Both seatings of each version, each seat naming its code; the
	// built-in bot has none.
	want := []string{
		"mine@2 " + fpA + ", random@1 ", "mine@2 " + fpA + ", random@1 ",
		"mine@" + edited + " " + fpB + ", random@1 ", "mine@" + edited + " " + fpB + ", random@1 ",
	}
	if got := storedFingerprints(t, db); !slices.Equal(got, want) {
		t.Errorf("stored replays' players:\n got %q\nwant %q", got, want)
	}
}

// storedFingerprints returns, for every match stored at path, its
// replay's players as "name@version fingerprint" in name order, the
// matches sorted.
func storedFingerprints(t *testing.T, path string) []string {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms, _, err := db.Matches(ctx, store.MatchFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		data, err := db.Replay(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		l, err := replay.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		var players []string
		for _, p := range l.Header.Players {
			players = append(players, botLabel(p.Name, p.Version)+" "+p.Fingerprint)
		}
		slices.Sort(players)
		got = append(got, strings.Join(players, ", "))
	}
	slices.Sort(got)
	return got
}

// TestRecordWritesFingerprint: record writes each external bot's
// fingerprint into the header, which verifies; a built-in bot gets none,
// so its header is written as before fingerprints.
func TestRecordWritesFingerprint(t *testing.T) {
	dir := t.TempDir()
	spec, fp := writeScriptBot(t, filepath.Join(dir, "bot.sh"), "S", "toad")
	tests := []struct {
		name, bot, want string
	}{
		{"external", spec, fmt.Sprintf(`"players":[{"name":"bot.sh","version":"","fingerprint":"%s"}]`, fp)},
		{"built-in", "builtin:astar", `"players":[{"name":"astar","version":"builtin"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name+".rlog")
			mustCLI(t, "record", "--game", "toad", "--seed", "1", "--bot", tt.bot, "-o", out)
			mustCLI(t, "verify", out)
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			header, _, _ := strings.Cut(string(data), "\n")
			if !strings.Contains(header, tt.want) {
				t.Errorf("got header %s, want it to hold %s", header, tt.want)
			}
		})
	}
}
