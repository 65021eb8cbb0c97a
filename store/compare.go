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

// MaxRecent bounds RecentMatches and Lineups: the matches of one bot
// version a comparison reads.
const MaxRecent = 5000

// RecentMatches returns the newest limit matches f selects (its paging
// fields must be zero), players included, without counting the rest as
// Matches does: a comparison looks up a bot's newest match and needs no
// total.
func (db *DB) RecentMatches(ctx context.Context, f MatchFilter, limit int) ([]MatchSummary, error) {
	if limit < 1 || limit > MaxRecent {
		return nil, invalidf("limit %d: want 1 to %d", limit, MaxRecent)
	}
	if f.Limit != 0 || f.Offset != 0 {
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
	// A match's lines are one row; each seat reads its match's row.
	// Prepared once: a comparison reads hundreds of seats.
	stmt, err := tx.PrepareContext(ctx, `
		SELECT l.data, m.turns FROM matches m JOIN match_lines l ON l.match_seq = m.seq WHERE m.id = ?`)
	if err != nil {
		return fmt.Errorf("seat lines: %w", err)
	}
	defer stmt.Close()
	var (
		buf   []float64
		data  []byte
		turns int
	)
	for i, s := range seats {
		err := stmt.QueryRowContext(ctx, s.MatchID).Scan(&data, &turns)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return fmt.Errorf("lines of %s seat %d: %w", s.MatchID, s.Seat, err)
		}
		err = eachPackedLine(data, func(l Line, enc []byte) error {
			if l.Seat != s.Seat || l.Unit != sim.NoUnit || l.Metric < 0 {
				return nil
			}
			var err error
			if buf, err = decodeLine(buf[:0], enc, turns+1); err != nil {
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

// Lineups returns, for each of two versions of bots of a game (named by
// Name and Version; ID is not read), the newest limit matches (at most
// MaxRecent) it played under a ruleset, newest first: none for a version
// that never did. It reads what pairing matches needs and nothing else
// (see lineupsQuery), and a match both played once: two bots that met
// with seats swapped share every match. Equal configs and bot versions
// share one string.
func (db *DB) Lineups(ctx context.Context, game, ruleset string, a, b BotVersion, limit int) (as, bs []Lineup, err error) {
	if limit < 1 || limit > MaxRecent {
		return nil, nil, invalidf("limit %d: want 1 to %d", limit, MaxRecent)
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	query := lineupsQuery
	if db.postgres {
		query = lineupsQueryPostgres
	}
	ls, err := findLineups(ctx, tx, query, []any{game, a.Name, a.Version, ruleset, limit, game, b.Name, b.Version, ruleset, limit})
	if err != nil {
		return nil, nil, fmt.Errorf("lineups of %s %s and %s %s: %w", a.Name, a.Version, b.Name, b.Version, err)
	}
	// The first limit matches that hold a version are its newest: the
	// matches are newest first, and all of its newest limit are among
	// them.
	for _, l := range ls {
		if len(as) < limit && l.holds(a) {
			as = append(as, l)
		}
		if len(bs) < limit && l.holds(b) {
			bs = append(bs, l)
		}
	}
	return as, bs, nil
}

// holds reports whether v sits in one of l's seats.
func (l Lineup) holds(v BotVersion) bool {
	return slices.ContainsFunc(l.Seats, func(s SeatResult) bool { return s.Name == v.Name && s.Version == v.Version })
}

// versionSeqs selects the seqs of a bot version's newest matches under a
// ruleset, given game, name, version, ruleset and limit. DISTINCT: a match
// the version played in two seats is one match of the limit. The bot's
// index gives them newest first, and an IN list of them is walked in that
// order, so no query built on it sorts.
const versionSeqs = `
	SELECT DISTINCT mp.match_seq FROM bots v
	JOIN match_players mp ON mp.bot_id = v.id
	JOIN matches vm ON vm.seq = mp.match_seq
	WHERE v.game = ? AND v.name = ? AND v.version = ? AND vm.ruleset = ?
	ORDER BY mp.match_seq DESC LIMIT ?`

// lineupsQuery reads a row per match versionSeqs selects for either of
// two versions (its arguments twice over), newest first: its id, seed,
// config, and its seats packed in a text of seat, bot id, rank, score and
// team per seat, in any order, as a row per seat would cost the driver as much
// again. SQLite writes a REAL as text that reads back to the same float64.
// The seed and config come from the replays_lineup index, which holds
// nothing else: a replay's row also holds its encoded log, and reading
// thousands of them through a connection's page cache is most of the
// cost.
const lineupsQuery = `
	SELECT m.id, r.seed, r.config,
		(SELECT group_concat(p.seat || ' ' || p.bot_id || ' ' || p.rank || ' ' || p.score || ' ' || p.team, ' ')
		 FROM match_players p WHERE p.match_seq = m.seq)
	FROM matches m JOIN replays r INDEXED BY replays_lineup ON r.id = m.id
	WHERE m.seq IN (SELECT * FROM (` + versionSeqs + `) UNION ALL SELECT * FROM (` + versionSeqs + `))
	ORDER BY m.seq DESC`

// lineupsQueryPostgres is lineupsQuery in PostgreSQL's words: string_agg
// for group_concat, no index hint, which PostgreSQL does not take (its
// index-only scans need no hint to skip the replays' logs), and names for
// the subqueries, which it requires (SQLite's plan would then call their
// reads scans).
var lineupsQueryPostgres = strings.NewReplacer("group_concat(", "string_agg(", " INDEXED BY replays_lineup", "",
	") UNION ALL SELECT * FROM (", ") AS a UNION ALL SELECT * FROM (", "))\n\tORDER BY m.seq DESC", ") AS b)\n\tORDER BY m.seq DESC").Replace(lineupsQuery)

// findLineups reads the matches query (lineupsQuery in the database's
// dialect) selects with args, then the
// names of the bot versions in them.
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
