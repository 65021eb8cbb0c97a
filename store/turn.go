package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

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
