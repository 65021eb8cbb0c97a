package replay

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// TestContentBound: Encode sizes the body with contentBound, which must be
// at least what writeContent writes, also for commands that are all
// literals, long ones and a dictionary grown past 2^15 symbols.
func TestContentBound(t *testing.T) {
	h := Header{Format: FormatV1, Game: "toad", Config: []byte(`{"turns":100000}`), Players: []Player{{Name: "a"}}}
	cases := map[string]func(i int) string{
		"empty":    func(int) string { return "" },
		"repeated": func(int) string { return "R" },
		"distinct": func(i int) string { return fmt.Sprint(i) },
		"long":     func(i int) string { return fmt.Sprint(i) + strings.Repeat("x", 200) },
	}
	for name, cmd := range cases {
		t.Run(name, func(t *testing.T) {
			l := &Log{Header: h}
			for i := range 40000 {
				l.Turns = append(l.Turns, []string{cmd(i)})
				if i%7 == 0 {
					l.Notes = append(l.Notes, Note{Turn: i + 1, Seat: 0, Kind: sim.EventTimeout})
				}
			}
			g, err := l.Check()
			if err != nil {
				t.Fatal(err)
			}
			var sb strings.Builder
			w := &bodyWriter{w: &sb}
			l.writeContent(w, g.Alphabet)
			if bound := contentBound(l); bound < w.n {
				t.Errorf("contentBound = %d, writeContent wrote %d", bound, w.n)
			}
		})
	}
}

// fileWithContent is a binary replaylab/2 file of l whose content part is
// content instead of what writeContent writes, with the end record's
// digest of l's id (which hashes the content as writeContent writes it).
func fileWithContent(t *testing.T, l *Log, content []byte) []byte {
	t.Helper()
	g, err := l.Check()
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := l.idSum(g.Alphabet)
	var buf bytes.Buffer
	w := &bodyWriter{w: &buf}
	w.bytes(encodeHeader(&l.Header))
	w.write(content)
	w.uvarint(0) // no hashes
	w.uvarint(uint64(l.End.Turn))
	w.uint64(l.End.Sum)
	w.uint64(binary.BigEndian.Uint64(sum[:8]))
	out := append(append(slices.Clone(magic), compressNone), buf.Bytes()...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
}

// TestIDOfLooseContent: decoding takes the id from the content's bytes as
// read only when they are what an encoder writes; content in a longer form
// (a varint with a redundant byte, an escape for a command the dictionary
// holds) still decodes, with the id of its canonical form, which the end
// record's digest was taken from.
func TestIDOfLooseContent(t *testing.T) {
	l := &Log{Header: Header{Format: Format, Game: "toad", Config: []byte(`{"turns":10}`), Players: []Player{{Name: "a"}}},
		Turns: [][]string{{"A"}, {"X"}, {"X"}}, End: &Hash{Turn: 3, Sum: 1}}
	g, err := l.Check()
	if err != nil {
		t.Fatal(err)
	}
	want, err := l.ID()
	if err != nil {
		t.Fatal(err)
	}
	var canonical bytes.Buffer
	l.writeContent(&bodyWriter{w: &canonical}, g.Alphabet)

	// The stream of A, escape, escape: X twice as a literal.
	d := newDictionary(g.Alphabet)
	a, _ := d.lookup("A")
	var bw bitWriter
	bw.write(uint64(a), d.width())
	bw.write(symEscape, d.width())
	d.add("X")
	bw.write(symEscape, d.width())
	var twice bytes.Buffer
	w := &bodyWriter{w: &twice}
	w.uvarint(3)
	w.uvarint(2)
	w.bytes([]byte("X"))
	w.bytes([]byte("X"))
	w.bytes(bw.bytes())
	w.uvarint(0) // no notes

	long := append([]byte{0x83, 0x00}, canonical.Bytes()[1:]...) // 3 turns in two bytes

	for name, content := range map[string][]byte{"canonical": canonical.Bytes(), "literal twice": twice.Bytes(), "long varint": long} {
		t.Run(name, func(t *testing.T) {
			got, id, err := decodeBinary(fileWithContent(t, l, content))
			if err != nil {
				t.Fatal(err)
			}
			if id != want || !slices.EqualFunc(got.Turns, l.Turns, slices.Equal) {
				t.Errorf("id %s, turns %q; want %s, %q", id, got.Turns, want, l.Turns)
			}
		})
	}
}
