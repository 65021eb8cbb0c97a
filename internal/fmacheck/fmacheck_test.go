package fmacheck

import "testing"

// TestSources shows the checker catching what it must catch.
func TestSources(t *testing.T) {
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
			src := "package x\nimport \"math\"\nvar _ = math.Pi\nfunc f(a, b, c float64) float64 {\n" + tt.body + "\n}\n"
			got, err := Sources(map[string]string{"x.go": src})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.bad {
				t.Errorf("%q: got %d findings %v, want %d", tt.body, len(got), got, tt.bad)
			}
		})
	}
}

// TestSourcesTypeError: a package that does not type-check is an error,
// not a clean bill.
func TestSourcesTypeError(t *testing.T) {
	if _, err := Sources(map[string]string{"x.go": "package x\nfunc f() float64 { return y * 2 }\n"}); err == nil {
		t.Error("got no error for an undefined name")
	}
}
