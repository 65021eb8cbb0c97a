package replay

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math/bits"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/replaylab/replaylab/sim"
)

// The binary encoding (.rpl), version 2 (header format "replaylab/2"):
//
//	magic "RPL" 0x02 | compression byte (0 none, 1 zstd) | body | checksum
//
// The checksum is the CRC-32C (Castagnoli) of every byte before it, as
// written (compressed or not), in 4 bytes little-endian. It is checked
// before anything is decompressed or decoded, so a changed, added or lost
// byte is reported as corrupt. The body, once decompressed, is a sequence of
// unsigned varints (uv) and bytes:
//
//	uv len, header JSON (canonical: see Header.Check)
//	uv turns
//	uv literals, then each: uv len, bytes     raw text of escaped commands
//	uv stream len, stream bytes               one symbol per seat per turn
//	uv notes, then each: uv turn delta, uv seat, uv kind
//	uv hashes, then each: uv turn delta, 8 bytes little-endian
//	end record: uv turns, final state hash 8 bytes little-endian,
//	            digest 8 bytes little-endian (the match id's first 16 hex
//	            digits as a number)
//
// Version 1 (magic "RPL" 0x01, header format "replaylab/1") is the same
// without the end record and the checksum; it is still read and written
// for logs whose header says replaylab/1.
//
// A symbol is an index into a dictionary that starts as [escape, "",
// alphabet...] (the game's Alphabet) and grows by one entry for every
// escaped command, so a repeated unusual command costs a symbol too. Symbols
// are packed least significant bit first at the width needed for the
// current dictionary size: a River Toad turn costs 3 bits. An escape takes
// the next literal.
//
// A match's ID is the SHA-256 of the version 1 body up to the hash table,
// uncompressed, magic "RPL" 0x01 included, with the header's format set to
// "replaylab/1": the header, the commands and the notes. So the id names the
// match, not its encoding: a replaylab/1 file and its replaylab/2 copy (text
// or binary) have the same id, and ids stored before version 2 stay valid.
// Hashes and the end record are only checks, so adding checkpoints to a
// replay does not make it a different match, and the id does not depend on
// the zstd version. A header at rules revision 1 has no revision field, so
// ids from before revisions existed stay valid; the same commands recorded
// under a later revision are a different match, with a different id.

// Binary magics: "RPL" and the version byte.
var (
	magicV1 = []byte("RPL\x01")
	magic   = []byte("RPL\x02")
)

// Compression byte values.
const (
	compressNone = 0
	compressZstd = 1
)

// checksumBytes is the size of the version 2 trailer.
const checksumBytes = 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// hashBytes bounds the encoding of a hash table entry or the end record:
// two varints and two 64-bit sums at most.
const hashBytes = 2*binary.MaxVarintLen64 + 16

// maxDict bounds the dictionary so a hostile log cannot make symbols wide.
const maxDict = 1 << 16

// maxBody bounds a decompressed body: every command byte a log may hold
// plus room for the framing, notes and hashes of the longest legal match.
const maxBody = MaxLogCommandBytes + 8<<20

// maxWindow bounds the zstd window a decoder accepts: the encoder below
// uses 8 MiB, and a larger window would only cost memory.
const maxWindow = 8 << 20

var zEncoder = sync.OnceValue(func() *zstd.Encoder {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		panic(err) // only on invalid options
	}
	return e
})

// Encoded is the binary encoding of a log with its identity and sizes.
type Encoded struct {
	Bytes []byte // the .rpl file
	ID    string // hex SHA-256, see the format comment
	// RawSize is the size before compression; CommandBytes the part of it
	// that holds the commands (literals and symbol stream).
	RawSize, CommandBytes int
}

// Encode checks the log and returns its binary encoding, version 1 or 2 as
// its header says. The body is stored zstd-compressed unless that would
// make it larger.
func (l *Log) Encode() (Encoded, error) {
	g, err := l.Check()
	if err != nil {
		return Encoded{}, err
	}
	// The body is sized up front: a buffer that doubles as it fills holds
	// up to three times the body at once, which for a log of long distinct
	// commands is hundreds of megabytes. The hash table and the end record
	// take at most hashBytes an entry (the count and the end record
	// counted as entries). The content (turn count, commands, notes) is
	// encoded once, into the body, and the id hashes it there, behind the
	// version 1 magic and header (as idSum does), when contentBound is
	// small; a larger bound may be far above the content (long commands
	// repeated are symbols of a few bits), so the content is then sized
	// exactly by hashing it first, at the cost of encoding it twice.
	header := encodeHeader(&l.Header)
	size := contentBound(l)
	exact := size > exactSizeAbove
	var sum [sha256.Size]byte
	if exact {
		sum, size = l.idSum(g.Alphabet)
	}
	var buf bytes.Buffer
	buf.Grow(binary.MaxVarintLen64 + len(header) + size + (len(l.Hashes)+2)*hashBytes)
	w := &bodyWriter{w: &buf}
	w.bytes(header)
	contentStart := w.n
	cmdBytes := l.writeContent(w, g.Alphabet)
	if !exact {
		sum = l.contentSum(string(buf.Bytes()[contentStart:])) // at most exactSizeAbove
	}
	w.uvarint(uint64(len(l.Hashes)))
	prev := 0
	for _, h := range l.Hashes {
		w.uvarint(uint64(h.Turn - prev))
		w.uint64(h.Sum)
		prev = h.Turn
	}
	m := magicV1
	if l.End != nil {
		m = magic
		w.uvarint(uint64(l.End.Turn))
		w.uint64(l.End.Sum)
		w.uint64(binary.BigEndian.Uint64(sum[:8]))
	}
	rest := buf.Bytes()
	// Compressed into a buffer that fits either form, which does not grow
	// (nor copy itself) as the output does: encoding holds at most three
	// times the body at once, twice plus what a compressed file keeps.
	out := make([]byte, 0, len(m)+1+len(rest)+checksumBytes)
	out = append(out, m...)
	out = append(out, compressZstd)
	if out = zEncoder().EncodeAll(rest, out); len(out)-len(m)-1 < len(rest) {
		out = append(make([]byte, 0, len(out)+checksumBytes), out...) // not the body's room
	} else {
		out = append(out[:len(m)], compressNone)
		out = append(out, rest...)
	}
	if l.End != nil {
		out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
	}
	return Encoded{Bytes: out, ID: hex.EncodeToString(sum[:]), RawSize: len(m) + len(rest), CommandBytes: cmdBytes}, nil
}

// ID returns the match id of the log (see the format comment).
func (l *Log) ID() (string, error) {
	g, err := l.Check()
	if err != nil {
		return "", err
	}
	sum, _ := l.idSum(g.Alphabet)
	return hex.EncodeToString(sum[:]), nil
}

// idSum hashes the part of a checked log that identifies the match, in its
// version 1 form, without building it in memory, and returns the size of
// its content.
func (l *Log) idSum(alphabet []string) (sum [sha256.Size]byte, contentSize int) {
	h := sha256.New()
	bw := bufio.NewWriterSize(h, 32<<10) // takes the commands without copying each to a []byte
	w := &bodyWriter{w: bw}
	l.writeIDHead(w)
	start := w.n
	l.writeContent(w, alphabet)
	bw.Flush()
	h.Sum(sum[:0])
	return sum, w.n - start
}

// contentSum is idSum of a log whose content writeContent has already
// encoded into content. The content is hashed through a small buffer, not
// converted whole to a []byte: a body may be tens of MiB.
func (l *Log) contentSum(content string) (sum [sha256.Size]byte) {
	h := sha256.New()
	l.writeIDHead(&bodyWriter{w: h})
	chunk := make([]byte, min(len(content), 32<<10))
	for content != "" {
		n := copy(chunk, content)
		h.Write(chunk[:n])
		content = content[n:]
	}
	h.Sum(sum[:0])
	return sum
}

// contentBound is at least the bytes writeContent writes for a checked
// log: a command takes at most two bytes of symbol (maxDict symbols) and,
// as a literal, its length and its bytes; a note three varints; the turn,
// literal and note counts and the stream's length a varint each, the
// stream's last byte one more.
func contentBound(l *Log) int {
	n := 4*binary.MaxVarintLen64 + 1
	for _, cmds := range l.Turns {
		for _, c := range cmds {
			n += 2 + uvarintLen(uint64(len(c))) + len(c)
		}
	}
	return n + len(l.Notes)*3*binary.MaxVarintLen64
}

// exactSizeAbove is the content bound above which Encode sizes the body
// exactly (see there): a FoodFight match's 2,000 turns of 4 seats are
// bounded by about 100 KiB.
const exactSizeAbove = 1 << 20

// uvarintLen is the length of v as a uvarint.
func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// writeIDHead writes what precedes the content in a log's version 1 form,
// which the id hashes: the magic and the header with the version 1 format.
func (l *Log) writeIDHead(w *bodyWriter) {
	w.write(magicV1)
	v1 := l.Header
	v1.Format = FormatV1
	w.bytes(encodeHeader(&v1))
}

// digest is the end record's digest of a checked log: the first 16 hex
// digits of its id as a number.
func (l *Log) digest(alphabet []string) uint64 {
	sum, _ := l.idSum(alphabet)
	return binary.BigEndian.Uint64(sum[:8])
}

// finish ends a decoder's work on the log it decoded, whose header started
// game g's match m: Check (without starting the match again), then, when
// the log has an end record, its digest against the content decoded before
// it. It returns the log's id when it computed it (for the digest), else "".
// content is the content's bytes as read when they are exactly what
// writeContent writes for the log (canonical), which the id then hashes as
// they are; "" to encode them again.
func (l *Log) finish(g *sim.Game, m sim.Match, digest uint64, content string) (id string, err error) {
	if err := l.checkContent(m); err != nil || l.End == nil {
		return "", err
	}
	var sum [sha256.Size]byte
	if content != "" {
		sum = l.contentSum(content)
	} else {
		sum, _ = l.idSum(g.Alphabet)
	}
	if got := binary.BigEndian.Uint64(sum[:8]); got != digest {
		return "", kindErrorf(ErrCorrupt, "the end record's digest %016x does not match the content (%016x): a turn, note or header was changed, added or lost", digest, got)
	}
	return hex.EncodeToString(sum[:]), nil
}

// bodyWriter writes the varint-framed body to a buffer or a hash, neither
// of which fails.
type bodyWriter struct {
	w   io.Writer
	n   int // bytes written
	tmp [binary.MaxVarintLen64]byte
}

func (w *bodyWriter) write(p []byte) {
	w.w.Write(p)
	w.n += len(p)
}

func (w *bodyWriter) uvarint(v uint64) { w.write(binary.AppendUvarint(w.tmp[:0], v)) }

func (w *bodyWriter) uint64(v uint64) { w.write(binary.LittleEndian.AppendUint64(w.tmp[:0], v)) }

func (w *bodyWriter) bytes(p []byte) {
	w.uvarint(uint64(len(p)))
	w.write(p)
}

// writeContent writes the turn count, the commands and the notes, and
// returns the size of the commands.
func (l *Log) writeContent(w *bodyWriter, alphabet []string) int {
	w.uvarint(uint64(len(l.Turns)))
	start := w.n
	writeCommands(w, l.Turns, alphabet)
	cmdBytes := w.n - start
	w.uvarint(uint64(len(l.Notes)))
	prev := 0
	for _, n := range l.Notes {
		w.uvarint(uint64(n.Turn - prev))
		w.uvarint(uint64(n.Seat))
		w.uvarint(uint64(noteKind(n.Kind)))
		prev = n.Turn
	}
	return cmdBytes
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

// linearDict is the dictionary size up to which lookup scans the words
// instead of hashing: every game's alphabet fits, and comparing a few
// short commands, most of another length, costs less than a map access.
const linearDict = 24

// lookup returns the symbol of w, or false when w is not in d.
func (d *dictionary) lookup(w string) (int, bool) {
	if len(d.words) > linearDict {
		sym, ok := d.index[w]
		return sym, ok
	}
	for i := 1; i < len(d.words); i++ { // words[0] is the escape's slot
		if d.words[i] == w {
			return i, true
		}
	}
	return 0, false
}

// width is the number of bits of the next symbol.
func (d *dictionary) width() uint { return uint(bits.Len(uint(len(d.words) - 1))) }

func writeCommands(out *bodyWriter, turns [][]string, alphabet []string) {
	d := newDictionary(alphabet)
	var lits []string
	var w bitWriter
	for _, cmds := range turns {
		for _, c := range cmds {
			width := d.width()
			if sym, ok := d.lookup(c); ok {
				w.write(uint64(sym), width)
				continue
			}
			w.write(symEscape, width)
			lits = append(lits, c)
			d.add(c)
		}
	}
	out.uvarint(uint64(len(lits)))
	for _, l := range lits {
		out.uvarint(uint64(len(l)))
		io.WriteString(out.w, l)
		out.n += len(l)
	}
	out.bytes(w.bytes())
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
	buf  string
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

// DecodeBinary reads a binary replay and checks it (see Log.Check). A
// version 2 file's checksum is checked first, and the body is decompressed
// at most to maxBody bytes, so a changed byte or a compression bomb is
// refused before anything is decoded.
func DecodeBinary(data []byte) (*Log, error) {
	l, _, err := decodeBinary(data)
	return l, err
}

// decodeBinary is DecodeBinary, returning the id when it computed it.
func decodeBinary(data []byte) (*Log, string, error) {
	version, err := binaryVersion(data)
	if err != nil {
		return nil, "", err
	}
	rest := data[len(magic):]
	if version == 2 {
		if len(rest) < 1+checksumBytes {
			return nil, "", kindErrorf(ErrCorrupt, "%d bytes, too short for a replay with a checksum", len(data))
		}
		payload := data[:len(data)-checksumBytes]
		want := binary.LittleEndian.Uint32(data[len(payload):])
		if got := crc32.Checksum(payload, castagnoli); got != want {
			return nil, "", kindErrorf(ErrCorrupt, "checksum mismatch (%08x, the file says %08x): the file was changed or cut short", got, want)
		}
		rest = payload[len(magic):]
	}
	if len(rest) == 0 {
		return nil, "", &Error{Reason: "truncated before the compression byte", Err: ErrTruncated}
	}
	// The body becomes one string that the decoded commands share, so a
	// log's memory is its body's size, not twice it.
	var body string
	switch rest[0] {
	case compressNone:
		if len(rest)-1 > maxBody {
			return nil, "", kindErrorf(ErrTooLarge, "a body of %d bytes, at most %d", len(rest)-1, maxBody)
		}
		body = string(rest[1:])
	case compressZstd:
		if body, err = decompress(rest[1:]); err != nil {
			return nil, "", err
		}
	default:
		return nil, "", &Error{Reason: fmt.Sprintf("unknown compression %d", rest[0])}
	}
	return decodeBody(body, version)
}

// binaryVersion reads the magic: 1 or 2, or an error naming a newer version.
func binaryVersion(data []byte) (int, error) {
	if len(data) < len(magic) || !bytes.HasPrefix(data, magic[:3]) {
		return 0, &Error{Reason: "missing the binary replay magic", Err: ErrNotReplay}
	}
	switch v := int(data[3]); {
	case v == 1 || v == 2:
		return v, nil
	case v > 2:
		return 0, &Error{Reason: fmt.Sprintf("binary replay version %d: written by a newer replaylab (this build reads versions 1 and 2)", v), Err: ErrNewer}
	}
	return 0, &Error{Reason: "binary replay version 0", Err: ErrNotReplay}
}

// decompress returns a zstd-compressed body, refusing one above maxBody
// bytes while holding no more than that. A frame that declares its size
// (the encoder writes it) is decoded in one pass into a buffer of that
// size; without one, or for a body longer than declared, a first pass
// counts the bytes without keeping them and a second fills a buffer of
// exactly that size. The decoder's window and memory are capped, and it
// runs on this goroutine.
func decompress(z []byte) (string, error) {
	var h zstd.Header
	if h.Decode(z) == nil && h.HasFCS && h.FrameContentSize <= maxBody {
		size := int64(h.FrameContentSize)
		var out strings.Builder
		out.Grow(int(size) + 1) // the byte that tells a longer body
		n, err := inflate(z, &out, size)
		if err != nil {
			return "", err
		}
		if n <= size {
			return out.String(), nil
		}
	}
	n, err := inflate(z, io.Discard, maxBody)
	if err != nil {
		return "", err
	}
	if n > maxBody {
		return "", bodyTooLarge()
	}
	var out strings.Builder
	out.Grow(int(n))
	if _, err := inflate(z, &out, n); err != nil {
		return "", err
	}
	return out.String(), nil
}

// inflate decompresses z into w, at most limit+1 bytes (so that more than
// limit says the body is longer), and returns how many it wrote.
func inflate(z []byte, w io.Writer, limit int64) (int64, error) {
	d, err := zstd.NewReader(bytes.NewReader(z), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(maxWindow), zstd.WithDecoderMaxMemory(maxBody))
	if err != nil {
		return 0, fmt.Errorf("zstd decoder: %w", err)
	}
	defer d.Close()
	n, err := io.Copy(w, io.LimitReader(d, limit+1))
	switch {
	case errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded):
		return 0, bodyTooLarge()
	case err != nil:
		return 0, &Error{Reason: "corrupt compressed body: " + err.Error(), Err: err}
	}
	return n, nil
}

// bodyTooLarge reports a body that decompresses to more than maxBody.
func bodyTooLarge() error {
	return kindErrorf(ErrTooLarge, "the body decompresses to more than %d MiB", maxBody>>20)
}

// bodyReader reads the varint-framed body, remembering the first error.
// Byte fields come out as substrings of the body, not copies.
type bodyReader struct {
	s   string
	err error
	// loose says a varint came in a longer form than an encoder writes
	// (binary.Uvarint accepts one): the content is then not byte for byte
	// what encoding the log gives.
	loose bool
}

// uvarint reads an unsigned varint as binary.Uvarint does.
func (r *bodyReader) uvarint(what string, max uint64) uint64 {
	if r.err != nil {
		return 0
	}
	var v uint64
	for i := 0; i < binary.MaxVarintLen64 && i < len(r.s); i++ {
		c := r.s[i]
		if c >= 0x80 {
			v |= uint64(c&0x7f) << (7 * i)
			continue
		}
		if i == binary.MaxVarintLen64-1 && c > 1 {
			break // overflows 64 bits
		}
		v |= uint64(c) << (7 * i)
		if v > max {
			r.err = fmt.Errorf("%s is %d, at most %d", what, v, max)
			return 0
		}
		if i > 0 && c == 0 {
			r.loose = true // a longer form than an encoder writes
		}
		r.s = r.s[i+1:]
		return v
	}
	r.err = fmt.Errorf("truncated or bad varint in %s", what)
	return 0
}

func (r *bodyReader) bytes(what string, max uint64) string {
	n := r.uvarint(what+" length", max)
	if r.err != nil {
		return ""
	}
	if uint64(len(r.s)) < n {
		r.err = fmt.Errorf("truncated in %s", what)
		return ""
	}
	p := r.s[:n]
	r.s = r.s[n:]
	return p
}

func (r *bodyReader) uint64(what string) uint64 {
	if r.err != nil {
		return 0
	}
	if len(r.s) < 8 {
		r.err = fmt.Errorf("truncated in %s", what)
		return 0
	}
	v := binary.LittleEndian.Uint64([]byte(r.s[:8]))
	r.s = r.s[8:]
	return v
}

// failed turns the reader's error, if any, into an *Error.
func (r *bodyReader) failed() *Error {
	if r.err == nil {
		return nil
	}
	return &Error{Reason: r.err.Error()}
}

// decodeBody decodes a decompressed body of the given version. The turn
// count is checked against the match's limit before anything per turn is
// allocated.
func decodeBody(b string, version int) (*Log, string, error) {
	r := &bodyReader{s: b}
	l, g, m, err := r.header(version)
	if err != nil {
		return nil, "", err
	}
	seats := len(l.Header.Players)
	contentStart := len(b) - len(r.s)
	nTurns := int(r.uvarint("turn count", MaxTurns))
	if err := r.failed(); err != nil {
		return nil, "", err
	}
	if err := checkTurnCount(nTurns, m); err != nil {
		return nil, "", err
	}
	lits, err := r.literals(nTurns * seats)
	if err != nil {
		return nil, "", err
	}
	stream := r.bytes("command stream", uint64(len(r.s)))
	if err := r.failed(); err != nil {
		return nil, "", err
	}
	canonical, err := l.decodeCommands(stream, lits, nTurns, seats, g.Alphabet)
	if err != nil {
		return nil, "", err
	}
	r.notes(l, nTurns, seats)
	content := b[contentStart : len(b)-len(r.s)]
	r.hashes(l, nTurns)
	var digest uint64
	if version == 2 && r.err == nil {
		if len(r.s) == 0 {
			return nil, "", truncatedError(nTurns)
		}
		digest = r.end(l)
	}
	if r.err == nil && len(r.s) > 0 {
		r.err = fmt.Errorf("%d bytes of trailing data", len(r.s))
	}
	if err := r.failed(); err != nil {
		return nil, "", err
	}
	if !canonical || r.loose {
		content = "" // hashed as writeContent encodes it
	}
	id, err := l.finish(g, m, digest, content)
	if err != nil {
		return nil, "", err
	}
	return l, id, nil
}

// header reads the header and starts its match, which judges the config
// and gives the turn limit.
func (r *bodyReader) header(version int) (*Log, *sim.Game, sim.Match, error) {
	hb := r.bytes("header", MaxHeaderBytes)
	if err := r.failed(); err != nil {
		return nil, nil, nil, err
	}
	h, err := decodeHeader([]byte(hb))
	if err != nil {
		return nil, nil, nil, err
	}
	if want := []string{FormatV1, Format}[version-1]; h.Format != want {
		return nil, nil, nil, headerErrorf(nil, "format %s in a version %d binary replay, want %q", quote(h.Format), version, want)
	}
	l := &Log{Header: h}
	g, m, err := l.Header.start()
	if err != nil {
		return nil, nil, nil, err
	}
	return l, g, m, nil
}

// literals reads the escaped commands' texts: at most one per command,
// within the log's command bytes.
func (r *bodyReader) literals(commands int) ([]string, error) {
	n := r.uvarint("literal count", uint64(commands))
	if err := r.failed(); err != nil {
		return nil, err
	}
	lits := make([]string, 0, min(n, 1<<16))
	total := 0
	for i := uint64(0); i < n && r.err == nil; i++ {
		lit := r.bytes("literal", MaxCommandBytes)
		if total += len(lit); total > MaxLogCommandBytes {
			return nil, commandBytesError()
		}
		lits = append(lits, lit)
	}
	return lits, nil
}

// notes reads the recorder's notes into l (turns as deltas).
func (r *bodyReader) notes(l *Log, nTurns, seats int) {
	n := r.uvarint("note count", uint64(nTurns*seats))
	turn := 0
	for i := uint64(0); i < n && r.err == nil; i++ {
		turn += int(r.uvarint("note turn", uint64(nTurns)))
		seat := int(r.uvarint("note seat", uint64(seats)))
		kind := int(r.uvarint("note kind", uint64(len(noteKinds)-1)))
		l.Notes = append(l.Notes, Note{Turn: turn, Seat: seat, Kind: noteKinds[kind]})
	}
}

// hashes reads the hash table into l (turns as deltas).
func (r *bodyReader) hashes(l *Log, nTurns int) {
	n := r.uvarint("hash count", uint64(nTurns)+1)
	turn := 0
	for i := uint64(0); i < n && r.err == nil; i++ {
		turn += int(r.uvarint("hash turn", uint64(nTurns)))
		l.Hashes = append(l.Hashes, Hash{Turn: turn, Sum: r.uint64("the hash table")})
	}
}

// end reads the end record into l and returns its digest.
func (r *bodyReader) end(l *Log) (digest uint64) {
	end := Hash{Turn: int(r.uvarint("end record turn count", MaxTurns)), Sum: r.uint64("the end record")}
	digest = r.uint64("the end record")
	l.End = &end
	return digest
}

// decodeCommands decodes the command stream into l.Turns. canonical says
// the stream and literals are those writeCommands writes for them: no
// escape for a command the dictionary already holds (the symbols' widths
// and the final byte's padding are checked anyway).
func (l *Log) decodeCommands(stream string, lits []string, nTurns, seats int, alphabet []string) (canonical bool, err error) {
	d := newDictionary(alphabet)
	br := bitReader{buf: stream}
	if uint64(len(stream))*8 < uint64(nTurns*seats)*uint64(d.width()) {
		return false, &Error{Reason: fmt.Sprintf("command stream of %d bytes is too short for %d turns", len(stream), nTurns)}
	}
	all := make([]string, nTurns*seats)
	if nTurns > 0 {
		l.Turns = make([][]string, nTurns) // nil when empty, as the text decoder leaves it
	}
	next := 0
	loose := false
	width := d.width() // changes only when a literal joins d
	for t := range nTurns {
		cmds := all[t*seats : (t+1)*seats : (t+1)*seats]
		for s := range cmds {
			sym, ok := br.read(width)
			if !ok {
				return false, &Error{Turn: t + 1, Reason: "command stream truncated"}
			}
			switch {
			case sym == symEscape:
				if next == len(lits) {
					return false, &Error{Turn: t + 1, Reason: fmt.Sprintf("%s: escape with no literal left", sim.SeatName(s))}
				}
				cmds[s] = lits[next]
				next++
				if _, known := d.lookup(cmds[s]); known {
					loose = true
				}
				d.add(cmds[s])
				width = d.width()
			case sym < uint64(len(d.words)):
				cmds[s] = d.words[sym]
			default:
				return false, &Error{Turn: t + 1, Reason: fmt.Sprintf("%s: symbol %d outside a dictionary of %d", sim.SeatName(s), sym, len(d.words))}
			}
		}
		l.Turns[t] = cmds
	}
	if next != len(lits) {
		return false, &Error{Reason: fmt.Sprintf("%d unused literals in the command stream", len(lits)-next)}
	}
	if br.pos != len(stream) || br.acc != 0 {
		return false, &Error{Reason: "trailing bits after the command stream"}
	}
	return !loose, nil
}

// maxFile bounds a binary replay file: a stored body is at most maxBody,
// and a compressed one is only kept when it is smaller.
const maxFile = len("RPL\x02") + 1 + maxBody + checksumBytes

// MaxEncodedBytes is the most a replay whose first bytes are head may
// hold: a binary replay's limit when head starts with the binary magic,
// else a text replay's (and a byte-order mark). A reader holding a replay
// whole can refuse a larger one as soon as it passes this.
func MaxEncodedBytes(head []byte) int64 {
	if bytes.HasPrefix(head, magic[:3]) {
		return int64(maxFile)
	}
	return int64(maxText) + int64(len("\ufeff"))
}

// Decode reads a replay in either encoding, telling them apart by the
// binary magic.
func Decode(data []byte) (*Log, error) {
	if bytes.HasPrefix(data, magic[:3]) {
		return DecodeBinary(data) // in place, without Read's copy
	}
	return Read(bytes.NewReader(data))
}

// Read reads a replay in either encoding from r: a binary one is read whole
// (at most maxFile bytes), a text one is decoded as it streams in, so memory
// stays bounded by the decoded log whatever r holds.
func Read(r io.Reader) (*Log, error) {
	l, _, err := read(r)
	return l, err
}

// ReadID is Read that also returns the log's id (see Log.ID). Reading a
// log with an end record computes the id to check the record's digest, so
// the id costs nothing more.
func ReadID(r io.Reader) (*Log, string, error) {
	l, id, err := read(r)
	if err != nil || id != "" {
		return l, id, err
	}
	id, err = l.ID()
	return l, id, err
}

// read is Read, returning the id when it computed it.
func read(r io.Reader) (*Log, string, error) {
	b := bufio.NewReader(r)
	head, _ := b.Peek(len(magic))
	if bytes.HasPrefix(head, magic[:3]) {
		data, err := readBinary(b, sizeOf(r))
		if err != nil {
			return nil, "", err
		}
		return decodeBinary(data)
	}
	if bom, _ := b.Peek(3); string(bom) == "\ufeff" { // a byte-order mark some editors add
		b.Discard(3)
	}
	start, _ := b.Peek(64)
	if trimmed := bytes.TrimLeft(start, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, "", &Error{Reason: "neither a binary replay nor a text replay starting with a JSON header", Err: ErrNotReplay}
	}
	return decodeText(b)
}

// sizeOf returns the size of r when it can tell (a file), else 0.
func sizeOf(r io.Reader) int {
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Size() <= int64(maxFile) {
			return int(fi.Size())
		}
	}
	return 0
}

// readBinary reads a whole binary replay, at most maxFile bytes, in one
// allocation when its size is known.
func readBinary(r io.Reader, size int) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(r, int64(maxFile)+1)); err != nil {
		return nil, &Error{Reason: "read: " + err.Error(), Err: err}
	}
	if buf.Len() > maxFile {
		return nil, kindErrorf(ErrTooLarge, "more than %d bytes", maxFile)
	}
	return buf.Bytes(), nil
}
