package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The page sizes of Events.
const (
	DefaultEventLimit = 1000
	MaxEventLimit     = 10000
)

// EventQuery selects a page of a match's events.
type EventQuery struct {
	From, To int // turns, inclusive
	// After is the Next of the previous page; empty for the first page.
	After string
	// Limit is the page size: DefaultEventLimit when 0, at most
	// MaxEventLimit.
	Limit int
}

// EventPage is one page of a match's events.
type EventPage struct {
	Events []TurnEvent
	// Next is the EventQuery.After of the following page; empty when this
	// page is the last.
	Next string
}

// Events returns a page of the events of turns q.From..q.To (inclusive) of
// a match, in the order the game emitted them. Pages follow the key of the
// events table (turn, then position in the match), so a later page costs
// the same as the first however far into a long match it is; an offset
// would make SQLite step over every earlier event.
func (db *DB) Events(ctx context.Context, matchID string, q EventQuery) (EventPage, error) {
	var page EventPage
	if q.From > q.To {
		return page, invalidf("events from turn %d to %d: empty range", q.From, q.To)
	}
	limit := cmp.Or(q.Limit, DefaultEventLimit)
	if limit < 0 || limit > MaxEventLimit {
		return page, invalidf("events limit %d: want 1 to %d", limit, MaxEventLimit)
	}
	after, err := parseEventCursor(q.After)
	if err != nil {
		return page, err
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return page, err
	}
	defer tx.Rollback()
	// One row past the page tells whether another page follows. The turn
	// range starts at the cursor's turn so that SQLite seeks there in the
	// key; it does not narrow a range by a row-value comparison alone.
	rows, err := tx.QueryContext(ctx, `
		SELECT `+eventColumnList+` FROM events
		WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) AND turn BETWEEN ? AND ?
			AND (turn, pos) > (?, ?)
		ORDER BY turn, pos LIMIT ?`, matchID, max(q.From, after.turn), q.To, after.turn, after.pos, limit+1)
	if err != nil {
		return page, fmt.Errorf("events of %s: %w", matchID, err)
	}
	defer rows.Close()
	page.Events = []TurnEvent{}
	var last eventCursor
	for rows.Next() {
		if len(page.Events) == limit {
			page.Next = last.String()
			break
		}
		e, pos, err := scanEvent(rows)
		if err != nil {
			return page, fmt.Errorf("events of %s: %w", matchID, err)
		}
		last = eventCursor{e.Turn, pos}
		page.Events = append(page.Events, e)
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("events of %s: %w", matchID, err)
	}
	if len(page.Events) == 0 {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return page, err
		}
	}
	return page, nil
}

// eventColumnList are the columns scanEvent reads, in its order.
var eventColumnList = strings.Join(eventColumns, ", ")

// scanEvent reads one row of eventColumnList: the event and its position.
func scanEvent(rows *sql.Rows) (e TurnEvent, pos int, err error) {
	err = rows.Scan(&e.Turn, &pos, &e.Seat, &e.Unit, &e.Kind, &e.Target, &e.Amount, &e.X, &e.Y, &e.Detail)
	return e, pos, err
}

// eventCursor is the key of the last event of a page: its turn and its
// position in the match. The start of a match is (-1, -1), before every
// event.
type eventCursor struct{ turn, pos int }

// String writes c as "TURN.POS".
func (c eventCursor) String() string { return strconv.Itoa(c.turn) + "." + strconv.Itoa(c.pos) }

// parseEventCursor reads EventQuery.After; empty is the start.
func parseEventCursor(s string) (eventCursor, error) {
	c := eventCursor{turn: -1, pos: -1}
	if s == "" {
		return c, nil
	}
	t, p, ok := strings.Cut(s, ".")
	var err1, err2 error
	c.turn, err1 = strconv.Atoi(t)
	c.pos, err2 = strconv.Atoi(p)
	if !ok || err1 != nil || err2 != nil || c.turn < 0 || c.pos < 0 {
		return c, invalidf("events cursor %q: want the next of an earlier page", s)
	}
	return c, nil
}

// EventCounts returns how many events of each kind a match has.
func (db *DB) EventCounts(ctx context.Context, matchID string) (map[string]int, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT kind, count(*) FROM events
		WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) GROUP BY kind`, matchID)
	if err != nil {
		return nil, fmt.Errorf("event counts of %s: %w", matchID, err)
	}
	defer rows.Close()
	counts := map[string]int{}
	for rows.Next() {
		var (
			kind string
			n    int
		)
		if err := rows.Scan(&kind, &n); err != nil {
			return nil, fmt.Errorf("event counts of %s: %w", matchID, err)
		}
		counts[kind] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("event counts of %s: %w", matchID, err)
	}
	if len(counts) == 0 {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// EventsOfKinds returns the first limit events of the given kinds of a
// match, in the order the game emitted them: the marks of its charts.
func (db *DB) EventsOfKinds(ctx context.Context, matchID string, kinds []string, limit int) ([]TurnEvent, error) {
	evs := []TurnEvent{}
	if len(kinds) == 0 || limit <= 0 {
		return evs, nil
	}
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	args := []any{matchID}
	for _, k := range kinds {
		args = append(args, k)
	}
	args = append(args, limit)
	rows, err := tx.QueryContext(ctx, `
		SELECT `+eventColumnList+` FROM events
		WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) AND kind IN (?`+strings.Repeat(", ?", len(kinds)-1)+`)
		ORDER BY turn, pos LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("events of %s: %w", matchID, err)
	}
	defer rows.Close()
	for rows.Next() {
		e, _, err := scanEvent(rows)
		if err != nil {
			return nil, fmt.Errorf("events of %s: %w", matchID, err)
		}
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("events of %s: %w", matchID, err)
	}
	return evs, nil
}

// checkMatch returns ErrNotFound unless the match is stored. Queries call it
// when they find no rows, to tell an empty answer from a wrong id.
func checkMatch(ctx context.Context, tx *sql.Tx, matchID string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM matches WHERE id = ?`, matchID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return notFoundf("match %s not found", matchID)
	}
	return err
}
