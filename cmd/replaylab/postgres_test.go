package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/store/pgtest"
)

// TestPostgresTwoServers runs two servers on one PostgreSQL database, as
// a stateless deployment behind a load balancer would: both answer the
// same, and a match uploaded through one is in the other's kept pages at
// once, because the data version that keys them is read from the
// database. import and export work on the same database.
func TestPostgresTwoServers(t *testing.T) {
	db := pgtest.Fresh(t)
	dir := t.TempDir()
	first, second := filepath.Join(dir, "a.rpl"), filepath.Join(dir, "b.rpl")
	mustCLI(t, "record", "--game", "toad", "--seed", "3", "--bot", "builtin:astar", "-o", first)
	mustCLI(t, "record", "--game", "toad", "--seed", "4", "--bot", "builtin:random", "-o", second)
	if out := mustCLI(t, "import", "--db", db, first); !strings.Contains(out, "imported 1 new matches") {
		t.Fatalf("import into PostgreSQL: %s", out)
	}
	a, _, _, stopA := startServe(t, "--db", db)
	defer stopA()
	b, _, _, stopB := startServe(t, "--db", db)
	defer stopB()

	bots := func(base string) string {
		t.Helper()
		return getPage(t, base+"/api/v1/bots")
	}
	if ga, gb := bots(a), bots(b); ga != gb || !strings.Contains(ga, "astar") || strings.Contains(ga, "random") {
		t.Fatalf("/api/v1/bots differs between the servers, or does not list astar alone:\n%s\n%s", ga, gb)
	}

	body, err := os.ReadFile(second)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Post(a+"/api/v1/replays", "application/octet-stream", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusOK {
		t.Fatalf("upload through the first server: %s", res.Status)
	}
	// The second server kept its /api/v1/bots answer above; it must not
	// serve it again now that the data changed.
	if gb := bots(b); !strings.Contains(gb, "random") {
		t.Errorf("second server after an upload through the first: %s, want the uploaded bot random", gb)
	}
	var list struct {
		Total   int
		Matches []struct{ ID string }
	}
	getJSON(t, b+"/api/v1/matches", &list)
	if list.Total != 2 || len(list.Matches) != 2 {
		t.Fatalf("second server's matches: %+v, want 2", list)
	}
	for _, base := range []string{a, b} {
		getPage(t, base+"/healthz")
	}
	out := mustCLI(t, "export", "--db", db, "--match", list.Matches[0].ID, "--format", "jsonl")
	if line, _, _ := strings.Cut(out, "\n"); !json.Valid([]byte(line)) {
		t.Errorf("export from PostgreSQL: not JSON lines: %.200s", out)
	}
}

// TestPostgresUnreachable checks that a command whose database cannot be
// reached fails with a message that says so, and a non-zero exit.
func TestPostgresUnreachable(t *testing.T) {
	code, _, errOut := cli(t, "export", "--db", "postgres://nobody@127.0.0.1:1/replaylab?connect_timeout=1", "--match", "abc")
	if code == 0 || !strings.Contains(errOut, "cannot reach the PostgreSQL server") {
		t.Errorf("export from an unreachable server: exit %d, stderr %q; want non-zero and a cannot-reach message", code, errOut)
	}
}
