package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// ErrUnhealthy means the database cannot take a write now; the message of
// the error that carries it says why.
var ErrUnhealthy = errors.New("database cannot take a write")

// minFreeBytes is the free space below which Health reports the disk full:
// about what storing one long match takes. A disk is rarely full to the
// last byte when SQLite fails; it fails at the write that does not fit.
const minFreeBytes = 32 << 20

// healthWait bounds how long Health waits for the write lock, held by an
// ingest of this process or by another program. (A variable so that a
// test can shorten it.)
var healthWait = 2 * time.Second

// Health returns nil when the database could take a write now, and an
// error wrapping ErrUnhealthy otherwise: the file or its directory became
// read-only (a file system remounted read-only after an I/O error), the
// disk holding it has less than minFreeBytes free, or the write lock cannot
// be had within healthWait. Its messages name no path, so a health check
// may show them to anyone.
//
// The write check takes the write lock and changes the header in a
// transaction it rolls back: the change never reaches the disk, so a check
// polled every second costs a few system calls and writes nothing. That is
// also why it cannot see a full disk, and free space is checked apart.
func (db *DB) Health(ctx context.Context) error {
	if db.postgres {
		return db.healthPostgres(ctx)
	}
	if name, err := unwritable(db.path, true); name != "" || err != nil {
		what := "the database file"
		if name == filepath.Dir(db.path) {
			what = "its directory"
		}
		return fmt.Errorf("%w: %w: cannot write %s: %v", ErrUnhealthy, ErrReadOnly, what, err)
	}
	free, err := freeBytes(filepath.Dir(db.path))
	if err != nil {
		return fmt.Errorf("%w: free space: %v", ErrUnhealthy, err)
	}
	if free < minFreeBytes {
		return fmt.Errorf("%w: disk full: %d KiB free, want %d MiB", ErrUnhealthy, free>>10, minFreeBytes>>20)
	}
	ctx, cancel := context.WithTimeout(ctx, healthWait)
	defer cancel()
	if err := db.tryWrite(ctx); err != nil {
		return fmt.Errorf("%w: %v", ErrUnhealthy, err)
	}
	return nil
}

// tryWrite takes the write lock, waiting at most healthWait, and changes
// the header in a transaction it rolls back.
func (db *DB) tryWrite(ctx context.Context) error {
	conn, err := db.write.Conn(ctx) // waits for an ingest of this process
	if err != nil {
		return err
	}
	defer conn.Close()
	// SQLite's busy handler, not ctx, bounds the wait for a lock held by
	// another program, so shorten it for this check and then restore it.
	var busy int
	if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", healthWait.Milliseconds())); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), fmt.Sprintf("PRAGMA busy_timeout = %d", busy))
	tx, err := conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The value is ours already; setting it still dirties the header page.
	_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID))
	return err
}
