package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestOpenAppliesSchema(t *testing.T) {
	db := openTest(t)
	var version int
	if err := db.read.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if version != schemaVersion {
		t.Errorf("user_version: got %d, want %d", version, schemaVersion)
	}
	for _, table := range tables {
		var n int
		err := db.read.QueryRow("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", table).Scan(&n)
		if err != nil || n != 1 {
			t.Errorf("table %s: got %d, %v; want 1, nil", table, n, err)
		}
	}
}

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "replaylab.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	mustIngest(t, db, makeRecord(t, recordSpec{id: testID(1), turns: 10, winner: 0}))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = OpenExisting(ctx, path)
	if err != nil {
		t.Fatalf("OpenExisting: %v", err)
	}
	defer db.Close()
	if n, err := db.CountMatches(ctx); n != 1 || err != nil {
		t.Errorf("CountMatches after reopening: got %d, %v; want 1, nil", n, err)
	}
}

func TestOpenExistingMissingFile(t *testing.T) {
	_, err := OpenExisting(context.Background(), filepath.Join(t.TempDir(), "missing.db"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenExisting of a missing file: got %v, want fs.ErrNotExist", err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "future.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	db, err = Open(ctx, path)
	if err == nil {
		db.Close()
	}
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open: got %v, want ErrSchemaTooNew", err)
	}
	raw, _ = sql.Open("sqlite3", path)
	defer raw.Close()
	var v int
	if err := raw.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != 99 {
		t.Errorf("user_version after refusing: got %d, %v; want 99 (untouched)", v, err)
	}
}

func TestOpenPathNeedingEscapes(t *testing.T) {
	// A path is not a URI: '?', '#' and '%' must reach SQLite as file name
	// characters, not as the start of a query, fragment or escape.
	path := filepath.Join(t.TempDir(), "what?#100%.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	db.Close()
	if _, err := OpenExisting(context.Background(), path); err != nil {
		t.Errorf("OpenExisting(%q): %v", path, err)
	}
}

// TestPragmasOnEveryConnection holds several connections of each pool at
// once, so each is a separate SQLite connection, and asks each for its
// settings.
func TestPragmasOnEveryConnection(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	want := map[string]string{
		"journal_mode": "wal",
		"foreign_keys": "1",
		"synchronous":  "1", // NORMAL
		"busy_timeout": "5000",
	}
	type pooled struct {
		name     string
		conn     *sql.Conn
		readOnly bool
	}
	var conns []pooled
	w, err := db.write.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	conns = append(conns, pooled{"writer", w, false})
	for i := range 4 {
		c, err := db.read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, pooled{"reader " + string(rune('0'+i)), c, true})
	}
	defer func() {
		for _, c := range conns {
			c.conn.Close()
		}
	}()
	for _, c := range conns {
		for pragma, w := range want {
			var got string
			if err := c.conn.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
				t.Fatalf("%s: PRAGMA %s: %v", c.name, pragma, err)
			}
			if got != w {
				t.Errorf("%s: PRAGMA %s: got %s, want %s", c.name, pragma, got, w)
			}
		}
		_, err := c.conn.ExecContext(ctx, "CREATE TABLE scratch (x INTEGER)")
		if c.readOnly && (err == nil || !strings.Contains(err.Error(), "readonly")) {
			t.Errorf("%s: CREATE TABLE: got %v, want a read-only error", c.name, err)
		}
		if !c.readOnly && err != nil {
			t.Errorf("%s: CREATE TABLE: %v", c.name, err)
		}
	}
}

// TestReadsDuringWrite checks that readers see the last committed state,
// without waiting, while the writer is in the middle of a transaction.
func TestReadsDuringWrite(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	a := makeRecord(t, recordSpec{id: testID(1), turns: 50, units: 1, winner: 0})
	b := makeRecord(t, recordSpec{id: testID(2), turns: 50, units: 1, winner: 1})
	mustIngest(t, db, a)

	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if created, err := ingest(ctx, tx, b, time.Now()); err != nil || !created {
		t.Fatalf("ingest in an open transaction: got %v, %v", created, err)
	}

	// Well below the busy timeout: a reader that waited for the writer
	// would fail here instead of passing late.
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if n, err := db.CountMatches(rctx); n != 1 || err != nil {
		t.Errorf("CountMatches during the write: got %d, %v; want 1, nil", n, err)
	}
	if _, err := db.Match(rctx, b.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Match of the uncommitted match: got %v, want ErrNotFound", err)
	}
	if ls, err := db.Series(rctx, a.ID, 0); err != nil || len(ls[0]) != 2*2 {
		t.Errorf("Series of the committed match: got %v, %v; want 4 lines, nil", ls, err)
	}

	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n, err := db.CountMatches(ctx); n != 2 || err != nil {
		t.Errorf("CountMatches after commit: got %d, %v; want 2, nil", n, err)
	}
}

// TestConcurrentReadsAndWrites runs readers in a loop while matches are
// ingested: no reader may fail or see part of a match.
func TestConcurrentReadsAndWrites(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	const matches = 6
	recs := make([]*Record, matches)
	for i := range recs {
		recs[i] = makeRecord(t, recordSpec{id: testID(i), turns: 400, units: 2, winner: 0})
	}
	perMatch := 2 * 3 // metric 1 applies to both players and their 2 units

	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				ms, total, err := db.Matches(ctx, MatchFilter{})
				if err != nil {
					t.Errorf("Matches: %v", err)
					return
				}
				if len(ms) != total {
					t.Errorf("Matches: got %d of %d", len(ms), total)
				}
				for _, m := range ms {
					ls, err := db.Series(ctx, m.ID, 1)
					if err != nil || len(ls[0]) != perMatch {
						t.Errorf("Series of visible match %s: got %v, %v; want %d lines", m.ID, ls, err, perMatch)
						return
					}
				}
			}
		})
	}
	for _, rec := range recs {
		if _, err := db.Ingest(ctx, rec); err != nil {
			t.Errorf("Ingest: %v", err)
		}
	}
	close(done)
	wg.Wait()
	if n, err := db.CountMatches(ctx); n != matches || err != nil {
		t.Errorf("CountMatches: got %d, %v; want %d, nil", n, err, matches)
	}
}

// TestOpenUpgradesVersion1 opens a database of schema version 1 with a
// match: the upgrade keeps the replay, drops the match it cannot convert
// and leaves the same tables and columns as a fresh database.
func TestOpenUpgradesVersion1(t *testing.T) {
	ctx := context.Background()
	v1, err := os.ReadFile(filepath.Join("testdata", "schema-v1.sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v1.db")
	old, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = old.Exec(string(v1) + `;
		PRAGMA user_version = 1;
		INSERT INTO replays VALUES ('` + testID(1) + `', 'toad', 'classic', 1, '{}', x'00', 0);
		INSERT INTO matches VALUES (1, '` + testID(1) + `', 'toad', 'classic', 1, 0, 'won', 'old', 1, 0);
		INSERT INTO turn_stats (match_seq, turn, seat, unit, alive, hp) VALUES (1, 0, 0, -1, 1, 20);`)
	old.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer db.Close()
	counts := map[string]int{}
	for _, table := range []string{"replays", "matches"} {
		var n int
		if err := db.read.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		counts[table] = n
	}
	if counts["replays"] != 1 || counts["matches"] != 0 {
		t.Errorf("after the upgrade: %v, want the replay kept and no match", counts)
	}
	fresh := openTest(t)
	if got, want := schemaOf(t, db), schemaOf(t, fresh); got != want {
		t.Errorf("upgraded schema:\n%s\nwant as fresh:\n%s", got, want)
	}
}

// schemaOf describes a database's tables and their columns.
func schemaOf(t *testing.T, db *DB) string {
	t.Helper()
	rows, err := db.read.Query(`SELECT m.name, p.name, p.type, p."notnull", p.pk FROM sqlite_schema m, pragma_table_info(m.name) p
		WHERE m.type = 'table' ORDER BY m.name, p.cid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	var version int
	for rows.Next() {
		var table, col, typ string
		var notNull, pk int
		if err := rows.Scan(&table, &col, &typ, &notNull, &pk); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s.%s %s notnull=%d pk=%d\n", table, col, typ, notNull, pk)
	}
	if err := db.read.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "user_version %d\n", version)
	return b.String()
}
