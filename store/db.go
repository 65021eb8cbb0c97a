// Package store keeps regenerated matches in SQLite, or in PostgreSQL
// (postgres.go): it opens the database and applies the schema, ingests one
// match per transaction, and answers the queries of the dashboard and the
// command line.
//
// All SQL of the project lives in this package. Both backends run the same
// methods and queries through database/sql; what they spell differently is
// in postgres.go. Public methods own their transaction; unexported helpers
// take a *sql.Tx so they compose inside one.
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
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/replaylab/replaylab"
)

// schemaVersion is the PRAGMA user_version of a database this build
// writes: a fresh database gets the whole current schema (schema.sql), an
// older one the upgrades after its version (upgrades.go).
var schemaVersion = 1 + len(upgrades)

// DB is an open replaylab database. It is safe for concurrent use.
type DB struct {
	path     string  // the database file, or a PostgreSQL URL without its password
	postgres bool    // a PostgreSQL database (postgres.go), not an SQLite file
	write    *sql.DB // exactly one connection; every write goes through it
	read     *sql.DB // read-only connections for queries
	// ingest holds the statements of Ingest, prepared on the writer.
	ingest *ingestStmts
	// jobStmts holds the statements of ClaimJob, prepared on the writer.
	jobStmts stmtCache
	stats    matchCache[[]*statRow]
	events   matchCache[[]packedEvent]
}

// busyTimeout is how long a statement waits for a lock another connection
// holds before it fails with ErrBusy.
const busyTimeout = 5 * time.Second

// Pragmas shared by both pools, as go-sqlite3 DSN parameters: the driver
// runs them on every connection it opens, where a PRAGMA sent through
// *sql.DB would reach only whichever pooled connection happened to run it.
var commonParams = "" +
	// Wait up to busyTimeout for a lock held by another connection or
	// process (a checkpoint, a second replaylab) instead of failing at
	// once with SQLITE_BUSY.
	"_busy_timeout=" + strconv.FormatInt(busyTimeout.Milliseconds(), 10) +
	// SQLite ships with foreign keys unenforced for backward compatibility;
	// the schema relies on them (and on their cascades).
	"&_foreign_keys=on"

// writerParams configure the writer connection.
var writerParams = commonParams +
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
var readerParams = commonParams +
	// Open the file read-only: no query can write, whatever its SQL says.
	"&mode=ro" +
	// Readers take no write lock, so the synchronous level only matters
	// for the writer; set it anyway so every connection reports the same.
	"&_synchronous=NORMAL"

// Open opens the database file at path, creating it and its schema when it
// does not exist (or is an empty file) and bringing an older schema up to
// date.
//
// Before anything can change the file it is inspected through a read-only
// connection, and refused untouched (not switched to WAL, no schema added)
// when it is not a replaylab database (ErrNotReplaylab), when its schema is
// newer than this build's (ErrSchemaTooNew), or when it, or the directory
// where SQLite keeps its -wal and -shm files, cannot be written
// (ErrReadOnly).
//
// A replaylab database carries applicationID in its header. Databases made
// by builds older than that check have 0 there; they are recognised by
// their user_version and tables, and stamped on this first writable open.
//
// A path that IsPostgres opens a PostgreSQL database instead
// (openPostgres), with the same checks against its marker table.
func Open(ctx context.Context, path string) (*DB, error) {
	if IsPostgres(path) {
		return openPostgres(ctx, path)
	}
	if err := inspect(ctx, path); err != nil {
		return nil, err
	}
	db := &DB{path: path}
	var err error
	if db.write, err = sql.Open("sqlite3", dsn(path, writerParams)); err != nil {
		return nil, err
	}
	db.write.SetMaxOpenConns(1)
	if err := db.migrate(ctx, path); err != nil {
		db.write.Close()
		if errors.Is(err, ErrNotReplaylab) || errors.Is(err, ErrSchemaTooNew) {
			return nil, err
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if db.ingest, err = prepareIngest(ctx, db.write); err != nil {
		db.write.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if db.read, err = sql.Open("sqlite3", dsn(path, readerParams)); err != nil {
		db.ingest.close()
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

// inspect checks, without writing anything, that Open may take the file at
// path: a missing or empty file, an empty SQLite database, or a replaylab
// database of this build's schema or an older one, in a place it can write.
func inspect(ctx context.Context, path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return checkWritable(path, false)
	case err != nil:
		return fmt.Errorf("open %s: %w", path, err)
	case fi.Size() > 0:
		if err := inspectFile(ctx, path); err != nil {
			if errors.Is(err, ErrNotReplaylab) || errors.Is(err, ErrSchemaTooNew) {
				return err
			}
			// SQLite's own message for a file it cannot open read-only
			// ("unable to open database file") hides the usual cause.
			if werr := checkWritable(path, true); werr != nil {
				return fmt.Errorf("%w (%v)", werr, err)
			}
			return fmt.Errorf("open %s: %w", path, err)
		}
	}
	return checkWritable(path, true)
}

// checkWritable returns ErrReadOnly, naming what cannot be written, unless
// the database file at path (when exists) and its directory can be.
func checkWritable(path string, exists bool) error {
	name, err := unwritable(path, exists)
	switch {
	case name != "":
		return fmt.Errorf("open %s: %w: cannot write %s: %v", path, ErrReadOnly, name, err)
	case err != nil:
		return fmt.Errorf("open %s: %w", path, err)
	}
	return nil
}

// inspectFile reads the header and table names of the SQLite file at path
// through a read-only connection and classifies them.
//
// Even a read-only connection to a WAL database creates its -wal and -shm
// files, and cannot remove them when it closes; for a foreign file those
// would be litter beside another program's data. Without a -wal file the
// main file holds every committed change, so it is read as immutable,
// which creates nothing. With one, the file is in use or was not closed
// cleanly, its latest changes may be in the -wal only, and the files that
// a normal read creates are there already.
func inspectFile(ctx context.Context, path string) error {
	params := readerParams
	if _, err := os.Lstat(path + "-wal"); errors.Is(err, fs.ErrNotExist) {
		params += "&immutable=1"
	}
	ro, err := sql.Open("sqlite3", dsn(path, params))
	if err != nil {
		return err
	}
	defer ro.Close()
	tx, err := ro.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return notReplaylabIf(path, err)
	}
	defer tx.Rollback()
	_, err = classify(ctx, tx, path)
	return notReplaylabIf(path, err)
}

// notReplaylabIf turns SQLite's "file is not a database" into
// ErrNotReplaylab and returns any other error unchanged.
func notReplaylabIf(path string, err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && se.Code == sqlite3.ErrNotADB {
		return fmt.Errorf("%w: %s (not an SQLite file)", ErrNotReplaylab, path)
	}
	return err
}

// applicationID marks a replaylab database in the SQLite header (PRAGMA
// application_id): the ASCII bytes "RPLB".
const applicationID = 0x52504c42

// version1Tables are the tables of a version-1 schema: a database with all
// of them, a user_version this build knows and application_id 0 was made by
// a build from before applicationID.
var version1Tables = []string{"replays", "matches", "bots", "match_players", "turn_stats", "events", "frames"}

// dbState is what classify finds in a database Open may take.
type dbState struct {
	version int  // PRAGMA user_version
	stamped bool // application_id is already applicationID
}

// classify reads application_id, user_version and the table names in tx
// and refuses a database Open must not take.
func classify(ctx context.Context, tx *sql.Tx, path string) (dbState, error) {
	var (
		app int64
		st  dbState
	)
	if err := tx.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return st, err
	}
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&st.version); err != nil {
		return st, err
	}
	rows, err := tx.QueryContext(ctx, "SELECT name FROM sqlite_schema WHERE type = 'table'")
	if err != nil {
		return st, err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return st, err
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		return st, err
	}
	st.stamped = app == applicationID
	legacy := app == 0 && st.version >= 1 && st.version <= schemaVersion &&
		!slices.ContainsFunc(version1Tables, func(t string) bool { return !slices.Contains(tables, t) })
	empty := app == 0 && st.version == 0 && len(tables) == 0
	switch {
	case !st.stamped && app != 0:
		return st, fmt.Errorf("%w: %s (its application_id is %#x, replaylab's is %#x)", ErrNotReplaylab, path, app, applicationID)
	case !st.stamped && !legacy && !empty:
		return st, fmt.Errorf("%w: %s (it has another program's tables)", ErrNotReplaylab, path)
	case st.version > schemaVersion:
		return st, fmt.Errorf("open %s: schema version %d, this build knows up to %d: %w", path, st.version, schemaVersion, ErrSchemaTooNew)
	}
	return st, nil
}

// OpenExisting is Open for commands that only make sense on a database that
// is already there: a missing file is an error (wrapping fs.ErrNotExist)
// instead of a new empty database.
//
// A PostgreSQL database always exists once the server takes the
// connection; an empty one gets the schema.
func OpenExisting(ctx context.Context, path string) (*DB, error) {
	if IsPostgres(path) {
		return openPostgres(ctx, path)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	return Open(ctx, path)
}

// Close closes both pools. The readers go first so that the writer's
// connection is the last one and SQLite checkpoints the log into the file;
// its statements go before it, as SQLite closes no connection with
// statements open.
func (db *DB) Close() error {
	return errors.Join(db.read.Close(), db.ingest.close(), db.jobStmts.close(), db.write.Close())
}

// dsn builds a file: URI, so that SQLite itself sees URI parameters such as
// mode=ro; go-sqlite3 strips the query from a plain path. The characters
// that end or escape a URI path are percent-encoded.
func dsn(path, params string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return "file:" + esc.Replace(path) + "?" + params
}

// migrate brings the schema to schemaVersion and stamps applicationID in
// one transaction, so a failed step leaves the database as it was. It
// classifies the database again under the write lock: another program may
// have changed the file since inspect looked.
//
// On PostgreSQL, where every process may open the database at once, the
// write lock (beginWrite) makes one of them create or upgrade the schema
// and the others find it done.
func (db *DB) migrate(ctx context.Context, path string) error {
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	classifyDB := classify
	if db.postgres {
		classifyDB = classifyPostgres
	}
	st, err := classifyDB(ctx, tx, path)
	if err != nil {
		return err
	}
	if st.version == schemaVersion && st.stamped {
		return nil
	}
	if db.postgres {
		if err := migratePostgres(ctx, tx, st.version); err != nil {
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		return vacuumEntries(ctx, db.write, st.version)
	}
	v := st.version
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
		if err := upgradeInGo(ctx, tx, i+1); err != nil {
			return err
		}
	}
	// PRAGMA takes no parameters; the values are constants of ours, not input.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d; PRAGMA application_id = %d", schemaVersion, applicationID)); err != nil {
		return err
	}
	return tx.Commit()
}

// readTx starts a transaction on the read pool: its queries all see one
// snapshot of the database, however many matches are written meanwhile.
// PostgreSQL gives a transaction one snapshot only from REPEATABLE READ
// up; its default takes a new one for each statement.
func (db *DB) readTx(ctx context.Context) (*sql.Tx, error) {
	opts := &sql.TxOptions{ReadOnly: true}
	if db.postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	return db.read.BeginTx(ctx, opts)
}
