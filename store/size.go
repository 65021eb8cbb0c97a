package store

import (
	"context"
	"fmt"
)

// Size returns the bytes the database's pages in use take: its pages, the
// ones still in the write-ahead log included, less the free ones, times
// the page size. The growth of Size over a number of stored matches is what
// they cost on disk, B-tree pages, indexes and slack included, which is
// what the storage figures of the README report.
func (db *DB) Size(ctx context.Context) (int64, error) {
	var pages, free, size int64
	for _, p := range []struct {
		pragma string
		n      *int64
	}{{"page_count", &pages}, {"freelist_count", &free}, {"page_size", &size}} {
		if err := db.read.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(p.n); err != nil {
			return 0, fmt.Errorf("database size: %s: %w", p.pragma, err)
		}
	}
	return (pages - free) * size, nil
}
