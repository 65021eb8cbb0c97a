package analytics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"time"

	"github.com/replaylab/replaylab/store"
)

// stateInputMax bounds the distinct placings a saved state keeps: a
// ruleset of more saves its last full fit without its matches (about 14
// bytes a placing, 280 KB at most), and its first full fit after a start
// reads them. Those rulesets are the ones whose new matches are updates
// (incrementalFrom), which need no more. (A variable: tests lower it.)
var stateInputMax = 20_000

// stateLayout is the first byte of a saved fit state (encodeState): a
// state of another layout, saved by another build, is ignored and the
// ruleset fitted in full once.
const stateLayout = 1

// encodeState returns what a Refitter saves with a fit of st
// (store.FittedRatings.State) so that a server that starts can update
// st's last full fit with new matches without reading the old ones
// again: the matches it covers (count and last seq), its distinct
// placings and prior, and per player, in the fit's row order, the
// player's key, bot id, matches and raw log-strength, then the lower
// triangle of the observed information, row by row (the upper one is its
// mirror), then, when they are stateInputMax or fewer, the fit's
// matches as its distinct placings (their teams by rows, best first, the
// ends of their tied groups and how often each occurred), and a CRC-32
// of all that. Numbers are varints and float64s little-endian: 8·n(n+1)/2
// bytes of information for n versions, 15 KB for 60, which DEFLATE does
// not shrink (the floats' low bits are noise). It returns nil when st has
// no full fit to update. st.in must hold the fit's matches, as it does
// when the fit is made.
func encodeState(st *rulesetFit) []byte {
	f := st.base
	if f == nil || f.info == nil {
		return nil
	}
	n := len(f.raw)
	rows := make([]string, n)
	for p, i := range f.index {
		rows[i] = p
	}
	matches := make([]int, n)
	for _, rt := range f.Ratings {
		matches[f.index[rt.Player]] = rt.Matches
	}
	b := make([]byte, 0, 64+n*32+8*n*(n+1)/2)
	b = append(b, stateLayout)
	b = binary.AppendUvarint(b, uint64(f.Matches))
	b = binary.AppendUvarint(b, uint64(st.baseSeq))
	b = binary.AppendUvarint(b, uint64(st.baseDistinct))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f.prior))
	b = binary.AppendUvarint(b, uint64(n))
	for i, p := range rows {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
		b = binary.AppendVarint(b, st.ids[p])
		b = binary.AppendUvarint(b, uint64(matches[i]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f.raw[i]))
	}
	for i, row := range f.info {
		for _, x := range row[:i+1] {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
	}
	if st.partial || st.in.distinct() > stateInputMax {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = appendInput(b, &st.in)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// appendInput appends the distinct placings of in, in the canonical
// order and player rows of its table.
func appendInput(b []byte, in *RatingInput) []byte {
	t := in.table()
	b = binary.AppendUvarint(b, uint64(in.Len()))
	b = binary.AppendUvarint(b, uint64(len(t.outcomes)))
	for _, o := range t.outcomes {
		b = binary.AppendUvarint(b, uint64(len(o.units)))
		for _, unit := range o.units {
			b = binary.AppendUvarint(b, uint64(len(unit)))
			for _, p := range unit {
				b = binary.AppendUvarint(b, uint64(p))
			}
		}
		b = binary.AppendUvarint(b, uint64(len(o.ends)))
		for _, e := range o.ends {
			b = binary.AppendUvarint(b, uint64(e))
		}
		b = binary.AppendUvarint(b, uint64(o.count))
	}
	return b
}

// readInput reads what appendInput wrote, of the players of rows, into
// in, through Add, which checks every placing.
func (d *stateDecoder) readInput(in *RatingInput, rows []string, matches int) error {
	rated, k := d.count(matches), d.count(stateInputMax)
	if len(rows) == 0 {
		return errors.New("placings of no players")
	}
	var ps []Placing
	for range k {
		units := make([][]int, d.count(maxSeats))
		for u := range units {
			units[u] = make([]int, d.count(maxSeats))
			for i := range units[u] {
				units[u][i] = d.count(max(0, len(rows)-1))
			}
		}
		ends := make([]int, d.count(maxSeats))
		for g := range ends {
			ends[g] = d.count(len(units))
		}
		count := d.count(matches)
		if d.err != nil {
			return d.err
		}
		// A placing of every team, its tied group's rank.
		ps, start := ps[:0], 0
		for g, end := range ends {
			if end <= start {
				return errors.New("tied groups out of order")
			}
			for u := start; u < end; u++ {
				for _, p := range units[u] {
					ps = append(ps, Placing{Player: rows[p], Rank: g + 1, Team: u + 1})
				}
			}
			start = end
		}
		if start != len(units) || count < 1 {
			return errors.New("a placing without its teams or matches")
		}
		if err := in.Add(ps); err != nil {
			return err
		}
		o := in.outcomes[string(in.key)]
		if o.count != 1 {
			return errors.New("a placing twice")
		}
		o.count, in.n = float64(count), in.n+count-1
	}
	if in.Len() != rated {
		return fmt.Errorf("%d matches in the placings, %d counted", in.Len(), rated)
	}
	return nil
}

// errStateLayout says that a saved state is of a layout this build does
// not read.
var errStateLayout = errors.New("saved by a build with another layout")

// stateFit returns the state of a fit of c's ruleset taken over from a
// saved state (encodeState): its last full fit, made now as far as
// fullAfter goes, with the matches it covers when the state has them, or
// else none of them (partial); the matches stored after them are read as
// new ones. It returns an error, and never panics, for a state of another
// layout or one that does not decode whole and sound.
func stateFit(c store.RulesetCount, b []byte) (*rulesetFit, error) {
	if len(b) == 0 {
		return nil, errors.New("no saved state")
	}
	if b[0] != stateLayout {
		return nil, fmt.Errorf("layout %d: %w", b[0], errStateLayout)
	}
	if len(b) < 5 || crc32.ChecksumIEEE(b[:len(b)-4]) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errors.New("checksum mismatch")
	}
	d := stateDecoder{b: b[1 : len(b)-4]}
	matches, seq, distinct := d.count(math.MaxInt32), d.count(math.MaxInt64), d.count(math.MaxInt32)
	prior := d.float()
	n := d.count(maxPlayers)
	st := newRulesetFit(c)
	st.partial, st.baseAt = true, time.Now()
	st.seen.Matches, st.seen.LastSeq, st.baseSeq, st.baseDistinct = matches, int64(seq), int64(seq), distinct
	t := &table{players: make([]string, n), matches: make([]int, n)}
	raw := make([]float64, n)
	for i := range n {
		t.players[i] = string(d.bytes(d.count(len(d.b))))
		st.ids[t.players[i]] = d.varint()
		t.matches[i] = d.count(matches)
		raw[i] = d.float()
	}
	info := make([][]float64, n)
	for i := range info {
		info[i] = make([]float64, n)
		for j := range i + 1 {
			info[i][j] = d.float()
			info[j][i] = info[i][j]
		}
	}
	if d.count(1) == 1 {
		if err := d.readInput(&st.in, t.players, matches); err != nil {
			return nil, fmt.Errorf("placings: %w", err)
		}
		if st.in.distinct() != distinct {
			return nil, fmt.Errorf("%d distinct placings, %d counted", st.in.distinct(), distinct)
		}
		st.partial = false
	}
	switch {
	case d.err != nil:
		return nil, d.err
	case len(d.b) > 0:
		return nil, fmt.Errorf("%d bytes after the information", len(d.b))
	case n == 0 || matches == 0:
		return nil, errors.New("a state of no players or no matches")
	case !(prior >= 0) || math.IsInf(prior, 0):
		return nil, fmt.Errorf("prior %v", prior)
	case !slices.IsSorted(t.players) || len(slices.Compact(slices.Clone(t.players))) < n:
		return nil, errors.New("players out of order")
	}
	cov, err := covariance(info, prior)
	if err != nil {
		return nil, err
	}
	f := t.ratings(raw, cov)
	f.raw, f.info, f.prior, f.Matches = raw, info, prior, matches
	st.base, st.fit, st.state = f, f, b
	return st, nil
}

// stateDecoder reads the numbers of a saved state; its first error
// stops it, and later reads return zeros.
type stateDecoder struct {
	b   []byte
	err error
}

// count reads a varint from 0 to most.
func (d *stateDecoder) count(most int) int {
	v, k := binary.Uvarint(d.b)
	if d.err == nil && (k <= 0 || v > uint64(most)) {
		d.err = fmt.Errorf("a count out of range at byte %d from the end", len(d.b))
	}
	if d.err != nil {
		return 0
	}
	d.b = d.b[k:]
	return int(v)
}

func (d *stateDecoder) varint() int64 {
	v, k := binary.Varint(d.b)
	if d.err == nil && k <= 0 {
		d.err = fmt.Errorf("a bad number at byte %d from the end", len(d.b))
	}
	if d.err != nil {
		return 0
	}
	d.b = d.b[k:]
	return v
}

// float reads a finite float64.
func (d *stateDecoder) float() float64 {
	if d.err == nil && len(d.b) < 8 {
		d.err = errors.New("cut short")
	}
	if d.err != nil {
		return 0
	}
	x := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	if math.IsNaN(x) || math.IsInf(x, 0) {
		d.err = fmt.Errorf("a number %v", x)
	}
	return x
}

func (d *stateDecoder) bytes(n int) []byte {
	if d.err == nil && len(d.b) < n {
		d.err = errors.New("cut short")
	}
	if d.err != nil {
		return nil
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}
