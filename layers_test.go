package replaylab_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/replaylab/replaylab"

// layers is the dependency order of DESIGN.md §2: a package may import only
// packages of its own layer or layers before it. internal/ holds test
// helpers that play and replay matches (golden files, the game conformance
// suite), so it sits right after replay. regen turns a replay into the
// rows store keeps, so it sits right after store; regen/tournament, which
// plans tournaments as jobs in the store and plays them on workers, is in
// its layer (a package's layer is its first path element).
var layers = []string{"sim", "replay", "internal", "store", "regen", "analytics", "web", "cmd"}

func layerOf(pkg string) int {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	first, _, _ := strings.Cut(rel, "/")
	for i, l := range layers {
		if first == l {
			return i
		}
	}
	return -1 // the root package (schema.go) sits below everything
}

// TestLayers enforces the import direction between the project's packages
// and keeps servers, databases and third-party code out of the simulators'
// transitive dependencies.
func TestLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go tool")
	}
	out, err := exec.Command("go", "list", "-deps", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		ImportPath string
		Standard   bool
		Imports    []string
		Deps       []string
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(p.ImportPath, module) {
			continue
		}
		seen++
		from := layerOf(p.ImportPath)
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module) && layerOf(imp) > from {
				t.Errorf("%s imports %s: %s may not depend on %s (DESIGN.md §2)", p.ImportPath, imp, layers[max(from, 0)], layers[layerOf(imp)])
			}
		}
		if from == 0 {
			for _, d := range p.Deps {
				if d == "database/sql" || strings.HasPrefix(d, "net/") || d == "net" || d == "os/exec" ||
					!strings.HasPrefix(d, module) && strings.Contains(strings.SplitN(d, "/", 2)[0], ".") {
					t.Errorf("%s depends on %s", p.ImportPath, d)
				}
			}
		}
	}
	if seen < 5 {
		t.Fatalf("saw %d project packages, want the whole module", seen)
	}
}
