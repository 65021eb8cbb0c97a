package sim_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/replaylab/replaylab"

// forbiddenImports may not appear in any non-test file under sim/: they
// bring the wall clock, the environment, I/O, concurrency or generators whose
// streams the project does not control.
var forbiddenImports = []string{
	"time", "os", "os/exec", "net", "database", "log", "syscall", "unsafe",
	"math/rand", "math/rand/v2", "crypto/rand", "runtime", "sync", "io/fs", "plugin", "reflect",
}

// exactMath lists the math package names a simulator may use: constants and
// functions whose results are exactly rounded on every platform.
// Transcendentals (Exp, Log, Sin, Pow...) differ between CPUs and Go builds
// and must come from sim/rng; FMA is excluded because every product must be
// rounded on its own.
var exactMath = map[string]bool{
	"Sqrt": true, "Floor": true, "Ceil": true, "Trunc": true, "Round": true, "RoundToEven": true,
	"Abs": true, "Copysign": true, "Signbit": true, "Float64bits": true, "Float64frombits": true,
	"Float32bits": true, "Float32frombits": true, "Inf": true, "IsInf": true, "IsNaN": true, "NaN": true,
	"Max": true, "Min": true, "Mod": true, "Remainder": true, "Ldexp": true, "Frexp": true, "Modf": true, "Nextafter": true,
	"Pi": true, "E": true, "MaxFloat64": true, "SmallestNonzeroFloat64": true,
	"MaxInt": true, "MinInt": true, "MaxInt8": true, "MinInt8": true, "MaxInt16": true, "MinInt16": true,
	"MaxInt32": true, "MinInt32": true, "MaxInt64": true, "MinInt64": true,
	"MaxUint8": true, "MaxUint16": true, "MaxUint32": true, "MaxUint64": true, "MaxUint": true,
}

func TestSimImports(t *testing.T) {
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		checkFile(t, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 3 {
		t.Fatalf("checked %d files; is the test running in sim/?", files)
	}
}

func checkFile(t *testing.T, path string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	mathName := ""
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if err := importAllowed(p); err != "" {
			t.Errorf("%s imports %q: %s", path, p, err)
		}
		if p == "math" {
			mathName = "math"
			if imp.Name != nil {
				mathName = imp.Name.Name
			}
		}
	}
	if mathName == "" {
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == mathName && !exactMath[sel.Sel.Name] {
			t.Errorf("%s: math.%s is not exactly rounded on every platform; use sim/rng", fset.Position(sel.Pos()), sel.Sel.Name)
		}
		return true
	})
}

// importAllowed returns why an import is not allowed in sim/, or "".
func importAllowed(p string) string {
	if strings.HasPrefix(p, module+"/sim") {
		return ""
	}
	first, _, _ := strings.Cut(p, "/")
	if strings.Contains(first, ".") {
		return "sim/ imports only the standard library and sim/..."
	}
	for _, f := range forbiddenImports {
		if p == f || strings.HasPrefix(p, f+"/") {
			return "forbidden in simulators (DESIGN.md §2, §4)"
		}
	}
	return ""
}

func TestImportAllowed(t *testing.T) {
	for p, ok := range map[string]bool{
		"fmt": true, "encoding/json": true, "math/bits": true, module + "/sim/rng": true,
		"time": false, "os": false, "net/http": false, "database/sql": false, "math/rand/v2": false,
		"github.com/labstack/echo/v4": false, module + "/store": false,
	} {
		if got := importAllowed(p) == ""; got != ok {
			t.Errorf("importAllowed(%q) = %v, want %v", p, got, ok)
		}
	}
}
