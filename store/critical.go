package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/replaylab/replaylab/sim"
)

// Sweep names a critical sweep (replaylab critical --db): a stored match
// forked at many turns with each alternative command of Seat, which Bot
// then played on. A rerun of the same sweep finds the forks it played.
type Sweep struct {
	Match string // the match's full id
	Seat  int    // 0-based
	// Bot is the spec that played the seat on (builtin:NAME or a command
	// line) and Fingerprint its code's, "" for a built-in bot: an edited
	// external bot is another sweep.
	Bot, Fingerprint string
	// Player is the bot's name and version, for people.
	Player Player
	// Alternatives is how many alternatives a turn tries, the game's
	// first ones; 0 is all.
	Alternatives int
}

// SweepID identifies a stored sweep, for SaveForks.
type SweepID int64

// ForkResult is one played fork of a sweep: the seat played Command at
// Turn instead of the recorded command, and ended with Result (outcome,
// rank and score; Team is not kept). TurnForks is how many forks the
// sweep plays at Turn, so a turn half played tells itself from a whole one.
type ForkResult struct {
	Turn      int
	Command   string
	TurnForks int
	Result    sim.PlayerResult
}

// StoredSweep is a sweep of a match with what it found: the seat's
// recorded result and the forks played, by turn then command.
type StoredSweep struct {
	Sweep
	Recorded sim.PlayerResult
	Forks    []ForkResult
}

// OpenSweep returns the id of sweep s, storing it when it is new, and the
// forks of it already played, by turn then command. s.Match may be a
// unique prefix of the match's id.
func (db *DB) OpenSweep(ctx context.Context, s Sweep) (id SweepID, played []ForkResult, err error) {
	defer func() { err = busyIf(err) }()
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return 0, nil, fmt.Errorf("open sweep: %w", err)
	}
	defer tx.Rollback()
	full, err := resolveID(ctx, tx, s.Match)
	if err != nil {
		return 0, nil, err
	}
	var seats int
	if err := tx.QueryRowContext(ctx, `
		SELECT count(*) FROM match_players WHERE match_seq = (SELECT seq FROM matches WHERE id = ?)`, full).Scan(&seats); err != nil {
		return 0, nil, fmt.Errorf("open sweep of match %s: %w", full, err)
	}
	switch {
	case s.Seat < 0 || s.Seat >= seats:
		return 0, nil, invalidf("sweep of %s: match %s has seats 1 to %d", sim.SeatName(s.Seat), full, seats)
	case s.Bot == "":
		return 0, nil, invalidf("sweep of match %s: no bot", full)
	case s.Alternatives < 0:
		return 0, nil, invalidf("sweep of match %s: %d alternatives", full, s.Alternatives)
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO critical_sweeps (match_seq, seat, bot, fingerprint, name, version, alternatives)
		SELECT seq, ?, ?, ?, ?, ?, ? FROM matches WHERE id = ?
		ON CONFLICT (match_seq, seat, bot, fingerprint, alternatives) DO NOTHING`,
		s.Seat, s.Bot, s.Fingerprint, s.Player.Name, s.Player.Version, s.Alternatives, full); err != nil {
		return 0, nil, fmt.Errorf("store sweep of match %s: %w", full, err)
	}
	if err := tx.QueryRowContext(ctx, `
		SELECT s.id FROM critical_sweeps s JOIN matches m ON m.seq = s.match_seq
		WHERE m.id = ? AND s.seat = ? AND s.bot = ? AND s.fingerprint = ? AND s.alternatives = ?`,
		full, s.Seat, s.Bot, s.Fingerprint, s.Alternatives).Scan(&id); err != nil {
		return 0, nil, fmt.Errorf("find sweep of match %s: %w", full, err)
	}
	if played, err = findForkResults(ctx, tx, id); err != nil {
		return 0, nil, fmt.Errorf("forks of the sweep of match %s: %w", full, err)
	}
	return id, played, tx.Commit()
}

// SaveForks stores played forks of sweep id in one transaction. A fork
// stored already (another run of the same sweep played it) keeps its
// first result: the sweep's forks play alike every time.
func (db *DB) SaveForks(ctx context.Context, id SweepID, forks []ForkResult) (err error) {
	defer func() { err = busyIf(err) }()
	for _, f := range forks {
		switch r := f.Result; {
		case r.Outcome != sim.Win && r.Outcome != sim.Loss && r.Outcome != sim.Draw:
			return invalidf("fork at turn %d playing %s: outcome %q, want win, loss or draw", f.Turn, sim.QuoteCommand(f.Command), r.Outcome)
		case r.Rank < 1 || f.Turn < 1 || f.TurnForks < 1:
			return invalidf("fork at turn %d playing %s: rank %d of %d forks that turn, want 1 or more of each", f.Turn, sim.QuoteCommand(f.Command), r.Rank, f.TurnForks)
		}
	}
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("save forks: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `
		INSERT INTO critical_forks (sweep, turn, command, turn_forks, outcome, rank, score)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
	if err != nil {
		return fmt.Errorf("save forks: %w", err)
	}
	defer stmt.Close()
	for _, f := range forks {
		if _, err := stmt.ExecContext(ctx, id, f.Turn, f.Command, f.TurnForks, string(f.Result.Outcome), f.Result.Rank, f.Result.Score); err != nil {
			return fmt.Errorf("save fork at turn %d: %w", f.Turn, err)
		}
	}
	return tx.Commit()
}

// Sweeps returns the stored sweeps of the match id names, in full or by a
// unique prefix, by seat, bot and alternatives, each with its forks.
func (db *DB) Sweeps(ctx context.Context, id string) ([]StoredSweep, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	full, err := resolveID(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `
		SELECT s.id, s.seat, s.bot, s.fingerprint, s.name, s.version, s.alternatives, p.outcome, p.rank, p.score
		FROM critical_sweeps s JOIN matches m ON m.seq = s.match_seq
		JOIN match_players p ON p.match_seq = s.match_seq AND p.seat = s.seat
		WHERE m.id = ? ORDER BY s.seat, s.bot, s.fingerprint, s.alternatives`, full)
	if err != nil {
		return nil, fmt.Errorf("sweeps of match %s: %w", full, err)
	}
	defer rows.Close()
	var (
		sweeps []StoredSweep
		ids    []SweepID
	)
	for rows.Next() {
		s := StoredSweep{Sweep: Sweep{Match: full}}
		var id SweepID
		var outcome string
		if err := rows.Scan(&id, &s.Seat, &s.Bot, &s.Fingerprint, &s.Player.Name, &s.Player.Version, &s.Alternatives,
			&outcome, &s.Recorded.Rank, &s.Recorded.Score); err != nil {
			return nil, fmt.Errorf("sweeps of match %s: %w", full, err)
		}
		s.Recorded.Outcome = sim.Outcome(outcome)
		sweeps, ids = append(sweeps, s), append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sweeps of match %s: %w", full, err)
	}
	for i := range sweeps {
		if sweeps[i].Forks, err = findForkResults(ctx, tx, ids[i]); err != nil {
			return nil, fmt.Errorf("forks of a sweep of match %s: %w", full, err)
		}
	}
	return sweeps, nil
}

// findForkResults returns the played forks of sweep id by turn, then
// command.
func findForkResults(ctx context.Context, tx *sql.Tx, id SweepID) ([]ForkResult, error) {
	rows, err := tx.QueryContext(ctx, `
		SELECT turn, command, turn_forks, outcome, rank, score FROM critical_forks WHERE sweep = ? ORDER BY turn, command`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var forks []ForkResult
	for rows.Next() {
		var f ForkResult
		var outcome string
		if err := rows.Scan(&f.Turn, &f.Command, &f.TurnForks, &outcome, &f.Result.Rank, &f.Result.Score); err != nil {
			return nil, err
		}
		f.Result.Outcome = sim.Outcome(outcome)
		forks = append(forks, f)
	}
	return forks, rows.Err()
}
