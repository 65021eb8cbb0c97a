package store

import (
	"context"
	"fmt"
	"strings"
)

// StatsAt returns the per-turn numbers of every player and unit of a match
// at one turn, ordered by seat and unit: the inspector's table. It reads
// only that turn's rows through the primary key, where TurnStats would scan
// the whole match.
func (db *DB) StatsAt(ctx context.Context, matchID string, turn int) ([]TurnStat, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT `+turnStatColumns+`
		FROM turn_stats WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) AND turn = ?
		ORDER BY seat, unit`, matchID, turn)
	if err != nil {
		return nil, fmt.Errorf("stats of %s at turn %d: %w", matchID, turn, err)
	}
	defer rows.Close()
	ss := []TurnStat{}
	for rows.Next() {
		s, err := scanTurnStat(rows)
		if err != nil {
			return nil, fmt.Errorf("stats of %s at turn %d: %w", matchID, turn, err)
		}
		ss = append(ss, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("stats of %s at turn %d: %w", matchID, turn, err)
	}
	if len(ss) == 0 {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return nil, err
		}
		return nil, notFoundf("match %s has no turn %d", matchID, turn)
	}
	return ss, nil
}

// turnStatColumns are the columns scanTurnStat reads, in its order.
const turnStatColumns = "turn, seat, unit, alive, energy, hp, score, collisions, x1, x2, x3, x4, x5, x6"

// scanTurnStat reads one row of turnStatColumns.
func scanTurnStat(row interface{ Scan(...any) error }) (TurnStat, error) {
	var s TurnStat
	x := &s.Extra
	err := row.Scan(&s.Turn, &s.Seat, &s.Unit, &s.Alive, &s.Energy, &s.HP, &s.Score, &s.Collisions,
		&x[0], &x[1], &x[2], &x[3], &x[4], &x[5])
	return s, err
}

// statColumns are the turn_stats columns SeriesSet may read: the Stat keys
// of sim.MetricDef and "alive".
var statColumns = map[string]bool{
	"alive": true, "energy": true, "hp": true, "score": true, "collisions": true,
	"x1": true, "x2": true, "x3": true, "x4": true, "x5": true, "x6": true,
}

// SeriesSet is Series for several keys at once: points[i] holds the points
// of keys[i], ordered by turn, seat and unit. It reads the match's rows
// once and only the columns asked for.
//
// It exists for the match page of long matches. With the cgo driver a
// query costs about one C call per column of each row, far more than
// SQLite's own work, so this reads a key packed from turn, seat and unit
// as one column, and the wanted metrics, and nothing else: for a 2000-turn
// match of 4 players it is several times faster than one Series per key.
func (db *DB) SeriesSet(ctx context.Context, matchID string, keys []string) ([][]Point, error) {
	if len(keys) == 0 {
		return nil, invalidf("no metric keys")
	}
	for _, k := range keys {
		if !statColumns[k] {
			return nil, invalidf("unknown metric key %q", k)
		}
	}
	// The column names come from statColumns only, never from the caller.
	// Seats and units stay far below 2^16 (a game has at most a few dozen),
	// so the packed key is exact.
	query := "SELECT (turn << 32) | (seat << 16) | (unit + 1), " + strings.Join(keys, ", ") +
		" FROM turn_stats WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) ORDER BY turn, seat, unit"
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	// Size the slices from the row count (an index-only count, far cheaper
	// than growing several long slices as the rows stream in).
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM turn_stats WHERE match_seq = (SELECT seq FROM matches WHERE id = ?)", matchID).Scan(&n); err != nil {
		return nil, fmt.Errorf("series of %s: %w", matchID, err)
	}
	rows, err := tx.QueryContext(ctx, query, matchID)
	if err != nil {
		return nil, fmt.Errorf("series of %s: %w", matchID, err)
	}
	defer rows.Close()
	// Scanning into *any keeps the driver's values as they are; database/sql
	// converts into any other type through reflection, which costs more
	// than the query itself here.
	dest := make([]any, 1+len(keys))
	ptrs := make([]any, len(dest))
	for i := range dest {
		ptrs[i] = &dest[i]
	}
	points := make([][]Point, len(keys))
	for i := range points {
		points[i] = make([]Point, 0, n)
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("series of %s: %w", matchID, err)
		}
		packed, ok := dest[0].(int64)
		if !ok {
			return nil, fmt.Errorf("series of %s: row key is %T", matchID, dest[0])
		}
		turn, seat, unit := int(packed>>32), int(packed>>16&0xffff), int(packed&0xffff)-1
		for i, v := range dest[1:] {
			p := Point{Turn: turn, Seat: seat, Unit: unit}
			switch v := v.(type) {
			case float64:
				p.Value = v
			case int64: // SQLite may hand back a whole REAL as an integer
				p.Value = float64(v)
			default:
				return nil, fmt.Errorf("series of %s: %s is %T", matchID, keys[i], v)
			}
			points[i] = append(points[i], p)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("series of %s: %w", matchID, err)
	}
	if len(points[0]) == 0 {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return nil, err
		}
	}
	return points, nil
}
