package store

import (
	"context"
	"fmt"
)

// BotSummary is how one version of a bot has done in one game under one
// ruleset: rulesets change the rules, so records under different ones are
// never added together.
type BotSummary struct {
	Game    string
	Ruleset string
	Name    string
	Version string
	// Matches counts the seats the bot played: a match in which it played
	// itself counts once per seat, so Matches = Wins + Draws + Losses.
	Matches             int
	Wins, Draws, Losses int
	MeanScore           float64
}

// Bots returns the record of every bot version of a game under each
// ruleset it played, ordered by game, ruleset, name and version; an empty
// game lists the bots of every game.
func (db *DB) Bots(ctx context.Context, game string) ([]BotSummary, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT b.game, m.ruleset, b.name, b.version, count(*),
			count(*) FILTER (WHERE mp.outcome = 'win'),
			count(*) FILTER (WHERE mp.outcome = 'draw'),
			count(*) FILTER (WHERE mp.outcome = 'loss'),
			avg(mp.score)
		FROM bots b
		JOIN match_players mp ON mp.bot_id = b.id
		JOIN matches m ON m.seq = mp.match_seq
		WHERE ?1 = '' OR b.game = ?1
		GROUP BY b.id, m.ruleset
		ORDER BY b.game, m.ruleset, b.name, b.version`, game)
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	defer rows.Close()
	bs := []BotSummary{}
	for rows.Next() {
		var b BotSummary
		if err := rows.Scan(&b.Game, &b.Ruleset, &b.Name, &b.Version, &b.Matches, &b.Wins, &b.Draws, &b.Losses, &b.MeanScore); err != nil {
			return nil, fmt.Errorf("bots: %w", err)
		}
		bs = append(bs, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	return bs, nil
}
