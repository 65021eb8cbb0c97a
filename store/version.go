package store

import (
	"context"
	"fmt"
)

// DataVersion returns a number that changes whenever a match is stored,
// changed or deleted or a rating fit is saved, by this process or any
// other writing the file, and only grows: everything derived from the
// stored matches and ratings (leaderboards, head-to-head records, ratings
// and their history, match lists) is unchanged while it is. A triggers'
// counter keeps it, so reading it costs one row.
func (db *DB) DataVersion(ctx context.Context) (int64, error) {
	var n int64
	if err := db.read.QueryRowContext(ctx, `SELECT n FROM data_version`).Scan(&n); err != nil {
		return 0, fmt.Errorf("read data version: %w", err)
	}
	return n, nil
}
