package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/replaylab/replaylab/sim"
)

// idLen is the length of a full match id: a hex SHA-256.
const idLen = 64

// MinPrefix is the shortest id prefix Match accepts. Shorter prefixes would
// start to collide once a database holds a few tens of thousands of matches.
const MinPrefix = 8

// Paging limits of Matches.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// MatchSummary is what lists and match pages show about a match.
type MatchSummary struct {
	ID string
	// Seq numbers the stored matches in the order they were stored: a
	// list's MatchList.Next and MatchFilter.Before.
	Seq           int64
	Game          string
	Ruleset       string
	Seed          uint64
	Config        json.RawMessage
	Turns         int
	Winner        int // winning seat, or -1 for a draw or no winner
	Reason        string
	EngineVersion string
	RegenTime     time.Duration
	CreatedAt     time.Time
	Players       []PlayerSummary // in seat order
	// Trouble is what went wrong for the seats that had trouble (a crash,
	// time-outs, invalid commands, over-long answers), in seat order.
	Trouble []Trouble
}

// PlayerSummary is one seat of a match.
type PlayerSummary struct {
	Seat    int
	Name    string
	Version string
	Score   float64
	Rank    int
	Outcome sim.Outcome
	// Team is the lowest seat of the seat's team (sim.Result.TeamOf):
	// seats with the same Team played together.
	Team int
}

// Entry is a bot version's part in one match: the seat that counts for it
// and how many seats it held.
type Entry struct {
	PlayerSummary
	Seats int
}

// Entries returns one entry per bot version of a match's seats, in the
// order of each version's first seat. A version's entry is its best seat:
// a win beats a draw beats a loss, then the better rank, the higher score,
// the lower seat. Every count of matches (records, head-to-head meetings,
// ratings, a tournament's standings) uses these, so a bot holding several
// seats plays the match once, with the result of its best seat. Upgrade
// 11 in upgrades.go orders seats the same way in SQL.
func Entries(seats []PlayerSummary) []Entry {
	var es []Entry
	for _, p := range seats {
		i := slices.IndexFunc(es, func(e Entry) bool { return e.Name == p.Name && e.Version == p.Version })
		if i < 0 {
			es = append(es, Entry{PlayerSummary: p, Seats: 1})
			continue
		}
		e := &es[i]
		e.Seats++
		if better(p, e.PlayerSummary) {
			e.PlayerSummary = p
		}
	}
	return es
}

// better reports whether seat p placed better than seat q.
func better(p, q PlayerSummary) bool {
	order := map[sim.Outcome]int{sim.Win: 2, sim.Draw: 1}
	return cmp.Or(cmp.Compare(order[p.Outcome], order[q.Outcome]), cmp.Compare(q.Rank, p.Rank),
		cmp.Compare(p.Score, q.Score), cmp.Compare(q.Seat, p.Seat)) > 0
}

// MatchFilter selects matches for Matches. Zero fields select everything.
type MatchFilter struct {
	Game    string
	Ruleset string
	// Bot keeps the matches in which a bot of this name played a seat;
	// Version narrows it to one version of that bot. Outcome and Rank keep
	// the matches the bot ended with that outcome (win, loss or draw) or
	// rank (1 = best) in its own seat; a bot in several seats of one match
	// counts its best seat (a win beats a draw beats a loss), so a match
	// it won in one seat is not also one it lost. Version, Outcome and
	// Rank need Bot.
	Bot     string
	Version string
	Outcome sim.Outcome
	Rank    int
	// Vs keeps the matches in which a bot of this name met Bot as the
	// head-to-head board counts a meeting: another version, on another
	// team; VsVersion narrows it to one version. Vs needs Bot, and
	// VsVersion needs Vs.
	Vs        string
	VsVersion string
	// Trouble keeps the matches in which some seat had trouble of this
	// kind (TroubleKinds); with Bot, a seat of that bot (and Version).
	Trouble TroubleKind
	// Limit is the page size: DefaultLimit when 0, at most MaxLimit.
	Limit  int
	Offset int
	// Before, when not 0, keeps only the matches stored before the match
	// of that Seq: a page's MatchList.Next. The page starts there, Offset
	// counting from it, and its cost does not grow with how deep it is.
	Before int64
}

// check reports a filter whose fields do not go together or hold values
// no match can have.
func (f MatchFilter) check() error {
	switch {
	case f.Bot == "" && (f.Version != "" || f.Outcome != "" || f.Rank != 0):
		return invalidf("a version, outcome or rank filter needs a bot")
	case f.Bot == "" && f.Vs != "":
		return invalidf("a vs filter needs a bot")
	case f.Vs == "" && f.VsVersion != "":
		return invalidf("a vs version filter needs a vs bot")
	case f.Rank < 0:
		return invalidf("rank %d: want 1 or more", f.Rank)
	case f.Before < 0:
		return invalidf("before %d: want a match's number, 1 or more", f.Before)
	}
	switch f.Outcome {
	case "", sim.Win, sim.Draw, sim.Loss:
	default:
		return invalidf("outcome %q: want win, loss or draw", f.Outcome)
	}
	if _, ok := troubleConds[f.Trouble]; f.Trouble != "" && !ok {
		return invalidf("trouble %q: want one of %s", f.Trouble, joinKinds())
	}
	return nil
}

// where turns a filter without a bot into SQL conditions on matches m
// (a bot's filters go through botSeqs). Only constant SQL text is added;
// every value is a parameter.
func (f MatchFilter) where() (string, []any) {
	var conds []string
	var args []any
	if f.Game != "" {
		conds = append(conds, "m.game = ?")
		args = append(args, f.Game)
	}
	if f.Ruleset != "" {
		conds = append(conds, "m.ruleset = ?")
		args = append(args, f.Ruleset)
	}
	if f.Trouble != "" {
		conds = append(conds, "m.seq IN (SELECT s.match_seq FROM seat_trouble s WHERE "+troubleConds[f.Trouble]+")")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// MatchList is a page of the matches a filter selects and how many it
// selects: all of them when Exact, else at least Total (a bot's filter
// that the kept records cannot count stops counting at CountBound, see
// botSeqs).
type MatchList struct {
	Matches []MatchSummary
	Total   int
	Exact   bool
	// Bot and Vs are the filter's bot names as stored: a name typed in
	// another case selects the bot stored under it (botNameOf).
	Bot, Vs string
	// Next is the Before of the page after this one, 0 when no match
	// follows.
	Next int64
}

// Matches returns one page of the matches selected by f, newest first, and
// how many matches f selects in all, or at least (see MatchList).
func (db *DB) Matches(ctx context.Context, f MatchFilter) ([]MatchSummary, int, error) {
	l, err := db.MatchList(ctx, f)
	return l.Matches, l.Total, err
}

// MatchList returns one page of the matches selected by f, newest first,
// and how many f selects. Its cost does not grow with the matches stored:
// without a bot the total is a sum of kept counts (or of the few seats
// with trouble), and with one the page and the count read the newest
// entries of the bot's versions (botSeqs).
func (db *DB) MatchList(ctx context.Context, f MatchFilter) (MatchList, error) {
	if err := f.check(); err != nil {
		return MatchList{}, err
	}
	if f.Limit < 0 || f.Offset < 0 {
		return MatchList{}, invalidf("limit %d, offset %d: want values of 0 or more", f.Limit, f.Offset)
	}
	limit := f.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)

	tx, err := db.readTx(ctx)
	if err != nil {
		return MatchList{}, err
	}
	defer tx.Rollback()
	if f.Bot, err = botNameOf(ctx, tx, f.Game, f.Bot); err != nil {
		return MatchList{}, err
	}
	if f.Vs, err = botNameOf(ctx, tx, f.Game, f.Vs); err != nil {
		return MatchList{}, err
	}
	var l MatchList
	if f.Bot != "" {
		l, err = botMatchList(ctx, tx, f, limit, true)
	} else {
		l, err = matchList(ctx, tx, f, limit)
	}
	if err != nil {
		return MatchList{}, err
	}
	if err := findPlayers(ctx, tx, l.Matches); err != nil {
		return MatchList{}, err
	}
	l.Bot, l.Vs = f.Bot, f.Vs
	return l, nil
}

// matchList is MatchList of a filter without a bot.
func matchList(ctx context.Context, tx *sql.Tx, f MatchFilter, limit int) (MatchList, error) {
	where, args := f.where()
	// Without trouble the filter names only columns game_matches has
	// too, so the total is a sum over its few rows instead of a count of
	// every selected match.
	count := "SELECT count(*) FROM matches m"
	if f.Trouble == "" {
		count = "SELECT coalesce(sum(m.matches), 0) FROM game_matches m"
	}
	l := MatchList{Exact: true}
	if err := tx.QueryRowContext(ctx, count+where, args...).Scan(&l.Total); err != nil {
		return l, fmt.Errorf("count matches: %w", err)
	}
	if f.Before != 0 {
		// The cursor is a range of the index the filter walks.
		if where == "" {
			where = " WHERE m.seq < ?"
		} else {
			where += " AND m.seq < ?"
		}
		args = append(args, f.Before)
	}
	// One match past the page tells whether another follows.
	var err error
	l.Matches, err = listMatches(ctx, tx, matchSelect+where+" ORDER BY m.seq DESC LIMIT ? OFFSET ?",
		append(args, limit+1, f.Offset)...)
	if err != nil {
		return l, fmt.Errorf("list matches: %w", err)
	}
	if len(l.Matches) > limit {
		l.Matches = l.Matches[:limit]
		l.Next = l.Matches[limit-1].Seq
	}
	return l, nil
}

// botMatchList is MatchList of a filter with a bot, counted when count is
// true (else its Total is meaningless).
func botMatchList(ctx context.Context, tx *sql.Tx, f MatchFilter, limit int, count bool) (MatchList, error) {
	ids, err := botIDs(ctx, tx, f.Game, f.Bot, f.Version)
	if err != nil {
		return MatchList{}, err
	}
	l := MatchList{Matches: []MatchSummary{}, Exact: true}
	if len(ids) == 0 {
		return l, nil
	}
	total, counted := 0, !count
	if count {
		if total, counted, err = keptTotal(ctx, tx, f, ids); err != nil {
			return MatchList{}, err
		}
	}
	bound := f.Offset + limit + 1
	if !counted && f.Before == 0 {
		bound = max(bound, countBound)
	}
	seqs, complete, err := botSeqs(ctx, tx, f, ids, bound)
	if err != nil {
		return MatchList{}, err
	}
	switch {
	case counted:
		l.Total = total
	case f.Before != 0:
		// A later page counts from the top, as its first page did.
		top := f
		top.Before, top.Offset = 0, 0
		if l.Total, l.Exact, err = countSeqs(ctx, tx, top, ids); err != nil {
			return MatchList{}, err
		}
	case complete:
		l.Total = len(seqs)
	default:
		l.Total, l.Exact = bound, false
	}
	if f.Offset >= len(seqs) {
		return l, nil
	}
	page := seqs[f.Offset:min(len(seqs), f.Offset+limit)]
	if len(seqs) > f.Offset+limit {
		l.Next = page[len(page)-1]
	}
	l.Matches, err = matchesBySeq(ctx, tx, page)
	if err != nil {
		return MatchList{}, fmt.Errorf("list matches: %w", err)
	}
	return l, nil
}

// countSeqs counts the matches f selects among those of the bot versions
// ids up to countBound: exact below it, else countBound and not exact.
func countSeqs(ctx context.Context, tx *sql.Tx, f MatchFilter, ids []int64) (int, bool, error) {
	seqs, complete, err := botSeqs(ctx, tx, f, ids, countBound)
	if complete {
		return len(seqs), true, err
	}
	return countBound, false, err
}

// Match returns the match with the given id, or with the only id that
// starts with it when it is a prefix of at least MinPrefix hex digits (the
// dashboard shows short ids). A prefix shared by several matches is
// ErrAmbiguous.
func (db *DB) Match(ctx context.Context, id string) (MatchSummary, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return MatchSummary{}, err
	}
	defer tx.Rollback()
	full, err := resolveID(ctx, tx, id)
	if err != nil {
		return MatchSummary{}, err
	}
	m, err := scanMatch(tx.QueryRowContext(ctx, matchSelect+" WHERE m.id = ?", full))
	if err != nil {
		return MatchSummary{}, fmt.Errorf("match %s: %w", full, err)
	}
	ms := []MatchSummary{m}
	if err := findPlayers(ctx, tx, ms); err != nil {
		return MatchSummary{}, err
	}
	return ms[0], nil
}

// HasMatch reports whether the match with the full id id is stored. A
// match can be deleted, by this process or another writing the file, so
// what is kept of one in memory is checked with this first.
func (db *DB) HasMatch(ctx context.Context, id string) (bool, error) {
	var has bool
	if err := db.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM matches WHERE id = ?)`, id).Scan(&has); err != nil {
		return false, fmt.Errorf("match %s: %w", id, err)
	}
	return has, nil
}

// listMatches runs a query built on matchSelect.
func listMatches(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]MatchSummary, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ms := []MatchSummary{}
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, rows.Err()
}

// resolveID returns the full id of the match that id names, in full or by
// a unique prefix.
func resolveID(ctx context.Context, tx *sql.Tx, id string) (string, error) {
	id = strings.ToLower(id)
	if len(id) < MinPrefix || !IsIDPrefix(id) {
		return "", invalidf("match id %q: want %d to %d hex digits", id, MinPrefix, idLen)
	}
	// Every id with this prefix sorts between the prefix and the prefix
	// followed by 'g', the character after the hex digits, so the primary
	// key index answers the range directly.
	rows, err := tx.QueryContext(ctx, `SELECT id FROM matches WHERE id >= ? AND id < ? ORDER BY id LIMIT 2`, id, id+"g")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var full string
		if err := rows.Scan(&full); err != nil {
			return "", err
		}
		found = append(found, full)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	switch len(found) {
	case 0:
		return "", notFoundf("match %s not found", id)
	case 1:
		return found[0], nil
	}
	return "", &Error{Kind: ErrAmbiguous, Msg: fmt.Sprintf("match id %s is ambiguous: give more digits", id)}
}

// IsIDPrefix reports whether s can begin a match id: 1 to 64 lower-case
// hex digits.
func IsIDPrefix(s string) bool {
	if len(s) == 0 || len(s) > idLen {
		return false
	}
	for i := range len(s) {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// matchSelect selects what scanMatch reads, from matches m.
const matchSelect = `
	SELECT m.id, m.seq, m.game, m.ruleset, r.seed, r.config, m.turns, m.winner, m.reason,
		m.engine_version, m.regen_ms, m.created_at
	FROM matches m JOIN replays r ON r.id = m.id`

func scanMatch(row interface{ Scan(...any) error }) (MatchSummary, error) {
	var (
		m       MatchSummary
		seed    int64
		config  string
		winner  sql.NullInt64
		regenMS float64
		created int64
	)
	err := row.Scan(&m.ID, &m.Seq, &m.Game, &m.Ruleset, &seed, &config, &m.Turns, &winner, &m.Reason,
		&m.EngineVersion, &regenMS, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return m, notFoundf("match not found")
	}
	if err != nil {
		return m, err
	}
	m.Seed = uint64(seed)
	m.Config = json.RawMessage(config)
	m.Winner = -1
	if winner.Valid {
		m.Winner = int(winner.Int64)
	}
	m.RegenTime = time.Duration(regenMS * float64(time.Millisecond))
	m.CreatedAt = time.UnixMilli(created).UTC()
	return m, nil
}

// findPlayers fills in the players of ms and their trouble, with a query
// each.
func findPlayers(ctx context.Context, tx *sql.Tx, ms []MatchSummary) error {
	if len(ms) == 0 {
		return nil
	}
	index := make(map[string]int, len(ms))
	args := make([]any, len(ms))
	for i, m := range ms {
		index[m.ID] = i
		args[i] = m.ID
	}
	// One placeholder per match: the count varies, the text stays constant.
	rows, err := tx.QueryContext(ctx, `
		SELECT m.id, mp.seat, b.name, b.version, mp.score, mp.rank, mp.outcome, mp.team
		FROM matches m
		JOIN match_players mp ON mp.match_seq = m.seq
		JOIN bots b ON b.id = mp.bot_id
		WHERE m.id IN (?`+strings.Repeat(", ?", len(ms)-1)+`)
		ORDER BY m.seq, mp.seat`, args...)
	if err != nil {
		return fmt.Errorf("players: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id      string
			p       PlayerSummary
			outcome string
		)
		if err := rows.Scan(&id, &p.Seat, &p.Name, &p.Version, &p.Score, &p.Rank, &outcome, &p.Team); err != nil {
			return fmt.Errorf("players: %w", err)
		}
		p.Outcome = sim.Outcome(outcome)
		m := &ms[index[id]]
		m.Players = append(m.Players, p)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("players: %w", err)
	}
	return findTroubles(ctx, tx, ms, index, args)
}

// CountMatches returns the number of stored matches, from the counts kept
// on insert (game_matches).
func (db *DB) CountMatches(ctx context.Context) (int, error) {
	var n int
	if err := db.read.QueryRowContext(ctx, `SELECT coalesce(sum(matches), 0) FROM game_matches`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count matches: %w", err)
	}
	return n, nil
}

// GameCount is the number of stored matches of one game.
type GameCount struct {
	Game    string
	Matches int
}

// Games returns how many matches each game has, by game name, from the
// counts kept on insert (game_matches). Games with no stored match are not
// listed.
func (db *DB) Games(ctx context.Context) ([]GameCount, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT game, sum(matches) FROM game_matches GROUP BY game ORDER BY game`)
	if err != nil {
		return nil, fmt.Errorf("count games: %w", err)
	}
	defer rows.Close()
	gs := []GameCount{}
	for rows.Next() {
		var g GameCount
		if err := rows.Scan(&g.Game, &g.Matches); err != nil {
			return nil, fmt.Errorf("count games: %w", err)
		}
		gs = append(gs, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count games: %w", err)
	}
	return gs, nil
}

// Replay returns the binary replay (.rpl bytes) with the given full id.
func (db *DB) Replay(ctx context.Context, id string) ([]byte, error) {
	var data []byte
	err := db.read.QueryRowContext(ctx, `SELECT encoded FROM replays WHERE id = ?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFoundf("replay %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", id, err)
	}
	return data, nil
}

// UnmatchedReplays returns the ids of the stored replays that have no
// match, in the order they were uploaded: the replays whose matches a
// schema upgrade dropped (see upgrades.go), to regenerate.
func (db *DB) UnmatchedReplays(ctx context.Context) ([]string, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT id FROM replays WHERE id NOT IN (SELECT id FROM matches) ORDER BY uploaded_at, id`)
	if err != nil {
		return nil, fmt.Errorf("unmatched replays: %w", err)
	}
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("unmatched replays: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("unmatched replays: %w", err)
	}
	return ids, nil
}
