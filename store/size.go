package store

import (
	"context"
	"fmt"
)

// Size returns the bytes the database's tables and indexes take. On
// SQLite that is its pages in use: its pages, the ones still in the
// write-ahead log included, less the free ones, times the page size. On
// PostgreSQL it is pg_total_relation_size (heap, indexes, TOAST, free
// space and visibility maps) summed over the tables of the database's
// schema. The growth of Size over a number of stored matches is what they
// cost on disk, B-tree pages, indexes and slack included, which is what
// the storage figures of docs/replay-format.md report.
func (db *DB) Size(ctx context.Context) (int64, error) {
	if db.postgres {
		var size int64
		err := db.read.QueryRowContext(ctx, `
			SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
			WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'm')`).Scan(&size)
		if err != nil {
			return 0, fmt.Errorf("database size: %w", err)
		}
		return size, nil
	}
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
