package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/store"
	"github.com/replaylab/replaylab/web"
)

// maxPageHTML is the most HTML a match page, or a fork's branch view, may
// send (issue 26): the key charts' numbers on the page, the others fetched
// when opened.
const maxPageHTML = 150_000

// TestDemoPageSizes serves the demo's matches and checks that the page of
// the longest match of each game and setup, and the branch view of a fork
// of the longest FoodFight TEAM match, stay under maxPageHTML.
func TestDemoPageSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("records the whole demo; not in -short")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	buildAll(ctx, 2, demoPlan(), recordDemo, func(m demoMatch, rec *store.Record, err error) {
		if err == nil {
			_, err = db.Ingest(ctx, rec)
		}
		if err != nil {
			t.Errorf("%s seed %d: %v", m.game.Name, m.seed, err)
		}
	})
	all, _, err := db.Matches(ctx, store.MatchFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	longest := map[string]store.MatchSummary{} // by game and config
	for _, m := range all {
		k := m.Game + " " + string(m.Config)
		if l, ok := longest[k]; !ok || m.Turns > l.Turns {
			longest[k] = m
		}
	}
	h, err := web.New(web.Config{DB: db, Addr: pagesAddr})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for k, m := range longest {
		n := pageSize(t, srv.URL+"/matches/"+m.ID)
		t.Logf("%s: match %.16s, %d turns: %d bytes", k, m.ID, m.Turns, n)
		if n > maxPageHTML {
			t.Errorf("%s: the page of match %.16s (%d turns) is %d bytes, want at most %d", k, m.ID, m.Turns, n, maxPageHTML)
		}
	}
	team := longest[`foodfight {"match_type":"TEAM"}`]
	if team.ID == "" {
		t.Fatalf("no FoodFight TEAM match among %d", len(longest))
	}
	body := `{"turn":300,"bots":[{"seat_index":2,"bot":"thrower"}]}`
	res := send(t, http.MethodPost, srv.URL+"/api/v1/matches/"+team.ID+"/forks", strings.NewReader(body))
	defer res.Body.Close()
	var fork struct{ ID string }
	if err := json.NewDecoder(res.Body).Decode(&fork); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("fork: status %d, %v", res.StatusCode, err)
	}
	n := pageSize(t, srv.URL+"/matches/"+fork.ID+"/branch")
	t.Logf("branch view of fork %.16s: %d bytes", fork.ID, n)
	if n > maxPageHTML {
		t.Errorf("the branch view of a FoodFight TEAM fork is %d bytes, want at most %d", n, maxPageHTML)
	}
}

// pagesAddr is the address the test's server says it listens on, whose
// name its requests carry: the server answers only its own names.
const pagesAddr = "127.0.0.1:8080"

// send makes a request to the test's server, uncompressed.
func send(t *testing.T, method, url string, body io.Reader) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = pagesAddr
	req.Header.Set("Accept-Encoding", "identity")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// pageSize gets a page and returns the bytes of its HTML, uncompressed.
func pageSize(t *testing.T, url string) int {
	t.Helper()
	res := send(t, http.MethodGet, url, nil)
	defer res.Body.Close()
	var b bytes.Buffer
	if _, err := io.Copy(&b, res.Body); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d: %.300s", url, res.StatusCode, b.String())
	}
	return b.Len()
}
