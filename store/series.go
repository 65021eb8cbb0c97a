package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Series returns the lines of the given metrics of a match (indexes in the
// game's metric list, or Alive): lines[i] holds those of metrics[i], one per
// player and unit it was stored for, ordered by seat and unit. Each line
// is one row, so a chart of a long match costs one read per line, not per
// turn.
func (db *DB) Series(ctx context.Context, matchID string, metrics ...int) ([][]Line, error) {
	if len(metrics) == 0 {
		return nil, invalidf("no metrics")
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	ls, err := findLines(ctx, tx, matchID, metrics)
	if err != nil {
		return nil, fmt.Errorf("series of %s: %w", matchID, err)
	}
	out := make([][]Line, len(metrics))
	for _, l := range ls {
		for i, m := range metrics {
			if l.Metric == m {
				out[i] = append(out[i], l)
			}
		}
	}
	for i := range out {
		if out[i] == nil {
			out[i] = []Line{}
		}
	}
	return out, nil
}

// StatsAt returns the numbers of every player and unit of a match at one
// turn, ordered by seat and unit: the inspector's table.
func (db *DB) StatsAt(ctx context.Context, matchID string, turn int) ([]TurnStat, error) {
	rows, ok := db.stats.get(matchID)
	if !ok {
		tx, err := db.readTx(ctx)
		if err != nil {
			return nil, err
		}
		defer tx.Rollback()
		ls, err := findLines(ctx, tx, matchID, nil)
		if err != nil {
			return nil, fmt.Errorf("stats of %s at turn %d: %w", matchID, turn, err)
		}
		rows = statRows(ls)
		db.stats.put(matchID, rows)
	}
	if len(rows) == 0 || turn < 0 || turn >= rows[0].n {
		return nil, notFoundf("match %s has no turn %d", matchID, turn)
	}
	out := make([]TurnStat, len(rows))
	for i, r := range rows {
		out[i] = r.at(turn)
	}
	return out, nil
}

// matchCacheSize bounds the matches whose lines StatsAt, and whose
// events Events, keep decoded: a 2000-turn match of 4 players with 10
// metrics takes about 0.7 MB.
const matchCacheSize = 8

// matchCache keeps what was decoded from the matches read last. The
// inspector steps through one match turn by turn, and reading and
// decoding every line or event of a long match for each turn cost more
// than the rest of the answer. A stored match never changes (its id is
// its replay's hash), so an entry cannot go stale; the oldest leaves
// first. What it keeps is never modified, so it may be shared between
// goroutines.
type matchCache[T any] struct {
	mu   sync.Mutex
	ids  []string // oldest first
	vals map[string]T
}

func (c *matchCache[T]) get(id string) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.vals[id]
	return v, ok
}

func (c *matchCache[T]) put(id string, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.vals[id]; ok {
		return
	}
	if c.vals == nil {
		c.vals = make(map[string]T)
	}
	if len(c.ids) == matchCacheSize {
		delete(c.vals, c.ids[0])
		c.ids = c.ids[1:]
	}
	c.ids = append(c.ids, id)
	c.vals[id] = v
}

// TurnStats calls fn with the numbers of every player and unit of a match
// at every turn, ordered by turn, seat and unit (exports). It stops at the
// first error from fn and returns it unchanged.
func (db *DB) TurnStats(ctx context.Context, matchID string, fn func(TurnStat) error) error {
	tx, err := db.readTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ls, err := findLines(ctx, tx, matchID, nil)
	if err != nil {
		return fmt.Errorf("turn stats of %s: %w", matchID, err)
	}
	// The read is over: fn may take its time (a slow client) without
	// holding a read transaction open.
	tx.Rollback()
	rows := statRows(ls)
	if len(rows) == 0 {
		return nil
	}
	for t := range len(ls[0].Values) {
		for _, r := range rows {
			if err := fn(r.at(t)); err != nil {
				return err
			}
		}
	}
	return nil
}

// findLines reads and decodes the lines of the given metrics of a match,
// or all its lines for nil, ordered by metric, seat and unit.
func findLines(ctx context.Context, tx *sql.Tx, matchID string, metrics []int) ([]Line, error) {
	var ls []Line
	_, err := scanLines(ctx, tx, matchID, metrics, func(l Line, data []byte, n int) error {
		var err error
		l.Values, err = decodeLine(make([]float64, 0, n), data, n)
		ls = append(ls, l)
		return err
	})
	return ls, err
}

// scanLines calls fn with each stored line of the given metrics of a
// match (all for nil), ordered by metric, seat and unit: the line without
// its values, their encoding and their number (turns + 1). It returns the
// match's number of turns; a match that is not stored is ErrNotFound.
func scanLines(ctx context.Context, tx *sql.Tx, matchID string, metrics []int, fn func(l Line, data []byte, n int) error) (turns int, err error) {
	var seq int64
	err = tx.QueryRowContext(ctx, `SELECT seq, turns FROM matches WHERE id = ?`, matchID).Scan(&seq, &turns)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, notFoundf("match %s not found", matchID)
	}
	if err != nil {
		return 0, err
	}
	var data []byte
	err = tx.QueryRowContext(ctx, `SELECT data FROM match_lines WHERE match_seq = ?`, seq).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return turns, nil
	}
	if err != nil {
		return 0, err
	}
	err = eachPackedLine(data, func(l Line, enc []byte) error {
		if metrics != nil && !slices.Contains(metrics, l.Metric) {
			return nil
		}
		if err := fn(l, enc, turns+1); err != nil {
			return fmt.Errorf("line of metric %d, seat %d, unit %d: %w", l.Metric, l.Seat, l.Unit, err)
		}
		return nil
	})
	return turns, err
}

// statRow is one player or unit with its lines, by metric number; alive is
// nil when it has no Alive line. Its lines are never modified once built,
// so a row may be shared between goroutines.
type statRow struct {
	seat, unit int
	n          int // values per line: turns 0..n-1
	alive      []float64
	metrics    [][]float64
}

// statRows groups lines into rows, ordered by seat and unit. Every row has
// one slot per metric number up to the largest stored for the match, so
// that Values line up with the game's list whatever applies to the row.
func statRows(ls []Line) []*statRow {
	type key struct{ seat, unit int }
	n := 0
	for _, l := range ls {
		n = max(n, l.Metric+1)
	}
	index := map[key]*statRow{}
	var rows []*statRow
	for _, l := range ls {
		k := key{l.Seat, l.Unit}
		r := index[k]
		if r == nil {
			r = &statRow{seat: l.Seat, unit: l.Unit, n: len(l.Values), metrics: make([][]float64, n)}
			index[k] = r
			rows = append(rows, r)
		}
		if l.Metric == Alive {
			r.alive = l.Values
		} else {
			r.metrics[l.Metric] = l.Values
		}
	}
	slices.SortFunc(rows, func(a, b *statRow) int {
		return cmp.Or(cmp.Compare(a.seat, b.seat), cmp.Compare(a.unit, b.unit))
	})
	return rows
}

// at returns the row's numbers at turn t.
func (r *statRow) at(t int) TurnStat {
	s := TurnStat{Turn: t}
	s.Seat, s.Unit = r.seat, r.unit
	s.Alive = r.alive != nil && r.alive[t] != 0
	s.Values = make([]float64, len(r.metrics))
	for i, vs := range r.metrics {
		if vs != nil {
			s.Values[i] = vs[t]
		}
	}
	return s
}
