package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/store/pgtest"
)

func TestIsPostgres(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"postgres:", true},
		{"postgres://", true},
		{"postgres://u@db.example:5433/replaylab", true},
		{"postgresql://db.example/replaylab", true},
		{"postgres:?search_path=x", true},
		{"replaylab.db", false},
		{"./postgres:x", false},
		{"/tmp/postgres.db", false},
	} {
		if got := IsPostgres(tc.name); got != tc.want {
			t.Errorf("IsPostgres(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	for in, want := range map[string]string{
		"postgres:":                "postgres://",
		"postgres:?search_path=x":  "postgres://?search_path=x",
		"postgresql://h/db":        "postgresql://h/db",
		"postgres://u:p@h:1/db?x=": "postgres://u:p@h:1/db?x=",
	} {
		if got := postgresURL(in); got != want {
			t.Errorf("postgresURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPostgresPlaceholders(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 1":                            "SELECT 1",
		"SELECT ? , ?":                        "SELECT $1 , $2",
		"VALUES (?1, ?2, ?1, ?12)":            "VALUES ($1, $2, $1, $12)",
		"SELECT '?', \"a?\", ? -- what?\n, ?": "SELECT '?', \"a?\", $1 -- what?\n, $2",
		"SELECT 'it''s ?', ?":                 "SELECT 'it''s ?', $1",
		"DO $$ BEGIN PERFORM '?'; END $$; ?":  "DO $$ BEGIN PERFORM '?'; END $$; $1",
		"SELECT 'unterminated ?":              "SELECT 'unterminated ?",
		"WHERE a = ? AND b IN (?, ?) LIMIT ?": "WHERE a = $1 AND b IN ($2, $3) LIMIT $4",
	} {
		if got := postgresPlaceholders(in); got != want {
			t.Errorf("postgresPlaceholders(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestUpgradeListsAgree holds the two backends' upgrade lists to one
// schema version: a schema change appends to both.
func TestUpgradeListsAgree(t *testing.T) {
	if got := postgresBase + len(postgresUpgrades); got != schemaVersion {
		t.Errorf("PostgreSQL schema reaches version %d (base %d + %d upgrades), SQLite's %d: add the PostgreSQL upgrade",
			got, postgresBase, len(postgresUpgrades), schemaVersion)
	}
}

// sqlTypes maps SQLite's column types to PostgreSQL's (see
// schema_postgres.sql).
var sqlTypes = map[string]string{"INTEGER": "bigint", "REAL": "double precision", "TEXT": "text", "BLOB": "bytea"}

// TestSchemasAgree opens a fresh database of each backend and compares
// their tables, columns (name, type, NOT NULL) and indexes, so that
// schema.sql and schema_postgres.sql cannot drift apart.
func TestSchemasAgree(t *testing.T) {
	lite := openTest(t)
	pg := openAt(t, pgtest.Fresh(t))
	var want []string
	for _, r := range queryRows(t, lite, `SELECT m.name, p.name, p.type, p."notnull" + p.pk FROM sqlite_schema m, pragma_table_info(m.name) p
		WHERE m.type = 'table' ORDER BY m.name, p.name`) {
		notNull := r[3].(int64) > 0
		want = append(want, fmt.Sprintf("column %s.%s %s notnull=%v", r[0], r[1], sqlTypes[r[2].(string)], notNull))
	}
	for _, r := range queryRows(t, lite, `SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`) {
		want = append(want, fmt.Sprintf("index %s on %s", r[0], r[1]))
	}
	var got []string
	for _, r := range queryRows(t, pg, `SELECT table_name, column_name, data_type, is_nullable = 'NO' FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name <> 'replaylab_schema' ORDER BY table_name, column_name`) {
		got = append(got, fmt.Sprintf("column %s.%s %s notnull=%v", r[0], r[1], r[2], r[3]))
	}
	for _, r := range queryRows(t, pg, `SELECT indexname, tablename FROM pg_indexes WHERE schemaname = current_schema()
		AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY indexname`) {
		got = append(got, fmt.Sprintf("index %s on %s", r[0], r[1]))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PostgreSQL schema differs from SQLite's:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// TestOpenPostgresRefuses checks that Open takes an empty schema or a
// replaylab one, and leaves any other untouched: tables without the
// marker, a marker of another program, a newer schema.
func TestOpenPostgresRefuses(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		setup []string
		want  error
	}{
		{"foreign tables", []string{`CREATE TABLE accounts (id int)`}, ErrNotReplaylab},
		{"foreign marker", []string{`CREATE TABLE replaylab_schema (id int PRIMARY KEY, application text, version int)`,
			`INSERT INTO replaylab_schema VALUES (1, 'other', 1)`}, ErrNotReplaylab},
		{"empty marker", []string{`CREATE TABLE replaylab_schema (id int PRIMARY KEY, application text, version int)`}, ErrNotReplaylab},
		{"newer schema", []string{`CREATE TABLE replaylab_schema (id int PRIMARY KEY, application text, version int)`,
			fmt.Sprintf(`INSERT INTO replaylab_schema VALUES (1, 'replaylab', %d)`, schemaVersion+1)}, ErrSchemaTooNew},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := pgtest.Fresh(t)
			schema := url[strings.LastIndex(url, "=")+1:]
			for _, s := range tc.setup {
				pgtest.Exec(t, `SET search_path = `+schema+`; `+s)
			}
			db, err := Open(ctx, url)
			if err == nil {
				db.Close()
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Open: got %v, want %v", err, tc.want)
			}
			if strings.Contains(err.Error(), "password") {
				t.Errorf("Open: message %q names a password", err)
			}
			// Untouched: no table of ours was added.
			probe := openAt(t, pgtest.Fresh(t))
			var n int
			if err := probe.read.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables
				WHERE table_schema = ? AND table_name = 'matches'`, schema).Scan(&n); err != nil || n != 0 {
				t.Errorf("tables named matches in the refused schema: %d, %v; want 0", n, err)
			}
		})
	}
}

// TestOpenPostgresUnreachable points Open at a port where nothing
// listens: it must give up after its few tries, saying so.
func TestOpenPostgresUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = Open(ctx, "postgres://nobody:secret@"+addr+"/replaylab?sslmode=disable")
	if err == nil || !strings.Contains(err.Error(), "cannot reach the PostgreSQL server") || ctx.Err() != nil {
		t.Fatalf("Open: got %v, want a cannot-reach error before the test's deadline", err)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("Open: message %q shows the password", err)
	}
}

// TestLostConnectionMidWrite ends the writer's server process in the
// middle of a write, as a crashed server or a cut network would: storing
// a match, and saving a refit's ratings (a server that dies mid-refit).
// The write must land whole or not at all, and the next one must find a
// working connection.
func TestLostConnectionMidWrite(t *testing.T) {
	ctx := context.Background()
	rec := makeRecord(t, recordSpec{id: testID(1), turns: 2000, units: 3, winner: 0})
	fit := func(db *DB) *FittedRatings {
		f := &FittedRatings{Game: "worms", Ruleset: "base", Matches: 1, LastSeq: 1, FittedAt: time.UnixMilli(1)}
		var ids []int64
		if err := db.Placings(ctx, "worms", "base", func(m MatchPlacings) error {
			for _, p := range m.Seats {
				ids = append(ids, p.BotID)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for upto := 1; upto <= 500; upto++ {
			for _, id := range ids {
				f.History = append(f.History, RatedAt{upto, Rated{id, 1500, 1400, 1600, 1}})
			}
		}
		return f
	}
	for _, tc := range []struct {
		name   string
		before func(*DB)                // what is stored before the write
		write  func(*DB, *sql.Tx) error // the write cut off
		tables []string                 // that must be as before it
		again  func(*DB) error          // the same write, on a new connection
	}{
		{"ingest", func(*DB) {},
			func(db *DB, tx *sql.Tx) error { _, err := db.ingest.ingest(ctx, tx, rec, time.Now()); return err },
			[]string{"replays", "matches", "match_players", "match_lines", "match_events", "bot_records", "data_version"},
			func(db *DB) error { _, err := db.Ingest(ctx, rec); return err }},
		{"save ratings", func(db *DB) { mustIngest(t, db, rec) },
			func(db *DB, tx *sql.Tx) error { return saveRatings(ctx, tx, fit(db)) },
			[]string{"rating_fits", "ratings", "rating_history", "data_version"},
			func(db *DB) error { return db.SaveRatings(ctx, fit(db)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openAt(t, pgtest.Fresh(t))
			tc.before(db)
			before := map[string][][]any{}
			for _, table := range tc.tables {
				before[table] = queryRows(t, db, "SELECT * FROM "+table)
			}
			tx, err := db.beginWrite(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var pid int
			if err := tx.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
				t.Fatal(err)
			}
			if err := tc.write(db, tx); err != nil {
				t.Fatalf("the write: %v", err)
			}
			pgtest.Exec(t, `SELECT pg_terminate_backend($1)`, pid)
			if err := tx.Commit(); err == nil {
				t.Fatal("Commit after the connection was ended: got nil, want an error")
			}
			for _, table := range tc.tables {
				if got := queryRows(t, db, "SELECT * FROM "+table); !reflect.DeepEqual(got, before[table]) {
					t.Errorf("%s after the lost commit: %d rows, want the %d from before", table, len(got), len(before[table]))
				}
			}
			if err := tc.again(db); err != nil {
				t.Fatalf("the same write after the lost connection: %v", err)
			}
		})
	}
}

// TestLostConnectionMidImport ends the server process of a bulk import's
// connection while it holds the write lock, as a cut network would: the
// import fails, and none of its matches is stored (or, had the end come
// after the commit, all of them).
func TestLostConnectionMidImport(t *testing.T) {
	db := openAt(t, pgtest.Fresh(t))
	ctx := context.Background()
	recs := make([]*Record, 20)
	for i := range recs {
		recs[i] = makeRecord(t, recordSpec{id: testID(i), turns: 2000, units: 3, winner: 0})
	}
	done := make(chan struct{})
	killed := make(chan int, 1) // the pid ended, 0 when the import was over first
	go func() {
		// The writer holds the advisory write lock for its whole
		// transaction (beginWrite): end the process that holds it.
		for {
			var pid int
			err := db.read.QueryRowContext(ctx, `SELECT pid FROM pg_locks
				WHERE `+advisoryLock+` AND granted`, writeLock).Scan(&pid)
			if err == nil {
				_, err = db.read.ExecContext(ctx, `SELECT pg_terminate_backend(?)`, pid)
				if err != nil {
					t.Errorf("pg_terminate_backend(%d): %v", pid, err)
				}
				killed <- pid
				return
			}
			select {
			case <-done:
				killed <- 0
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	n, err := db.IngestMany(ctx, recs)
	close(done)
	pid := <-killed
	if pid == 0 {
		t.Skip("the import was over before its connection could be ended")
	}
	stored, cerr := db.CountMatches(ctx)
	if cerr != nil {
		t.Fatalf("CountMatches after the lost connection: %v", cerr)
	}
	switch {
	case err != nil && stored == 0:
		t.Logf("import through backend %d ended mid-transaction: %v; nothing stored", pid, err)
	case err == nil && n == len(recs) && stored == len(recs):
		t.Logf("backend %d ended after the commit: all %d stored", pid, stored)
	default:
		t.Fatalf("IngestMany: %d, %v; %d matches stored; want all or none", n, err, stored)
	}
}

// advisoryLock is the pg_locks condition that picks the advisory lock of
// this schema whose first key half is the query's argument.
const advisoryLock = `locktype = 'advisory' AND classid = ? AND objid = (` + lockKey + `::bigint & 4294967295)::oid`

// TestRefitLockExclusive opens one PostgreSQL database twice, as two
// servers would: while one holds the refit lock, the other waits for it,
// and gets it once the first lets go.
func TestRefitLockExclusive(t *testing.T) {
	url := pgtest.Fresh(t)
	a, b := openAt(t, url), openAt(t, url)
	ctx := context.Background()
	unlockA, err := a.RefitLock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan func(), 1)
	go func() {
		unlockB, err := b.RefitLock(ctx)
		if err != nil {
			t.Error(err)
			unlockB = func() {}
		}
		got <- unlockB
	}()
	// Wait until the server shows b waiting for the lock a holds.
	for waiting := 0; waiting == 0; {
		if err := a.read.QueryRowContext(ctx, `SELECT count(*) FROM pg_locks
			WHERE `+advisoryLock+` AND NOT granted`, refitLock).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		select {
		case unlockB := <-got:
			unlockB()
			t.Fatal("the second process took the refit lock the first holds")
		default:
			time.Sleep(10 * time.Millisecond)
		}
	}
	unlockA()
	(<-got)()
}
