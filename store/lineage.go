package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Lineage is where a match sits among forks: the match it was forked
// from and the matches forked from it.
type Lineage struct {
	// Parent is nil for a match played from its start. A parent that is
	// not stored (a fork uploaded without it) keeps its id, with Stored
	// false.
	Parent *ParentMatch
	// Forks are the stored matches forked from this one, by fork turn
	// then in the order they were stored.
	Forks []Fork
}

// ParentMatch is a fork's parent as a match page shows it.
type ParentMatch struct {
	Parent
	Stored bool
}

// Fork is a match forked from another at turn Turn.
type Fork struct {
	Turn int
	MatchSummary
}

// Lineage returns the parent and the forks of the match that id names, in
// full or by a unique prefix.
func (db *DB) Lineage(ctx context.Context, id string) (Lineage, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return Lineage{}, err
	}
	defer tx.Rollback()
	full, err := resolveID(ctx, tx, id)
	if err != nil {
		return Lineage{}, err
	}
	var lin Lineage
	p := ParentMatch{}
	err = tx.QueryRowContext(ctx, `
		SELECT p.parent, p.turn, EXISTS (SELECT 1 FROM matches WHERE id = p.parent)
		FROM match_parents p JOIN matches m ON m.seq = p.match_seq WHERE m.id = ?`, full).
		Scan(&p.ID, &p.Turn, &p.Stored)
	switch {
	case err == nil:
		lin.Parent = &p
	case !errors.Is(err, sql.ErrNoRows):
		return Lineage{}, fmt.Errorf("parent of match %s: %w", full, err)
	}
	if lin.Forks, err = findForks(ctx, tx, full); err != nil {
		return Lineage{}, fmt.Errorf("forks of match %s: %w", full, err)
	}
	return lin, nil
}

// findForks returns the stored forks of the match with the full id id,
// with their players.
func findForks(ctx context.Context, tx *sql.Tx, id string) ([]Fork, error) {
	ms, err := listMatches(ctx, tx, matchSelect+`
		JOIN match_parents p ON p.match_seq = m.seq
		WHERE p.parent = ? ORDER BY p.turn, p.match_seq`, id)
	if err != nil {
		return nil, err
	}
	if err := findPlayers(ctx, tx, ms); err != nil {
		return nil, err
	}
	// The fork turns in the same order: matchSelect's columns are shared
	// with every list, so the turn comes from a query of its own.
	rows, err := tx.QueryContext(ctx, `
		SELECT p.turn FROM match_parents p WHERE p.parent = ? ORDER BY p.turn, p.match_seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	forks := make([]Fork, 0, len(ms))
	for rows.Next() && len(forks) < len(ms) {
		f := Fork{MatchSummary: ms[len(forks)]}
		if err := rows.Scan(&f.Turn); err != nil {
			return nil, err
		}
		forks = append(forks, f)
	}
	return forks, rows.Err()
}
