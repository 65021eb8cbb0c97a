package store

// PostgreSQL is the second backend. It shares every query with SQLite
// through database/sql (pgx's stdlib driver) instead of being a package of
// its own: the queries are portable SQL, and what the two spell
// differently is small and kept here: placeholders (rewritten by the
// connection below), the schema text (schema_postgres.sql) and its marker
// table, how write transactions exclude each other, and the error codes
// that mean "busy". One codebase means one set of tests proves both.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/replaylab/replaylab"
)

// IsPostgres reports whether a --db value names a PostgreSQL database
// rather than an SQLite file: whatever starts with "postgres:" or
// "postgresql:". A postgres:// URL names the server, database and user;
// what it leaves out comes from the PG* environment (PGHOST, PGPORT,
// PGUSER, PGPASSWORD, PGDATABASE, ...), so "postgres:" alone takes all of
// it from there. An SQLite file whose name starts so is given as
// ./postgres:...
func IsPostgres(name string) bool {
	return strings.HasPrefix(name, "postgres:") || strings.HasPrefix(name, "postgresql:")
}

// postgresURL returns the URL pgx parses for a --db value IsPostgres
// takes: "postgres:" and "postgres:?..." lack the "//" of a URL with no
// host.
func postgresURL(name string) string {
	scheme, rest, _ := strings.Cut(name, ":")
	if !strings.HasPrefix(rest, "//") {
		rest = "//" + rest
	}
	return scheme + ":" + rest
}

// postgresBase is the schema version schema_postgres.sql creates.
// PostgreSQL support began at it, so no PostgreSQL database is older;
// postgresUpgrades[i] takes one from postgresBase+i to postgresBase+i+1.
const postgresBase = 15

// postgresUpgrades are the PostgreSQL spelling of the upgrades after
// postgresBase: a schema change appends to both lists and edits both
// schema files (TestSchemasAgree and TestUpgradeListsAgree hold them
// together).
var postgresUpgrades = []string{}

// postgresApplication is what the marker table's application column holds
// in a replaylab database.
const postgresApplication = "replaylab"

// Advisory locks are taken in pg_advisory_lock's (int, int) space as
// (applicationID + kind, hash of the schema's name): the first half keeps
// them apart from other programs' locks on the same server, the second
// keeps replaylab databases in other schemas of the same database from
// waiting for each other.
const (
	writeLock = applicationID + 1 // held by every write transaction (pg_advisory_xact_lock)
	refitLock = applicationID + 2 // held by the process refitting ratings (DB.RefitLock)
)

// lockKey is the second half of every advisory lock key, in SQL.
const lockKey = "hashtext(current_schema())"

// connectTries bounds how often Open tries to reach the server before it
// gives up: a server restarting is worth a few seconds, one that does not
// exist is not worth waiting for.
const connectTries = 3

// connectTimeout bounds each try, unless the URL or PGCONNECT_TIMEOUT
// sets its own.
const connectTimeout = 5 * time.Second

// openPostgres is Open for a PostgreSQL database.
func openPostgres(ctx context.Context, name string) (*DB, error) {
	cfg, err := pgx.ParseConfig(postgresURL(name))
	if err != nil {
		return nil, fmt.Errorf("open database: %w: %v", ErrInvalid, err)
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectTimeout
	}
	db := &DB{path: postgresName(cfg), postgres: true}
	connector := postgresConnector{stdlib.GetConnector(*cfg)}
	db.write = sql.OpenDB(connector)
	// One writer connection, as for SQLite: writes exclude each other
	// anyway (beginWrite), and the ingest statements are prepared once.
	db.write.SetMaxOpenConns(1)
	if err := connectPostgres(ctx, db.write, db.path); err != nil {
		db.write.Close()
		return nil, err
	}
	if err := db.migrate(ctx, db.path); err != nil {
		db.write.Close()
		if errors.Is(err, ErrNotReplaylab) || errors.Is(err, ErrSchemaTooNew) {
			return nil, err
		}
		return nil, fmt.Errorf("open %s: %w", db.path, err)
	}
	if db.ingest, err = prepareIngest(ctx, db.write); err != nil {
		db.write.Close()
		return nil, fmt.Errorf("open %s: %w", db.path, err)
	}
	db.read = sql.OpenDB(connector)
	db.read.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	return db, nil
}

// DisplayName returns how messages name the database at path: a file's
// path as given, a PostgreSQL database as a URL without its password.
func DisplayName(path string) string {
	if !IsPostgres(path) {
		return path
	}
	cfg, err := pgx.ParseConfig(postgresURL(path))
	if err != nil {
		return "a PostgreSQL database (its URL does not parse)"
	}
	return postgresName(cfg)
}

// postgresName names a database in messages: its user, host, port and
// database, never its password.
func postgresName(cfg *pgx.ConnConfig) string {
	return fmt.Sprintf("postgres://%s@%s/%s", cfg.User, net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), cfg.Database)
}

// connectPostgres pings the server up to connectTries times, a second
// apart, and says which server it could not reach.
func connectPostgres(ctx context.Context, db *sql.DB, name string) error {
	var err error
	for try := 1; try <= connectTries; try++ {
		if err = db.PingContext(ctx); err == nil {
			return nil
		}
		if try < connectTries {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
	return fmt.Errorf("open %s: cannot reach the PostgreSQL server (tried %d times): %w", name, connectTries, err)
}

// classifyPostgres reads the marker table and the table names of the
// current schema in tx and refuses a database Open must not take: tables
// without the marker, or a marker of another application or of a newer
// version.
func classifyPostgres(ctx context.Context, tx *sql.Tx, name string) (dbState, error) {
	var st dbState
	rows, err := tx.QueryContext(ctx, `
		SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)
	if err != nil {
		return st, err
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return st, err
		}
		tables = append(tables, t)
	}
	if err := rows.Err(); err != nil {
		return st, err
	}
	switch {
	case len(tables) == 0:
		return st, nil
	case !slices.Contains(tables, "replaylab_schema"):
		return st, fmt.Errorf("%w: %s (its schema has another program's tables)", ErrNotReplaylab, name)
	}
	var app string
	err = tx.QueryRowContext(ctx, `SELECT application, version FROM replaylab_schema WHERE id = 1`).Scan(&app, &st.version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return st, fmt.Errorf("%w: %s (its replaylab_schema table is empty)", ErrNotReplaylab, name)
	case err != nil:
		return st, err
	case app != postgresApplication:
		return st, fmt.Errorf("%w: %s (its replaylab_schema names %q)", ErrNotReplaylab, name, app)
	case st.version > schemaVersion:
		return st, fmt.Errorf("open %s: schema version %d, this build knows up to %d: %w", name, st.version, schemaVersion, ErrSchemaTooNew)
	}
	st.stamped = true
	return st, nil
}

// migratePostgres brings the schema in tx from version v (0: empty) to
// schemaVersion and records it in the marker table.
func migratePostgres(ctx context.Context, tx *sql.Tx, v int) error {
	if v == 0 {
		if _, err := tx.ExecContext(ctx, replaylab.SchemaPostgres); err != nil {
			return fmt.Errorf("create schema version %d: %w", postgresBase, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO replaylab_schema (id, application, version) VALUES (1, ?, ?)`,
			postgresApplication, postgresBase); err != nil {
			return err
		}
		v = postgresBase
	}
	for i := v; i < schemaVersion; i++ {
		if _, err := tx.ExecContext(ctx, postgresUpgrades[i-postgresBase]); err != nil {
			return fmt.Errorf("migrate schema to version %d: %w", i+1, err)
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE replaylab_schema SET version = ? WHERE id = 1`, schemaVersion)
	return err
}

// beginWrite starts a write transaction. SQLite's writer connection takes
// the file's write lock at BEGIN; on PostgreSQL every write transaction of
// every process takes one advisory lock, so that, as on SQLite, one match
// is stored at a time: ingest's existence check stays true until its
// commit, and the triggers' upserts of shared aggregate rows never
// deadlock. Waiting for it is bounded by busyTimeout, after which the
// write fails with ErrBusy (busyIf).
func (db *DB) beginWrite(ctx context.Context) (*sql.Tx, error) {
	return db.beginWriteWait(ctx, busyTimeout)
}

func (db *DB) beginWriteWait(ctx context.Context, wait time.Duration) (*sql.Tx, error) {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil || !db.postgres {
		return tx, err
	}
	// One round trip: the time-out (SET LOCAL's) for this transaction,
	// then the lock.
	if _, err := tx.ExecContext(ctx, `SELECT set_config('lock_timeout', ?, true), pg_advisory_xact_lock(?, `+lockKey+`)`,
		strconv.FormatInt(wait.Milliseconds(), 10), writeLock); err != nil {
		tx.Rollback()
		return nil, err
	}
	return tx, nil
}

// RefitLock waits until this process is the one refitting ratings and
// returns the function that ends that. On PostgreSQL it holds a session
// advisory lock on a connection of its own, so of any number of servers
// on one database exactly one refits at a time, and a server that dies
// loses the lock with its connection. An SQLite database has one writer
// process at a time anyway, and the lock is a no-op.
func (db *DB) RefitLock(ctx context.Context) (unlock func(), err error) {
	if !db.postgres {
		return func() {}, nil
	}
	conn, err := db.read.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("refit lock: %w", err)
	}
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(?, `+lockKey+`)`, refitLock); err != nil {
		conn.Close()
		return nil, fmt.Errorf("refit lock: %w", busyIf(err))
	}
	return func() {
		var unlocked bool
		err := conn.QueryRowContext(context.Background(), `SELECT pg_advisory_unlock(?, `+lockKey+`)`, refitLock).Scan(&unlocked)
		if err != nil || !unlocked {
			// The session may still hold the lock: end it rather than
			// return it to the pool.
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}, nil
}

// healthPostgres is Health for a PostgreSQL database: the server answers,
// takes writes (it is no read-only standby) and gives the write lock
// within healthWait.
func (db *DB) healthPostgres(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, healthWait)
	defer cancel()
	var ro string
	if err := db.write.QueryRowContext(ctx, `SHOW transaction_read_only`).Scan(&ro); err != nil {
		return fmt.Errorf("%w: %v", ErrUnhealthy, err)
	}
	if ro == "on" {
		return fmt.Errorf("%w: %w: the server takes no writes (a standby?)", ErrUnhealthy, ErrReadOnly)
	}
	tx, err := db.beginWriteWait(ctx, healthWait)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnhealthy, busyIf(err))
	}
	return tx.Rollback()
}

// postgresBusy reports whether err is PostgreSQL's way of saying that a
// lock could not be had in time, or that a transaction lost a race and may
// be retried.
func postgresBusy(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && slices.Contains([]string{
		"55P03", // lock_not_available: lock_timeout ran out
		"40P01", // deadlock_detected
		"40001", // serialization_failure
	}, pe.Code)
}

// postgresConnector makes connections that take the store's SQLite-style
// placeholders.
type postgresConnector struct{ driver.Connector }

func (c postgresConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return postgresConn{conn.(*stdlib.Conn)}, nil
}

// postgresConn is pgx's connection with every query's placeholders
// rewritten from SQLite's "?" and "?N" to PostgreSQL's "$N"
// (postgresPlaceholders). Everything else it does is pgx's own.
type postgresConn struct{ *stdlib.Conn }

func (c postgresConn) Prepare(query string) (driver.Stmt, error) {
	return c.Conn.Prepare(postgresPlaceholders(query))
}

func (c postgresConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, postgresPlaceholders(query))
}

func (c postgresConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, postgresPlaceholders(query), args)
}

func (c postgresConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, postgresPlaceholders(query), args)
}

// postgresPlaceholders rewrites the placeholders of an SQLite query for
// PostgreSQL: "?N" becomes "$N" and each bare "?" the next "$N". Question
// marks in string literals, quoted names, comments and dollar-quoted
// bodies stay as they are.
func postgresPlaceholders(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var sb strings.Builder
	sb.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(query[i+1:], c)
			if end < 0 {
				sb.WriteString(query[i:])
				return sb.String()
			}
			sb.WriteString(query[i : i+end+2])
			i += end + 1
		case c == '-' && strings.HasPrefix(query[i:], "--"):
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				end = len(query) - i
			}
			sb.WriteString(query[i : i+end])
			i += end - 1
		case c == '$' && strings.HasPrefix(query[i:], "$$"):
			end := strings.Index(query[i+2:], "$$")
			if end < 0 {
				sb.WriteString(query[i:])
				return sb.String()
			}
			sb.WriteString(query[i : i+end+4])
			i += end + 3
		case c == '?':
			j := i + 1
			for j < len(query) && query[j] >= '0' && query[j] <= '9' {
				j++
			}
			if j > i+1 {
				sb.WriteString("$" + query[i+1:j])
				i = j - 1
			} else {
				n++
				sb.WriteString("$" + strconv.Itoa(n))
			}
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
