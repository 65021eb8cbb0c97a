package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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
// a match, in the order the game emitted them. Pages follow the events'
// key (turn, then position in the turn) rather than an offset, so a page
// stays the same while its match is read; a match's events are one blob
// (packEvents), decoded whole for any page.
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
	evs, err := db.matchEvents(ctx, matchID)
	if err != nil {
		return page, fmt.Errorf("events of %s: %w", matchID, err)
	}
	page.Events = []TurnEvent{}
	var last eventCursor
	for _, e := range evs {
		if e.Turn < q.From || e.Turn > q.To || !(eventCursor{e.Turn, e.pos}).after(after) {
			continue
		}
		if len(page.Events) == limit {
			page.Next = last.String()
			break
		}
		last = eventCursor{e.Turn, e.pos}
		page.Events = append(page.Events, e.TurnEvent)
	}
	return page, nil
}

// matchEvents reads and decodes the events of a match in their order,
// or finds them decoded already (db.events) once the match is found still
// stored; a match that is not stored is ErrNotFound. The events returned
// must not be modified.
func (db *DB) matchEvents(ctx context.Context, matchID string) ([]packedEvent, error) {
	if evs, ok := db.events.get(matchID); ok {
		var one int
		err := db.read.QueryRowContext(ctx, `SELECT 1 FROM matches WHERE id = ?`, matchID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, notFoundf("match %s not found", matchID)
		}
		return evs, err
	}
	var data []byte
	err := db.read.QueryRowContext(ctx, `
		SELECT e.data FROM matches m LEFT JOIN match_events e ON e.match_seq = m.seq WHERE m.id = ?`, matchID).Scan(&data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, notFoundf("match %s not found", matchID)
	case err != nil:
		return nil, err
	}
	var evs []packedEvent
	if data != nil {
		if evs, err = unpackEvents(data); err != nil {
			return nil, err
		}
	}
	db.events.put(matchID, evs)
	return evs, nil
}

// eventCursor is the key of the last event of a page: its turn and its
// position in the match. The start of a match is (-1, -1), before every
// event.
type eventCursor struct{ turn, pos int }

// after reports whether c comes after d.
func (c eventCursor) after(d eventCursor) bool {
	return c.turn > d.turn || c.turn == d.turn && c.pos > d.pos
}

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
	evs, err := db.matchEvents(ctx, matchID)
	if err != nil {
		return nil, fmt.Errorf("event counts of %s: %w", matchID, err)
	}
	counts := map[string]int{}
	for _, e := range evs {
		counts[e.Kind]++
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
	all, err := db.matchEvents(ctx, matchID)
	if err != nil {
		return nil, fmt.Errorf("events of %s: %w", matchID, err)
	}
	for _, e := range all {
		if len(evs) == limit {
			break
		}
		if slices.Contains(kinds, e.Kind) {
			evs = append(evs, e.TurnEvent)
		}
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
