package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// BotSummary is how one version of a bot has done in one game under one
// ruleset: rulesets change the rules, so records under different ones are
// never added together.
type BotSummary struct {
	Game    string
	Ruleset string
	Name    string
	Version string
	// Matches counts the matches the version played, once each however
	// many seats it held, with the result of its best seat (store.Entries),
	// so Matches = Wins + Draws + Losses and MeanScore is the mean score
	// of its best seats. Seats counts the seats it held in them.
	Matches             int
	Seats               int
	Wins, Draws, Losses int
	MeanScore           float64
	// Trouble counts the seats in which the version crashed, timed out,
	// sent invalid commands or over-long answers (out of Seats).
	Trouble BotTrouble
}

// Bots returns the record of every bot version of a game under each
// ruleset it played, ordered by game, ruleset, name and version; an empty
// game lists the bots of every game. It reads the records kept on insert
// (bot_records), so it costs the same however many matches are stored.
func (db *DB) Bots(ctx context.Context, game string) ([]BotSummary, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT b.game, r.ruleset, b.name, b.version, r.matches, r.seats, r.wins, r.draws, r.losses,
			r.score_sum / r.matches, coalesce(t.crashed, 0), coalesce(t.timed_out, 0), coalesce(t.invalid_seats, 0),
			coalesce(t.oversized, 0), coalesce(t.timeouts, 0), coalesce(t.invalid, 0), coalesce(t.oversize, 0)
		FROM bot_records r JOIN bots b ON b.id = r.bot_id
		LEFT JOIN bot_trouble t ON t.bot_id = r.bot_id AND t.ruleset = r.ruleset
		WHERE ?1 = '' OR b.game = ?1
		ORDER BY b.game, r.ruleset, b.name, b.version`, game)
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	defer rows.Close()
	bs := []BotSummary{}
	for rows.Next() {
		var b BotSummary
		if err := rows.Scan(&b.Game, &b.Ruleset, &b.Name, &b.Version, &b.Matches, &b.Seats, &b.Wins, &b.Draws, &b.Losses, &b.MeanScore,
			&b.Trouble.Crashed, &b.Trouble.TimedOut, &b.Trouble.InvalidSeats, &b.Trouble.Oversized,
			&b.Trouble.Timeouts, &b.Trouble.Invalid, &b.Trouble.Oversize); err != nil {
			return nil, fmt.Errorf("bots: %w", err)
		}
		bs = append(bs, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	return bs, nil
}

// BotMatches returns the limit (at most MaxLimit) most recent matches in
// which a bot of this name, any version, played a seat of game, newest
// first, and how many matches it played in all. The matches are the last
// entries of each version's index range and the count is kept on insert
// (bot_matches), so the cost does not grow with the matches stored.
func (db *DB) BotMatches(ctx context.Context, game, name string, limit int) ([]MatchSummary, int, error) {
	if limit < 1 || limit > MaxLimit {
		return nil, 0, invalidf("limit %d: want 1 to %d", limit, MaxLimit)
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	var total int
	err = tx.QueryRowContext(ctx, `SELECT matches FROM bot_matches WHERE game = ? AND name = ?`, game, name).Scan(&total)
	if errors.Is(err, sql.ErrNoRows) {
		return []MatchSummary{}, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("bot matches: %w", err)
	}
	seqs, err := recentSeqs(ctx, tx, game, name, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("bot matches: %w", err)
	}
	if len(seqs) == 0 {
		return []MatchSummary{}, total, nil
	}
	args := make([]any, len(seqs))
	for i, seq := range seqs {
		args[i] = seq
	}
	// One placeholder per match: the count varies, the text stays constant.
	ms, err := listMatches(ctx, tx, matchSelect+" WHERE m.seq IN (?"+strings.Repeat(", ?", len(seqs)-1)+") ORDER BY m.seq DESC", args...)
	if err != nil {
		return nil, 0, fmt.Errorf("bot matches: %w", err)
	}
	if err := findPlayers(ctx, tx, ms); err != nil {
		return nil, 0, err
	}
	return ms, total, nil
}

// recentSeqs returns the seqs of the limit most recent matches a bot of
// this name played in game, newest first: the newest limit of each of its
// versions (one entry per match, see Entries), merged (botSeqs).
func recentSeqs(ctx context.Context, tx *sql.Tx, game, name string, limit int) ([]int64, error) {
	ids, err := botIDs(ctx, tx, game, name, "")
	if err != nil {
		return nil, err
	}
	seqs, _, err := botSeqs(ctx, tx, MatchFilter{Game: game, Bot: name}, ids, limit)
	return seqs[:min(len(seqs), limit)], err
}

// int64s reads the integers of a one-column query.
func int64s(rows *sql.Rows, err error) ([]int64, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var vs []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, rows.Err()
}

// BotFingerprint is a fingerprint of the code a bot version was played
// with (replay.Player.Fingerprint) and in how many stored matches.
type BotFingerprint struct {
	Version     string
	Fingerprint string
	Matches     int
}

// Fingerprints returns the fingerprints every version of a bot of this
// name was played with in game, by version, each version's in the order
// they were first stored. Seats without one (built-in bots, replays
// recorded before fingerprints) are left out, so a version played only
// by those has none; a version with two was edited without a new version
// number. The partial index on fingerprints answers it without visiting
// the version's matches.
func (db *DB) Fingerprints(ctx context.Context, game, name string) ([]BotFingerprint, error) {
	rows, err := db.read.QueryContext(ctx, fingerprintsQuery, game, name)
	if err != nil {
		return nil, fmt.Errorf("fingerprints: %w", err)
	}
	defer rows.Close()
	fps := []BotFingerprint{}
	for rows.Next() {
		var f BotFingerprint
		if err := rows.Scan(&f.Version, &f.Fingerprint, &f.Matches); err != nil {
			return nil, fmt.Errorf("fingerprints: %w", err)
		}
		fps = append(fps, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("fingerprints: %w", err)
	}
	return fps, nil
}

// fingerprintsQuery lists a bot's fingerprints by version (Fingerprints);
// its term that the fingerprint is not empty lets SQLite use the
// partial index.
const fingerprintsQuery = `
	SELECT b.version, p.fingerprint, count(DISTINCT p.match_seq)
	FROM bots b JOIN match_players p ON p.bot_id = b.id
	WHERE b.game = ? AND b.name = ? AND p.fingerprint <> ''
	GROUP BY b.version, p.fingerprint
	ORDER BY b.version, min(p.match_seq)`
