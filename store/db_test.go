package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
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
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			path := b.fresh(t)
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
		})
	}
}

func TestOpenExistingMissingFile(t *testing.T) {
	_, err := OpenExisting(context.Background(), filepath.Join(t.TempDir(), "missing.db"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenExisting of a missing file: got %v, want fs.ErrNotExist", err)
	}
}

// rawExec runs statements on the file at path through a plain connection,
// as another program would.
func rawExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, s := range stmts {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// rawPragma reads one PRAGMA of the file at path through a read-only
// connection to its main file, which creates no -wal or -shm file (so
// journal_mode always says "delete": see journalMode).
func rawPragma(t *testing.T, path, pragma string) string {
	t.Helper()
	raw, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var v string
	if err := raw.QueryRow("PRAGMA " + pragma).Scan(&v); err != nil {
		t.Fatalf("PRAGMA %s: %v", pragma, err)
	}
	return v
}

// journalMode reads the journal mode an SQLite file's header records: its
// read and write versions (bytes 18 and 19) are 2 in WAL mode. It is ""
// for what is not an SQLite file.
func journalMode(data []byte) string {
	switch {
	case !bytes.HasPrefix(data, []byte("SQLite format 3\x00")) || len(data) < 20:
		return ""
	case data[18] == 2 && data[19] == 2:
		return "wal"
	}
	return "rollback"
}

// makeDB creates a replaylab database at path and closes it.
func makeDB(t *testing.T, path string) {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// makeV1DB creates at path a database of schema version 1 as the builds
// before application_id and series made them.
func makeV1DB(t *testing.T, path string) {
	t.Helper()
	v1, err := os.ReadFile(filepath.Join("testdata", "schema-v1.sql"))
	if err != nil {
		t.Fatal(err)
	}
	rawExec(t, path, string(v1), "PRAGMA user_version = 1")
}

// fileState is what "untouched" means for a database file: its bytes, its
// modification time and whether SQLite files appeared beside it.
type fileState struct {
	data    []byte
	mtime   time.Time
	sidecar []string
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fileState{data: data, mtime: fi.ModTime()}
	for _, ext := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(path + ext); err == nil {
			st.sidecar = append(st.sidecar, ext)
		}
	}
	return st
}

func TestOpenRefusesUntouched(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  error
		msg   string
	}{
		{
			name: "another program's database",
			setup: func(t *testing.T, path string) {
				rawExec(t, path, "CREATE TABLE notes (body TEXT)", "INSERT INTO notes VALUES ('keep me')")
			},
			want: ErrNotReplaylab, msg: "not a replaylab database: ",
		},
		{
			// Read-only connections to a WAL database create its -wal
			// and -shm files, which then stay.
			name: "another program's database in WAL mode",
			setup: func(t *testing.T, path string) {
				rawExec(t, path, "PRAGMA journal_mode = WAL", "CREATE TABLE notes (body TEXT)", "INSERT INTO notes VALUES ('keep me')")
			},
			want: ErrNotReplaylab, msg: "not a replaylab database: ",
		},
		{
			name: "another program's database with replaylab's tables",
			setup: func(t *testing.T, path string) {
				makeDB(t, path)
				rawExec(t, path, "PRAGMA journal_mode = DELETE", "PRAGMA application_id = 42")
			},
			want: ErrNotReplaylab, msg: "not a replaylab database: ",
		},
		{
			name: "not an SQLite file",
			setup: func(t *testing.T, path string) {
				if err := os.WriteFile(path, []byte(strings.Repeat("not a database\n", 300)), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			want: ErrNotReplaylab, msg: "not a replaylab database: ",
		},
		{
			name: "newer schema",
			setup: func(t *testing.T, path string) {
				makeDB(t, path)
				// A rollback journal, so that a switch to WAL would show.
				rawExec(t, path, "PRAGMA journal_mode = DELETE", "PRAGMA user_version = 99")
			},
			want: ErrSchemaTooNew, msg: "schema version 99",
		},
		{
			name: "newer schema from before application_id",
			setup: func(t *testing.T, path string) {
				makeDB(t, path)
				rawExec(t, path, "PRAGMA journal_mode = DELETE", "PRAGMA application_id = 0", "PRAGMA user_version = 99")
			},
			want: ErrNotReplaylab, msg: "not a replaylab database: ",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.db")
			tt.setup(t, path)
			before := stateOf(t, path)
			journal := journalMode(before.data)
			// A coarse file system clock would hide a write.
			time.Sleep(20 * time.Millisecond)

			db, err := Open(context.Background(), path)
			if err == nil {
				db.Close()
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Open: got %v, want %v with %q", err, tt.want, tt.msg)
			}
			if errors.Is(tt.want, ErrNotReplaylab) && !strings.Contains(err.Error(), path) {
				t.Errorf("Open: got %q, want the file named", err)
			}
			after := stateOf(t, path)
			if !bytes.Equal(after.data, before.data) || !after.mtime.Equal(before.mtime) || !slices.Equal(after.sidecar, before.sidecar) {
				t.Errorf("file changed: got %d bytes, mtime %v, sidecar files %v; want %d bytes, mtime %v, %v",
					len(after.data), after.mtime, after.sidecar, len(before.data), before.mtime, before.sidecar)
			}
			if got := journalMode(after.data); got != journal {
				t.Errorf("journal mode: got %s, want %s (untouched)", got, journal)
			}
		})
	}
}

func TestOpenTakes(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
	}{
		{"no file", func(t *testing.T, path string) {}},
		{"empty file", func(t *testing.T, path string) {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"empty SQLite database", func(t *testing.T, path string) {
			rawExec(t, path, "CREATE TABLE scratch (x)", "DROP TABLE scratch")
		}},
		{"database of an older build, without application_id", makeV1DB},
		{"database of this build", func(t *testing.T, path string) { makeDB(t, path) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.db")
			tt.setup(t, path)
			db, err := Open(context.Background(), path)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if _, err := db.CountMatches(context.Background()); err != nil {
				t.Errorf("CountMatches: %v", err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if got, want := rawPragma(t, path, "application_id"), strconv.Itoa(applicationID); got != want {
				t.Errorf("application_id: got %s, want %s", got, want)
			}
			if got, want := rawPragma(t, path, "user_version"), strconv.Itoa(schemaVersion); got != want {
				t.Errorf("user_version: got %s, want %s", got, want)
			}
		})
	}
}

// TestOpenReadOnly makes the file, or its directory, read-only with chmod.
// Root writes whatever the mode says, so there the test skips rather than
// pretend: it checks first that the mode really stops a write.
func TestOpenReadOnly(t *testing.T) {
	tests := []struct {
		name     string
		readOnly func(dir, path string) (string, error) // returns the name made read-only
	}{
		{"file", func(dir, path string) (string, error) { return path, os.Chmod(path, 0o444) }},
		{"directory", func(dir, path string) (string, error) { return dir, os.Chmod(dir, 0o555) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.db")
			makeDB(t, path)
			name, err := tt.readOnly(dir, path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(name, 0o755) })
			if writable(name) {
				t.Skipf("chmod does not stop writes to %s here (running as root?)", name)
			}
			db, err := Open(context.Background(), path)
			if err == nil {
				db.Close()
			}
			if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "read-only") {
				t.Errorf("Open: got %v, want ErrReadOnly saying read-only", err)
			}
		})
	}
}

// writable reports whether a file can be opened for writing, or a file
// created in a directory.
func writable(name string) bool {
	fi, err := os.Stat(name)
	if err != nil {
		return false
	}
	if !fi.IsDir() {
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err == nil {
			f.Close()
		}
		return err == nil
	}
	f, err := os.CreateTemp(name, "probe")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
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
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		a := makeRecord(t, recordSpec{id: testID(1), turns: 50, units: 1, winner: 0})
		b := makeRecord(t, recordSpec{id: testID(2), turns: 50, units: 1, winner: 1})
		mustIngest(t, db, a)

		tx, err := db.write.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if created, err := db.ingest.ingest(ctx, tx, b, time.Now()); err != nil || !created {
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
	})
}

// TestConcurrentReadsAndWrites runs readers in a loop while matches are
// ingested: no reader may fail or see part of a match.
func TestConcurrentReadsAndWrites(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
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
	})
}

// TestOpenUpgradesVersion1 opens a database of schema version 1 with a
// match: the upgrade keeps the replay, drops the match it cannot convert
// and leaves the same tables and columns as a fresh database.
func TestOpenUpgradesVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	makeV1DB(t, path)
	rawExec(t, path, `
		INSERT INTO replays VALUES ('`+testID(1)+`', 'toad', 'classic', 1, '{}', x'00', 0);
		INSERT INTO matches VALUES (1, '`+testID(1)+`', 'toad', 'classic', 1, 0, 'won', 'old', 1, 0);
		INSERT INTO turn_stats (match_seq, turn, seat, unit, alive, hp) VALUES (1, 0, 0, -1, 1, 20);
		INSERT INTO events VALUES (1, 1, 0, 0, -1, 'spawn', -1, 0, 0, 0, '');
		INSERT INTO frames VALUES (1, 0, 1, x'00');`)
	db := openUpgraded(t, path)
	counts := countRows(t, db, "replays", "matches", "match_events")
	if want := map[string]int{"replays": 1, "matches": 0, "match_events": 0}; !reflect.DeepEqual(counts, want) {
		t.Errorf("after the upgrade: %v, want the replay kept and nothing derived from it (%v)", counts, want)
	}
	if ids, err := db.UnmatchedReplays(ctx); err != nil || !reflect.DeepEqual(ids, []string{testID(1)}) {
		t.Errorf("UnmatchedReplays: got %v, %v; want the replay, to regenerate", ids, err)
	}
}

// TestOpenUpgradesVersion2 opens a database of schema version 2 with a
// match: the upgrade drops the stored frames and keeps everything else.
func TestOpenUpgradesVersion2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	makeV1DB(t, path)
	rawExec(t, path, upgrades[0], "PRAGMA user_version = 2", fmt.Sprintf("PRAGMA application_id = %d", applicationID), `
		INSERT INTO replays VALUES ('`+testID(1)+`', 'toad', 'classic', 1, '{}', x'00', 0);
		INSERT INTO matches VALUES (1, '`+testID(1)+`', 'toad', 'classic', 1, 0, 'won', 'old', 1, 0);
		INSERT INTO series VALUES (1, -1, 0, -1, x'00');
		INSERT INTO events VALUES (1, 1, 0, 0, -1, 'spawn', -1, 0, 0, 0, '');
		INSERT INTO frames VALUES (1, 0, 1, x'00');`)
	db := openUpgraded(t, path)
	counts := countRows(t, db, "replays", "matches", "match_lines", "match_events")
	if want := map[string]int{"replays": 1, "matches": 1, "match_lines": 1, "match_events": 1}; !reflect.DeepEqual(counts, want) {
		t.Errorf("after the upgrade: %v, want everything but the frames kept (%v)", counts, want)
	}
}

// openUpgraded opens the database at path, which upgrades it, and checks
// that it then has the same tables and columns as a fresh database.
func openUpgraded(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if got, want := schemaOf(t, db), schemaOf(t, openTest(t)); got != want {
		t.Errorf("upgraded schema:\n%s\nwant as fresh:\n%s", got, want)
	}
	return db
}

// countRows returns how many rows each table holds.
func countRows(t *testing.T, db *DB, tables ...string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, table := range tables {
		var n int
		if err := db.read.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		counts[table] = n
	}
	return counts
}

// schemaOf describes a database's tables and their columns, indexes and
// triggers.
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
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// Indexes and triggers by name and SQL text, which SQLite keeps as
	// written, so an upgrade must create them as schema.sql does.
	for _, r := range queryRows(t, db, `SELECT type, name, coalesce(sql, '') FROM sqlite_schema WHERE type IN ('index', 'trigger') ORDER BY name`) {
		fmt.Fprintf(&b, "%s %s %s\n", r[0], r[1], strings.Join(strings.Fields(r[2].(string)), " "))
	}
	if err := db.read.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "user_version %d\n", version)
	return b.String()
}
