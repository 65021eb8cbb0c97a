package sim_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// configSpellings are configs with their canonical form, or "" and the
// error they get. Each row is a way two configs meaning the same match
// could differ in bytes.
var configSpellings = []struct {
	name, in, want, err string
}{
	{"empty", ``, `{}`, ""},
	{"null", ` null `, `{}`, ""},
	{"canonical", `{"rolls":[0,1],"turns":3}`, `{"rolls":[0,1],"turns":3}`, ""},
	{"key order", `{"turns":3,"rolls":[0,1]}`, `{"rolls":[0,1],"turns":3}`, ""},
	{"whitespace", " {\n\t\"turns\" : 3 ,\r\n \"rolls\" : [ 0 , 1 ] } ", `{"rolls":[0,1],"turns":3}`, ""},
	{"escaped key", `{"t\u0075rns":3}`, `{"turns":3}`, ""},
	{"escaped string", `{"board":"t\u0069ny\/x"}`, `{"board":"tiny/x"}`, ""},
	{"html in a string", `{"board":"<&>"}`, `{"board":"\u003c\u0026\u003e"}`, ""},
	{"unicode escape", `{"board":"\u00e9"}`, `{"board":"é"}`, ""},
	{"nested order", `{"a":{"y":1,"x":[{"q":1,"p":2}]}}`, `{"a":{"x":[{"p":2,"q":1}],"y":1}}`, ""},
	{"minus zero", `{"rolls":[-0,1]}`, `{"rolls":[0,1]}`, ""},
	{"null member", `{"rolls":null,"turns":3}`, `{"turns":3}`, ""},
	{"nested null member", `{"a":{"b":null}}`, `{"a":{}}`, ""},
	{"bools", `{"strict_hp":true,"x":false}`, `{"strict_hp":true,"x":false}`, ""},
	{"fraction", `{"turns":3.0}`, "", `key "turns": number 3.0: write integers without a fraction or exponent`},
	{"exponent", `{"turns":3e0}`, "", "number 3e0"},
	{"fraction and exponent", `{"turns":30e-1}`, "", "number 30e-1"},
	{"capital exponent", `{"rolls":[1E1]}`, "", `key "rolls": element 0: number 1E1`},
	{"repeated key", `{"turns":99,"turns":30}`, "", `repeated key "turns"`},
	{"repeated escaped key", `{"turns":1,"t\u0075rns":1}`, "", `repeated key "turns"`},
	{"repeated null key", `{"turns":null,"turns":3}`, "", `repeated key "turns"`},
	{"nested repeated key", `{"a":{"b":1,"b":2}}`, "", `key "a": repeated key "b"`},
	{"repeated key in an array", `{"a":[1,{"b":1,"b":1}]}`, "", `key "a": element 1: repeated key "b"`},
	{"null element", `{"rolls":[null]}`, "", "element 0: null is not a value in an array"},
	{"trailing data", `{"turns":3} {}`, "", "trailing data"},
	{"trailing garbage", `{"turns":3}x`, "", "trailing data"},
	{"not JSON whitespace", "{}\v", "", "trailing data"},
	{"array", `[1]`, "", "not a JSON object"},
	{"number", `3`, "", "not a JSON object"},
	{"bad JSON", `{"turns":`, "", "bad JSON"},
	{"too deep", `{"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, "", "nested more than 32 levels deep"},
}

func TestCanonicalConfig(t *testing.T) {
	for _, tt := range configSpellings {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sim.CanonicalConfig(json.RawMessage(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %s, %v; want an error containing %q", got, err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %s, %v; want %s", got, err, tt.want)
			}
			if again, err := sim.CanonicalConfig(got); err != nil || !bytes.Equal(again, got) {
				t.Errorf("canonical form is not a fixed point: %s gives %s, %v", got, again, err)
			}
		})
	}
}

// testConfig is a config struct as the games write theirs.
type testConfig struct {
	Rolls []int `json:"rolls"`
	Turns *int  `json:"turns"`
	Map   string
}

func TestDecodeConfig(t *testing.T) {
	tests := []struct {
		name, in    string
		field, want string // the error's field and reason; "" for none
	}{
		{"exact keys", `{"turns":3,"rolls":[1]}`, "", ""},
		{"escaped key", `{"t\u0075rns":3}`, "", ""},
		{"untagged field by its Go name", `{"Map":"x"}`, "", ""},
		{"upper case", `{"TURNS":3}`, "config", `unknown key "TURNS" (keys are case-sensitive; did you mean "turns"?)`},
		{"title case", `{"Turns":3}`, "config", `did you mean "turns"?`},
		{"both cases", `{"Turns":3,"turns":3}`, "config", `unknown key "Turns"`},
		{"untagged field lower case", `{"map":"x"}`, "config", `unknown key "map" (keys are case-sensitive; did you mean "Map"?)`},
		{"unknown key", `{"colour":"red"}`, "config", `unknown key "colour" (keys are case-sensitive; known keys: "rolls", "turns", "Map")`},
		{"repeated key", `{"turns":99,"turns":30}`, "config", `repeated key "turns"`},
		{"fraction", `{"turns":3.0}`, "config", "number 3.0"},
		{"wrong type", `{"turns":"3"}`, "config.turns", "got string, want int"},
		{"too large", `{"turns":99999999999999999999}`, "config.turns", "got number 99999999999999999999, want int"},
		{"trailing data", `{"turns":3}]`, "config", "trailing data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cfg testConfig
			err := sim.DecodeConfig(json.RawMessage(tt.in), &cfg)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			var se *sim.SetupError
			if !errors.As(err, &se) || se.Field != tt.field || !strings.Contains(se.Reason, tt.want) {
				t.Fatalf("got %v, want a setup error of field %s containing %q", err, tt.field, tt.want)
			}
		})
	}
	var cfg testConfig
	if err := sim.DecodeConfig(json.RawMessage(`{"turns":-0,"rolls":[33]}`), &cfg); err != nil || cfg.Turns == nil || *cfg.Turns != 0 || !reflect.DeepEqual(cfg.Rolls, []int{33}) {
		t.Errorf("decoded %+v, %v; want turns 0 and rolls [33]", cfg, err)
	}
}

// FuzzCanonicalConfig: a config CanonicalConfig accepts is valid JSON, its
// canonical form is a fixed point and decodes to the same values (less
// the null members it drops, with -0 read as 0).
func FuzzCanonicalConfig(f *testing.F) {
	for _, tt := range configSpellings {
		f.Add([]byte(tt.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := sim.CanonicalConfig(data)
		if err != nil {
			return
		}
		if again, err := sim.CanonicalConfig(c); err != nil || !bytes.Equal(again, c) {
			t.Fatalf("not a fixed point: %q gives %q, then %q, %v", data, c, again, err)
		}
		if trimmed := bytes.Trim(data, " \t\r\n"); len(trimmed) == 0 || string(trimmed) == "null" {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q as %q", data, c)
		}
		if in, out := decodeLoose(t, data), decodeLoose(t, c); !reflect.DeepEqual(in, out) {
			t.Fatalf("values changed: %q decodes to %#v, its canonical form %q to %#v", data, in, c, out)
		}
	})
}

// decodeLoose decodes JSON as encoding/json reads it, with the two
// liberties the canonical form takes undone: null members are dropped and
// numbers are compared by their text with -0 as 0.
func decodeLoose(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return normalize(v)
}

func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
			} else {
				v[k] = normalize(x)
			}
		}
	case []any:
		for i, x := range v {
			v[i] = normalize(x)
		}
	case json.Number:
		if v == "-0" {
			return json.Number("0")
		}
	}
	return v
}
