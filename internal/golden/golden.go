// Package golden compares test output with golden files under testdata/,
// rewriting them when tests run with -update. It is shared by the game
// packages' per-turn hash goldens (DESIGN.md §4), which lock every rule,
// generator and hash encoding.
package golden

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// Update is the -update flag of every test binary that imports golden.
var Update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Check compares got with the file at path, first rewriting the file when
// -update is set. A difference is reported with its first differing line.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (a rule, generator or hash change needs a new rules revision of the ruleset, sim.Game.Revisions, before a new golden):\n%s", path, FirstDiff(got, want))
	}
}

// FirstDiff returns the first line where two texts differ, or "".
func FirstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d:\ngot  %s\nwant %s", i+1, gl, wl)
		}
	}
	return ""
}

// Turn writes a per-turn golden line: the turn, its commands as JSON and
// the state hash after it.
func Turn(b *bytes.Buffer, turn int, cmds []string, hash uint64) {
	cj, _ := json.Marshal(cmds)
	fmt.Fprintf(b, "%d %s %016x\n", turn, cj, hash)
}

// Result writes a match's result line and the blank line that ends the
// match's block.
func Result(b *bytes.Buffer, r sim.Result) {
	fmt.Fprintf(b, "result winner=%d %q", r.Winner, r.Reason)
	for _, p := range r.Players {
		fmt.Fprintf(b, " %d/%v/%s", p.Rank, p.Score, p.Outcome)
	}
	b.WriteString("\n\n")
}
