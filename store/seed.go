package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// onSeed selects the matches of MatchesOnSeed from matchSelect.
const onSeed = " WHERE r.game = ? AND r.ruleset = ? AND r.seed = ? AND r.config = ?"

// MatchesOnSeed returns every stored match of game under ruleset with the
// given config and seed, oldest first, with its players in seat order.
// config must be canonical (replay.Header.Check makes it so), as stored
// configs are. A tournament asks this once per seed to find the lineups it
// has already played: the replays_by_seed index answers it without a scan,
// however many matches the database holds.
func (db *DB) MatchesOnSeed(ctx context.Context, game, ruleset string, config json.RawMessage, seed uint64) ([]MatchSummary, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	ms, err := listMatches(ctx, tx, matchSelect+onSeed+" ORDER BY m.seq", game, ruleset, int64(seed), string(config))
	if err != nil {
		return nil, fmt.Errorf("matches on seed %d: %w", seed, err)
	}
	// findPlayers takes one parameter per match; a seed has as many
	// matches as lineups were played on it, so take them in pages.
	for page := ms; len(page) > 0; page = page[min(len(page), MaxLimit):] {
		if err := findPlayers(ctx, tx, page[:min(len(page), MaxLimit)]); err != nil {
			return nil, fmt.Errorf("matches on seed %d: %w", seed, err)
		}
	}
	return ms, nil
}
