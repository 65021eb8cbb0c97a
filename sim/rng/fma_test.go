package rng

import (
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Go spec lets the compiler fuse x*y + z into one FMA instruction, which
// skips the rounding of x*y; it does so on arm64 and on amd64 with
// GOAMD64=v3, even across statements and inlined calls. An explicit
// float64(x*y) conversion forbids it. TestNoFusibleProducts holds the code
// of this package to a rule simple enough to check syntactically:
//
//	every floating-point product is either wrapped in float64(...) or an
//	operand of another * or / (whose result the rule then covers),
//
// except products by a constant power of two, which are exact, so that fusing
// them changes nothing. Products fed to comparisons or calls are held to the
// rule too: after inlining they may meet an addition. math.FMA is banned.

// fusibleProducts returns the positions of the products in files that break
// the rule.
func fusibleProducts(t *testing.T, fset *token.FileSet, files []*ast.File) []string {
	t.Helper()
	info := &types.Info{Types: make(map[ast.Expr]types.TypeAndValue)}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("rng", fset, files, info); err != nil {
		t.Fatal(err)
	}
	isFloat := func(e ast.Expr) bool {
		b, ok := info.Types[e].Type.Underlying().(*types.Basic)
		return ok && b.Info()&types.IsFloat != 0
	}
	powerOfTwo := func(e ast.Expr) bool {
		v := info.Types[e].Value
		if v == nil {
			return false
		}
		f, exact := constant.Float64Val(constant.ToFloat(v))
		return exact && isPow2(math.Abs(f))
	}
	var bad []string
	for _, f := range files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			defer func() { stack = append(stack, n) }()
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == "math" && n.Sel.Name == "FMA" {
					bad = append(bad, fset.Position(n.Pos()).String()+": math.FMA")
				}
			case *ast.AssignStmt:
				if n.Tok == token.MUL_ASSIGN && isFloat(n.Lhs[0]) && !powerOfTwo(n.Rhs[0]) {
					bad = append(bad, fset.Position(n.Pos()).String()+": *= on a float")
				}
			case *ast.BinaryExpr:
				if n.Op != token.MUL || !isFloat(n) || info.Types[n].Value != nil ||
					powerOfTwo(n.X) || powerOfTwo(n.Y) || roundedByParent(stack, info) {
					return true
				}
				bad = append(bad, fset.Position(n.Pos()).String()+": "+types.ExprString(n))
			}
			return true
		})
	}
	return bad
}

// roundedByParent reports whether the expression on top of the stack's
// innermost enclosing non-paren node is a float64/float32 conversion or a
// * or / expression.
func roundedByParent(stack []ast.Node, info *types.Info) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			continue
		case *ast.CallExpr:
			tv, ok := info.Types[p.Fun]
			return ok && tv.IsType() && len(p.Args) == 1
		case *ast.BinaryExpr:
			return p.Op == token.MUL || p.Op == token.QUO
		default:
			return false
		}
	}
	return false
}

// isPow2 reports whether f is a power of two (normal or subnormal).
func isPow2(f float64) bool {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	frac, _ := math.Frexp(f)
	return frac == 0.5
}

func parseSources(t *testing.T, fset *token.FileSet, srcs map[string]string) []*ast.File {
	t.Helper()
	var files []*ast.File
	for name, src := range srcs {
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

func TestNoFusibleProducts(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	srcs := make(map[string]string)
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs[p] = string(b)
	}
	if len(srcs) < 5 {
		t.Fatalf("found %d source files; is the test running in sim/rng?", len(srcs))
	}
	fset := token.NewFileSet()
	for _, b := range fusibleProducts(t, fset, parseSources(t, fset, srcs)) {
		t.Errorf("%s: product may be fused into an FMA; write float64(x*y)", b)
	}
}

// TestFusibleProductsCheck shows the checker catching what it must catch.
func TestFusibleProductsCheck(t *testing.T) {
	tests := []struct {
		name, body string
		bad        int
	}{
		{"sum", "return a*b + c", 1},
		{"difference", "return c - a*b", 1},
		{"wrapped", "return float64(a*b) + c", 0},
		{"via variable", "p := a * b; return p + c", 1},
		{"returned", "return a * b", 1},
		{"chain", "return float64(a*b*c) + c", 0},
		{"quotient", "return a*b/c + c", 0},
		{"power of two", "return 0.5*a + c", 0},
		{"other constant", "return 3*a + c", 1},
		{"integers", "i, j := 3, 4; return float64(i*j) + a", 0},
		{"mul assign", "a *= b; return a + c", 1},
		{"fma", "return math.FMA(a, b, c)", 1},
		{"argument", "return math.Sqrt(a*b + c)", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package rng\nimport \"math\"\nvar _ = math.Pi\nfunc f(a, b, c float64) float64 {\n" + tt.body + "\n}\n"
			fset := token.NewFileSet()
			got := fusibleProducts(t, fset, parseSources(t, fset, map[string]string{"x.go": src}))
			if len(got) != tt.bad {
				t.Errorf("%q: got %d findings %v, want %d", tt.body, len(got), got, tt.bad)
			}
		})
	}
}
