package store

import (
	"context"
	"database/sql"
	"fmt"
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
)

// BotOutput is what a seat's bot wrote to one stream in one turn besides
// its answer.
type BotOutput struct {
	Turn   int
	Seat   int
	Stream string // Stdout or Stderr
	Text   string
}

// checkOutput reports the first of rec.Output that does not fit rec, or
// that repeats the turn, seat and stream of another.
func (rec *Record) checkOutput() error {
	seen := make(map[outputKey]bool, len(rec.Output))
	for _, o := range rec.Output {
		k := keyOf(o)
		switch {
		case o.Turn < 0 || o.Turn > rec.Turns:
			return invalidf("record %s: bot output at turn %d, want 0..%d", rec.ID, o.Turn, rec.Turns)
		case o.Seat < 0 || o.Seat >= len(rec.Players):
			return invalidf("record %s: bot output of seat index %d, want 0..%d", rec.ID, o.Seat, len(rec.Players)-1)
		case o.Stream != Stdout && o.Stream != Stderr:
			return invalidf("record %s: bot output stream %q, want stdout or stderr", rec.ID, o.Stream)
		case len(o.Text) > MaxBotOutput:
			return invalidf("record %s: bot output of %s at turn %d holds %d bytes, want at most %d", rec.ID, sim.SeatName(o.Seat), o.Turn, len(o.Text), MaxBotOutput)
		case !utf8.ValidString(o.Text):
			return invalidf("record %s: bot output of %s at turn %d is not UTF-8", rec.ID, sim.SeatName(o.Seat), o.Turn)
		case seen[k]:
			return invalidf("record %s: bot output of %s at turn %d has two %s pieces, want one", rec.ID, sim.SeatName(o.Seat), o.Turn, o.Stream)
		}
		seen[k] = true
	}
	return nil
}

// outputKey names a piece of bot output; a match has one piece per key.
type outputKey struct {
	turn, seat int
	stream     string
}

func keyOf(o BotOutput) outputKey { return outputKey{o.Turn, o.Seat, o.Stream} }

// insertOutput writes rec.Output, checked to hold one piece per turn, seat
// and stream.
func insertOutput(ctx context.Context, tx *sql.Tx, rec *Record, seq int64) error {
	for _, o := range rec.Output {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO bot_output (match_seq, turn, seat, stream, text) VALUES (?, ?, ?, ?, ?)`,
			seq, o.Turn, o.Seat, o.Stream, o.Text); err != nil {
			return fmt.Errorf("bot output: %w", err)
		}
	}
	return nil
}

// BotOutputAt returns what the bots of match matchID wrote besides their
// answers in turn, by seat then stream; none for a match stored without it.
func (db *DB) BotOutputAt(ctx context.Context, matchID string, turn int) ([]BotOutput, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `
		SELECT seat, stream, text FROM bot_output
		WHERE match_seq = (SELECT seq FROM matches WHERE id = ?) AND turn = ?
		ORDER BY seat, stream`, matchID, turn)
	if err != nil {
		return nil, fmt.Errorf("bot output of %s: %w", matchID, err)
	}
	defer rows.Close()
	out := []BotOutput{}
	for rows.Next() {
		o := BotOutput{Turn: turn}
		if err := rows.Scan(&o.Seat, &o.Stream, &o.Text); err != nil {
			return nil, fmt.Errorf("bot output of %s: %w", matchID, err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("bot output of %s: %w", matchID, err)
	}
	if len(out) == 0 {
		if err := checkMatch(ctx, tx, matchID); err != nil {
			return nil, err
		}
	}
	return out, nil
}
