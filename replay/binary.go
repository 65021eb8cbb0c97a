package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The binary encoding (.rpl):
//
//	magic "RPL" 0x01 | compression byte (0 none, 1 zstd) | body
//
// The body, compressed or not, is a sequence of unsigned varints (uv) and
// bytes:
//
//	uv len, header JSON (canonical: see Header.Check)
//	uv turns
//	uv literals, then each: uv len, bytes     raw text of escaped commands
//	uv stream len, stream bytes               one symbol per seat per turn
//	uv notes, then each: uv turn delta, uv seat, uv kind
//	uv hashes, then each: uv turn delta, 8 bytes little-endian
//
// A symbol is an index into a dictionary that starts as [escape, "",
// alphabet...] (the game's Alphabet) and grows by one entry for every
// escaped command, so a repeated unusual command costs a symbol too. Symbols
// are packed least significant bit first at the width needed for the
// current dictionary size: a River Toad turn costs 3 bits. An escape takes
// the next literal.
//
// A match's ID is the SHA-256 of everything up to the hash table (magic
// included, uncompressed): the header, the commands and the notes. Hashes
// are only a check, so adding checkpoints to a replay does not make it a
// different match, and the id does not depend on the zstd version.

var magic = []byte("RPL\x01")

// Compression byte values.
const (
	compressNone = 0
	compressZstd = 1
)

// maxDict bounds the dictionary so a hostile log cannot make symbols wide.
const maxDict = 1 << 16

// Upper bound on a decompressed body; far above any real match.
const maxBody = 256 << 20

var (
	zEncoder = sync.OnceValue(func() *zstd.Encoder {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1))
		if err != nil {
			panic(err) // only on invalid options
		}
		return e
	})
	zDecoder = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxBody), zstd.WithDecoderConcurrency(0))
		if err != nil {
			panic(err)
		}
		return d
	})
)

// Encoded is the binary encoding of a log with its identity and sizes.
type Encoded struct {
	Bytes []byte // the .rpl file
	ID    string // hex SHA-256, see the format comment
	// RawSize is the size before compression; CommandBytes the part of it
	// that holds the commands (literals and symbol stream).
	RawSize, CommandBytes int
}

// Encode checks the log and returns its binary encoding. The body is stored
// zstd-compressed unless that would make it larger.
func (l *Log) Encode() (Encoded, error) {
	g, err := l.Check()
	if err != nil {
		return Encoded{}, err
	}
	body := append([]byte(nil), magic...)
	body = appendBytes(body, encodeHeader(&l.Header))
	body = binary.AppendUvarint(body, uint64(len(l.Turns)))
	cmdStart := len(body)
	body = appendCommands(body, l.Turns, g.Alphabet)
	cmdBytes := len(body) - cmdStart

	body = binary.AppendUvarint(body, uint64(len(l.Notes)))
	prev := 0
	for _, n := range l.Notes {
		body = binary.AppendUvarint(body, uint64(n.Turn-prev))
		body = binary.AppendUvarint(body, uint64(n.Seat))
		body = binary.AppendUvarint(body, uint64(noteKind(n.Kind)))
		prev = n.Turn
	}
	sum := sha256.Sum256(body)

	body = binary.AppendUvarint(body, uint64(len(l.Hashes)))
	prev = 0
	for _, h := range l.Hashes {
		body = binary.AppendUvarint(body, uint64(h.Turn-prev))
		body = binary.LittleEndian.AppendUint64(body, h.Sum)
		prev = h.Turn
	}

	rest := body[len(magic):]
	out := append([]byte(nil), magic...)
	z := zEncoder().EncodeAll(rest, nil)
	if len(z) < len(rest) {
		out = append(out, compressZstd)
		out = append(out, z...)
	} else {
		out = append(out, compressNone)
		out = append(out, rest...)
	}
	return Encoded{Bytes: out, ID: hex.EncodeToString(sum[:]), RawSize: len(body), CommandBytes: cmdBytes}, nil
}

// ID returns the match id of the log (see Encode).
func (l *Log) ID() (string, error) {
	e, err := l.Encode()
	return e.ID, err
}

func appendBytes(b, p []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(p)))
	return append(b, p...)
}

// dictionary maps commands to symbols and back, growing with escapes.
type dictionary struct {
	words []string
	index map[string]int
}

const symEscape = 0

func newDictionary(alphabet []string) *dictionary {
	d := &dictionary{words: make([]string, 0, 2+len(alphabet)), index: make(map[string]int, 2+len(alphabet))}
	d.words = append(d.words, "") // the escape symbol's slot; never looked up
	d.add("")
	for _, w := range alphabet {
		d.add(w)
	}
	return d
}

func (d *dictionary) add(w string) {
	if _, ok := d.index[w]; ok || len(d.words) >= maxDict {
		return
	}
	d.index[w] = len(d.words)
	d.words = append(d.words, w)
}

// width is the number of bits of the next symbol.
func (d *dictionary) width() uint { return uint(bits.Len(uint(len(d.words) - 1))) }

func appendCommands(b []byte, turns [][]string, alphabet []string) []byte {
	d := newDictionary(alphabet)
	var lits [][]byte
	var w bitWriter
	for _, cmds := range turns {
		for _, c := range cmds {
			width := d.width()
			if sym, ok := d.index[c]; ok {
				w.write(uint64(sym), width)
				continue
			}
			w.write(symEscape, width)
			lits = append(lits, []byte(c))
			d.add(c)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(lits)))
	for _, l := range lits {
		b = appendBytes(b, l)
	}
	return appendBytes(b, w.bytes())
}

type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) write(v uint64, n uint) {
	w.acc |= v << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) bytes() []byte {
	if w.nacc > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
	return w.buf
}

type bitReader struct {
	buf  []byte
	pos  int
	acc  uint64
	nacc uint
}

func (r *bitReader) read(n uint) (uint64, bool) {
	for r.nacc < n {
		if r.pos == len(r.buf) {
			return 0, false
		}
		r.acc |= uint64(r.buf[r.pos]) << r.nacc
		r.pos++
		r.nacc += 8
	}
	v := r.acc & (1<<n - 1)
	r.acc >>= n
	r.nacc -= n
	return v, true
}

// DecodeBinary reads a binary replay and checks it (see Log.Check).
func DecodeBinary(data []byte) (*Log, error) {
	if !bytes.HasPrefix(data, magic) {
		return nil, &Error{Reason: "missing the binary replay magic", Err: ErrNotReplay}
	}
	if len(data) < len(magic)+1 {
		return nil, &Error{Reason: "truncated before the compression byte"}
	}
	rest := data[len(magic)+1:]
	switch data[len(magic)] {
	case compressNone:
	case compressZstd:
		var err error
		rest, err = zDecoder().DecodeAll(rest, nil)
		if err != nil {
			return nil, &Error{Reason: "corrupt compressed body: " + err.Error(), Err: err}
		}
	default:
		return nil, &Error{Reason: fmt.Sprintf("unknown compression %d", data[len(magic)])}
	}
	return decodeBody(rest)
}

// bodyReader reads the varint-framed body, remembering the first error.
type bodyReader struct {
	b   []byte
	err error
}

func (r *bodyReader) uvarint(what string, max uint64) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("truncated or bad varint in %s", what)
		return 0
	}
	if v > max {
		r.err = fmt.Errorf("%s is %d, at most %d", what, v, max)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *bodyReader) bytes(what string, max uint64) []byte {
	n := r.uvarint(what+" length", max)
	if r.err != nil {
		return nil
	}
	if uint64(len(r.b)) < n {
		r.err = fmt.Errorf("truncated in %s", what)
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func decodeBody(b []byte) (*Log, error) {
	r := &bodyReader{b: b}
	hb := r.bytes("header", MaxHeaderBytes)
	if r.err != nil {
		return nil, &Error{Reason: r.err.Error()}
	}
	h, err := decodeHeader(hb)
	if err != nil {
		return nil, err
	}
	l := &Log{Header: h}
	g, err := l.Header.Check()
	if err != nil {
		return nil, err
	}
	seats := len(h.Players)
	nTurns := int(r.uvarint("turn count", MaxTurns))
	nLits := r.uvarint("literal count", uint64(nTurns*seats))
	if r.err != nil {
		return nil, &Error{Reason: r.err.Error()}
	}
	lits := make([]string, 0, min(nLits, 1<<16))
	for i := uint64(0); i < nLits && r.err == nil; i++ {
		lits = append(lits, string(r.bytes("literal", MaxCommandBytes)))
	}
	stream := r.bytes("command stream", uint64(len(r.b)))
	if r.err != nil {
		return nil, &Error{Reason: r.err.Error()}
	}
	if err := l.decodeCommands(stream, lits, nTurns, seats, g.Alphabet); err != nil {
		return nil, err
	}

	nNotes := r.uvarint("note count", uint64(nTurns*seats))
	turn := 0
	for i := uint64(0); i < nNotes && r.err == nil; i++ {
		turn += int(r.uvarint("note turn", uint64(nTurns)))
		seat := int(r.uvarint("note seat", uint64(seats)))
		kind := int(r.uvarint("note kind", uint64(len(noteKinds)-1)))
		l.Notes = append(l.Notes, Note{Turn: turn, Seat: seat, Kind: noteKinds[kind]})
	}
	nHashes := r.uvarint("hash count", uint64(nTurns)+1)
	turn = 0
	for i := uint64(0); i < nHashes && r.err == nil; i++ {
		turn += int(r.uvarint("hash turn", uint64(nTurns)))
		if len(r.b) < 8 {
			r.err = errors.New("truncated in the hash table")
			break
		}
		l.Hashes = append(l.Hashes, Hash{Turn: turn, Sum: binary.LittleEndian.Uint64(r.b)})
		r.b = r.b[8:]
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%d bytes of trailing data", len(r.b))
	}
	if r.err != nil {
		return nil, &Error{Reason: r.err.Error()}
	}
	if _, err := l.Check(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Log) decodeCommands(stream []byte, lits []string, nTurns, seats int, alphabet []string) error {
	d := newDictionary(alphabet)
	br := bitReader{buf: stream}
	if uint64(len(stream))*8 < uint64(nTurns*seats)*uint64(d.width()) {
		return &Error{Reason: fmt.Sprintf("command stream of %d bytes is too short for %d turns", len(stream), nTurns)}
	}
	all := make([]string, nTurns*seats)
	if nTurns > 0 {
		l.Turns = make([][]string, nTurns) // nil when empty, as the text decoder leaves it
	}
	next := 0
	for t := range nTurns {
		cmds := all[t*seats : (t+1)*seats : (t+1)*seats]
		for s := range cmds {
			sym, ok := br.read(d.width())
			if !ok {
				return &Error{Turn: t + 1, Reason: "command stream truncated"}
			}
			switch {
			case sym == symEscape:
				if next == len(lits) {
					return &Error{Turn: t + 1, Reason: fmt.Sprintf("seat %d: escape with no literal left", s)}
				}
				cmds[s] = lits[next]
				next++
				d.add(cmds[s])
			case sym < uint64(len(d.words)):
				cmds[s] = d.words[sym]
			default:
				return &Error{Turn: t + 1, Reason: fmt.Sprintf("seat %d: symbol %d outside a dictionary of %d", s, sym, len(d.words))}
			}
		}
		l.Turns[t] = cmds
	}
	if next != len(lits) {
		return &Error{Reason: fmt.Sprintf("%d unused literals in the command stream", len(lits)-next)}
	}
	if br.pos != len(stream) || br.acc != 0 {
		return &Error{Reason: "trailing bits after the command stream"}
	}
	return nil
}

// Decode reads a replay in either encoding, telling them apart by the
// binary magic.
func Decode(data []byte) (*Log, error) {
	if bytes.HasPrefix(data, magic) {
		return DecodeBinary(data)
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a byte-order mark some editors add
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, &Error{Reason: "neither a binary replay nor a text replay starting with a JSON header", Err: ErrNotReplay}
	}
	return DecodeText(bytes.NewReader(data))
}
