package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// DeletedMatch is a match DeleteMatches removed.
type DeletedMatch struct {
	ID, Game, Ruleset string
}

// DeleteMatches removes the matches ids name, each in full or by a unique
// prefix as Match takes them, with their replays and every row derived
// from them, in one transaction: seats, entries, lines, events, bot
// output, critical sweeps, and their share of every record (schema.sql's
// triggers). A bot
// version left without a match goes too, with its ratings, so the
// database is the one an import of the remaining matches would make; a
// ruleset left without a match loses its rating fit. The fits of the
// other rulesets of the deleted matches are stale until refitted
// (analytics.Refitter), and lose their saved state, which stands for
// matches that are gone. An id that names no match, or more than one,
// deletes nothing: the error names every such id (ErrNotFound,
// ErrAmbiguous or ErrInvalid).
func (db *DB) DeleteMatches(ctx context.Context, ids []string) (deleted []DeletedMatch, err error) {
	defer func() { err = busyIf(err) }()
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return nil, fmt.Errorf("delete: %w", err)
	}
	defer tx.Rollback()
	var errs []error
	seen := map[string]bool{}
	for _, id := range ids {
		full, err := resolveID(ctx, tx, id)
		switch {
		case err != nil:
			errs = append(errs, err)
		case !seen[full]:
			seen[full] = true
			deleted = append(deleted, DeletedMatch{ID: full})
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var bots []int64
	for i := range deleted {
		d := &deleted[i]
		b, err := deleteMatch(ctx, tx, d)
		if err != nil {
			return nil, fmt.Errorf("delete %s: %w", d.ID, err)
		}
		bots = append(bots, b...)
	}
	if err := dropLeftovers(ctx, tx, deleted, bots); err != nil {
		return nil, fmt.Errorf("delete: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("delete: %w", err)
	}
	return deleted, nil
}

// deleteMatch deletes the replay of d, which cascades to its match and
// everything derived from it, fills in d's game and ruleset and returns
// the bots that played in it.
func deleteMatch(ctx context.Context, tx *sql.Tx, d *DeletedMatch) (bots []int64, err error) {
	if err := tx.QueryRowContext(ctx, `SELECT game, ruleset FROM matches WHERE id = ?`, d.ID).Scan(&d.Game, &d.Ruleset); err != nil {
		return nil, err
	}
	bots, err = int64s(tx.QueryContext(ctx, `
		SELECT DISTINCT bot_id FROM match_players WHERE match_seq = (SELECT seq FROM matches WHERE id = ?)`, d.ID))
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM replays WHERE id = ?`, d.ID); err != nil {
		return nil, err
	}
	return bots, nil
}

// dropLeftovers deletes what the deleted matches leave behind: the bots
// of bots that no longer play any match (their ratings cascade), and the
// rating fits of the rulesets of deleted that no longer have a match, and
// the state of the fits of those that still have some.
func dropLeftovers(ctx context.Context, tx *sql.Tx, deleted []DeletedMatch, bots []int64) error {
	for _, id := range bots {
		if _, err := tx.ExecContext(ctx, `
			DELETE FROM bots WHERE id = ? AND NOT EXISTS (SELECT 1 FROM match_players WHERE bot_id = ?)`, id, id); err != nil {
			return fmt.Errorf("bot %d: %w", id, err)
		}
	}
	for _, d := range deleted {
		var left bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM game_matches WHERE game = ? AND ruleset = ?)`,
			d.Game, d.Ruleset).Scan(&left); err != nil {
			return err
		}
		if left {
			// The state of its fit stands for matches that are gone:
			// the next fit reads the rest again (analytics.Refitter).
			if _, err := tx.ExecContext(ctx, `UPDATE rating_fits SET state = NULL WHERE game = ? AND ruleset = ?`, d.Game, d.Ruleset); err != nil {
				return fmt.Errorf("rating fit of %s/%s: %w", d.Game, d.Ruleset, err)
			}
			continue
		}
		if err := clearRatings(ctx, tx, d.Game, d.Ruleset, 0); err != nil {
			return fmt.Errorf("ratings of %s/%s: %w", d.Game, d.Ruleset, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM rating_fits WHERE game = ? AND ruleset = ?`, d.Game, d.Ruleset); err != nil {
			return fmt.Errorf("rating fit of %s/%s: %w", d.Game, d.Ruleset, err)
		}
	}
	return nil
}
