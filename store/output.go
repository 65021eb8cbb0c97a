package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
)

// MaxBotOutput bounds the text of one stream of one seat in one turn, in
// bytes: the recorder's own bound, 16 KiB and a line counting what it
// dropped, which holds for the last turn too, whatever a bot writes while
// it is being ended.
const MaxBotOutput = replay.MaxOutputBytes

// The streams a bot's output comes from.
const (
	Stdout = "stdout" // stray standard output: lines that were not answers
	Stderr = "stderr"
	// Times is no text but how long the seat's bot took to answer each
	// turn: one piece per timed seat, at turn 0, its Times set. It
	// travels with the output, beside the replay, and is stored apart
	// (bot_times).
	Times = "times"
	// Debug is no text but what the seat's bot drew over the board in a
	// turn (replay.Answer.Debug): Text holds the shapes, the normalised
	// JSON of replay.ParseDebug. It travels with the output and is
	// stored apart (bot_debug).
	Debug = "debug"
)

// MaxBotTime bounds one stored answer time: far over any turn limit.
const MaxBotTime = 24 * time.Hour

// BotOutput is what a seat's bot wrote to one stream in one turn besides
// its answer, or its answer times.
type BotOutput struct {
	Turn   int
	Seat   int
	Stream string // Stdout, Stderr, Times or Debug
	Text   string
	// Times, of stream Times only, holds how long the bot took to answer
	// each turn from turn 1 (replay.Answer.Time, to the microsecond), 0
	// where it was not timed; it may stop before the last turn.
	Times []time.Duration
	// Limit, of stream Times only, is the turn limit the bot had, 0 when
	// not known.
	Limit time.Duration
}

// checkOutput reports the first of rec.Output that does not fit rec, or
// that repeats the turn, seat and stream of another.
func (rec *Record) checkOutput() error {
	return checkOutput(rec.ID, rec.Turns, len(rec.Players), rec.Output)
}

// checkOutput reports the first piece of out that does not fit the match
// id of turns turns and seats seats, or that repeats the turn, seat and
// stream of another: the checks of a new match's output and of output
// attached to a stored match are the same.
func checkOutput(id string, turns, seats int, out []BotOutput) error {
	seen := make(map[outputKey]bool, len(out))
	drawn := map[int]int{} // bytes of debug shapes per seat
	for _, o := range out {
		k := keyOf(o)
		switch {
		case o.Turn < 0 || o.Turn > turns:
			return invalidf("record %s: bot output at turn %d, want 0..%d", id, o.Turn, turns)
		case o.Seat < 0 || o.Seat >= seats:
			return invalidf("record %s: bot output of seat index %d, want 0..%d", id, o.Seat, seats-1)
		case o.Stream == Times:
			if err := checkTimes(id, turns, o); err != nil {
				return err
			}
		case o.Stream == Debug:
			if drawn[o.Seat] += len(o.Text); drawn[o.Seat] > replay.MaxMatchDebugBytes {
				return invalidf("record %s: debug drawings of %s over %d KiB", id, sim.SeatName(o.Seat), replay.MaxMatchDebugBytes>>10)
			}
			if err := checkDebug(id, o); err != nil {
				return err
			}
		case o.Stream != Stdout && o.Stream != Stderr:
			return invalidf("record %s: bot output stream %q, want stdout, stderr, times or debug", id, o.Stream)
		case o.Times != nil || o.Limit != 0:
			return invalidf("record %s: bot output of %s at turn %d: times in a %s piece", id, sim.SeatName(o.Seat), o.Turn, o.Stream)
		case len(o.Text) > MaxBotOutput:
			return invalidf("record %s: bot output of %s at turn %d holds %d bytes, want at most %d", id, sim.SeatName(o.Seat), o.Turn, len(o.Text), MaxBotOutput)
		case !utf8.ValidString(o.Text):
			return invalidf("record %s: bot output of %s at turn %d is not UTF-8", id, sim.SeatName(o.Seat), o.Turn)
		}
		if seen[k] {
			return invalidf("record %s: bot output of %s at turn %d has two %s pieces, want one", id, sim.SeatName(o.Seat), o.Turn, o.Stream)
		}
		seen[k] = true
	}
	return nil
}

// checkDebug reports what is wrong with o, a piece of stream Debug: it
// must be at a turn, and its shapes as replay.ParseDebug leaves them.
func checkDebug(id string, o BotOutput) error {
	switch shapes, note := replay.ParseDebug(json.RawMessage(o.Text)); {
	case o.Turn < 1 || o.Times != nil || o.Limit != 0:
		return invalidf("record %s: debug drawing of %s at turn %d, want one at a turn from 1, without times", id, sim.SeatName(o.Seat), o.Turn)
	case shapes == "" || shapes != o.Text:
		if note == "" {
			note = "not as the recorder writes them"
		}
		return invalidf("record %s: debug drawing of %s at turn %d: %s", id, sim.SeatName(o.Seat), o.Turn, note)
	}
	return nil
}

// checkTimes reports what is wrong with o, a piece of stream Times of a
// match of turns turns.
func checkTimes(id string, turns int, o BotOutput) error {
	switch {
	case o.Turn != 0 || o.Text != "":
		return invalidf("record %s: answer times of %s: at turn %d with text, want turn 0 and no text", id, sim.SeatName(o.Seat), o.Turn)
	case o.Limit < 0 || o.Limit > MaxBotTime:
		return invalidf("record %s: turn limit of %s is %v, want 0 to %v", id, sim.SeatName(o.Seat), o.Limit, MaxBotTime)
	case len(o.Times) > turns:
		return invalidf("record %s: answer times of %s for %d turns, the match has %d", id, sim.SeatName(o.Seat), len(o.Times), turns)
	}
	for i, d := range o.Times {
		if d < 0 || d > MaxBotTime {
			return invalidf("record %s: answer time of %s at turn %d is %v, want 0 to %v", id, sim.SeatName(o.Seat), i+1, d, MaxBotTime)
		}
	}
	return nil
}

// packTimes packs times as bot_times.data: microseconds, each a uvarint.
func packTimes(times []time.Duration) []byte {
	b := make([]byte, 0, len(times)*3)
	for _, d := range times {
		b = binary.AppendUvarint(b, uint64(d/time.Microsecond))
	}
	return b
}

// unpackTimes reverses packTimes, up to the first upTo times (all when
// upTo is 0 or less).
func unpackTimes(b []byte, upTo int) ([]time.Duration, error) {
	var times []time.Duration
	for len(b) > 0 && (upTo <= 0 || len(times) < upTo) {
		us, n := binary.Uvarint(b)
		if n <= 0 || us > uint64(MaxBotTime/time.Microsecond) {
			return nil, fmt.Errorf("answer time %d: corrupt", len(times)+1)
		}
		times = append(times, time.Duration(us)*time.Microsecond)
		b = b[n:]
	}
	return times, nil
}

// outputKey names a piece of bot output; a match has one piece per key.
type outputKey struct {
	turn, seat int
	stream     string
}

func keyOf(o BotOutput) outputKey { return outputKey{o.Turn, o.Seat, o.Stream} }

// insertOutput writes out as the output of the match seq, checked to
// hold one piece per turn, seat and stream.
func insertOutput(ctx context.Context, tx *sql.Tx, seq int64, out []BotOutput) error {
	for _, o := range out {
		if o.Stream == Times {
			if _, err := tx.ExecContext(ctx, `INSERT INTO bot_times (match_seq, seat, limit_us, data) VALUES (?, ?, ?, ?)`,
				seq, o.Seat, o.Limit.Microseconds(), packTimes(o.Times)); err != nil {
				return fmt.Errorf("answer times: %w", err)
			}
			continue
		}
		if o.Stream == Debug {
			if _, err := tx.ExecContext(ctx, `INSERT INTO bot_debug (match_seq, turn, seat, shapes) VALUES (?, ?, ?, ?)`,
				seq, o.Turn, o.Seat, o.Text); err != nil {
				return fmt.Errorf("debug drawings: %w", err)
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO bot_output (match_seq, turn, seat, stream, text) VALUES (?, ?, ?, ?, ?)`,
			seq, o.Turn, o.Seat, o.Stream, o.Text); err != nil {
			return fmt.Errorf("bot output: %w", err)
		}
	}
	return nil
}

// attachOutput stores out as the output of the stored match id unless the
// match has some already, and reports whether it did. The pieces are
// checked against the match as stored, as a new match's are against its
// record. A match keeps the output it has: a second file of one match
// is either the same or from another run that only looked alike, and
// mixing two runs' lines would show what no run printed.
func attachOutput(ctx context.Context, tx *sql.Tx, id string, out []BotOutput) (attached bool, err error) {
	var (
		seq          int64
		turns, seats int
		has          bool
	)
	err = tx.QueryRowContext(ctx, `
		SELECT seq, turns, (SELECT count(*) FROM match_players WHERE match_seq = m.seq),
			EXISTS (SELECT 1 FROM bot_output WHERE match_seq = m.seq)
				OR EXISTS (SELECT 1 FROM bot_times WHERE match_seq = m.seq)
				OR EXISTS (SELECT 1 FROM bot_debug WHERE match_seq = m.seq)
		FROM matches m WHERE id = ?`, id).Scan(&seq, &turns, &seats, &has)
	if errors.Is(err, sql.ErrNoRows) {
		return false, notFoundf("match %s not found", id)
	}
	if err != nil {
		return false, fmt.Errorf("bot output of %s: %w", id, err)
	}
	if has || len(out) == 0 {
		return false, nil
	}
	if err := checkOutput(id, turns, seats, out); err != nil {
		return false, err
	}
	return true, insertOutput(ctx, tx, seq, out)
}

// BotOutputAt returns what the bots of match matchID wrote besides their
// answers in turn, by seat then stream; none for a match stored without it.
// One query reads it and tells a missing match (no row) from a turn
// without output (a row of NULLs): the inspector asks at every step.
func (db *DB) BotOutputAt(ctx context.Context, matchID string, turn int) ([]BotOutput, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT o.seat, o.stream, o.text FROM matches m
		LEFT JOIN bot_output o ON o.match_seq = m.seq AND o.turn = ?
		WHERE m.id = ? ORDER BY o.seat, o.stream`, turn, matchID)
	if err != nil {
		return nil, fmt.Errorf("bot output of %s: %w", matchID, err)
	}
	defer rows.Close()
	out, found := []BotOutput{}, false
	for rows.Next() {
		found = true
		var (
			seat         sql.NullInt64
			stream, text sql.NullString
		)
		if err := rows.Scan(&seat, &stream, &text); err != nil {
			return nil, fmt.Errorf("bot output of %s: %w", matchID, err)
		}
		if seat.Valid {
			out = append(out, BotOutput{Turn: turn, Seat: int(seat.Int64), Stream: stream.String, Text: text.String})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("bot output of %s: %w", matchID, err)
	}
	if !found {
		return nil, notFoundf("match %s not found", matchID)
	}
	return out, nil
}

// BotTimes returns how long the bots of match matchID took to answer
// each turn, a piece of stream Times per timed seat by seat; none for a
// match stored without them.
func (db *DB) BotTimes(ctx context.Context, matchID string) ([]BotOutput, error) {
	return db.botTimes(ctx, matchID, 0)
}

// BotTimesTo is BotTimes with each seat's times cut after turn (turn 1
// for a turn below it), which reads no further into them: what the
// inspector needs of a turn.
func (db *DB) BotTimesTo(ctx context.Context, matchID string, turn int) ([]BotOutput, error) {
	return db.botTimes(ctx, matchID, max(turn, 1))
}

// botTimes reads the times of BotTimes, up to the first upTo of each
// seat (all when upTo is 0), in one query as BotOutputAt reads.
func (db *DB) botTimes(ctx context.Context, matchID string, upTo int) ([]BotOutput, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT t.seat, t.limit_us, t.data FROM matches m
		LEFT JOIN bot_times t ON t.match_seq = m.seq
		WHERE m.id = ? ORDER BY t.seat`, matchID)
	if err != nil {
		return nil, fmt.Errorf("answer times of %s: %w", matchID, err)
	}
	defer rows.Close()
	out, found := []BotOutput{}, false
	for rows.Next() {
		found = true
		var (
			seat, limitUS sql.NullInt64
			data          []byte
		)
		if err := rows.Scan(&seat, &limitUS, &data); err != nil {
			return nil, fmt.Errorf("answer times of %s: %w", matchID, err)
		}
		if !seat.Valid {
			continue
		}
		o := BotOutput{Stream: Times, Seat: int(seat.Int64), Limit: time.Duration(limitUS.Int64) * time.Microsecond}
		if o.Times, err = unpackTimes(data, upTo); err != nil {
			return nil, fmt.Errorf("answer times of %s, %s: %w", matchID, sim.SeatName(o.Seat), err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("answer times of %s: %w", matchID, err)
	}
	if !found {
		return nil, notFoundf("match %s not found", matchID)
	}
	return out, nil
}

// BotDebugAt returns what the bots of match matchID drew over the board
// in turn, a piece of stream Debug per seat that drew, by seat; none for
// a match stored without drawings.
func (db *DB) BotDebugAt(ctx context.Context, matchID string, turn int) ([]BotOutput, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `
		SELECT seat, shapes FROM bot_debug
		WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) AND turn = ?
		ORDER BY seat`, matchID, turn)
	if err != nil {
		return nil, fmt.Errorf("debug drawings of %s: %w", matchID, err)
	}
	defer rows.Close()
	out := []BotOutput{}
	for rows.Next() {
		o := BotOutput{Turn: turn, Stream: Debug}
		if err := rows.Scan(&o.Seat, &o.Text); err != nil {
			return nil, fmt.Errorf("debug drawings of %s: %w", matchID, err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("debug drawings of %s: %w", matchID, err)
	}
	if len(out) == 0 {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// BotDebugSeats returns the seats whose bots drew over the board in any
// turn of match matchID, in order; none for a match without drawings.
func (db *DB) BotDebugSeats(ctx context.Context, matchID string) ([]int, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `
		SELECT DISTINCT seat FROM bot_debug
		WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) ORDER BY seat`, matchID)
	if err != nil {
		return nil, fmt.Errorf("debug drawings of %s: %w", matchID, err)
	}
	defer rows.Close()
	seats := []int{}
	for rows.Next() {
		var s int
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("debug drawings of %s: %w", matchID, err)
		}
		seats = append(seats, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("debug drawings of %s: %w", matchID, err)
	}
	if len(seats) == 0 {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return nil, err
		}
	}
	return seats, nil
}
