package replay_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
)

// configHeader is a replaylab/1 River Toad header with the given config,
// as an older build or another harness may have written it.
func configHeader(config string) string {
	return `{"format":"replaylab/1","game":"toad","seed":1,"config":` + config + `,"players":[{"name":"a"}]}`
}

// v1Binary is a version 1 binary replay of no turns under header, written
// byte by byte so the header keeps the bytes it was given.
func v1Binary(header string) []byte {
	b := append([]byte("RPL\x01\x00"), binary.AppendUvarint(nil, uint64(len(header)))...)
	b = append(b, header...)
	return append(b, 0, 0, 0, 0, 0) // turns, literals, stream length, notes, hashes
}

// TestConfigOneID: every spelling of a config gets the match the same id,
// from a text or a binary replay, or is refused; none is read as another
// match. The groups are spellings of one config; want is its canonical
// form.
func TestConfigOneID(t *testing.T) {
	groups := []struct {
		want      string
		spellings []string
	}{
		{`{"turns":3}`, []string{
			`{"turns":3}`,
			` { "turns" : 3 } `,
			`{"t\u0075rns":3}`,
			`{"turns":3,"rolls":null}`,
		}},
		{`{"rolls":[0,1],"start_hp":5}`, []string{
			`{"start_hp":5,"rolls":[0,1]}`,
			`{"rolls":[-0,1],"start_hp":5}`,
			`{"rolls":[ 0 , 1 ] , "st\u0061rt_hp":5}`,
		}},
	}
	for _, g := range groups {
		want := decodeID(t, configHeader(g.want), g.want)
		for _, s := range g.spellings {
			if got := decodeID(t, configHeader(s), g.want); got != want {
				t.Errorf("config %s: id %.12s, want %.12s as for %s", s, got, want, g.want)
			}
		}
	}

	refused := []struct{ config, want string }{
		{`{"TURNS":3}`, `header: config: unknown key "TURNS" (keys are case-sensitive; did you mean "turns"?)`},
		{`{"Turns":3,"turns":3}`, `header: config: unknown key "Turns" (keys are case-sensitive; did you mean "turns"?)`},
		{`{"turns":99,"turns":30}`, `header: config: repeated key "turns"`},
		{`{"turns":3,"t\u0075rns":3}`, `header: config: repeated key "turns"`},
		{`{"turns":3,"x":{"a":1,"a":2}}`, `header: config: key "x": repeated key "a"`},
		{`{"turns":3,"colour":"red"}`, `header: config: unknown key "colour" (keys are case-sensitive; known keys: "rolls", "turns", "start_hp", "strict_hp")`},
		{`{"turns":3.0}`, `header: config: key "turns": number 3.0: write integers without a fraction or exponent`},
		{`{"turns":3e0}`, `number 3e0: write integers`},
		{`{"turns":30e-1}`, `number 30e-1: write integers`},
		{`{"rolls":[0.0,1]}`, `key "rolls": element 0: number 0.0`},
		{`{"rolls":[null,1]}`, `key "rolls": element 0: null is not a value in an array`},
	}
	for _, r := range refused {
		header := configHeader(r.config)
		_, errText := replay.DecodeText(strings.NewReader(header + "\n"))
		_, errBinary := replay.DecodeBinary(v1Binary(header))
		if errText == nil || !strings.Contains(errText.Error(), r.want) {
			t.Errorf("config %s as text: got %v, want an error containing %q", r.config, errText, r.want)
		}
		if errBinary == nil || !strings.Contains(errBinary.Error(), r.want) {
			t.Errorf("config %s as binary: got %v, want an error containing %q", r.config, errBinary, r.want)
		}
	}
}

// decodeID decodes header as a text and as a binary replay and returns the
// match id, which both must agree on, after checking that the config
// decoded to its canonical form.
func decodeID(t *testing.T, header, canonical string) string {
	t.Helper()
	lt, err := replay.DecodeText(strings.NewReader(header + "\n"))
	if err != nil {
		t.Fatalf("text %s: %v", header, err)
	}
	lb, err := replay.DecodeBinary(v1Binary(header))
	if err != nil {
		t.Fatalf("binary %s: %v", header, err)
	}
	for _, l := range []*replay.Log{lt, lb} {
		if string(l.Header.Config) != canonical {
			t.Errorf("%s: config read as %s, want %s", header, l.Header.Config, canonical)
		}
	}
	idText, err := lt.ID()
	if err != nil {
		t.Fatal(err)
	}
	if idBinary, _ := lb.ID(); idBinary != idText {
		t.Errorf("%s: binary id %.12s, text id %.12s", header, idBinary, idText)
	}
	return idText
}
