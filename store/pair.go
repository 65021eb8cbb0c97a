package store

import (
	"context"
	"fmt"
	"strings"
)

// BotVersion is one version of a bot of a game, as the bots table keys it.
type BotVersion struct {
	ID      int64
	Name    string
	Version string
}

// PairRecord is how two bot versions did against each other under one
// ruleset, counted from A's side: A is the version with the lower id.
// DiffSum and DiffSqSum add up A's score minus B's over the meetings, and
// its square.
type PairRecord struct {
	A, B                BotVersion
	Meetings            int
	AWins, Draws, BWins int
	DiffSum, DiffSqSum  float64
}

// HeadToHead is the head-to-head board of one game under one ruleset: the
// bot versions with the most meetings and the records of the pairs of
// them that met.
type HeadToHead struct {
	Game, Ruleset string
	// Bots are the versions on the board, most meetings first: at most the
	// maxBots HeadToHead was asked for, of TotalBots that met another.
	Bots      []BotVersion
	TotalBots int
	Pairs     []PairRecord
}

// HeadToHead returns the board of a game and ruleset, from the pair records
// the triggers keep (schema.sql), never a scan of the matches: the maxBots
// versions with the most meetings, and their pairs. A bot version that
// never met another is not on it.
func (db *DB) HeadToHead(ctx context.Context, game, ruleset string, maxBots int) (HeadToHead, error) {
	h := HeadToHead{Game: game, Ruleset: ruleset, Bots: []BotVersion{}, Pairs: []PairRecord{}}
	if maxBots < 1 {
		return h, invalidf("head-to-head of %d bots: want 1 or more", maxBots)
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return h, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `
		SELECT b.id, b.name, b.version, count(*) OVER ()
		FROM (
			SELECT bot, sum(meetings) AS n FROM (
				SELECT bot_a AS bot, meetings FROM pair_records WHERE game = ?1 AND ruleset = ?2
				UNION ALL
				SELECT bot_b, meetings FROM pair_records WHERE game = ?1 AND ruleset = ?2) AS p
			GROUP BY bot) t
		JOIN bots b ON b.id = t.bot
		ORDER BY t.n DESC, b.name, b.version
		LIMIT ?3`, game, ruleset, maxBots)
	if err != nil {
		return h, fmt.Errorf("head-to-head bots: %w", err)
	}
	defer rows.Close()
	index := map[int64]BotVersion{}
	for rows.Next() {
		var b BotVersion
		if err := rows.Scan(&b.ID, &b.Name, &b.Version, &h.TotalBots); err != nil {
			return h, fmt.Errorf("head-to-head bots: %w", err)
		}
		h.Bots = append(h.Bots, b)
		index[b.ID] = b
	}
	if err := rows.Err(); err != nil {
		return h, fmt.Errorf("head-to-head bots: %w", err)
	}
	if len(h.Bots) == 0 {
		return h, nil
	}
	// Only the pairs of the board's versions are read: the key leads
	// with game, ruleset and bot_a, so the first IN list is a few index
	// ranges however many versions the ruleset has.
	args := []any{game, ruleset}
	for _, b := range h.Bots {
		args = append(args, b.ID)
	}
	in := "?" + strings.Repeat(", ?", len(h.Bots)-1)
	prs, err := tx.QueryContext(ctx, `
		SELECT bot_a, bot_b, meetings, a_wins, draws, b_wins, diff_sum, diff_sq_sum
		FROM pair_records WHERE game = ? AND ruleset = ? AND bot_a IN (`+in+`) AND bot_b IN (`+in+`)`,
		append(args, args[2:]...)...)
	if err != nil {
		return h, fmt.Errorf("head-to-head pairs: %w", err)
	}
	defer prs.Close()
	for prs.Next() {
		var p PairRecord
		if err := prs.Scan(&p.A.ID, &p.B.ID, &p.Meetings, &p.AWins, &p.Draws, &p.BWins, &p.DiffSum, &p.DiffSqSum); err != nil {
			return h, fmt.Errorf("head-to-head pairs: %w", err)
		}
		p.A, p.B = index[p.A.ID], index[p.B.ID]
		h.Pairs = append(h.Pairs, p)
	}
	if err := prs.Err(); err != nil {
		return h, fmt.Errorf("head-to-head pairs: %w", err)
	}
	return h, nil
}
