package replay_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
)

// toadLog returns a valid River Toad log over explicit rolls with awkward
// commands: empty, invalid, escaped characters and a repeated oddity. The
// rolls and moves keep the toad alive to the end.
func toadLog(t testing.TB) *replay.Log {
	t.Helper()
	l := &replay.Log{
		Header: replay.Header{
			Format: replay.Format, Game: "toad", Ruleset: "classic", Seed: 42,
			Config:  []byte(`{"rolls":[0,32,33,1,2,16,8,17,0,0]}`),
			Players: []replay.Player{{Name: "alice <b>", Version: "3"}},
		},
		Turns: [][]string{{"G"}, {"A"}, {""}, {"jump\tover\\the\nriver\r"}, {"F"}, {"D"}, {"jump\tover\\the\nriver\r"}, {"S"}, {"d"}, {"STAY"}},
		Notes: []replay.Note{{Turn: 3, Seat: 0, Kind: sim.EventTimeout}},
	}
	if _, err := replay.Run(l, func(tv *replay.TurnView) error {
		l.Hashes = append(l.Hashes, replay.Hash{Turn: tv.Turn, Sum: tv.Match.Hash()})
		return nil
	}); err != nil {
		t.Fatalf("toadLog does not run: %v", err)
	}
	return l
}

func TestRoundTrip(t *testing.T) {
	l := toadLog(t)
	text, err := l.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	enc, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	fromText, err := replay.DecodeText(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("decode text: %v\n%s", err, text)
	}
	fromBin, err := replay.DecodeBinary(enc.Bytes)
	if err != nil {
		t.Fatalf("decode binary: %v", err)
	}
	for name, got := range map[string]*replay.Log{"text": fromText, "binary": fromBin} {
		if !reflect.DeepEqual(got, l) {
			t.Errorf("%s round trip:\ngot  %+v\nwant %+v", name, got, l)
		}
	}
	// Binary → text gives the same bytes as the original text.
	text2, err := fromBin.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(text, text2) {
		t.Errorf("text via binary differs:\n%s\n---\n%s", text, text2)
	}
	// Decode detects the encoding.
	for _, data := range [][]byte{text, enc.Bytes} {
		if got, err := replay.Decode(data); err != nil || !reflect.DeepEqual(got, l) {
			t.Errorf("Decode: err %v, equal %v", err, reflect.DeepEqual(got, l))
		}
	}
}

func TestIDIgnoresHashesAndConfigOrder(t *testing.T) {
	l := toadLog(t)
	id, err := l.ID()
	if err != nil {
		t.Fatal(err)
	}
	if len(id) != 64 {
		t.Fatalf("id %q is not 64 hex digits", id)
	}
	l.Hashes = nil
	if got, _ := l.ID(); got != id {
		t.Errorf("id without hashes = %s, want %s", got, id)
	}
	l.Header.Config = []byte(` { "rolls" : [0,32,33,1,2,16,8,17,0,0] } `)
	if got, _ := l.ID(); got != id {
		t.Errorf("id with spaced config = %s, want %s", got, id)
	}
	l.Turns[0][0] = "A"
	if got, _ := l.ID(); got == id {
		t.Error("changing a command kept the id")
	}
}

func TestBinaryIsCompact(t *testing.T) {
	l := &replay.Log{Header: replay.Header{Format: replay.Format, Game: "toad", Config: []byte(`{"turns":4000}`), Players: []replay.Player{{Name: "a"}}}}
	letters := []string{"A", "S", "D", "F", "G", ""}
	for i := range 4000 {
		l.Turns = append(l.Turns, []string{letters[i*7%len(letters)]})
	}
	enc, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	// Six symbols plus the escape fit in 3 bits: 4000 turns in 1500 bytes.
	if enc.CommandBytes > 1510 {
		t.Errorf("commands take %d bytes for 4000 turns, want at most 1510 (3 bits each)", enc.CommandBytes)
	}
}

func TestDecodeErrors(t *testing.T) {
	const head = `{"format":"replaylab/1","game":"toad","ruleset":"classic","seed":1,"config":{"rolls":[1,2,3]},"players":[{"name":"a","version":""}]}`
	tests := []struct {
		name, text string
		want       string // substring of the error
	}{
		{"empty", "", "neither"},
		{"not json", "hello\n", "neither"},
		{"unknown field", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":"a"}],"colour":"red"}`, `line 1: header: bad JSON: json: unknown field "colour"`},
		{"unknown game", `{"format":"replaylab/1","game":"chess","seed":1,"players":[{"name":"a"}]}`, `line 1: header: unknown game "chess"`},
		{"unknown ruleset", `{"format":"replaylab/1","game":"toad","ruleset":"modern","seed":1,"players":[{"name":"a"}]}`, `ruleset: game toad has no ruleset "modern"`},
		{"wrong format", `{"format":"replaylab/9","game":"toad","seed":1,"players":[{"name":"a"}]}`, `format is "replaylab/9"`},
		{"two players", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":"a"},{"name":"b"}]}`, "takes 1 players, got 2"},
		{"no name", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":""}]}`, "player 0 name: empty"},
		{"control char in name", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":"a\u0007"}]}`, "control character"},
		{"bad config", `{"format":"replaylab/1","game":"toad","seed":1,"config":{"rolls":[99]},"players":[{"name":"a"}]}`, "config.rolls"},
		{"turn out of order", head + "\n1\tG\n3\tA\n", "line 3: turn 3: turn 3 out of order: expected turn 2"},
		{"turn not a number", head + "\nx\tG\n", `line 2: turn 1: turn number "x" is not an integer`},
		{"too many commands", head + "\n1\tG\tA\n", "line 2: turn 1: 2 commands for 1 players"},
		{"bad escape", head + "\n1\tG\\q\n", `line 2: turn 1: seat 0: unknown escape \q`},
		{"hash before its turn", head + "\n#hash\t1\t0000000000000000\n", "line 2: turn 1: #hash for turn 1 comes before"},
		{"bad hash", head + "\n1\tG\n#hash\t1\tzz\n", `line 3: turn 1: #hash "zz" is not 16 hex digits`},
		{"unknown directive", head + "\n1\tG\n#comment\t1\tx\n", `unknown directive "#comment"`},
		{"timeout bad seat", head + "\n1\tG\n#timeout\t1\t3\n", "timeout note for seat 3 of 1"},
		{"hash mismatch is not a decode error but a run error", head + "\n1\tD\n2\tD\n3\tD\n#hash\t3\t0000000000000001\n", ""},
		{"past the end", head + "\n1\tD\n2\tD\n3\tD\n4\tD\n", "turn 4: the match ended at turn 3"},
		{"incomplete", head + "\n1\tD\n", "turn 1: the replay ends before the match is over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := replay.Decode([]byte(tt.text))
			if err == nil {
				_, err = replay.Run(l, nil)
			}
			if tt.want == "" {
				var de *replay.DivergenceError
				if !errors.As(err, &de) || de.Turn != 3 {
					t.Fatalf("got %v, want a divergence at turn 3", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestBinaryCorruption(t *testing.T) {
	enc, err := toadLog(t).Encode()
	if err != nil {
		t.Fatal(err)
	}
	// Every truncation is an error, never a panic or a silent success.
	for n := range len(enc.Bytes) {
		if _, err := replay.DecodeBinary(enc.Bytes[:n]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(enc.Bytes))
		}
	}
}

func TestRunReportsFirstDivergence(t *testing.T) {
	l := toadLog(t)
	l.Hashes[5].Sum ^= 1
	l.Hashes[7].Sum ^= 1
	_, err := replay.Run(l, nil)
	var de *replay.DivergenceError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a DivergenceError", err)
	}
	if de.Turn != l.Hashes[5].Turn {
		t.Errorf("diverged at turn %d, want %d", de.Turn, l.Hashes[5].Turn)
	}
}

func TestRunAddsNotesAsEvents(t *testing.T) {
	l := toadLog(t)
	var got []string
	_, err := replay.Run(l, func(tv *replay.TurnView) error {
		for _, e := range tv.Events {
			if e.Kind == sim.EventTimeout {
				got = append(got, strings.Repeat("x", tv.Turn))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0]) != 3 {
		t.Errorf("timeout events at %q, want one at turn 3", got)
	}
}

// TestLongestLegalLine: a turn of 15 seats whose commands are all of the
// maximum length and entirely escaped characters still decodes.
func TestLongestLegalLine(t *testing.T) {
	l := &replay.Log{Header: replay.Header{Format: replay.Format, Game: "snake", Seed: 1}}
	cmds := make([]string, 15)
	for i := range cmds {
		l.Header.Players = append(l.Header.Players, replay.Player{Name: "p"})
		cmds[i] = strings.Repeat("\t", replay.MaxCommandBytes)
	}
	l.Turns = [][]string{cmds}
	text, err := l.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	got, err := replay.DecodeText(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("a %d-byte line: %v", len(text), err)
	}
	if !reflect.DeepEqual(got.Turns, l.Turns) {
		t.Error("the long line did not round-trip")
	}
}
