package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"
)

// Bounds of ResponseTimes: per version, the newest MaxTimedSeats seats
// with answer times, and no more of them once MaxTimedTurns times are
// read.
const (
	MaxTimedSeats = 200
	MaxTimedTurns = 200_000
)

// VersionTimes sums up how fast one version of a bot answered, over its
// newest timed seats (ResponseTimes).
type VersionTimes struct {
	Version  string
	Seats    int           // seats read
	Turns    int           // timed turns in them
	P50, P99 time.Duration // of those turns' times
	Timeouts int           // the time-outs of those seats
	// More says the version has older timed seats, not read.
	More bool
}

// ResponseTimes returns, for each version of the bot name of game with
// answer times stored, the median and 99th percentile of its answer
// times and its time-outs over its newest timed seats, within
// MaxTimedSeats and MaxTimedTurns; by version.
func (db *DB) ResponseTimes(ctx context.Context, game, name string) ([]VersionTimes, error) {
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	type version struct {
		id   int64
		name string
	}
	var versions []version
	rows, err := tx.QueryContext(ctx, `SELECT id, version FROM bots WHERE game = ? AND name = ? ORDER BY version`, game, name)
	if err != nil {
		return nil, fmt.Errorf("response times: %w", err)
	}
	for rows.Next() {
		var v version
		if err := rows.Scan(&v.id, &v.name); err != nil {
			rows.Close()
			return nil, fmt.Errorf("response times: %w", err)
		}
		versions = append(versions, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("response times: %w", err)
	}
	out := []VersionTimes{}
	for _, v := range versions {
		vt, err := versionTimes(ctx, tx, v.id)
		if err != nil {
			return nil, fmt.Errorf("response times of %s %s: %w", name, v.name, err)
		}
		if vt.Seats > 0 {
			vt.Version = v.name
			out = append(out, vt)
		}
	}
	return out, nil
}

// versionTimes sums up the times of the bot version botID.
func versionTimes(ctx context.Context, tx *sql.Tx, botID int64) (VersionTimes, error) {
	rows, err := tx.QueryContext(ctx, `
		SELECT t.data, COALESCE(st.timeouts, 0)
		FROM match_players p
		JOIN bot_times t ON t.match_seq = p.match_seq AND t.seat = p.seat
		LEFT JOIN seat_trouble st ON st.match_seq = p.match_seq AND st.seat = p.seat
		WHERE p.bot_id = ?
		ORDER BY p.match_seq DESC, p.seat
		LIMIT ?`, botID, MaxTimedSeats+1)
	if err != nil {
		return VersionTimes{}, err
	}
	defer rows.Close()
	var (
		vt    VersionTimes
		times []time.Duration
	)
	for rows.Next() {
		if vt.Seats == MaxTimedSeats || len(times) >= MaxTimedTurns {
			vt.More = true
			break
		}
		var (
			data     []byte
			timeouts int
		)
		if err := rows.Scan(&data, &timeouts); err != nil {
			return VersionTimes{}, err
		}
		ts, err := unpackTimes(data, 0)
		if err != nil {
			return VersionTimes{}, err
		}
		for _, d := range ts {
			if d > 0 {
				times = append(times, d)
			}
		}
		vt.Seats++
		vt.Timeouts += timeouts
	}
	if err := rows.Err(); err != nil {
		return VersionTimes{}, err
	}
	slices.Sort(times)
	vt.Turns = len(times)
	if len(times) > 0 {
		vt.P50, vt.P99 = percentile(times, 50), percentile(times, 99)
	}
	return vt, nil
}

// percentile returns the p-th percentile of sorted, by nearest rank: the
// smallest time at least p% of them do not exceed.
func percentile(sorted []time.Duration, p int) time.Duration {
	return sorted[(len(sorted)*p+99)/100-1]
}
