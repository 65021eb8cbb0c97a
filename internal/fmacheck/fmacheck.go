// Package fmacheck holds the simulators' float code to a rule that keeps
// products from being fused into FMA instructions, for the tests of the
// packages under sim/ that compute with floats.
//
// The Go spec lets the compiler fuse x*y + z into one FMA instruction, which
// skips the rounding of x*y; it does so on arm64 and on amd64 with
// GOAMD64=v3, even across statements and inlined calls. An explicit
// float64(x*y) conversion forbids it. The rule is simple enough to check
// syntactically:
//
//	every floating-point product is either wrapped in float64(...) or an
//	operand of another * or / (whose result the rule then covers),
//
// except products by a constant power of two, which are exact, so that fusing
// them changes nothing. Products fed to comparisons or calls are held to the
// rule too: after inlining they may meet an addition. math.FMA is banned.
package fmacheck

import (
	"fmt"
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

// Check reports every finding of Dir(".") as a test error; fewer than
// minFiles source files means the test runs in the wrong directory.
func Check(t *testing.T, minFiles int) {
	t.Helper()
	files, bad, err := Dir(".")
	if err != nil {
		t.Fatal(err)
	}
	if files < minFiles {
		t.Fatalf("found %d source files, want at least %d; is the test running in its package's directory?", files, minFiles)
	}
	for _, b := range bad {
		t.Errorf("%s: product may be fused into an FMA; write float64(x*y)", b)
	}
}

// Dir checks the non-test Go files of the package in dir and returns how
// many files it read and the findings, one "file:line:col: expression"
// each. The package's imports are type-checked from source.
func Dir(dir string) (files int, findings []string, err error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, nil, err
	}
	srcs := make(map[string]string)
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return 0, nil, err
		}
		srcs[p] = string(b)
	}
	findings, err = Sources(srcs)
	return len(srcs), findings, err
}

// Sources checks one package given as file name to source text.
func Sources(srcs map[string]string) ([]string, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for name, src := range srcs {
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil
	}
	info := &types.Info{Types: make(map[ast.Expr]types.TypeAndValue)}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check(files[0].Name.Name, fset, files, info); err != nil {
		return nil, fmt.Errorf("type-check: %w", err)
	}
	var bad []string
	for _, f := range files {
		bad = append(bad, fileFindings(fset, f, info)...)
	}
	return bad, nil
}

// fileFindings returns the products of one file that break the rule.
func fileFindings(fset *token.FileSet, f *ast.File, info *types.Info) []string {
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
	return bad
}

// roundedByParent reports whether the innermost enclosing non-paren node of
// the expression on top of the stack is a float64/float32 conversion or a
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
