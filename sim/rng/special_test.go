package rng

import (
	"math"
	"testing"
)

// TestSpecialValues checks the special cases the doc comments promise,
// bit for bit (signed zeros included).
func TestSpecialValues(t *testing.T) {
	inf, nan, negZero := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	unary := []struct {
		name string
		f    func(float64) float64
		x    float64
		want float64
	}{
		{"Exp", Exp, nan, nan},
		{"Exp", Exp, inf, inf},
		{"Exp", Exp, -inf, 0},
		{"Exp", Exp, 0, 1},
		{"Exp", Exp, negZero, 1},
		{"Exp", Exp, 709.79, inf},
		{"Exp", Exp, 709.7827128933841, inf},
		{"Exp", Exp, 709.782712893384, 1.7976931348622732e+308},
		{"Exp", Exp, 709.7827128933839, 1.7976931348620688e+308},
		{"Exp", Exp, -745.1332191019411, 5e-324},
		{"Exp", Exp, -745.1332191019412, 0},
		{"Exp", Exp, 1, math.E},
		{"Log", Log, nan, nan},
		{"Log", Log, inf, inf},
		{"Log", Log, -inf, nan},
		{"Log", Log, -1, nan},
		{"Log", Log, 0, -inf},
		{"Log", Log, negZero, -inf},
		{"Log", Log, 1, 0},
		{"Log", Log, math.E, 1},
		{"Log", Log, 5e-324, -744.4400719213812},
		{"Sin", Sin, nan, nan},
		{"Sin", Sin, inf, nan},
		{"Sin", Sin, -inf, nan},
		{"Sin", Sin, 0, 0},
		{"Sin", Sin, negZero, negZero},
		{"Sin", Sin, 5e-324, 5e-324},
		{"Sin", Sin, math.Pi, 1.2246467991473532e-16},
		{"Cos", Cos, nan, nan},
		{"Cos", Cos, inf, nan},
		{"Cos", Cos, negZero, 1},
		{"Cos", Cos, math.Pi / 2, 6.123233995736766e-17},
	}
	for _, tt := range unary {
		if got := tt.f(tt.x); !sameFloat(got, tt.want) {
			t.Errorf("%s(%v) = %v, want %v", tt.name, tt.x, got, tt.want)
		}
	}

	binary := []struct {
		name    string
		f       func(float64, float64) float64
		a, b    float64
		want    float64
		comment string
	}{
		{"Atan2", Atan2, 1, nan, nan, ""},
		{"Atan2", Atan2, nan, 1, nan, ""},
		{"Atan2", Atan2, 0, 1, 0, "+0, x>=0"},
		{"Atan2", Atan2, negZero, 0, negZero, "-0, x>=0"},
		{"Atan2", Atan2, 0, negZero, math.Pi, "+0, x<=-0"},
		{"Atan2", Atan2, negZero, -1, -math.Pi, "-0, x<=-0"},
		{"Atan2", Atan2, 1, 0, math.Pi / 2, ""},
		{"Atan2", Atan2, -1, negZero, -math.Pi / 2, ""},
		{"Atan2", Atan2, inf, inf, math.Pi / 4, ""},
		{"Atan2", Atan2, -inf, inf, -math.Pi / 4, ""},
		{"Atan2", Atan2, inf, -inf, 3 * math.Pi / 4, ""},
		{"Atan2", Atan2, -inf, -inf, -3 * math.Pi / 4, ""},
		{"Atan2", Atan2, -1, inf, negZero, ""},
		{"Atan2", Atan2, 1, -inf, math.Pi, ""},
		{"Atan2", Atan2, -1, -inf, -math.Pi, ""},
		{"Atan2", Atan2, inf, -1, math.Pi / 2, ""},
		{"Atan2", Atan2, -inf, 1, -math.Pi / 2, ""},
		{"Atan2", Atan2, 1, 1, math.Pi / 4, ""},
		{"Atan2", Atan2, 1, -1, 3 * math.Pi / 4, ""},
		{"Atan2", Atan2, 1e300, 1e-300, math.Pi / 2, "quotient overflows"},
		{"Atan2", Atan2, -1e-300, 1e300, negZero, "quotient underflows"},
		{"Atan2", Atan2, 1e-300, -1e300, math.Pi, "quotient underflows"},
	}
	for _, tt := range binary {
		if got := tt.f(tt.a, tt.b); !sameFloat(got, tt.want) {
			t.Errorf("%s(%v, %v) = %v, want %v %s", tt.name, tt.a, tt.b, got, tt.want, tt.comment)
		}
	}
}

// sameFloat reports whether a and b are both NaN or have the same bits.
func sameFloat(a, b float64) bool {
	return a != a && b != b || math.Float64bits(a) == math.Float64bits(b)
}
