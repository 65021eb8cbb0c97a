// Package store keeps regenerated matches in SQLite: it opens the database
// and applies the schema, ingests one match per transaction, and answers the
// queries of the dashboard and the command line.
//
// All SQL of the project lives in this package, so a second backend is a new
// implementation of the same methods. Public methods own their transaction;
// unexported helpers take a *sql.Tx so they compose inside one.
//
// A DB holds two connection pools on one file: a single writer connection,
// because SQLite allows one writer at a time and queueing in Go is cheaper
// than retrying on SQLITE_BUSY, and a pool of read-only connections, which
// in WAL mode read a consistent snapshot while the writer works.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/replaylab/replaylab"
)

// schemaVersion is the PRAGMA user_version of a database this build
// writes: a fresh database gets the whole current schema (schema.sql), an
// older one the upgrades after its version (upgrades.go).
var schemaVersion = 1 + len(upgrades)

// DB is an open replaylab database. It is safe for concurrent use.
type DB struct {
	write *sql.DB // exactly one connection; every write goes through it
	read  *sql.DB // read-only connections for queries
}

// Pragmas shared by both pools, as go-sqlite3 DSN parameters: the driver
// runs them on every connection it opens, where a PRAGMA sent through
// *sql.DB would reach only whichever pooled connection happened to run it.
const commonParams = "" +
	// Wait up to 5 s for a lock held by another connection or process
	// (a checkpoint, a second replaylab) instead of failing at once with
	// SQLITE_BUSY.
	"_busy_timeout=5000" +
	// SQLite ships with foreign keys unenforced for backward compatibility;
	// the schema relies on them (and on their cascades).
	"&_foreign_keys=on"

// writerParams configure the writer connection.
const writerParams = commonParams +
	// Write-ahead log: readers never block the writer nor the writer the
	// readers, and a commit appends to the log instead of rewriting pages
	// in place. The mode is stored in the file, so the read pool, opened
	// after the writer, finds it already set.
	"&_journal_mode=WAL" +
	// In WAL mode NORMAL syncs at checkpoints, not at every commit: a power
	// cut may lose the last commits but never corrupts the database, and
	// every match can be regenerated from its replay anyway.
	"&_synchronous=NORMAL" +
	// Take the write lock at BEGIN. A deferred transaction that reads first
	// and writes later can fail with SQLITE_BUSY at its first write without
	// the busy timeout ever applying; an immediate one waits at BEGIN.
	"&_txlock=immediate"

// readerParams configure the read pool.
const readerParams = commonParams +
	// Open the file read-only: no query can write, whatever its SQL says.
	"&mode=ro" +
	// Readers take no write lock, so the synchronous level only matters
	// for the writer; set it anyway so every connection reports the same.
	"&_synchronous=NORMAL"

// Open opens the database file at path, creating it and its schema when it
// does not exist and bringing an older schema up to date. It refuses a
// database whose schema is newer than this build's (ErrSchemaTooNew).
func Open(ctx context.Context, path string) (*DB, error) {
	db := &DB{}
	var err error
	if db.write, err = sql.Open("sqlite3", dsn(path, writerParams)); err != nil {
		return nil, err
	}
	db.write.SetMaxOpenConns(1)
	if err := db.migrate(ctx); err != nil {
		db.write.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if db.read, err = sql.Open("sqlite3", dsn(path, readerParams)); err != nil {
		db.write.Close()
		return nil, err
	}
	db.read.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	if err := db.read.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// OpenExisting is Open for commands that only make sense on a database that
// is already there: a missing file is an error (wrapping fs.ErrNotExist)
// instead of a new empty database.
func OpenExisting(ctx context.Context, path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	return Open(ctx, path)
}

// Close closes both pools. The readers go first so that the writer's
// connection is the last one and SQLite checkpoints the log into the file.
func (db *DB) Close() error {
	return errors.Join(db.read.Close(), db.write.Close())
}

// dsn builds a file: URI, so that SQLite itself sees URI parameters such as
// mode=ro; go-sqlite3 strips the query from a plain path. The characters
// that end or escape a URI path are percent-encoded.
func dsn(path, params string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return "file:" + esc.Replace(path) + "?" + params
}

// migrate brings the schema to schemaVersion in one transaction, so a
// failed step leaves the database as it was.
func (db *DB) migrate(ctx context.Context) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	switch {
	case v > schemaVersion:
		return fmt.Errorf("schema version %d, this build knows up to %d: %w", v, schemaVersion, ErrSchemaTooNew)
	case v == schemaVersion:
		return nil
	}
	if v == 0 {
		if _, err := tx.ExecContext(ctx, replaylab.Schema); err != nil {
			return fmt.Errorf("create schema version %d: %w", schemaVersion, err)
		}
		v = schemaVersion
	}
	for i := v; i < schemaVersion; i++ {
		if _, err := tx.ExecContext(ctx, upgrades[i-1]); err != nil {
			return fmt.Errorf("migrate schema to version %d: %w", i+1, err)
		}
	}
	// PRAGMA takes no parameters; the value is an int of ours, not input.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// readTx starts a transaction on the read pool: its queries all see one
// snapshot of the database, however many matches are written meanwhile.
func (db *DB) readTx(ctx context.Context) (*sql.Tx, error) {
	return db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
}
