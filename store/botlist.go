package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// CountBound is how far a bot's filtered match list counts when the kept
// records cannot give its total (a rank, a vs bot, trouble, or an outcome
// or ruleset over several versions): it says "CountBound or more" instead
// of reading every match the bot played.
const CountBound = 200

// countBound is CountBound, which tests lower.
var countBound = CountBound

// botIDs returns the ids of the bot versions of a name, in one game and of
// one version when they are not empty.
func botIDs(ctx context.Context, tx *sql.Tx, game, name, version string) ([]int64, error) {
	ids, err := int64s(tx.QueryContext(ctx, `SELECT id FROM bots WHERE name = ? AND ? IN ('', game) AND ? IN ('', version)`,
		name, game, version))
	if err != nil {
		return nil, fmt.Errorf("bot %s: %w", name, err)
	}
	return ids, nil
}

// keptTotal returns how many matches a bot's filter selects when the
// kept records say it (counted true): bot_matches counts a name's matches
// in each game, and bot_records one version's under each ruleset, by
// outcome. Versions of one name in one match would be counted twice by
// the records, so those serve one version at a time, or one per game.
func keptTotal(ctx context.Context, tx *sql.Tx, f MatchFilter, ids []int64) (total int, counted bool, err error) {
	if f.Rank != 0 || f.Vs != "" || f.Trouble != "" {
		return 0, false, nil
	}
	if f.Version == "" && f.Ruleset == "" && f.Outcome == "" {
		err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(matches), 0) FROM bot_matches WHERE name = ? AND ? IN ('', game)`,
			f.Bot, f.Game).Scan(&total)
		return total, err == nil, err
	}
	if f.Version == "" && len(ids) > 1 {
		return 0, false, nil
	}
	column := map[sim.Outcome]string{"": "matches", sim.Win: "wins", sim.Draw: "draws", sim.Loss: "losses"}[f.Outcome]
	args := []any{f.Ruleset}
	for _, id := range ids {
		args = append(args, id)
	}
	err = tx.QueryRowContext(ctx, `SELECT coalesce(sum(`+column+`), 0) FROM bot_records
		WHERE ? IN ('', ruleset) AND bot_id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...).Scan(&total)
	if err != nil {
		return 0, false, fmt.Errorf("count matches: %w", err)
	}
	return total, true, nil
}

// entrySeqs selects the seqs of one bot version's matches that a filter
// keeps, newest first, from the version's entries (a match once however
// many seats it held, with its best seat's result), given the version's
// id, the filter's values (entryArgs) and a limit; vs is how many ids the
// Vs bot has. Every condition looks up the entry's own match, so the
// query walks the end of the version's index range and stops at the
// limit, whatever the version played. match_entries_by_bot holds every
// column of an entry the conditions read (team, rank, outcome), so the
// walk reads no row of the table (TestBotListPlanCovered).
func (f MatchFilter) entrySeqs(vs int) string {
	q := "SELECT e.match_seq FROM match_entries e WHERE e.bot_id = ?"
	if f.Outcome != "" {
		q += " AND e.outcome = ?"
	}
	if f.Rank != 0 {
		q += " AND e.rank = ?"
	}
	if f.Ruleset != "" {
		q += " AND EXISTS (SELECT 1 FROM matches m WHERE m.seq = e.match_seq AND m.ruleset = ?)"
	}
	if f.Vs != "" {
		// A meeting as the head-to-head board counts one (pair_records):
		// another version, on another team: a lookup by the key of the
		// match's entries for each of the Vs bot's ids. Counted rather
		// than EXISTS: PostgreSQL turns an EXISTS into a join, which it
		// plans as a hash of every entry of both bots whenever it
		// guesses fewer meetings than the limit (it cannot know that
		// both play one game), 355 ms at 100 k matches; a count stays a
		// lookup per entry of the walk.
		q += ` AND (SELECT count(*) FROM match_entries q
			WHERE q.match_seq = e.match_seq AND q.bot_id IN (?` + strings.Repeat(", ?", vs-1) + `)
			AND q.bot_id <> e.bot_id AND q.team <> e.team) > 0`
	}
	if f.Trouble != "" {
		// The version's own seats: a bot page's link lists the matches
		// in which that bot crashed.
		q += " AND EXISTS (SELECT 1 FROM seat_trouble s WHERE s.match_seq = e.match_seq AND s.bot_id = e.bot_id AND " +
			troubleConds[f.Trouble] + ")"
	}
	if f.Before != 0 {
		q += " AND e.match_seq < ?"
	}
	return q + " ORDER BY e.match_seq DESC LIMIT ?"
}

// entryArgs returns the arguments of entrySeqs for the version id, the
// Vs bot's ids and limit.
func (f MatchFilter) entryArgs(id int64, vs []int64, limit int) []any {
	args := []any{id}
	if f.Outcome != "" {
		args = append(args, string(f.Outcome))
	}
	if f.Rank != 0 {
		args = append(args, f.Rank)
	}
	if f.Ruleset != "" {
		args = append(args, f.Ruleset)
	}
	for _, v := range vs {
		args = append(args, v)
	}
	if f.Before != 0 {
		args = append(args, f.Before)
	}
	return append(args, limit)
}

// botSeqs returns the seqs of the newest matches f selects among those of
// the bot versions ids, newest first: at least bound of them when there
// are that many, else all of them (complete true). It reads at most bound
// entries of each version and merges them; past the oldest entry read of
// a version that had more, the others' could not be told from the ones
// it skipped, so the list stops there.
func botSeqs(ctx context.Context, tx *sql.Tx, f MatchFilter, ids []int64, bound int) (seqs []int64, complete bool, err error) {
	var vs []int64
	if f.Vs != "" {
		if vs, err = botIDs(ctx, tx, f.Game, f.Vs, f.VsVersion); err != nil {
			return nil, false, err
		}
		if len(vs) == 0 {
			return nil, true, nil // no such bot: it met nobody
		}
	}
	stmt, err := tx.PrepareContext(ctx, f.entrySeqs(len(vs)))
	if err != nil {
		return nil, false, fmt.Errorf("bot matches: %w", err)
	}
	defer stmt.Close()
	complete = true
	var oldest int64 // the oldest seq every version's read reaches
	for _, id := range ids {
		s, err := int64s(stmt.QueryContext(ctx, f.entryArgs(id, vs, bound)...))
		if err != nil {
			return nil, false, fmt.Errorf("bot matches: %w", err)
		}
		if len(s) == bound {
			complete = false
			oldest = max(oldest, s[len(s)-1])
		}
		seqs = append(seqs, s...)
	}
	slices.Sort(seqs)
	seqs = slices.Compact(seqs)
	slices.Reverse(seqs)
	if i := slices.IndexFunc(seqs, func(s int64) bool { return s < oldest }); !complete && i >= 0 {
		seqs = seqs[:i]
	}
	return seqs, complete, nil
}

// matchesBySeq returns the matches of seqs, in that order (newest first).
func matchesBySeq(ctx context.Context, tx *sql.Tx, seqs []int64) ([]MatchSummary, error) {
	if len(seqs) == 0 {
		return []MatchSummary{}, nil
	}
	args := make([]any, len(seqs))
	for i, seq := range seqs {
		args[i] = seq
	}
	// One placeholder per match: the count varies, the text stays constant.
	return listMatches(ctx, tx, matchSelect+" WHERE m.seq IN (?"+strings.Repeat(", ?", len(seqs)-1)+") ORDER BY m.seq DESC", args...)
}
