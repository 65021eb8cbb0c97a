package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// maxBotNames bounds the names BotNames lists and the names a
// case-insensitive lookup reads.
const maxBotNames = 10_000

// BotNames returns the names of the bots that played a game (every game
// when game is empty), sorted bytewise, at most limit of them: the names a
// filter form suggests. The names are sorted here, not by the database,
// whose collation differs between backends; it reads at most
// maxBotNames.
func (db *DB) BotNames(ctx context.Context, game string, limit int) ([]string, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT DISTINCT name FROM bots WHERE ?1 = '' OR game = ?1 LIMIT ?2`, game, maxBotNames)
	if err != nil {
		return nil, fmt.Errorf("bot names: %w", err)
	}
	defer rows.Close()
	names := []string{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("bot names: %w", err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("bot names: %w", err)
	}
	slices.Sort(names)
	return names[:max(0, min(limit, len(names)))], nil
}

// botNameOf returns the stored name of a bot of game (any game when
// empty) that name names: itself when a bot has it, else the one stored
// name equal to it ignoring case (Unicode case folding), else name
// unchanged (which then selects nothing). Two stored names that differ
// only in case leave name as typed: only the exact one is meant.
func botNameOf(ctx context.Context, tx *sql.Tx, game, name string) (string, error) {
	if name == "" {
		return name, nil
	}
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM bots WHERE name = ?1 AND (?2 = '' OR game = ?2) LIMIT 1`, name, game).Scan(&one)
	switch {
	case err == nil:
		return name, nil
	case err != sql.ErrNoRows:
		return "", fmt.Errorf("bot name %q: %w", name, err)
	}
	rows, err := tx.QueryContext(ctx, `
		SELECT DISTINCT name FROM bots WHERE ?1 = '' OR game = ?1 LIMIT ?2`, game, maxBotNames)
	if err != nil {
		return "", fmt.Errorf("bot name %q: %w", name, err)
	}
	defer rows.Close()
	found := ""
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return "", fmt.Errorf("bot name %q: %w", name, err)
		}
		if strings.EqualFold(n, name) {
			if found != "" {
				return name, nil // ambiguous: keep what was typed
			}
			found = n
		}
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("bot name %q: %w", name, err)
	}
	if found == "" {
		return name, nil
	}
	return found, nil
}
