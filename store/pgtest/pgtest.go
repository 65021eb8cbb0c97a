// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema on the server that REPLAYLAB_TEST_POSTGRES names, dropped when
// the test ends. Without that variable its tests skip, and only those.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// Env is the environment variable that names the test server: a
// postgres:// URL, or "postgres:" for the PG* environment (what
// pg_virtualenv sets).
const Env = "REPLAYLAB_TEST_POSTGRES"

var (
	adminOnce sync.Once
	admin     *sql.DB
	adminErr  error
)

// server returns the test server's URL (without a database schema) and a
// connection to it, skipping t when Env is not set.
func server(t testing.TB) (string, *sql.DB) {
	t.Helper()
	base := os.Getenv(Env)
	if base == "" {
		t.Skipf("PostgreSQL: set %s to a postgres:// URL (or postgres: for the PG* environment) to run", Env)
	}
	if base == "postgres:" {
		base = "postgres://"
	}
	adminOnce.Do(func() {
		admin, adminErr = sql.Open("pgx", base)
		if adminErr == nil {
			adminErr = admin.Ping()
		}
	})
	if adminErr != nil {
		t.Fatalf("%s=%s: %v", Env, os.Getenv(Env), adminErr)
	}
	return base, admin
}

// Fresh creates an empty schema on the test server and returns a --db URL
// whose connections use it (search_path), dropping it, with everything in
// it, when t ends.
func Fresh(t testing.TB) string {
	t.Helper()
	base, db := server(t)
	var b [6]byte
	rand.Read(b[:])
	schema := "replaylab_test_" + hex.EncodeToString(b[:])
	// The name is ours, of hex digits: no quoting needed.
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}

// Exec runs statements on the test server as its administrator, for
// tests that break a connection or change what the store cannot.
func Exec(t testing.TB, query string, args ...any) {
	t.Helper()
	_, db := server(t)
	if _, err := db.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
