package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// MaxRecent bounds RecentMatches, PairLineups and VersionLines: the
// matches of one bot version a comparison may read.
const MaxRecent = 5000

// RecentMatches returns the newest limit matches f selects (its paging
// fields must be zero), players included, without counting the rest as
// Matches does: a comparison looks up a bot's newest match and needs no
// total.
func (db *DB) RecentMatches(ctx context.Context, f MatchFilter, limit int) ([]MatchSummary, error) {
	if limit < 1 || limit > MaxRecent {
		return nil, invalidf("limit %d: want 1 to %d", limit, MaxRecent)
	}
	if f.Limit != 0 || f.Offset != 0 || f.Before != 0 {
		return nil, invalidf("recent matches take a limit of their own, not a page")
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var ms []MatchSummary
	if f.Bot != "" {
		var l MatchList
		l, err = botMatchList(ctx, tx, f, limit, false)
		ms = l.Matches
	} else {
		where, args := f.where()
		ms, err = listMatches(ctx, tx, matchSelect+where+" ORDER BY m.seq DESC LIMIT ?", append(args, limit)...)
	}
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

// Lineup is a stored match as pairing two bots' matches reads it: its
// seed, config and who took each seat with what result, and nothing of the
// rest of a MatchSummary, which a comparison reads thousands of.
type Lineup struct {
	ID     string
	Seed   uint64
	Config string       // the same text for every match of one config
	Seats  []SeatResult // in seat order
}

// SeatResult is the bot version in a seat and how it placed.
type SeatResult struct {
	Name, Version string
	Rank          int
	Score         float64
	Team          int // the lowest seat of its team, as PlayerSummary.Team
}

// PairSearch is what PairLineups found for two versions of bots: the
// matches that can pair, and how far the search went.
type PairSearch struct {
	// A holds A's searched matches on a seed on which B played another
	// match, and B those matches of B, each newest first and each match
	// once: a match holding both bots may be in both.
	A, B []Lineup
	// Searched is how many of A's newest matches under the ruleset had
	// their seeds looked up, of the Matches it played there in all.
	Searched, Matches int
	// Complete is false when the search stopped early: A played more
	// matches than the limit, or its seeds held more than limit matches
	// of B, and only those were read.
	Complete bool
}

// PairLineups seeks the matches two versions of bots of a game (named by
// Name and Version; ID is not read) can be paired on under a ruleset:
// it walks A's newest limit matches (at most MaxRecent) with their seeds,
// looks up B's matches on each seed (match_entries_by_seed), and reads
// the lineups of those matches only. Its cost is A's matches searched
// plus the pairs found, not B's matches: two bots that never shared a
// seed cost one walk of A's newest matches and a search per seed.
func (db *DB) PairLineups(ctx context.Context, game, ruleset string, a, b BotVersion, limit int) (PairSearch, error) {
	if limit < 1 || limit > MaxRecent {
		return PairSearch{}, invalidf("limit %d: want 1 to %d", limit, MaxRecent)
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return PairSearch{}, err
	}
	defer tx.Rollback()
	ps, err := pairLineups(ctx, tx, db.postgres, game, ruleset, a, b, limit)
	if err != nil {
		return PairSearch{}, fmt.Errorf("pairs of %s %s and %s %s: %w", a.Name, a.Version, b.Name, b.Version, err)
	}
	return ps, nil
}

// pairLineups is PairLineups in a transaction.
func pairLineups(ctx context.Context, tx *sql.Tx, postgres bool, game, ruleset string, a, b BotVersion, limit int) (PairSearch, error) {
	ps := PairSearch{Complete: true}
	aIDs, err := botIDs(ctx, tx, game, a.Name, a.Version)
	if err != nil || len(aIDs) == 0 {
		return ps, err
	}
	err = tx.QueryRowContext(ctx, `SELECT coalesce(sum(matches), 0) FROM bot_records WHERE bot_id = ? AND ruleset = ?`,
		aIDs[0], ruleset).Scan(&ps.Matches)
	if err != nil {
		return ps, err
	}
	ps.Searched, ps.Complete = min(ps.Matches, limit), ps.Matches <= limit
	bIDs, err := botIDs(ctx, tx, game, b.Name, b.Version)
	if err != nil || len(bIDs) == 0 {
		return ps, err
	}
	// One row past the limit tells a search that stopped early.
	aSeqs, bSeqs, err := seqPairs(tx.QueryContext(ctx, dialect(postgres, seedPartnersQuery), aIDs[0], ruleset, limit, bIDs[0], ruleset, limit+1))
	if err != nil {
		return ps, err
	}
	if len(bSeqs) > limit {
		// A's matches are walked newest first: keep those whose
		// partners were all read, and count them.
		last := aSeqs[limit]
		cut := slices.Index(aSeqs, last)
		aSeqs, bSeqs = aSeqs[:cut], bSeqs[:cut]
		ps.Complete = false
		err := tx.QueryRowContext(ctx, dialect(postgres, `SELECT count(*) FROM (`+newestUnder+`) s WHERE s.match_seq > ?`),
			aIDs[0], ruleset, limit, last).Scan(&ps.Searched)
		if err != nil {
			return ps, err
		}
	}
	if ps.A, err = lineupsBySeq(ctx, tx, postgres, aSeqs); err != nil {
		return ps, err
	}
	if ps.B, err = lineupsBySeq(ctx, tx, postgres, bSeqs); err != nil {
		return ps, err
	}
	return ps, nil
}

// seqPairs reads the rows of seedPartnersQuery and closes them.
func seqPairs(rows *sql.Rows, err error) (as, bs []int64, _ error) {
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var a, b int64
		if err := rows.Scan(&a, &b); err != nil {
			return nil, nil, err
		}
		as, bs = append(as, a), append(bs, b)
	}
	return as, bs, rows.Err()
}

// newestUnder selects the seq and seed of a version's newest matches
// under a ruleset, newest first, given its id, the ruleset and a limit:
// the end of the version's entries in match_entries_by_bot, which holds
// their seeds and rulesets, so the walk reads no match. (With the ruleset
// read from matches, a search a match, PostgreSQL planned the walk as a
// hash of every match of the ruleset when it guessed the version's
// matches under it were few.)
const newestUnder = `
	SELECT e.match_seq, e.seed FROM match_entries e
	WHERE e.bot_id = ? AND e.ruleset = ?
	ORDER BY e.match_seq DESC LIMIT ?`

// seedPartnersQuery selects, for each of a version's newest matches
// under a ruleset (newestUnder's arguments), the other matches under the
// ruleset on its seed that another version played (then that version's
// id and the ruleset; a version's id names its game), up to a limit: a
// row of both seqs per partner, A's newest first. CROSS JOIN keeps
// SQLite's join order: A's seeds come from the walk of its entries, and
// each costs one search of B's entries by seed (match_entries_by_seed);
// an entry's row, for its ruleset, is read only where B played on the
// seed, and only partners are sorted.
const seedPartnersQuery = `
	SELECT s.match_seq, be.match_seq FROM (` + newestUnder + `) s
	CROSS JOIN match_entries be INDEXED BY match_entries_by_seed ON be.bot_id = ? AND be.seed = s.seed AND be.match_seq <> s.match_seq
	WHERE be.ruleset = ?
	ORDER BY s.match_seq DESC, be.match_seq DESC LIMIT ?`

// dialect returns a query built on newestUnder in PostgreSQL's words when
// postgres is true: JOIN for CROSS JOIN, which it does not take with ON,
// and no index hints.
func dialect(postgres bool, query string) string {
	if !postgres {
		return query
	}
	return postgresJoins.Replace(query)
}

var postgresJoins = strings.NewReplacer("CROSS JOIN", "JOIN", " INDEXED BY match_entries_by_seed", "")

// VersionLines calls fn with every stored line of the game's metrics for
// the player as a whole (sim.NoUnit, no Alive line) in each seat a bot
// version held in its newest limit matches (at most MaxRecent) of a game
// under a ruleset: newest match first, then by seat and metric. It
// returns how many seats it read, those without lines too. The line's
// Values are only valid during the call: one buffer is reused, so many
// long matches cost the memory of one line. It stops at the first error
// from fn and returns it unchanged. One query reads them all: a query
// per seat would cost more than its lines.
func (db *DB) VersionLines(ctx context.Context, game, ruleset string, v BotVersion, limit int, fn func(l Line) error) (int, error) {
	if limit < 1 || limit > MaxRecent {
		return 0, invalidf("limit %d: want 1 to %d", limit, MaxRecent)
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	ids, err := botIDs(ctx, tx, game, v.Name, v.Version)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	// A match's lines are one row (match_lines); each of the version's
	// seats reads its own from it.
	rows, err := tx.QueryContext(ctx, dialect(db.postgres, `SELECT s.match_seq, m.id, m.turns, p.seat, l.data FROM (`+newestUnder+`) s
		CROSS JOIN matches m ON m.seq = s.match_seq
		CROSS JOIN match_players p ON p.match_seq = s.match_seq AND p.bot_id = ?
		LEFT JOIN match_lines l ON l.match_seq = s.match_seq
		ORDER BY s.match_seq DESC, p.seat`), ids[0], ruleset, limit, ids[0])
	if err != nil {
		return 0, fmt.Errorf("lines of %s %s: %w", v.Name, v.Version, err)
	}
	seats, err := eachVersionLine(rows, fn)
	if err != nil {
		return seats, fmt.Errorf("lines of %s %s: %w", v.Name, v.Version, err)
	}
	return seats, nil
}

// eachVersionLine calls fn with each line of a VersionLines query, one
// row per seat with its match's pack of lines, decoded, and closes the
// rows. It returns how many seats they held.
func eachVersionLine(rows *sql.Rows, fn func(l Line) error) (int, error) {
	defer rows.Close()
	var (
		seats int
		buf   []float64
		data  []byte
		seq   int64
		id    string
		turns int
	)
	for rows.Next() {
		var seat int
		if err := rows.Scan(&seq, &id, &turns, &seat, &data); err != nil {
			return seats, err
		}
		seats++
		if data == nil { // a match without lines
			continue
		}
		err := eachPackedLine(data, func(l Line, enc []byte) error {
			if l.Seat != seat || l.Unit != sim.NoUnit || l.Metric < 0 {
				return nil
			}
			var err error
			if buf, err = decodeLine(buf[:0], enc, turns+1); err != nil {
				return fmt.Errorf("match %s seat %d, metric %d: %w", id, seat, l.Metric, err)
			}
			l.Values = buf
			return fn(l)
		})
		if err != nil {
			return seats, err
		}
	}
	return seats, rows.Err()
}

// lineupsBySeq reads the lineups of the matches of seqs, newest first,
// each once.
func lineupsBySeq(ctx context.Context, tx *sql.Tx, postgres bool, seqs []int64) ([]Lineup, error) {
	seqs = slices.Clone(seqs)
	slices.Sort(seqs)
	seqs = slices.Compact(seqs)
	if len(seqs) == 0 {
		return nil, nil
	}
	args := make([]any, len(seqs))
	for i, seq := range seqs {
		args[i] = seq
	}
	query := lineupsSelect
	if postgres {
		query = lineupsSelectPostgres
	}
	// One placeholder per match: at most MaxRecent, within both
	// databases' bounds.
	return findLineups(ctx, tx, query+" WHERE m.seq IN (?"+strings.Repeat(", ?", len(seqs)-1)+") ORDER BY m.seq DESC", args)
}

// lineupsSelect reads a row per match: its id, seed, config, and its
// seats packed in a text of seat, bot id, rank, score and team per seat,
// in any order, as a row per seat would cost the driver as much again.
// SQLite writes a REAL as text that reads back to the same float64. The
// seed and config come from the replays_lineup index, which holds nothing
// else: a replay's row also holds its encoded log, and reading thousands
// of them through a connection's page cache is most of the cost.
const lineupsSelect = `
	SELECT m.id, r.seed, r.config,
		(SELECT group_concat(p.seat || ' ' || p.bot_id || ' ' || p.rank || ' ' || p.score || ' ' || p.team, ' ')
		 FROM match_players p WHERE p.match_seq = m.seq)
	FROM matches m JOIN replays r INDEXED BY replays_lineup ON r.id = m.id`

// lineupsSelectPostgres is lineupsSelect in PostgreSQL's words: string_agg
// for group_concat, and no index hint, which PostgreSQL does not take (its
// index-only scans need no hint to skip the replays' logs).
var lineupsSelectPostgres = strings.NewReplacer("group_concat(", "string_agg(", " INDEXED BY replays_lineup", "").Replace(lineupsSelect)

// findLineups reads the matches query (built on lineupsSelect in the
// database's dialect) selects with args, then the names of the bot
// versions in them.
func findLineups(ctx context.Context, tx *sql.Tx, query string, args []any) ([]Lineup, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	ls, ids, err := scanLineups(rows)
	if err != nil {
		return nil, err
	}
	if err := findBotNames(ctx, tx, ls, ids); err != nil {
		return nil, err
	}
	return ls, nil
}

// scanLineups reads the rows of findLineups and closes them, returning
// the matches and, for each, its seats' bot ids; the seats have no names
// yet.
func scanLineups(rows *sql.Rows) ([]Lineup, [][]int64, error) {
	defer rows.Close()
	var (
		ls      []Lineup
		ids     [][]int64
		configs = map[string]string{}
	)
	for rows.Next() {
		var (
			l             Lineup
			seed          int64
			config, seats sql.RawBytes
		)
		if err := rows.Scan(&l.ID, &seed, &config, &seats); err != nil {
			return nil, nil, err
		}
		l.Seed = uint64(seed)
		var ok bool
		if l.Config, ok = configs[string(config)]; !ok {
			l.Config = string(config)
			configs[l.Config] = l.Config
		}
		var (
			botIDs []int64
			err    error
		)
		if l.Seats, botIDs, err = parseSeats(string(seats)); err != nil {
			return nil, nil, fmt.Errorf("match %s: %w", l.ID, err)
		}
		ls = append(ls, l)
		ids = append(ids, botIDs)
	}
	return ls, ids, rows.Err()
}

// findBotNames fills in the names and versions of the bots in the seats
// of ls, which hold only their ids until then: one lookup per bot, and a
// comparison's matches seldom hold more than a few.
func findBotNames(ctx context.Context, tx *sql.Tx, ls []Lineup, ids [][]int64) error {
	stmt, err := tx.PrepareContext(ctx, `SELECT name, version FROM bots WHERE id = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	bots := map[int64]BotVersion{}
	for i, l := range ls {
		for seat, id := range ids[i] {
			b, ok := bots[id]
			if !ok {
				if err := stmt.QueryRowContext(ctx, id).Scan(&b.Name, &b.Version); err != nil {
					return fmt.Errorf("bot %d: %w", id, err)
				}
				bots[id] = b
			}
			l.Seats[seat].Name, l.Seats[seat].Version = b.Name, b.Version
		}
	}
	return nil
}

// parseSeats reads the seats lineupsQuery packs: seat, bot id, rank, score
// and team per seat, in any order. It returns them in seat order with
// their bots' ids, and an error unless the seats are 0 to n-1, each once.
func parseSeats(text string) ([]SeatResult, []int64, error) {
	const per = 5
	fields := strings.Fields(text)
	if len(fields)%per != 0 {
		return nil, nil, fmt.Errorf("seats %q: want five numbers a seat", text)
	}
	n := len(fields) / per
	seats, ids := make([]SeatResult, n), make([]int64, n)
	seen := make([]bool, n)
	for f := 0; f < len(fields); f += per {
		seat, err1 := strconv.Atoi(fields[f])
		id, err2 := strconv.ParseInt(fields[f+1], 10, 64)
		rank, err3 := strconv.Atoi(fields[f+2])
		score, err4 := strconv.ParseFloat(fields[f+3], 64)
		team, err5 := strconv.Atoi(fields[f+4])
		if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
			return nil, nil, fmt.Errorf("seats %q: %w", text, err)
		}
		if seat < 0 || seat >= n || seen[seat] {
			return nil, nil, fmt.Errorf("seats %q: seat %d of %d twice or out of range", text, seat, n)
		}
		seen[seat] = true
		seats[seat], ids[seat] = SeatResult{Rank: rank, Score: score, Team: team}, id
	}
	return seats, ids, nil
}
