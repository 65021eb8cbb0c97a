package entelect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/replaytest"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/worms"
)

var update = flag.Bool("update", false, "rewrite the golden state files in testdata/golden")

// goldenTurn is the round whose state the goldens hold, late enough in
// the final ruleset for lava, freezes and spent bombs.
const goldenTurn = 120

// goldenState plays seed 3 of the ruleset with built-in bots in both
// seats (tactical against random) and returns Seat 1's state before round goldenTurn.
func goldenState(t *testing.T, ruleset string) *state {
	t.Helper()
	setup := sim.Setup{Ruleset: ruleset, Seed: 3, Players: 2}
	m, err := worms.Game.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	var bots []replay.Agent
	for s := range 2 {
		b, err := replay.NewBuiltin(worms.Game, []string{"tactical", "random"}[s], setup, s)
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	for m.Turn() < goldenTurn-1 && !m.Over() {
		cmds := make([]string, 2)
		for s, b := range bots {
			cmds[s] = b.Act(t.Context(), m.Turn()+1, m.View(s)).Command
		}
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
	}
	if m.Over() {
		t.Fatalf("the match ended at turn %d, before %d", m.Turn(), goldenTurn)
	}
	return newState(m.View(0).(*worms.View), ruleset == "final")
}

// TestGolden compares the state files of a fixed seed and round with the
// goldens, and the key paths of state.json with those the engine
// release's state-files.md documents (testdata/keys-RULESET.txt: one path
// a line, [] for a list's items; visualizerEvents' items, which only the
// visualizer gets, excepted).
func TestGolden(t *testing.T) {
	for _, ruleset := range []string{"base", "final"} {
		t.Run(ruleset, func(t *testing.T) {
			s := goldenState(t, ruleset)
			js, err := s.JSON()
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{"state.json": js, "textMap.txt": []byte(s.Text())}
			for name, got := range files {
				path := filepath.Join("testdata", "golden", ruleset, name)
				if *update {
					os.MkdirAll(filepath.Dir(path), 0o755)
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from %s (run with -update if the change is meant)", name, path)
				}
			}

			var doc any
			if err := json.Unmarshal(js, &doc); err != nil {
				t.Fatal(err)
			}
			got := replaytest.KeyPaths(doc)
			want := readKeys(t, filepath.Join("testdata", "keys-"+ruleset+".txt"))
			for k := range want {
				if !got[k] {
					t.Errorf("state.json lacks %s", k)
				}
			}
			for k := range got {
				if !want[k] {
					t.Errorf("state.json has %s, which the %s engine's state does not", k, ruleset)
				}
			}
		})
	}
}

// TestTextSections checks that each section of the text state has as
// many lines as its count says. One blank line separates sections; the
// opponents' section ends with two of its own instead.
func TestTextSections(t *testing.T) {
	for _, ruleset := range []string{"base", "final"} {
		lines := strings.Split(goldenState(t, ruleset).Text(), "\n")
		var heads []int
		for i, l := range lines {
			if strings.HasPrefix(l, "@0") {
				heads = append(heads, i)
			}
		}
		if len(heads) != 6 {
			t.Fatalf("%s: got %d sections, want 6", ruleset, len(heads))
		}
		for k, i := range heads {
			end := len(lines)
			if k+1 < len(heads) {
				end = heads[k+1]
				if lines[i] != "@03 Opponents" {
					end-- // the separator
				}
			}
			var n int
			if _, err := fmt.Sscanf(lines[i+1], "Section lines count: %d", &n); err != nil {
				t.Fatalf("%s: %s: %v", ruleset, lines[i], err)
			}
			if got := end - i; got != n {
				t.Errorf("%s: %s: got %d lines, want %d as it says", ruleset, lines[i], got, n)
			}
		}
	}
}

func readKeys(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			keys[l] = true
		}
	}
	return keys
}
