package replay_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/toad"
)

// toadLog returns a valid River Toad log over explicit rolls with awkward
// commands: empty, invalid, escaped characters and a repeated oddity. The
// rolls and moves keep the toad alive to the end.
func toadLog(t testing.TB) *replay.Log {
	t.Helper()
	l := &replay.Log{
		Header: replay.Header{
			Format: replay.FormatV1, Game: "toad", Ruleset: "classic", Seed: 42,
			Config:  []byte(`{"rolls":[0,32,33,1,2,16,8,17,0,0]}`),
			Players: []replay.Player{{Name: "alice <b>", Version: "3"}},
		},
		Turns: [][]string{{"G"}, {"A"}, {""}, {"jump\tover\\the\nriver\r"}, {"F"}, {"D"}, {"jump\tover\\the\nriver\r"}, {"S"}, {"d"}, {"STAY"}},
		Notes: []replay.Note{{Turn: 3, Seat: 0, Kind: sim.EventTimeout}},
	}
	if _, err := replay.Run(context.Background(), l, func(tv *replay.TurnView) error {
		l.Hashes = append(l.Hashes, replay.Hash{Turn: tv.Turn, Sum: tv.Match.Hash()})
		return nil
	}); err != nil {
		t.Fatalf("toadLog does not run: %v", err)
	}
	return sealed(l)
}

// sealed turns a replaylab/1 log whose last hash is its final state into a
// replaylab/2 log with that end record, as the recorder writes it.
func sealed(l *replay.Log) *replay.Log {
	l.Header.Format = replay.Format
	l.End = &l.Hashes[len(l.Hashes)-1]
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
	l.End = &replay.Hash{Turn: 4000} // never run: any final hash encodes
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
		{"unknown field", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":"a"}],"colour":"red"}`, `line 1: header: unknown key "colour"`},
		{"unknown game", `{"format":"replaylab/1","game":"chess","seed":1,"players":[{"name":"a"}]}`, `line 1: header: unknown game "chess"`},
		{"unknown ruleset", `{"format":"replaylab/1","game":"toad","ruleset":"modern","seed":1,"players":[{"name":"a"}]}`, `ruleset: game toad has no ruleset "modern"`},
		{"newer format", `{"format":"replaylab/9","game":"toad","seed":1,"players":[{"name":"a"}]}`, `format "replaylab/9": written by a newer replaylab`},
		{"foreign format", `{"format":"otherlab/1","game":"toad","seed":1,"players":[{"name":"a"}]}`, `format is "otherlab/1"`},
		{"two players", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":"a"},{"name":"b"}]}`, "takes 1 players, got 2"},
		{"no name", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":""}]}`, "players[0] (Seat 1) name: empty"},
		{"control char in name", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":"a\u0007"}]}`, "control character"},
		{"bad config", `{"format":"replaylab/1","game":"toad","seed":1,"config":{"rolls":[99]},"players":[{"name":"a"}]}`, "config.rolls"},
		{"turn out of order", head + "\n1\tG\n3\tA\n", "line 3: turn 2: turn 3 out of order: expected turn 2"},
		{"turn not a number", head + "\nx\tG\n", `line 2: turn 1: turn number "x" is not an integer`},
		{"too many commands", head + "\n1\tG\tA\n", "line 2: turn 1: 2 commands for 1 players"},
		{"bad escape", head + "\n1\tG\\q\n", `line 2: turn 1: Seat 1: unknown escape \q`},
		{"hash before its turn", head + "\n#hash\t1\t0000000000000000\n", `line 2: "#hash" for turn 1 comes before`},
		{"bad hash", head + "\n1\tG\n#hash\t1\tzz\n", `line 3: turn 1: #hash "zz" is not 16 hex digits`},
		{"unknown directive", head + "\n1\tG\n#comment\t1\tx\n", `unknown directive "#comment"`},
		{"timeout bad seat", head + "\n1\tG\n#timeout\t1\t3\n", `line 3: turn 1: #timeout: seat index "3" is not from 0 to 0`},
		{"hash mismatch is not a decode error but a run error", head + "\n1\tD\n2\tD\n3\tD\n#hash\t3\t0000000000000001\n", ""},
		{"past the turn limit", head + "\n1\tD\n2\tD\n3\tD\n4\tD\n", "line 5: too large: more than 3 turns: this match ends within 3"},
		{"incomplete", head + "\n1\tD\n", "turn 1: the replay ends before the match is over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := replay.Decode([]byte(tt.text))
			if err == nil {
				_, err = replay.Run(context.Background(), l, nil)
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
	_, err := replay.Run(context.Background(), l, nil)
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
	_, err := replay.Run(context.Background(), l, func(tv *replay.TurnView) error {
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

// TestRunStopsWhenCancelled: Run plays no turn after its context is done
// (Ctrl-C, a server shutting down, an upload whose client left).
func TestRunStopsWhenCancelled(t *testing.T) {
	l := toadLog(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	last := -1
	_, err := replay.Run(ctx, l, func(tv *replay.TurnView) error {
		last = tv.Turn
		if tv.Turn == 2 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "turn 3") {
		t.Errorf("got %v, want context.Canceled at turn 3", err)
	}
	if last != 2 {
		t.Errorf("visited up to turn %d after cancelling at turn 2", last)
	}
}

// TestLongestLegalLine: a turn of 15 seats whose commands are all of the
// maximum length and entirely escaped characters still decodes.
func TestLongestLegalLine(t *testing.T) {
	l := &replay.Log{Header: replay.Header{Format: replay.FormatV1, Game: "snake", Seed: 1}}
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

// goldenIDs are the match ids of the golden replays as the replaylab/1 code
// computed them: the same matches must keep them in every format version.
var goldenIDs = map[string]string{
	"snake-codenjoy-greedy.rlog":         "e8ce70ec273f7b9f30eed4491c6cf08101048fcf15a056f0c74f96bc12ad45c8",
	"snake-greedy-random.rlog":           "f84c8d06f6c63e2422f8852bdeb5306312f0d4716a07cec68f98d50da0d0d81e",
	"toad-astar-300.rlog":                "890199ede801f9c905bcb8c8198bfeb062d87e21abdae5049262887e46d79dd3",
	"toad-astar-50.rlog":                 "4fe7ecf17f60596b10d6aff2b2ca14743b144dd132ae0e2dbb58ecc3f565d71f",
	"toad-example.rlog":                  "7b9f19b7a11fd2d704850d7a1e72b5da1ec30068762118c6694fdb0af5ae2911",
	"toad-invalid-commands.rlog":         "5c5df4204482f19dc55858ec1a4c5c368bee3640af489a11e3c8447303a1e4bb",
	"toad-published-plan.rlog":           "2ebc71064b1aa3e93c6fbaf4d9f65d0f8a4ef22b2fde89124db0ddb6852e3fbb",
	"toad-random-1.rlog":                 "944bdd911e1bc4531b969adaf558f5cff33c9cfc226181a19c843f76441ce854",
	"toad-random-2.rlog":                 "f731119b9b6d2c2e6458ba5c9620c81627d9afe0db320c6f35ffc2ccba66f180",
	"worms-base-tactical-random.rlog":    "68f9432ce671c2f2d493c8a5cd80dfb51fec854ba70801f176dd83276a623df5",
	"worms-final-random-tactical.rlog":   "83beba2b352c30eb7c5b6d6046466ab435150485b35b8541db06de59bce2058f",
	"worms-final-tactical-tactical.rlog": "17d071f7a0f498f122486bb75faad67dff6d869c771055abc756788573139da7",
}

// readGolden decodes a golden replay (replaylab/1 text).
func readGolden(t *testing.T, name string) *replay.Log {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatal(err)
	}
	l, err := replay.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestIDAcrossVersions: a golden replaylab/1 replay keeps its stored id,
// and its replaylab/2 copies, text and binary, decode, regenerate and have
// the same id.
func TestIDAcrossVersions(t *testing.T) {
	for name, want := range goldenIDs {
		t.Run(name, func(t *testing.T) {
			l := readGolden(t, name)
			if got, err := l.ID(); err != nil || got != want {
				t.Fatalf("replaylab/1 id = %s, %v; want %s", got, err, want)
			}
			v2 := sealed(l)
			text, err := v2.EncodeText()
			if err != nil {
				t.Fatal(err)
			}
			enc, err := v2.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if enc.ID != want {
				t.Errorf("replaylab/2 id = %s, want %s", enc.ID, want)
			}
			v1text, err := l.EncodeText()
			if err != nil {
				t.Fatal(err)
			}
			// ReadID takes the id from the end record's check, or
			// computes it for a replaylab/1 log, which has none.
			for _, data := range [][]byte{v1text, text, enc.Bytes} {
				if _, id, err := replay.ReadID(bytes.NewReader(data)); err != nil || id != want {
					t.Errorf("ReadID = %s, %v; want %s", id, err, want)
				}
			}
			for _, data := range [][]byte{text, enc.Bytes} {
				got, err := replay.Decode(data)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, v2) {
					t.Fatal("the replaylab/2 copy does not round-trip")
				}
				if _, err := replay.Run(context.Background(), got, nil); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestTextTruncation cuts a replaylab/2 text replay at every line boundary
// and drops each turn or note line: none decodes.
func TestTextTruncation(t *testing.T) {
	text, err := toadLog(t).EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(text), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	for n := range lines {
		cut := strings.Join(lines[:n], "")
		_, err := replay.DecodeText(strings.NewReader(cut))
		switch {
		case n == 0 && !errors.Is(err, replay.ErrNotReplay):
			t.Errorf("empty: got %v, want ErrNotReplay", err)
		case n > 0 && !errors.Is(err, replay.ErrTruncated):
			t.Errorf("first %d of %d lines: got %v, want ErrTruncated", n, len(lines), err)
		case n > 0 && !strings.Contains(err.Error(), "(no end record)"):
			t.Errorf("first %d lines: %q does not say there is no end record", n, err)
		}
	}
	for i, line := range lines[1 : len(lines)-1] {
		if strings.HasPrefix(line, "#hash") {
			continue // checkpoints are checks, not the match: see the id
		}
		dropped := strings.Join(lines[:i+1], "") + strings.Join(lines[i+2:], "")
		if _, err := replay.DecodeText(strings.NewReader(dropped)); err == nil {
			t.Errorf("without line %d %q: decoded", i+2, line)
		}
	}
}

// TestTruncatedNamesLastTurn: a replaylab/2 text without its end record
// names the last turn present.
func TestTruncatedNamesLastTurn(t *testing.T) {
	text, err := toadLog(t).EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	cut := text[:bytes.Index(text, []byte("4\t"))]
	_, err = replay.DecodeText(bytes.NewReader(cut))
	if want := "truncated: the replay ends after turn 3 (no end record)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestBitFlips flips every bit of a small stored and a small compressed
// replaylab/2 binary replay: none decodes.
func TestBitFlips(t *testing.T) {
	small, err := toadLog(t).Encode()
	if err != nil {
		t.Fatal(err)
	}
	compressed, err := sealed(readGolden(t, "worms-base-tactical-random.rlog")).Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name        string
		data        []byte
		compression byte
	}{{"stored", small.Bytes, 0}, {"compressed", compressed.Bytes, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.data[4] != tt.compression {
				t.Fatalf("compression byte %d, want %d", tt.data[4], tt.compression)
			}
			flips, decoded := 0, 0
			for i := range tt.data {
				for b := range 8 {
					data := bytes.Clone(tt.data)
					data[i] ^= 1 << b
					flips++
					if _, err := replay.Decode(data); err == nil {
						decoded++
						t.Errorf("flipping bit %d of byte %d decodes", b, i)
					}
				}
			}
			t.Logf("%d of %d single-bit flips of a %d-byte replay decode", decoded, flips, len(tt.data))
		})
	}
}

func TestChecksumFirst(t *testing.T) {
	enc, err := toadLog(t).Encode()
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(enc.Bytes)
	data[len(data)/2] ^= 0x10
	_, err = replay.DecodeBinary(data)
	if !errors.Is(err, replay.ErrCorrupt) || !strings.Contains(err.Error(), "corrupt: checksum mismatch") {
		t.Errorf("got %v, want corrupt: checksum mismatch", err)
	}
}

// TestNewerVersions: a header or binary magic from a newer build is refused
// as such.
func TestNewerVersions(t *testing.T) {
	enc, err := toadLog(t).Encode()
	if err != nil {
		t.Fatal(err)
	}
	bin := bytes.Clone(enc.Bytes)
	bin[3] = 3
	text := `{"format":"replaylab/3","game":"toad","seed":1,"players":[{"name":"a"}]}` + "\n"
	for name, data := range map[string][]byte{"binary": bin, "text": []byte(text)} {
		if _, err := replay.Decode(data); !errors.Is(err, replay.ErrNewer) || !strings.Contains(err.Error(), "written by a newer replaylab") {
			t.Errorf("%s: got %v, want ErrNewer", name, err)
		}
	}
}

// TestV1HasNoEndRecord: a replaylab/1 log may not carry an end record, and
// a replaylab/2 header in a version 1 binary is refused.
func TestVersionMismatch(t *testing.T) {
	l := readGolden(t, "toad-example.rlog")
	l.End = &replay.Hash{Turn: len(l.Turns), Sum: l.Hashes[len(l.Hashes)-1].Sum}
	if _, err := l.Encode(); err == nil || !strings.Contains(err.Error(), "an end record in a replaylab/1") {
		t.Errorf("v1 with an end record: got %v", err)
	}
	l.Header.Format = replay.Format
	l.End = nil
	if _, err := l.Encode(); !errors.Is(err, replay.ErrTruncated) {
		t.Errorf("v2 without an end record: got %v, want ErrTruncated", err)
	}
}

func TestStrictHeader(t *testing.T) {
	tests := []struct{ name, header, want string }{
		{"key case", `{"format":"replaylab/1","game":"toad","Seed":1,"players":[{"name":"a"}]}`, `unknown key "Seed" (keys are case-sensitive; did you mean "seed"?)`},
		{"upper key", `{"format":"replaylab/1","GAME":"toad","seed":1,"players":[{"name":"a"}]}`, `unknown key "GAME"`},
		{"player key case", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"Name":"a"}]}`, `players[0] (Seat 1): unknown key "Name"`},
		{"no seed", `{"format":"replaylab/1","game":"toad","players":[{"name":"a"}]}`, `missing field "seed"`},
		{"no format", `{"game":"toad","seed":1,"players":[{"name":"a"}]}`, `missing field "format"`},
		{"no game", `{"format":"replaylab/1","seed":1,"players":[{"name":"a"}]}`, `missing field "game"`},
		{"no players", `{"format":"replaylab/1","game":"toad","seed":1}`, `missing field "players"`},
		{"no player name", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"version":"1"}]}`, `players[0] (Seat 1): missing field "name"`},
		{"null seed", `{"format":"replaylab/1","game":"toad","seed":null,"players":[{"name":"a"}]}`, `field "seed" is null`},
		{"negative seed", `{"format":"replaylab/1","game":"toad","seed":-1,"players":[{"name":"a"}]}`, `field "seed": want an integer`},
		{"repeated key", `{"format":"replaylab/1","game":"toad","seed":1,"seed":2,"players":[{"name":"a"}]}`, `repeated key "seed"`},
		{"not an object", `[1]`, "not a JSON object"},
		{"trailing data", `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":"a"}]} {}`, "trailing data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := replay.DecodeText(strings.NewReader(tt.header + "\n"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
	// Ruleset and config may be left out; version too.
	l, err := replay.DecodeText(strings.NewReader(`{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":"a"}]}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if l.Header.Ruleset != "classic" || string(l.Header.Config) != "{}" {
		t.Errorf("defaults: ruleset %q config %s, want classic {}", l.Header.Ruleset, l.Header.Config)
	}
}

// TestHostileTextInErrors: input quoted in an error is escaped and clipped,
// and no error names a negative turn.
func TestHostileTextInErrors(t *testing.T) {
	const head = `{"format":"replaylab/1","game":"toad","seed":1,"config":{"rolls":[1,2,3]},"players":[{"name":"a"}]}` + "\n"
	evil := "\x1b[2J\r\x00" + strings.Repeat("é", 5000)
	evilJSON := strings.Trim(strconv.Quote(evil), `"`)
	tests := []string{
		`{"format":"` + evilJSON + `","game":"toad","seed":1,"players":[{"name":"a"}]}`,
		`{"format":"replaylab/1","game":"` + evilJSON + `","seed":1,"players":[{"name":"a"}]}`,
		`{"format":"replaylab/1","game":"toad","ruleset":"` + evilJSON + `","seed":1,"players":[{"name":"a"}]}`,
		`{"format":"replaylab/1","game":"toad","` + evilJSON + `":1,"seed":1,"players":[{"name":"a"}]}`,
		`{"format":"replaylab/1","game":"toad","seed":1,"config":{"` + evilJSON + `":1},"players":[{"name":"a"}]}`,
		`{"format":"replaylab/1","game":"toad","seed":1e400,"players":[{"name":"a"}]}`,
		head + "#" + evil + "\t1\t2\n",
		head + "#" + evil + "\n",
		head + "#hash\t" + evil + "\t1\n",
		head + "1\tD\n#hash\t1\t" + evil + "\n",
		head + "1\tD\n#timeout\t1\t" + evil + "\n",
		head + evil + "\tD\n",
		head + "-1\tD\n",
		head + "1\tD\n-1\tD\n",
		head + "#hash\t-1\t0000000000000000\n",
		head + "#timeout\t-1\t0\n",
	}
	for i, text := range tests {
		_, err := replay.DecodeText(strings.NewReader(text))
		var re *replay.Error
		if !errors.As(err, &re) {
			t.Errorf("case %d: got %v, want a *replay.Error", i, err)
			continue
		}
		if re.Turn < 0 {
			t.Errorf("case %d: turn %d in %q", i, re.Turn, err)
		}
		msg := err.Error()
		if len(msg) > 400 || strings.ContainsFunc(msg, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("case %d: raw or long input in the error (%d bytes): %q", i, len(msg), sim.Clip(msg, 200))
		}
	}
	// A log built in code with negative turns is refused without one.
	l := toadLog(t)
	for _, bad := range []func(*replay.Log){
		func(l *replay.Log) { l.Hashes[0].Turn = -1 },
		func(l *replay.Log) { l.Notes[0].Turn = -1 },
	} {
		c := *l
		c.Hashes, c.Notes = slices.Clone(l.Hashes), slices.Clone(l.Notes)
		bad(&c)
		_, err := c.Check()
		var re *replay.Error
		if !errors.As(err, &re) || re.Turn < 0 {
			t.Errorf("got %#v, want a *replay.Error with no negative turn", err)
		}
	}
}

// zstdBomb returns n zero bytes zstd-compressed by a streaming writer, a
// few kilobytes that decompress to n.
func zstdBomb(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	zero := make([]byte, 1<<20)
	for range n >> 20 {
		if _, err := w.Write(zero); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// withChecksum appends the replaylab/2 trailer: CRC-32C of the bytes.
func withChecksum(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// TestZstdBomb: 1 GiB of zeros compressed to a few kilobytes, in a
// version 1 file and in a version 2 file with a valid checksum, is refused
// as too large without decompressing it into memory.
func TestZstdBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("compresses 1 GiB")
	}
	z := zstdBomb(t, 1<<30)
	for name, data := range map[string][]byte{
		"v1": append([]byte("RPL\x01\x01"), z...),
		"v2": withChecksum(append([]byte("RPL\x02\x01"), z...)),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := replay.Decode(data)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, replay.ErrTooLarge) || !strings.Contains(err.Error(), "too large") {
			t.Errorf("%s bomb of %d bytes: got %v, want too large", name, len(data), err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
			t.Errorf("%s bomb: %d MiB allocated to refuse it, want at most 32", name, alloc>>20)
		}
	}
}

// TestTurnLimitBeforeTurns: a binary replay claiming more turns than its
// match can last is refused right after the turn count, before anything
// per turn is read or allocated.
func TestTurnLimitBeforeTurns(t *testing.T) {
	header := []byte(`{"format":"replaylab/1","game":"toad","ruleset":"classic","seed":1,"config":{},"players":[{"name":"a","version":""}]}`)
	body := append([]byte("RPL\x01\x00"), binary.AppendUvarint(nil, uint64(len(header)))...)
	body = append(body, header...)
	body = binary.AppendUvarint(body, replay.MaxTurns)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := replay.DecodeBinary(body)
	runtime.ReadMemStats(&after)
	if want := "too large: 1048576 turns, but this match ends within 50"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("%d KiB allocated to refuse it, want at most 1 MiB", alloc>>10)
	}
}

// endless is a text replay that never ends: a header, then turn lines of
// the same command.
type endless struct {
	head, cmd string
	turn      int
	buf       []byte
	read      int64
}

func (e *endless) Read(p []byte) (int, error) {
	if len(e.buf) == 0 {
		if e.turn == 0 {
			e.buf = []byte(e.head + "\n")
		} else {
			e.buf = fmt.Appendf(nil, "%d\t%s\n", e.turn, e.cmd)
		}
		e.turn++
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	e.read += int64(n)
	return n, nil
}

// TestTextLimits: the text decoder stops at the first turn past the
// match's limit, and at the first command past the log's byte limit.
func TestTextLimits(t *testing.T) {
	tests := []struct {
		name, config, cmd string
		want              string
		maxTurn           int
	}{
		{"turn limit", `{"turns":50}`, "D", "line 52: too large: more than 50 turns", 51},
		{"command bytes", `{"turns":100000}`, strings.Repeat("x", replay.MaxCommandBytes), "too large: the commands total more than 64 MiB", replay.MaxLogCommandBytes/replay.MaxCommandBytes + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &endless{head: `{"format":"replaylab/2","game":"toad","seed":1,"config":` + tt.config + `,"players":[{"name":"a"}]}`, cmd: tt.cmd}
			_, err := replay.DecodeText(r)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			// The scanner reads ahead by at most its buffer.
			if r.turn > tt.maxTurn+(64<<10)/(len(tt.cmd)+2)+1 {
				t.Errorf("read up to turn %d, want the decoder to stop at turn %d", r.turn, tt.maxTurn)
			}
		})
	}
}

// TestLogCommandBytes: a log whose commands total more than the limit is
// refused even when they are one repeated command (cheap in memory).
func TestLogCommandBytes(t *testing.T) {
	l := &replay.Log{Header: replay.Header{Format: replay.FormatV1, Game: "toad", Config: []byte(`{"turns":100000}`), Players: []replay.Player{{Name: "a"}}}}
	cmd := []string{strings.Repeat("x", replay.MaxCommandBytes)}
	for range replay.MaxLogCommandBytes/replay.MaxCommandBytes + 1 {
		l.Turns = append(l.Turns, cmd)
	}
	if _, err := l.Encode(); !errors.Is(err, replay.ErrTooLarge) {
		t.Errorf("got %v, want ErrTooLarge", err)
	}
	l.Turns = l.Turns[:len(l.Turns)-1]
	if _, err := l.Check(); err != nil {
		t.Errorf("at the limit: %v", err)
	}
}

// padded plays an agent's commands padded with spaces to the longest
// command allowed (River Toad ignores surrounding spaces).
type padded struct{ replay.Agent }

func (p padded) Act(ctx context.Context, turn int, view any) replay.Answer {
	a := p.Agent.Act(ctx, turn, view)
	a.Command += strings.Repeat(" ", replay.MaxCommandBytes-len(a.Command))
	return a
}

// TestRecordCommandBudget: a bot whose every answer is as long as allowed
// still gives a recorded match: once the log's commands reach their limit,
// answers are played cut (here to nothing) with an oversize note.
func TestRecordCommandBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 16400 turns")
	}
	const turns = replay.MaxLogCommandBytes/replay.MaxCommandBytes + 16
	h := replay.Header{Format: replay.Format, Game: "toad", Seed: 3, Config: []byte(fmt.Sprintf(`{"turns":%d}`, turns)), Players: []replay.Player{{Name: "astar"}}}
	a, err := replay.NewBuiltin(toad.Game, "astar", h.Setup(), 0)
	if err != nil {
		t.Fatal(err)
	}
	r := replay.Recorder{Header: h, Agents: []replay.Agent{padded{a}}}
	l, err := r.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Turns) <= replay.MaxLogCommandBytes/replay.MaxCommandBytes {
		t.Fatalf("the toad died at turn %d, before the budget ran out", len(l.Turns))
	}
	if _, err := l.Encode(); err != nil {
		t.Fatalf("the recording does not encode: %v", err)
	}
	first := replay.MaxLogCommandBytes/replay.MaxCommandBytes + 1
	if len(l.Notes) == 0 || l.Notes[0] != (replay.Note{Turn: first, Seat: 0, Kind: sim.EventOversize}) {
		t.Errorf("notes %v, want the first oversize note at turn %d", l.Notes[:min(len(l.Notes), 3)], first)
	}
}

// TestBinaryWithoutEnd: a version 2 binary replay whose end record was cut
// off, checksum recomputed, is reported as truncated after its last turn.
func TestBinaryWithoutEnd(t *testing.T) {
	l := toadLog(t)
	enc, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if enc.Bytes[4] != 0 {
		t.Fatal("want a stored (uncompressed) replay")
	}
	const endBytes = 1 + 8 + 8 // turn count 10, final hash, digest
	cut := withChecksum(bytes.Clone(enc.Bytes[:len(enc.Bytes)-4-endBytes]))
	_, err = replay.DecodeBinary(cut)
	if want := "truncated: the replay ends after turn 10 (no end record)"; !errors.Is(err, replay.ErrTruncated) || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}
