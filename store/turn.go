package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Point is one value of a per-turn series.
type Point struct {
	Turn  int
	Seat  int
	Unit  int // sim.NoUnit for the player as a whole
	Value float64
}

// seriesQueries holds one query per Stat key (see sim.MetricDef) plus
// "alive". The column name comes from this table only, never from the
// caller, so a key outside it cannot reach the SQL.
var seriesQueries = func() map[string]string {
	q := make(map[string]string)
	for _, col := range []string{"alive", "energy", "hp", "score", "collisions", "x1", "x2", "x3", "x4", "x5", "x6"} {
		q[col] = "SELECT turn, seat, unit, " + col + " FROM turn_stats WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) ORDER BY seat, unit, turn"
	}
	return q
}()

// Series returns one per-turn number of a match for every player and unit,
// ordered by seat, unit and turn: one line of a chart after another. key is
// a sim.MetricDef key ("energy", "hp", "score", "collisions", "x1".."x6")
// or "alive" (1 or 0); anything else is ErrInvalid.
func (db *DB) Series(ctx context.Context, matchID, key string) ([]Point, error) {
	query, ok := seriesQueries[key]
	if !ok {
		return nil, invalidf("unknown metric key %q", key)
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, query, matchID)
	if err != nil {
		return nil, fmt.Errorf("series %s of %s: %w", key, matchID, err)
	}
	defer rows.Close()
	ps := []Point{}
	for rows.Next() {
		var p Point
		if err := rows.Scan(&p.Turn, &p.Seat, &p.Unit, &p.Value); err != nil {
			return nil, fmt.Errorf("series %s of %s: %w", key, matchID, err)
		}
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("series %s of %s: %w", key, matchID, err)
	}
	if len(ps) == 0 {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

// Frame returns the inspector frame of one turn of a match. It reads the
// one chunk holding the turn and decodes it.
func (db *DB) Frame(ctx context.Context, matchID string, turn int) (json.RawMessage, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var (
		first, last int
		data        []byte
	)
	err = tx.QueryRowContext(ctx, `
		SELECT first_turn, last_turn, data FROM frames
		WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) AND first_turn <= ?
		ORDER BY first_turn DESC LIMIT 1`, matchID, turn).Scan(&first, &last, &data)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("frame %d of %s: %w", turn, matchID, err)
	}
	if errors.Is(err, sql.ErrNoRows) || turn > last {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return nil, err
		}
		return nil, notFoundf("match %s has no turn %d", matchID, turn)
	}
	frames, err := DecodeFrames(data)
	if err != nil {
		return nil, fmt.Errorf("frame %d of %s: %w", turn, matchID, err)
	}
	if len(frames) != last-first+1 {
		return nil, fmt.Errorf("frame %d of %s: chunk of turns %d..%d holds %d frames", turn, matchID, first, last, len(frames))
	}
	return frames[turn-first], nil
}

// Events returns the events of turns from..to (inclusive) of a match, in
// the order the game emitted them.
func (db *DB) Events(ctx context.Context, matchID string, from, to int) ([]TurnEvent, error) {
	if from > to {
		return nil, invalidf("events from turn %d to %d: empty range", from, to)
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `
		SELECT turn, seat, unit, kind, target, amount, x, y, detail FROM events
		WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) AND turn BETWEEN ? AND ?
		ORDER BY turn, pos`, matchID, from, to)
	if err != nil {
		return nil, fmt.Errorf("events of %s: %w", matchID, err)
	}
	defer rows.Close()
	evs := []TurnEvent{}
	for rows.Next() {
		var e TurnEvent
		if err := rows.Scan(&e.Turn, &e.Seat, &e.Unit, &e.Kind, &e.Target, &e.Amount, &e.X, &e.Y, &e.Detail); err != nil {
			return nil, fmt.Errorf("events of %s: %w", matchID, err)
		}
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("events of %s: %w", matchID, err)
	}
	if len(evs) == 0 {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return nil, err
		}
	}
	return evs, nil
}

// TurnStats calls fn with every per-turn row of a match, ordered by turn,
// seat and unit, without holding them all in memory (exports of long
// matches). It stops at the first error from fn and returns it unchanged.
func (db *DB) TurnStats(ctx context.Context, matchID string, fn func(TurnStat) error) error {
	tx, err := db.readTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `
		SELECT turn, seat, unit, alive, energy, hp, score, collisions, x1, x2, x3, x4, x5, x6
		FROM turn_stats WHERE match_seq = (SELECT seq FROM matches WHERE id = ?)
		ORDER BY turn, seat, unit`, matchID)
	if err != nil {
		return fmt.Errorf("turn stats of %s: %w", matchID, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var s TurnStat
		x := &s.Extra
		if err := rows.Scan(&s.Turn, &s.Seat, &s.Unit, &s.Alive, &s.Energy, &s.HP, &s.Score, &s.Collisions,
			&x[0], &x[1], &x[2], &x[3], &x[4], &x[5]); err != nil {
			return fmt.Errorf("turn stats of %s: %w", matchID, err)
		}
		if err := fn(s); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("turn stats of %s: %w", matchID, err)
	}
	if n == 0 {
		return checkMatch(ctx, tx, matchID)
	}
	return nil
}

// checkMatch returns ErrNotFound unless the match is stored. Queries call it
// when they find no rows, to tell an empty answer from a wrong id.
func checkMatch(ctx context.Context, tx *sql.Tx, matchID string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM matches WHERE id = ?`, matchID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return notFoundf("match %s not found", matchID)
	}
	return err
}
