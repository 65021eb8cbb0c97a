package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/replaylab/replaylab/sim"
)

// Ingest writes a regenerated match: its replay, bots, players, per-turn
// numbers (its lines) and events, in one transaction, so a failure at any step
// leaves the database as it was. A match that is already stored is left
// untouched and created is false; importing the same replay twice is not an
// error.
func (db *DB) Ingest(ctx context.Context, rec *Record) (created bool, err error) {
	n, err := db.IngestMany(ctx, []*Record{rec})
	return n == 1, err
}

// IngestMany writes matches as Ingest does, all in one transaction: a bulk
// load pays for one commit instead of one per match. Matches already stored
// are skipped; created counts the others. A failure writes none of them;
// a write lock held elsewhere beyond the busy timeout is an ErrBusy.
func (db *DB) IngestMany(ctx context.Context, recs []*Record) (created int, err error) {
	defer func() { err = busyIf(err) }()
	for _, rec := range recs {
		if err := rec.check(); err != nil {
			return 0, err
		}
	}
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return 0, fmt.Errorf("ingest: %w", err)
	}
	defer tx.Rollback()
	now := time.Now()
	for _, rec := range recs {
		ok, err := db.ingest.ingest(ctx, tx, rec, now)
		if err != nil {
			return 0, fmt.Errorf("ingest %s: %w", rec.ID, err)
		}
		if ok {
			created++
		}
	}
	if created == 0 {
		return 0, nil
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("ingest: %w", err)
	}
	return created, nil
}

// OutputFate is what Upload did with a record's bot output.
type OutputFate int

const (
	// NoOutput: the record carried none.
	NoOutput OutputFate = iota
	// OutputStored: it is stored, with the new match or attached to the
	// stored match, which had none.
	OutputStored
	// OutputKept: the stored match has output already, which it keeps;
	// the record's was not stored.
	OutputKept
)

// Upload writes rec as Ingest does and, when its match is stored already,
// attaches rec's bot output to the match if the match has none: an upload
// of a replay with its output file completes a match stored without it.
// Both happen in one transaction, so a delete of the match at the same
// time finds it either whole or not at all.
func (db *DB) Upload(ctx context.Context, rec *Record) (created bool, output OutputFate, err error) {
	defer func() { err = busyIf(err) }()
	if err := rec.check(); err != nil {
		return false, NoOutput, err
	}
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return false, NoOutput, fmt.Errorf("ingest: %w", err)
	}
	defer tx.Rollback()
	created, err = db.ingest.ingest(ctx, tx, rec, time.Now())
	if err != nil {
		return false, NoOutput, fmt.Errorf("ingest %s: %w", rec.ID, err)
	}
	attached := created && len(rec.Output) > 0
	if !created {
		if attached, err = attachOutput(ctx, tx, rec.ID, rec.Output); err != nil {
			return false, NoOutput, err
		}
	}
	switch {
	case len(rec.Output) == 0:
		output = NoOutput
	case attached:
		output = OutputStored
	default:
		output = OutputKept
	}
	if !created && !attached {
		return false, output, nil
	}
	if err := tx.Commit(); err != nil {
		return false, NoOutput, fmt.Errorf("ingest: %w", err)
	}
	return created, output, nil
}

// check rejects a Record whose parts disagree with each other, before any
// of it is written. What the schema enforces anyway (key uniqueness, value
// ranges) is left to the schema.
func (rec *Record) check() error {
	if len(rec.ID) != idLen || !IsIDPrefix(rec.ID) {
		return invalidf("record id %q is not a %d-digit lower-case hex SHA-256", rec.ID, idLen)
	}
	if rec.Game == "" {
		return invalidf("record %s names no game", rec.ID)
	}
	if len(rec.Config) > 0 && !json.Valid(rec.Config) {
		return invalidf("record %s: config is not valid JSON", rec.ID)
	}
	if len(rec.Players) == 0 || len(rec.Result.Players) != len(rec.Players) {
		return invalidf("record %s has %d players and %d results", rec.ID, len(rec.Players), len(rec.Result.Players))
	}
	if rec.Fingerprints != nil && len(rec.Fingerprints) != len(rec.Players) {
		return invalidf("record %s has %d players and %d fingerprints", rec.ID, len(rec.Players), len(rec.Fingerprints))
	}
	for seat, p := range rec.Players {
		if p.Name == "" {
			return invalidf("record %s: %s has no bot name", rec.ID, sim.SeatName(seat))
		}
		switch o := rec.Result.Players[seat].Outcome; o {
		case sim.Win, sim.Loss, sim.Draw:
		default:
			return invalidf("record %s: %s has outcome %q, want win, loss or draw", rec.ID, sim.SeatName(seat), o)
		}
	}
	if w := rec.Result.Winner; w < -1 || w >= len(rec.Players) {
		return invalidf("record %s: winner seat index %d out of range", rec.ID, w)
	}
	if rec.Turns < 0 {
		return invalidf("record %s: %d turns", rec.ID, rec.Turns)
	}
	for _, l := range rec.Lines {
		if len(l.Values) != rec.Turns+1 || l.Metric < Alive || l.Seat < 0 || l.Unit < sim.NoUnit {
			return invalidf("record %s: line of metric %d, seat %d, unit %d holds %d values, want one per turn 0..%d",
				rec.ID, l.Metric, l.Seat, l.Unit, len(l.Values), rec.Turns)
		}
	}
	for i, e := range rec.Events {
		if e.Turn < 0 || e.Seat < -1 || e.Unit < sim.NoUnit || e.Kind == "" || e.Target < -1 {
			return invalidf("record %s: event %d (turn %d, seat %d, unit %d, kind %q, target %d) is out of range",
				rec.ID, i, e.Turn, e.Seat, e.Unit, e.Kind, e.Target)
		}
	}
	return rec.checkOutput()
}

// ingestStmts are the statements ingest runs, prepared once on the writer
// connection when the database opens. Preparing compiles a statement with
// the triggers it fires (the aggregates' of schema.sql), which costs as
// much as running it for a match of a few turns.
type ingestStmts struct {
	exists, replay, match, parent, player, entry, findBot, addBot, trouble, lines, events *sql.Stmt
}

// prepareIngest prepares the statements of ingest on the writer pool,
// which must be idle: it has one connection.
func prepareIngest(ctx context.Context, w *sql.DB) (*ingestStmts, error) {
	st := &ingestStmts{}
	for _, p := range []struct {
		s     **sql.Stmt
		query string
	}{
		{&st.exists, `SELECT 1 FROM matches WHERE id = ?`},
		{&st.replay, `
			INSERT INTO replays (id, game, ruleset, seed, config, encoded, uploaded_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO NOTHING`},
		{&st.match, `
			INSERT INTO matches (id, game, ruleset, turns, winner, reason, engine_version, regen_ms, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			RETURNING seq`},
		{&st.parent, `INSERT INTO match_parents (match_seq, parent, turn) VALUES (?, ?, ?)`},
		{&st.player, `
			INSERT INTO match_players (match_seq, seat, bot_id, score, rank, outcome, team, fingerprint)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`},
		{&st.entry, `
			INSERT INTO match_entries (match_seq, bot_id, seat, seats, team, score, rank, outcome, seed, ruleset)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&st.findBot, `SELECT id FROM bots WHERE game = ? AND name = ? AND version = ?`},
		{&st.addBot, `INSERT INTO bots (game, name, version) VALUES (?, ?, ?) RETURNING id`},
		{&st.trouble, `
			INSERT INTO seat_trouble (match_seq, seat, bot_id, crash_turn, timeouts, first_timeout,
				invalid, first_invalid, oversize, first_oversize)
			VALUES (?1, ?2, (SELECT bot_id FROM match_players WHERE match_seq = ?1 AND seat = ?2), ?3, ?4, ?5, ?6, ?7, ?8, ?9)`},
		{&st.lines, `INSERT INTO match_lines (match_seq, data) VALUES (?, ?)`},
		{&st.events, `INSERT INTO match_events (match_seq, data) VALUES (?, ?)`},
	} {
		var err error
		if *p.s, err = w.PrepareContext(ctx, p.query); err != nil {
			return nil, errors.Join(fmt.Errorf("prepare ingest: %w", err), st.close())
		}
	}
	return st, nil
}

// close closes the statements prepared so far.
func (st *ingestStmts) close() error {
	var errs []error
	for _, s := range []*sql.Stmt{st.exists, st.replay, st.match, st.parent, st.player, st.entry, st.findBot, st.addBot, st.trouble, st.lines, st.events} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	return errors.Join(errs...)
}

// ingest writes rec inside tx, or reports created=false and writes nothing
// when the match is already stored. The existence check comes first so a
// duplicate costs one lookup, not thousands of rejected rows; the writer's
// transactions are immediate, so no other writer can slip in between.
func (st *ingestStmts) ingest(ctx context.Context, tx *sql.Tx, rec *Record, now time.Time) (created bool, err error) {
	var one int
	err = inTx(ctx, tx, st.exists, func(s *sql.Stmt) error { return s.QueryRowContext(ctx, rec.ID).Scan(&one) })
	if err == nil {
		return false, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	if err := st.insertReplay(ctx, tx, rec, now); err != nil {
		return false, err
	}
	seq, err := st.insertMatch(ctx, tx, rec, now)
	if err != nil {
		return false, err
	}
	if err := st.insertPlayers(ctx, tx, rec, seq); err != nil {
		return false, err
	}
	if err := st.insertLines(ctx, tx, rec, seq); err != nil {
		return false, err
	}
	if err := st.insertEvents(ctx, tx, rec, seq); err != nil {
		return false, err
	}
	if err := st.insertTrouble(ctx, tx, rec, seq); err != nil {
		return false, err
	}
	if err := insertOutput(ctx, tx, seq, rec.Output); err != nil {
		return false, err
	}
	return true, nil
}

// inTx runs f with the prepared statement s bound to tx, and releases the
// binding afterwards.
func inTx(ctx context.Context, tx *sql.Tx, s *sql.Stmt, f func(*sql.Stmt) error) error {
	ts := tx.StmtContext(ctx, s)
	defer ts.Close()
	return f(ts)
}

// insertReplay stores the replay unless it is already there: a replay may
// be kept without its match, and the match is what Ingest adds.
func (st *ingestStmts) insertReplay(ctx context.Context, tx *sql.Tx, rec *Record, now time.Time) error {
	config := string(rec.Config)
	if config == "" {
		config = "{}"
	}
	err := inTx(ctx, tx, st.replay, func(s *sql.Stmt) error {
		_, err := s.ExecContext(ctx, rec.ID, rec.Game, rec.Ruleset, int64(rec.Seed), config, rec.Encoded, now.UnixMilli())
		return err
	})
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// insertMatch adds the match row and returns its seq, the key of the rows
// derived from it.
func (st *ingestStmts) insertMatch(ctx context.Context, tx *sql.Tx, rec *Record, now time.Time) (seq int64, err error) {
	var winner any // NULL unless a seat won
	if rec.Result.Winner >= 0 {
		winner = rec.Result.Winner
	}
	err = inTx(ctx, tx, st.match, func(s *sql.Stmt) error {
		return s.QueryRowContext(ctx, rec.ID, rec.Game, rec.Ruleset, rec.Turns, winner, rec.Result.Reason, rec.EngineVersion,
			float64(rec.RegenTime)/float64(time.Millisecond), now.UnixMilli()).Scan(&seq)
	})
	if err != nil {
		return 0, fmt.Errorf("match: %w", err)
	}
	if p := rec.Parent; p != nil {
		err := inTx(ctx, tx, st.parent, func(s *sql.Stmt) error {
			_, err := s.ExecContext(ctx, seq, p.ID, p.Turn)
			return err
		})
		if err != nil {
			return 0, fmt.Errorf("parent %s at turn %d: %w", p.ID, p.Turn, err)
		}
	}
	return seq, nil
}

// insertPlayers writes the seats of a match, then its entries
// (store.Entries): the entries' triggers count the match into every
// record once per bot version.
func (st *ingestStmts) insertPlayers(ctx context.Context, tx *sql.Tx, rec *Record, seq int64) error {
	bots := make([]int64, len(rec.Players))
	err := inTx(ctx, tx, st.player, func(s *sql.Stmt) error {
		for seat, p := range rec.Players {
			bot, err := st.upsertBot(ctx, tx, rec.Game, p)
			if err != nil {
				return fmt.Errorf("seat %d: bot: %w", seat, err)
			}
			bots[seat] = bot
			r := rec.Result.Players[seat]
			if _, err := s.ExecContext(ctx, seq, seat, bot, r.Score, r.Rank, string(r.Outcome), rec.Result.TeamOf(seat), rec.fingerprint(seat)); err != nil {
				return fmt.Errorf("seat %d: %w", seat, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return inTx(ctx, tx, st.entry, func(s *sql.Stmt) error {
		for _, e := range Entries(rec.seats()) {
			if _, err := s.ExecContext(ctx, seq, bots[e.Seat], e.Seat, e.Seats, e.Team, e.Score, e.Rank, string(e.Outcome), int64(rec.Seed), rec.Ruleset); err != nil {
				return fmt.Errorf("entry of seat %d: %w", e.Seat, err)
			}
		}
		return nil
	})
}

// fingerprint returns the fingerprint of a seat's code, "" when none.
func (rec *Record) fingerprint(seat int) string {
	if seat < len(rec.Fingerprints) {
		return rec.Fingerprints[seat]
	}
	return ""
}

// seats returns the seats of rec as a stored match lists them.
func (rec *Record) seats() []PlayerSummary {
	ps := make([]PlayerSummary, len(rec.Players))
	for seat, p := range rec.Players {
		r := rec.Result.Players[seat]
		ps[seat] = PlayerSummary{Seat: seat, Name: p.Name, Version: p.Version, Score: r.Score, Rank: r.Rank,
			Outcome: r.Outcome, Team: rec.Result.TeamOf(seat)}
	}
	return ps
}

// upsertBot returns the id of the bot, adding it on its first match.
func (st *ingestStmts) upsertBot(ctx context.Context, tx *sql.Tx, game string, p Player) (int64, error) {
	var id int64
	err := inTx(ctx, tx, st.findBot, func(s *sql.Stmt) error { return s.QueryRowContext(ctx, game, p.Name, p.Version).Scan(&id) })
	if errors.Is(err, sql.ErrNoRows) {
		err = inTx(ctx, tx, st.addBot, func(s *sql.Stmt) error { return s.QueryRowContext(ctx, game, p.Name, p.Version).Scan(&id) })
	}
	return id, err
}

// insertLines writes the lines of a match as one row (packLines,
// compressed when that is shorter), none when it has no lines.
func (st *ingestStmts) insertLines(ctx context.Context, tx *sql.Tx, rec *Record, seq int64) error {
	if len(rec.Lines) == 0 {
		return nil
	}
	data, err := packLines(nil, rec.Lines)
	if err != nil {
		return err
	}
	return inTx(ctx, tx, st.lines, func(s *sql.Stmt) error {
		if _, err := s.ExecContext(ctx, seq, compressPack(data)); err != nil {
			return fmt.Errorf("lines: %w", err)
		}
		return nil
	})
}

// insertEvents writes the events of a match as one row (packEvents,
// compressed when that is shorter), none when it has no events.
func (st *ingestStmts) insertEvents(ctx context.Context, tx *sql.Tx, rec *Record, seq int64) error {
	if len(rec.Events) == 0 {
		return nil
	}
	return inTx(ctx, tx, st.events, func(s *sql.Stmt) error {
		if _, err := s.ExecContext(ctx, seq, compressPack(packEvents(nil, rec.Events))); err != nil {
			return fmt.Errorf("events: %w", err)
		}
		return nil
	})
}
