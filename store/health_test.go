package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHealth(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		spoil func(t *testing.T, db *DB, path string) // makes the database unable to take a write
		msg   string
	}{
		{"writes refused by SQLite", func(t *testing.T, db *DB, path string) {
			// The writer is one connection, so the pragma stays on it.
			if _, err := db.write.Exec("PRAGMA query_only = 1"); err != nil {
				t.Fatal(err)
			}
		}, "readonly"},
		{"write lock held by another program", func(t *testing.T, db *DB, path string) {
			other, err := sql.Open("sqlite3", path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { other.Close() })
			conn, err := other.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close() })
			if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.ExecContext(ctx, "ROLLBACK") })
		}, ""},
		{"file made read-only", func(t *testing.T, db *DB, path string) {
			if err := os.Chmod(path, 0o444); err != nil {
				t.Fatal(err)
			}
			if writable(path) {
				t.Skip("chmod does not stop writes here (running as root?)")
			}
		}, "read-only"},
	}
	// A short wait, far below the writer's own busy timeout (5 s, checked
	// below), so that a Health that waited that out is told from one that
	// waited its own bound even on a loaded machine, where a 2 s wait once
	// took 4.8 s.
	defer func(w time.Duration) { healthWait = w }(healthWait)
	healthWait = 200 * time.Millisecond
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.db")
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.Health(ctx); err != nil {
				t.Fatalf("Health of a fresh database: %v", err)
			}
			var busy int
			if err := db.write.QueryRow("PRAGMA busy_timeout").Scan(&busy); err != nil || busy != 5000 {
				t.Fatalf("writer's busy_timeout after Health: got %d, %v; want 5000 (restored)", busy, err)
			}
			tt.spoil(t, db, path)
			start := time.Now()
			err = db.Health(ctx)
			if !errors.Is(err, ErrUnhealthy) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Health: got %v, want ErrUnhealthy saying %q", err, tt.msg)
			}
			if err != nil && strings.Contains(err.Error(), path) {
				t.Errorf("Health: got %q, want no path in it", err)
			}
			if d := time.Since(start); d >= 5*time.Second {
				t.Errorf("Health took %v: it waited out the writer's busy timeout, not its own %v", d, healthWait)
			}
		})
	}
}
