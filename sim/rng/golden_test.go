package rng

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The goldens lock the streams and the math bit for bit. They are written on
// one platform with -update and must then match on every other one
// (GOAMD64=v1 and v3, arm64): a difference means a product was fused or an
// operation is not deterministic. Fix the code, never the goldens, unless
// the change of stream is intended (a new rules revision of every ruleset
// that draws from it, see sim.Game.Revisions).

// goldenSeeds are the seeds of the stream goldens.
var goldenSeeds = []uint64{0, 1, 42, math.MaxUint64}

const (
	goldenLen  = 32      // values listed per stream
	goldenHash = 100_000 // values hashed per stream
)

// stream is one kind of draw whose outputs the goldens record as strings.
type stream struct {
	name string
	draw func(r *Rand) string
}

var streams = []stream{
	{"Uint64", func(r *Rand) string { return hex64(r.Uint64()) }},
	{"IntN(7)", func(r *Rand) string { return strconv.Itoa(r.IntN(7)) }},
	{"IntN(1000003)", func(r *Rand) string { return strconv.Itoa(r.IntN(1000003)) }},
	{"IntRange(-5,5)", func(r *Rand) string { return strconv.Itoa(r.IntRange(-5, 5)) }},
	{"Float64", func(r *Rand) string { return hexFloat(r.Float64()) }},
	{"NormFloat64", func(r *Rand) string { return hexFloat(r.NormFloat64()) }},
	{"LogNormal(1,0.5)", func(r *Rand) string { return hexFloat(r.LogNormal(1, 0.5)) }},
	{"Perm(10)", func(r *Rand) string { return fmt.Sprint(r.Perm(10)) }},
}

func hex64(u uint64) string     { return fmt.Sprintf("%016x", u) }
func hexFloat(x float64) string { return hex64(math.Float64bits(x)) }

func unhexFloat(s string) float64 {
	u, _ := strconv.ParseUint(s, 16, 64)
	return math.Float64frombits(u)
}

// streamGolden is testdata/streams.json: per seed (hex) and stream, the first
// goldenLen values and the FNV-1a hash of the first goldenHash values, each
// stream drawn from a fresh New(seed).
type streamGolden map[string]map[string]streamRecord

type streamRecord struct {
	First []string `json:"first"`
	Hash  string   `json:"hash"`
}

func computeStreams() streamGolden {
	g := make(streamGolden)
	for _, seed := range goldenSeeds {
		m := make(map[string]streamRecord)
		for _, s := range streams {
			r := New(seed)
			h := fnv.New64a()
			var first []string
			for i := range goldenHash {
				v := s.draw(r)
				if i < goldenLen {
					first = append(first, v)
				}
				h.Write([]byte(v))
				h.Write([]byte{0})
			}
			m[s.name] = streamRecord{first, hex64(h.Sum64())}
		}
		g[hex64(seed)] = m
	}
	return g
}

func TestGoldenStreams(t *testing.T) {
	checkGolden(t, "streams.json", computeStreams())
}

// mathGolden is testdata/math.json: per function, fixed arguments with their
// results (hex Float64bits: "x result" or "y x result"), and the FNV-1a hash
// of the results over the accuracy tests' arguments.
type mathGolden struct {
	Cases map[string][]string `json:"cases"`
	Hash  map[string]string   `json:"hash"`
}

// edgeArgs are the special and boundary arguments of the unary goldens.
var edgeArgs = []float64{
	0, math.Copysign(0, -1), 5e-324, -5e-324, 0x1p-1022, -0x1p-1022, 0x1p-1074 * 3,
	math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(),
	1, -1, 0.5, 2, 3, 10, 0x1p-27, 0x1p-28, 0x1p-54, 1e-300, 1e300,
	1 + 0x1p-52, 1 - 0x1p-53, 0.75, 1.5, 1.4999999999999998,
	0.6931471805599453, 709.78, 709.7827128933839, 709.79, 709.8, -708.4, -740,
	-745.1332191019411, -745.1332191019412, -746,
	math.Pi / 4, math.Pi / 2, math.Pi, 2 * math.Pi, 355, 103993, 0x1p20 - 1, 0x1p20, 0x1p20 + 1,
	1e22, 0x1p60, 0x1p1023, 6381956970095103 * 0x1p797, 5.319372648326541e255,
	1.0 / 128, 7.0 / 128, 127.9, 128, 128.1, 1e16, -1e-10,
}

// pairArgs are combined pairwise for the binary goldens.
var pairArgs = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2, 3, -3, 1e-300, 1e300,
	math.Inf(1), math.Inf(-1), math.NaN(), 0.999, 1.001,
}

func computeMath() mathGolden {
	g := mathGolden{Cases: make(map[string][]string), Hash: make(map[string]string)}
	for _, mf := range mathFuncs {
		binary := mf.name == "Atan2"
		var cases []string
		add := func(x, y float64) {
			if binary {
				cases = append(cases, hexFloat(x)+" "+hexFloat(y)+" "+hexFloat(mf.f(x, y)))
			} else {
				cases = append(cases, hexFloat(x)+" "+hexFloat(mf.f(x, 0)))
			}
		}
		if binary {
			for _, x := range pairArgs {
				for _, y := range pairArgs {
					add(x, y)
				}
			}
		} else {
			for _, x := range edgeArgs {
				add(x, 0)
			}
		}
		r := New(3000 + mf.key)
		for range 200 {
			add(mf.full(r))
		}
		g.Cases[mf.name] = cases

		h := fnv.New64a()
		r1, r2 := New(1000+mf.key), New(2000+mf.key)
		for j := range sweepN + refN {
			var x, y float64
			if j < sweepN {
				x, y = mf.sweep(r1)
			} else {
				x, y = mf.full(r2)
			}
			h.Write([]byte(hexFloat(mf.f(x, y))))
		}
		g.Hash[mf.name] = hex64(h.Sum64())
	}
	return g
}

// TestGoldenMath checks the fixed cases by recomputing them from the
// arguments stored in the file, so that the file alone defines them.
func TestGoldenMath(t *testing.T) {
	got := computeMath()
	if *update {
		checkGolden(t, "math.json", got)
		return
	}
	var want mathGolden
	readGolden(t, "math.json", &want)
	for _, mf := range mathFuncs {
		for _, c := range want.Cases[mf.name] {
			f := strings.Fields(c)
			var x, y float64
			x = unhexFloat(f[0])
			if len(f) == 3 {
				y = unhexFloat(f[1])
			}
			res := mf.f(x, y)
			if hexFloat(res) != f[len(f)-1] {
				t.Errorf("%s(%v, %v) = %v (%s), golden %v (%s)", mf.name, x, y, res, hexFloat(res), unhexFloat(f[len(f)-1]), f[len(f)-1])
			}
		}
		if len(want.Cases[mf.name]) == 0 {
			t.Errorf("%s: no golden cases", mf.name)
		}
		if got.Hash[mf.name] != want.Hash[mf.name] {
			t.Errorf("%s: hash of %d results is %s, golden %s", mf.name, sweepN+refN, got.Hash[mf.name], want.Hash[mf.name])
		}
	}
}

// checkGolden compares v, as indented JSON, with testdata/name, or writes it
// there with -update. On a mismatch it lists the differing values.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./sim/rng -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	gf, wf := flatten("", g), flatten("", w)
	var diffs []string
	for k, wv := range wf {
		if gv := gf[k]; gv != wv {
			diffs = append(diffs, fmt.Sprintf("%s: got %s, golden %s", k, gv, wv))
		}
	}
	for k, gv := range gf {
		if _, ok := wf[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: got %s, not in golden", k, gv))
		}
	}
	slices.Sort(diffs)
	t.Errorf("%s: %d values differ:", path, len(diffs))
	for i, d := range diffs {
		if i == 20 {
			t.Errorf("...")
			break
		}
		t.Errorf("  %s", d)
	}
}

func readGolden(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("%v (run go test ./sim/rng -update to create it)", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// flatten maps each leaf of a decoded JSON value to its path.
func flatten(prefix string, v any) map[string]string {
	out := make(map[string]string)
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			for p, s := range flatten(prefix+"/"+k, e) {
				out[p] = s
			}
		}
	case []any:
		for i, e := range v {
			for p, s := range flatten(fmt.Sprintf("%s[%d]", prefix, i), e) {
				out[p] = s
			}
		}
	default:
		out[prefix] = fmt.Sprint(v)
	}
	return out
}
