package web

import (
	"context"
	"database/sql"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/store"
)

// TestHealthz answers healthz while the database can take a write and after
// something stops it from taking one.
func TestHealthz(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, path string) // stops writes to the database at path
		want  string
	}{
		{"write lock held by another program", func(t *testing.T, path string) {
			other, err := sql.Open("sqlite3", path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { other.Close() })
			conn, err := other.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close() })
			if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
				t.Fatal(err)
			}
		}, "database is locked"},
		{"database file made read-only", func(t *testing.T, path string) {
			if err := os.Chmod(path, 0o444); err != nil {
				t.Fatal(err)
			}
			if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
				f.Close()
				t.Skip("chmod does not stop writes here (running as root?)")
			}
		}, "read-only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "web.db")
			db, err := store.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			e, err := New(Config{DB: db, Addr: testAddr})
			if err != nil {
				t.Fatal(err)
			}
			if status, body := serveGet(t, e, "/healthz"); status != http.StatusOK || string(body) != "ok\n" {
				t.Fatalf("healthz: got %d %q, want 200 ok", status, body)
			}
			tt.spoil(t, path)
			status, body := serveGet(t, e, "/healthz")
			if status != http.StatusServiceUnavailable || !strings.Contains(string(body), tt.want) || strings.Contains(string(body), path) {
				t.Errorf("healthz: got %d %q; want 503 saying %q without the path", status, body, tt.want)
			}
		})
	}
}
