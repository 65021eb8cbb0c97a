package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Placing is one bot version's entry in a match as a rating fit reads
// it: its best seat (see Entries), that seat's rank and team.
type Placing struct {
	Seat    int
	BotID   int64
	Name    string
	Version string
	Rank    int
	Team    int // the lowest seat of its team, as PlayerSummary.Team
}

// MatchPlacings is the entries of one match, in order of their seats.
type MatchPlacings struct {
	Seq   int64
	Seats []Placing
}

// placingsQuery reads the entries of one game and ruleset in storage
// order, through matches_by_ruleset and the key of match_entries: no scan
// and no sort (Placings puts each match's few entries in seat order).
const placingsQuery = `
	SELECT m.seq, e.seat, b.id, b.name, b.version, e.rank, e.team
	FROM matches m
	JOIN match_entries e ON e.match_seq = m.seq
	JOIN bots b ON b.id = e.bot_id
	WHERE m.game = ? AND m.ruleset = ? AND m.seq > ?
	ORDER BY m.seq, e.bot_id`

// Placings calls fn with every match of a game under one ruleset, in the
// order they were stored (seq order), from one snapshot of the database.
// It reads one row per entry through the matches_by_ruleset index and the
// key of match_entries, so a million matches stream; fn's
// error stops it and is returned as it is.
func (db *DB) Placings(ctx context.Context, game, ruleset string, fn func(MatchPlacings) error) error {
	return db.PlacingsAfter(ctx, game, ruleset, 0, fn)
}

// PlacingsAfter is Placings of the matches stored after the one with seq
// after: what a fit that has read the earlier ones still needs. The index
// takes it straight to them.
func (db *DB) PlacingsAfter(ctx context.Context, game, ruleset string, after int64, fn func(MatchPlacings) error) error {
	tx, err := db.readTx(ctx)
	if err != nil {
		return fmt.Errorf("placings: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, placingsQuery, game, ruleset, after)
	if err != nil {
		return fmt.Errorf("placings: %w", err)
	}
	defer rows.Close()
	var cur MatchPlacings
	for rows.Next() {
		var seq int64
		var p Placing
		if err := rows.Scan(&seq, &p.Seat, &p.BotID, &p.Name, &p.Version, &p.Rank, &p.Team); err != nil {
			return fmt.Errorf("placings: %w", err)
		}
		if seq != cur.Seq && len(cur.Seats) > 0 {
			if err := cur.emit(fn); err != nil {
				return err
			}
			cur.Seats = nil
		}
		cur.Seq = seq
		cur.Seats = append(cur.Seats, p)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("placings: %w", err)
	}
	if len(cur.Seats) > 0 {
		return cur.emit(fn)
	}
	return nil
}

// emit hands m to fn with its entries in seat order.
func (m MatchPlacings) emit(fn func(MatchPlacings) error) error {
	slices.SortFunc(m.Seats, func(a, b Placing) int { return cmp.Compare(a.Seat, b.Seat) })
	return fn(m)
}

// RulesetCount is how many matches a game has under one ruleset, and the
// seq of the last one: together they tell whether its matches changed
// since a rating fit.
type RulesetCount struct {
	Game, Ruleset string
	Matches       int
	LastSeq       int64
}

// rulesetCountsQuery reads RulesetCounts.
const rulesetCountsQuery = `
	SELECT g.game, g.ruleset, g.matches,
		(SELECT max(m.seq) FROM matches m WHERE m.game = g.game AND m.ruleset = g.ruleset)
	FROM game_matches g ORDER BY g.game, g.ruleset`

// RulesetCounts returns the match count of every game and ruleset with
// matches, ordered by game and ruleset. It reads the counts kept on
// insert (game_matches) and one key of matches_by_ruleset for each last
// seq: a refitter calls it on every pass, and counting a million matches
// took a tenth of a second.
func (db *DB) RulesetCounts(ctx context.Context) ([]RulesetCount, error) {
	cs, err := db.rulesetCounts(ctx, rulesetCountsQuery)
	if err != nil {
		return nil, fmt.Errorf("ruleset counts: %w", err)
	}
	return cs, nil
}

// rulesetCounts returns the RulesetCounts query reads, one a row.
func (db *DB) rulesetCounts(ctx context.Context, query string) ([]RulesetCount, error) {
	rows, err := db.read.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cs := []RulesetCount{}
	for rows.Next() {
		var c RulesetCount
		if err := rows.Scan(&c.Game, &c.Ruleset, &c.Matches, &c.LastSeq); err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, rows.Err()
}

// FittedCounts returns the RulesetCount each stored rating fit was made
// at, ordered by game and ruleset: a ruleset whose count still reads the
// same has nothing new to fit.
func (db *DB) FittedCounts(ctx context.Context) ([]RulesetCount, error) {
	cs, err := db.rulesetCounts(ctx, `SELECT game, ruleset, matches, last_seq FROM rating_fits ORDER BY game, ruleset`)
	if err != nil {
		return nil, fmt.Errorf("fitted counts: %w", err)
	}
	return cs, nil
}

// Rated is one bot version's rating as a fit wrote it: the rating, its 95%
// interval and the matches the version played in the fit.
type Rated struct {
	BotID     int64
	Rating    float64
	Low, High float64
	Matches   int
}

// RatedAt is a bot version's rating after the first Upto matches of its
// ruleset.
type RatedAt struct {
	Upto int
	Rated
}

// FittedRatings is what a rating fit of one game and ruleset writes.
type FittedRatings struct {
	Game, Ruleset string
	// Matches and LastSeq are the RulesetCount the fit saw.
	Matches  int
	LastSeq  int64
	FittedAt time.Time
	// Problem, when not empty, says why there are no ratings, for people.
	Problem string
	Latest  []Rated
	// History is the rating history after HistoryAfter matches: the
	// stored points up to HistoryAfter stay, the later ones are replaced.
	// HistoryAfter 0 replaces the whole history.
	HistoryAfter int
	History      []RatedAt
	// State is what the fitter needs to go on from this fit without
	// reading the matches again, in its own encoding; nil for none. The
	// store keeps it as it is, with the ratings it belongs to.
	State []byte
}

// SaveRatings replaces the ratings and rating history of f's game and
// ruleset with f's, in one transaction, so readers see either the old fit
// or the new one whole.
func (db *DB) SaveRatings(ctx context.Context, f *FittedRatings) (err error) {
	defer func() { err = busyIf(err) }()
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("save ratings: %w", err)
	}
	defer tx.Rollback()
	if err := saveRatings(ctx, tx, f); err != nil {
		return fmt.Errorf("save ratings of %s/%s: %w", f.Game, f.Ruleset, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save ratings of %s/%s: %w", f.Game, f.Ruleset, err)
	}
	return nil
}

func saveRatings(ctx context.Context, tx *sql.Tx, f *FittedRatings) error {
	if err := clearRatings(ctx, tx, f.Game, f.Ruleset, f.HistoryAfter); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO rating_fits (game, ruleset, matches, last_seq, fitted_at, problem, state)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (game, ruleset) DO UPDATE SET matches = excluded.matches, last_seq = excluded.last_seq,
			fitted_at = excluded.fitted_at, problem = excluded.problem, state = excluded.state`,
		f.Game, f.Ruleset, f.Matches, f.LastSeq, f.FittedAt.UnixMilli(), f.Problem, f.State); err != nil {
		return err
	}
	latest, err := tx.PrepareContext(ctx, `
		INSERT INTO ratings (bot_id, ruleset, rating, ci_low, ci_high, matches) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer latest.Close()
	for _, r := range f.Latest {
		if _, err := latest.ExecContext(ctx, r.BotID, f.Ruleset, r.Rating, r.Low, r.High, r.Matches); err != nil {
			return fmt.Errorf("bot %d: %w", r.BotID, err)
		}
	}
	history, err := tx.PrepareContext(ctx, `
		INSERT INTO rating_history (bot_id, ruleset, upto, rating, ci_low, ci_high, matches) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer history.Close()
	for _, r := range f.History {
		if _, err := history.ExecContext(ctx, r.BotID, f.Ruleset, r.Upto, r.Rating, r.Low, r.High, r.Matches); err != nil {
			return fmt.Errorf("bot %d after %d matches: %w", r.BotID, r.Upto, err)
		}
	}
	return nil
}

// clearRatings deletes the ratings of a game and ruleset and its rating
// history after the first after matches, not its fit.
func clearRatings(ctx context.Context, tx *sql.Tx, game, ruleset string, after int) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM ratings
		WHERE ruleset = ? AND bot_id IN (SELECT id FROM bots WHERE game = ?)`, ruleset, game); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM rating_history
		WHERE ruleset = ? AND upto > ? AND bot_id IN (SELECT id FROM bots WHERE game = ?)`, ruleset, after, game)
	return err
}

// BotRating is a stored rating of one bot version.
type BotRating struct {
	Name, Version string
	Rating        float64
	Low, High     float64 // the 95% interval
	Matches       int
}

// RatingBoard is the stored rating fit of one game and ruleset.
type RatingBoard struct {
	Game, Ruleset string
	Matches       int // matches the fit covered
	FittedAt      time.Time
	Problem       string      // why Ratings is empty, when it is
	Ratings       []BotRating // best first
}

// Ratings returns the stored rating fits of a game, or of every game when
// game is empty, keeping one ruleset's when ruleset is not empty; ordered
// by game and ruleset. A game and ruleset never fitted has no board.
func (db *DB) Ratings(ctx context.Context, game, ruleset string) ([]RatingBoard, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	defer tx.Rollback()
	boards, err := findRatingFits(ctx, tx, game, ruleset)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `
		SELECT b.game, r.ruleset, b.name, b.version, r.rating, r.ci_low, r.ci_high, r.matches
		FROM ratings r JOIN bots b ON b.id = r.bot_id
		WHERE (?1 = '' OR b.game = ?1) AND (?2 = '' OR r.ruleset = ?2)
		ORDER BY b.game, r.ruleset, r.rating DESC, b.name, b.version`, game, ruleset)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	defer rows.Close()
	i := 0
	for rows.Next() {
		var g, rs string
		var r BotRating
		if err := rows.Scan(&g, &rs, &r.Name, &r.Version, &r.Rating, &r.Low, &r.High, &r.Matches); err != nil {
			return nil, fmt.Errorf("ratings: %w", err)
		}
		for i < len(boards) && (boards[i].Game < g || boards[i].Game == g && boards[i].Ruleset < rs) {
			i++
		}
		if i == len(boards) || boards[i].Game != g || boards[i].Ruleset != rs {
			return nil, fmt.Errorf("ratings: %s/%s has ratings but no fit", g, rs)
		}
		boards[i].Ratings = append(boards[i].Ratings, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	return boards, nil
}

// findRatingFits returns the boards of the selected fits without ratings.
func findRatingFits(ctx context.Context, tx *sql.Tx, game, ruleset string) ([]RatingBoard, error) {
	rows, err := tx.QueryContext(ctx, `
		SELECT game, ruleset, matches, fitted_at, problem FROM rating_fits
		WHERE (?1 = '' OR game = ?1) AND (?2 = '' OR ruleset = ?2)
		ORDER BY game, ruleset`, game, ruleset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	boards := []RatingBoard{}
	for rows.Next() {
		var b RatingBoard
		var at int64
		if err := rows.Scan(&b.Game, &b.Ruleset, &b.Matches, &at, &b.Problem); err != nil {
			return nil, err
		}
		b.FittedAt = time.UnixMilli(at).UTC()
		boards = append(boards, b)
	}
	return boards, rows.Err()
}

// RatingPoint is a bot version's rating after the first Upto matches of a
// ruleset.
type RatingPoint struct {
	Ruleset string
	Upto    int
	BotRating
}

// RatingHistory returns the stored rating history of every version of a
// bot of a game, ordered by ruleset, version and Upto.
func (db *DB) RatingHistory(ctx context.Context, game, name string) ([]RatingPoint, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT h.ruleset, h.upto, b.name, b.version, h.rating, h.ci_low, h.ci_high, h.matches
		FROM bots b JOIN rating_history h ON h.bot_id = b.id
		WHERE b.game = ? AND b.name = ?
		ORDER BY h.ruleset, b.version, h.upto`, game, name)
	if err != nil {
		return nil, fmt.Errorf("rating history: %w", err)
	}
	defer rows.Close()
	ps := []RatingPoint{}
	for rows.Next() {
		var p RatingPoint
		if err := rows.Scan(&p.Ruleset, &p.Upto, &p.Name, &p.Version, &p.Rating, &p.Low, &p.High, &p.Matches); err != nil {
			return nil, fmt.Errorf("rating history: %w", err)
		}
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rating history: %w", err)
	}
	return ps, nil
}

// SavedRatings returns the stored fit of a game and ruleset as
// SaveRatings took it, with its whole history ordered by Upto and bot id:
// what a refitter that starts needs to go on from it instead of fitting
// the history again. Its error wraps ErrNotFound when the ruleset has no
// stored fit.
func (db *DB) SavedRatings(ctx context.Context, game, ruleset string) (*FittedRatings, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("saved ratings: %w", err)
	}
	defer tx.Rollback()
	f := &FittedRatings{Game: game, Ruleset: ruleset}
	var at int64
	err = tx.QueryRowContext(ctx, `SELECT matches, last_seq, fitted_at, problem, state FROM rating_fits WHERE game = ? AND ruleset = ?`,
		game, ruleset).Scan(&f.Matches, &f.LastSeq, &at, &f.Problem, &f.State)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFoundf("no saved ratings of %s/%s", game, ruleset)
	}
	if err != nil {
		return nil, fmt.Errorf("saved ratings: %w", err)
	}
	f.FittedAt = time.UnixMilli(at).UTC()
	rows, err := tx.QueryContext(ctx, `
		SELECT r.bot_id, r.rating, r.ci_low, r.ci_high, r.matches FROM ratings r JOIN bots b ON b.id = r.bot_id
		WHERE b.game = ? AND r.ruleset = ? ORDER BY r.bot_id`, game, ruleset)
	if err != nil {
		return nil, fmt.Errorf("saved ratings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Rated
		if err := rows.Scan(&r.BotID, &r.Rating, &r.Low, &r.High, &r.Matches); err != nil {
			return nil, fmt.Errorf("saved ratings: %w", err)
		}
		f.Latest = append(f.Latest, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("saved ratings: %w", err)
	}
	rows, err = tx.QueryContext(ctx, `
		SELECT h.upto, h.bot_id, h.rating, h.ci_low, h.ci_high, h.matches FROM rating_history h JOIN bots b ON b.id = h.bot_id
		WHERE b.game = ? AND h.ruleset = ? ORDER BY h.upto, h.bot_id`, game, ruleset)
	if err != nil {
		return nil, fmt.Errorf("saved ratings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r RatedAt
		if err := rows.Scan(&r.Upto, &r.BotID, &r.Rating, &r.Low, &r.High, &r.Matches); err != nil {
			return nil, fmt.Errorf("saved ratings: %w", err)
		}
		f.History = append(f.History, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("saved ratings: %w", err)
	}
	return f, nil
}
