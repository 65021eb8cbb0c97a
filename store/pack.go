package store

import (
	"bytes"
	"cmp"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// A match's lines and events are each stored as one blob in one row
// (match_lines, match_events), not as a row per line or per event: a row
// costs its header and an index entry (some 60 bytes on SQLite and over
// 100 on PostgreSQL), which for events was more than the event itself,
// and thousands of rows cost a round trip each to insert on PostgreSQL.
// Every reader of a match's lines or events wants most of them anyway.
// The first byte of a blob names its layout, so blobs written before a
// layout is added read as they always did.
const (
	packLinesV1  = 1 // uvarint count, then per line: varint metric, uvarint seat, varint unit, uvarint length, encodeLine's bytes
	packEventsV1 = 1 // strings, then events; see packEvents
	packDeflated = 2 // uvarint length, then a layout above (its first byte included) compressed by DEFLATE
)

// maxPackBytes bounds what a compressed pack may inflate to, so a damaged
// length cannot ask for memory without end: a 2000-turn match of many
// units packs to a few hundred kilobytes, and a longer pack than this is
// stored uncompressed.
const maxPackBytes = 64 << 20

// deflaters keeps DEFLATE's compressors, which are large to set up, for
// the next pack.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.DefaultCompression) // the level is valid
	return w
}}

// compressPack returns pack compressed (packDeflated) when that is
// shorter and pack is not too long to read back (maxPackBytes), else
// pack itself. Steps and values repeat across a match's lines (units
// standing still, counters moving together) and kinds, seats and places
// across its events, which a line or an event alone cannot see:
// compressed, a pack takes a third to two thirds less.
func compressPack(pack []byte) []byte {
	if len(pack) > maxPackBytes {
		return pack
	}
	var b bytes.Buffer
	b.WriteByte(packDeflated)
	b.Write(binary.AppendUvarint(nil, uint64(len(pack))))
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&b)
	if _, err := w.Write(pack); err != nil || w.Close() != nil || b.Len() >= len(pack) {
		return pack
	}
	return b.Bytes()
}

// expandPack returns the pack a stored blob holds, inflating it when it
// is compressed.
func expandPack(data []byte) ([]byte, error) {
	if len(data) == 0 || data[0] != packDeflated {
		return data, nil
	}
	n, k := binary.Uvarint(data[1:])
	if k <= 0 || n > maxPackBytes {
		return nil, fmt.Errorf("compressed pack of a bad length")
	}
	r := flate.NewReader(bytes.NewReader(data[1+k:]))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, int64(n)+1))
	if err != nil {
		return nil, fmt.Errorf("compressed pack: %w", err)
	}
	if uint64(len(out)) != n {
		return nil, fmt.Errorf("compressed pack holds %d bytes, says %d", len(out), n)
	}
	return out, nil
}

// maxPackStrings bounds the distinct kinds and details of one match's
// events that a blob may name, so that a damaged blob cannot ask for an
// allocation without end; each costs at least a byte of the blob anyway.
const maxPackStrings = 1 << 20

// lineKey orders a match's lines as readers list them.
func lineKey(a, b *Line) int {
	return cmp.Or(cmp.Compare(a.Metric, b.Metric), cmp.Compare(a.Seat, b.Seat), cmp.Compare(a.Unit, b.Unit))
}

// packLines appends the lines of a match, ordered by metric, seat and
// unit, each encoded by encodeLine, to dst. Two lines with the same key
// are an error.
func packLines(dst []byte, ls []Line) ([]byte, error) {
	order := make([]*Line, len(ls))
	for i := range ls {
		order[i] = &ls[i]
	}
	slices.SortFunc(order, lineKey)
	dst = packHeader(dst, len(order))
	var enc []byte
	for i, l := range order {
		if i > 0 && lineKey(order[i-1], l) == 0 {
			return nil, invalidf("two lines of metric %d, seat %d, unit %d", l.Metric, l.Seat, l.Unit)
		}
		enc = encodeLine(enc[:0], l.Values)
		dst = appendPackedLine(dst, l.Metric, l.Seat, l.Unit, enc)
	}
	return dst, nil
}

// appendPackedLine appends one line, already encoded (a series row of an
// older database), to a pack begun by packHeader; the lines must come in
// packLines' order.
func appendPackedLine(dst []byte, metric, seat, unit int, enc []byte) []byte {
	dst = binary.AppendVarint(dst, int64(metric))
	dst = binary.AppendUvarint(dst, uint64(seat))
	dst = binary.AppendVarint(dst, int64(unit))
	dst = binary.AppendUvarint(dst, uint64(len(enc)))
	return append(dst, enc...)
}

// packHeader begins a pack of n lines.
func packHeader(dst []byte, n int) []byte {
	return binary.AppendUvarint(append(dst, packLinesV1), uint64(n))
}

// eachPackedLine calls fn with each line of a pack in its order: the line
// without its values, and their encoding (encodeLine's), which is a slice
// of data. It fails, never panics, on a damaged pack.
func eachPackedLine(data []byte, fn func(l Line, enc []byte) error) error {
	data, err := expandPack(data)
	if err != nil {
		return fmt.Errorf("lines: %w", err)
	}
	if len(data) == 0 || data[0] != packLinesV1 {
		return fmt.Errorf("lines: unknown layout")
	}
	r := packReader{data: data[1:]}
	n := r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		l := Line{Metric: int(r.varint()), Seat: int(r.uvarint()), Unit: int(r.varint())}
		enc := r.bytes()
		if r.err != nil {
			break
		}
		if err := fn(l, enc); err != nil {
			return err
		}
	}
	if r.err == nil && len(r.data) > 0 {
		r.err = fmt.Errorf("bytes after the last line")
	}
	if r.err != nil {
		return fmt.Errorf("lines: %w", r.err)
	}
	return nil
}

// packedEvent is a stored event with its position among the events of
// its turn, which pages of events count by.
type packedEvent struct {
	TurnEvent
	pos int
}

// packEvents appends the events of a match to dst, in the order readers
// list them: by turn, and within a turn in the order the game emitted
// them. Kinds and details repeat from event to event, so the blob holds
// each distinct one once (uvarint count, then uvarint length and bytes
// each) and an event its index. Then come the events (uvarint count), each
// as: uvarint turn less the turn before, varint seat, varint unit,
// uvarint kind, varint target, the amount's bits byte-reversed as a
// uvarint (0 and short fractions take a byte or two), varint x, varint y,
// uvarint detail.
func packEvents(dst []byte, evs []TurnEvent) []byte {
	order := make([]*TurnEvent, len(evs))
	for i := range evs {
		order[i] = &evs[i]
	}
	slices.SortStableFunc(order, func(a, b *TurnEvent) int { return cmp.Compare(a.Turn, b.Turn) })
	index := map[string]uint64{}
	var strs []string
	id := func(s string) uint64 {
		i, ok := index[s]
		if !ok {
			i = uint64(len(strs))
			index[s] = i
			strs = append(strs, s)
		}
		return i
	}
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(order)))
	turn := 0
	for _, e := range order {
		body = binary.AppendUvarint(body, uint64(e.Turn-turn))
		turn = e.Turn
		body = binary.AppendVarint(body, int64(e.Seat))
		body = binary.AppendVarint(body, int64(e.Unit))
		body = binary.AppendUvarint(body, id(e.Kind))
		body = binary.AppendVarint(body, int64(e.Target))
		body = binary.AppendUvarint(body, bits.ReverseBytes64(math.Float64bits(e.Amount)))
		body = binary.AppendVarint(body, int64(e.X))
		body = binary.AppendVarint(body, int64(e.Y))
		body = binary.AppendUvarint(body, id(e.Detail))
	}
	dst = append(dst, packEventsV1)
	dst = binary.AppendUvarint(dst, uint64(len(strs)))
	for _, s := range strs {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	return append(dst, body...)
}

// unpackEvents decodes what packEvents wrote, giving each event its
// position in its turn. It fails, never panics, on a damaged blob.
func unpackEvents(data []byte) ([]packedEvent, error) {
	data, err := expandPack(data)
	if err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	if len(data) == 0 || data[0] != packEventsV1 {
		return nil, fmt.Errorf("events: unknown layout")
	}
	r := packReader{data: data[1:]}
	ns := r.uvarint()
	if ns > maxPackStrings || ns > uint64(len(r.data)) {
		return nil, fmt.Errorf("events: %d strings in %d bytes", ns, len(r.data))
	}
	strs := make([]string, ns)
	for i := range strs {
		strs[i] = string(r.bytes())
	}
	str := func(i uint64) string {
		if i >= uint64(len(strs)) {
			r.fail(fmt.Errorf("string %d of %d", i, len(strs)))
			return ""
		}
		return strs[i]
	}
	// Each event takes nine bytes at least.
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.data))/9 {
		return nil, fmt.Errorf("events: %d events in %d bytes", n, len(r.data))
	}
	evs := make([]packedEvent, 0, n)
	turn, pos := 0, 0
	for i := uint64(0); i < n && r.err == nil; i++ {
		var e packedEvent
		if d := r.uvarint(); d > 0 {
			turn, pos = turn+int(min(d, math.MaxInt32)), 0
		}
		e.Turn, e.pos = turn, pos
		pos++
		e.Seat, e.Unit = int(r.varint()), int(r.varint())
		e.Kind = str(r.uvarint())
		e.Target = int(r.varint())
		e.Amount = math.Float64frombits(bits.ReverseBytes64(r.uvarint()))
		e.X, e.Y = int(r.varint()), int(r.varint())
		e.Detail = str(r.uvarint())
		evs = append(evs, e)
	}
	if r.err == nil && len(r.data) > 0 {
		r.err = fmt.Errorf("bytes after the last event")
	}
	if r.err != nil {
		return nil, fmt.Errorf("events: %w", r.err)
	}
	return evs, nil
}

// packReader reads varints and byte strings off the front of data; the
// first failure sticks in err and every later read gives zero.
type packReader struct {
	data []byte
	err  error
}

func (r *packReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.data = nil
}

func (r *packReader) uvarint() uint64 {
	v, k := binary.Uvarint(r.data)
	if k <= 0 {
		r.fail(fmt.Errorf("bad number"))
		return 0
	}
	r.data = r.data[k:]
	return v
}

func (r *packReader) varint() int64 {
	v, k := binary.Varint(r.data)
	if k <= 0 {
		r.fail(fmt.Errorf("bad number"))
		return 0
	}
	r.data = r.data[k:]
	return v
}

func (r *packReader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.data)) {
		r.fail(fmt.Errorf("%d bytes wanted, %d left", n, len(r.data)))
		return nil
	}
	b := r.data[:n:n]
	r.data = r.data[n:]
	return b
}
