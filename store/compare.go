package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/replaylab/replaylab/sim"
)

// MaxRecent bounds RecentMatches: the matches of one bot version a
// comparison reads, lineups included.
const MaxRecent = 5000

// RecentMatches returns the newest limit matches f selects (its paging
// fields must be zero), players included, without counting the rest as
// Matches does: a comparison reads a bot's recent matches in one go, more
// than a page, and needs no total.
func (db *DB) RecentMatches(ctx context.Context, f MatchFilter, limit int) ([]MatchSummary, error) {
	if limit < 1 || limit > MaxRecent {
		return nil, invalidf("limit %d: want 1 to %d", limit, MaxRecent)
	}
	if f.Limit != 0 || f.Offset != 0 {
		return nil, invalidf("recent matches take a limit of their own, not a page")
	}
	where, args, err := f.where()
	if err != nil {
		return nil, err
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	ms, err := listMatches(ctx, tx, matchSelect+where+" ORDER BY m.seq DESC LIMIT ?", append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("recent matches: %w", err)
	}
	if err := findPlayers(ctx, tx, ms); err != nil {
		return nil, err
	}
	return ms, nil
}

// NewestVersion returns the version of a bot of a game that was stored
// last among those that played under the ruleset, or, when none did, the
// newest of all; a bot that never played the game is ErrNotFound.
func (db *DB) NewestVersion(ctx context.Context, game, ruleset, name string) (string, error) {
	var version string
	// bots.id grows as versions are first stored, so the largest is the
	// newest. The ruleset test stops at a version's first match under it.
	err := db.read.QueryRowContext(ctx, `
		SELECT b.version FROM bots b
		WHERE b.game = ? AND b.name = ?
		ORDER BY EXISTS (
			SELECT 1 FROM match_players mp JOIN matches m ON m.seq = mp.match_seq
			WHERE mp.bot_id = b.id AND m.ruleset = ?) DESC, b.id DESC
		LIMIT 1`, game, name, ruleset).Scan(&version)
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFoundf("no bot %q has played %s", name, game)
	}
	if err != nil {
		return "", fmt.Errorf("newest version of %s: %w", name, err)
	}
	return version, nil
}

// MatchSeat is one seat of one stored match.
type MatchSeat struct {
	MatchID string
	Seat    int
}

// SeatLines calls fn with every stored line of the game's metrics for the
// player as a whole (sim.NoUnit, no Alive line) in each of seats, in the
// order of seats and then of metric, i being the index in seats. The
// line's Values are only valid during the call: one buffer is reused, so
// many long matches cost the memory of one line. It stops at the first
// error from fn and returns it unchanged. A seat that is not stored has
// no lines.
func (db *DB) SeatLines(ctx context.Context, seats []MatchSeat, fn func(i int, l Line) error) error {
	tx, err := db.readTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var buf []float64
	for i, s := range seats {
		// The series key starts with match_seq, so each seat reads its
		// match's lines and nothing more.
		rows, err := tx.QueryContext(ctx, `
			SELECT s.metric, s.data, m.turns FROM matches m JOIN series s ON s.match_seq = m.seq
			WHERE m.id = ? AND s.seat = ? AND s.unit = ? AND s.metric >= 0
			ORDER BY s.metric`, s.MatchID, s.Seat, sim.NoUnit)
		if err != nil {
			return fmt.Errorf("lines of %s seat %d: %w", s.MatchID, s.Seat, err)
		}
		err = eachSeatLine(rows, s, func(l Line, data []byte, turns int) error {
			var err error
			if buf, err = decodeLine(buf[:0], data, turns+1); err != nil {
				return fmt.Errorf("lines of %s seat %d, metric %d: %w", s.MatchID, s.Seat, l.Metric, err)
			}
			l.Values = buf
			return fn(i, l)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// eachSeatLine calls fn with each row of a SeatLines query and closes
// the rows.
func eachSeatLine(rows *sql.Rows, s MatchSeat, fn func(l Line, data []byte, turns int) error) error {
	defer rows.Close()
	var data sql.RawBytes // fn decodes it before the next row overwrites it
	for rows.Next() {
		l := Line{Seat: s.Seat, Unit: sim.NoUnit}
		var turns int
		if err := rows.Scan(&l.Metric, &data, &turns); err != nil {
			return err
		}
		if err := fn(l, data, turns); err != nil {
			return err
		}
	}
	return rows.Err()
}
