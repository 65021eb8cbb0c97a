package web

import (
	"compress/gzip"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/store"
)

func TestSummaryCache(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	first := syntheticRecord(t, 3, 1)
	first.ID = "abcdef01" + strings.Repeat("1", 56)
	if _, err := db.Ingest(ctx, first); err != nil {
		t.Fatal(err)
	}
	var c summaryCache
	for _, id := range []string{first.ID[:8], first.ID[:16], strings.ToUpper(first.ID[:16]), first.ID} {
		m, err := c.match(ctx, db, id)
		if err != nil || m.ID != first.ID {
			t.Fatalf("match(%s): got %s, %v; want %s", id, m.ID, err, first.ID)
		}
	}
	if len(c.m) != 2 {
		t.Errorf("cached %d entries, want 2 (the 16-digit prefix and the full id)", len(c.m))
	}

	// A second match sharing the 8-digit prefix makes it ambiguous: short
	// prefixes are never answered from memory.
	second := syntheticRecord(t, 3, 1)
	second.ID = "abcdef01" + strings.Repeat("2", 56)
	if _, err := db.Ingest(ctx, second); err != nil {
		t.Fatal(err)
	}
	if _, err := c.match(ctx, db, first.ID[:8]); !errors.Is(err, store.ErrAmbiguous) {
		t.Errorf("8-digit prefix after a second match: got %v, want ErrAmbiguous", err)
	}
	if _, err := c.match(ctx, db, "0000000000000000"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id: got %v, want ErrNotFound", err)
	}
	if len(c.m) != 2 {
		t.Errorf("a failed lookup was cached: %d entries", len(c.m))
	}
}

// getPage GETs url from e, taking gzip when gzipped is set, and returns
// the answer and its body, decompressed.
func getPage(t *testing.T, e *echo.Echo, url string, gzipped bool) (*httptest.ResponseRecorder, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, url, nil)
	req.Host = testAddr
	if gzipped {
		req.Header.Set(echo.HeaderAcceptEncoding, "gzip")
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	var body io.Reader = rec.Body
	if rec.Header().Get(echo.HeaderContentEncoding) == "gzip" {
		if !gzipped {
			t.Fatalf("GET %s: gzip sent to a client that does not take it", url)
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		body = zr
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return rec, string(b)
}

// TestPageCacheRendersOncePerVersion counts a kept route's renderings: one
// per data version and encoding, none for a repeated request, and every
// time for an answer that is not a 200.
func TestPageCacheRendersOncePerVersion(t *testing.T) {
	db := openDB(t)
	renders := 0
	e := echo.New()
	e.Use(newPageCache(db, nil).keep, middleware.GzipWithConfig(middleware.GzipConfig{MinLength: 1024}))
	e.GET("/bots", func(c echo.Context) error {
		renders++
		switch c.QueryParam("fail") {
		case "error":
			return errors.New("render failed")
		case "status":
			return c.String(http.StatusNotFound, "no such page")
		}
		c.Response().Header().Set("X-Render", fmt.Sprint(renders))
		return c.String(http.StatusOK, strings.Repeat(fmt.Sprintf("rendering %d of /bots\n", renders), 100))
	})
	ingestNth := func(n int) func() {
		return func() {
			if _, err := db.Ingest(context.Background(), syntheticRecord(t, n, 1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, step := range []struct {
		name    string
		before  func()
		url     string
		gzipped bool
		status  int
		renders int // renderings so far
		render  int // the rendering the body must be
	}{
		{"first request", nil, "/bots", false, 200, 1, 1},
		{"the same again", nil, "/bots", false, 200, 1, 1},
		{"gzipped", nil, "/bots", true, 200, 2, 2},
		{"gzipped again", nil, "/bots", true, 200, 2, 2},
		{"another query", nil, "/bots?x=1", false, 200, 3, 3},
		{"after a new match", ingestNth(3), "/bots", false, 200, 4, 4},
		{"the same again after it", nil, "/bots", false, 200, 4, 4},
		{"gzipped after it", nil, "/bots", true, 200, 5, 5},
		{"after a second match", ingestNth(4), "/bots", true, 200, 6, 6},
		{"a failure", nil, "/bots?fail=error", false, 500, 7, 0},
		{"the failure again", nil, "/bots?fail=error", false, 500, 8, 0},
		{"a 404", nil, "/bots?fail=status", false, 404, 9, 0},
		{"the 404 again", nil, "/bots?fail=status", false, 404, 10, 0},
	} {
		if step.before != nil {
			step.before()
		}
		res, body := getPage(t, e, step.url, step.gzipped)
		if res.Code != step.status {
			t.Errorf("%s: got status %d, want %d", step.name, res.Code, step.status)
		}
		if renders != step.renders {
			t.Errorf("%s: got %d renderings, want %d", step.name, renders, step.renders)
		}
		if want := fmt.Sprintf("rendering %d of", step.render); step.render > 0 && !strings.HasPrefix(body, want) {
			t.Errorf("%s: got body %.40q, want rendering %d", step.name, body, step.render)
		}
		if got, want := res.Header().Get("X-Render"), fmt.Sprint(step.render); step.render > 0 && got != want {
			t.Errorf("%s: got header X-Render %q, want %q", step.name, got, want)
		}
	}
}

// TestKeptPagesFollowTheData changes the stored matches and ratings under
// a running server: every kept page shows each change on the next request.
func TestKeptPagesFollowTheData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kept.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ingest(t, db, recordToad(t, 1, "astar", "astar", `{"turns":20}`))
	e, err := New(Config{DB: db, Addr: testAddr})
	if err != nil {
		t.Fatal(err)
	}
	pages := []string{"/", "/bots", "/api/v1/bots", "/api/v1/ratings", "/api/v1/ratings?format=csv"}
	check := func(t *testing.T, urls []string, want, notWant string) {
		t.Helper()
		for _, url := range urls {
			for _, gzipped := range []bool{false, true} {
				// Twice: the second answer is the kept one.
				for range 2 {
					res, body := getPage(t, e, url, gzipped)
					if res.Code != http.StatusOK {
						t.Fatalf("GET %s: got status %d, want 200", url, res.Code)
					}
					if cd := res.Header().Get(echo.HeaderContentDisposition); strings.Contains(url, "format=csv") && !strings.Contains(cd, "attachment") {
						t.Errorf("GET %s (gzip %v): got Content-Disposition %q, want an attachment", url, gzipped, cd)
					}
					if want != "" && !strings.Contains(body, want) {
						t.Errorf("GET %s (gzip %v): body lacks %q", url, gzipped, want)
					}
					if notWant != "" && strings.Contains(body, notWant) {
						t.Errorf("GET %s (gzip %v): body has %q", url, gzipped, notWant)
					}
				}
			}
		}
	}
	const newcomer = "newcomer"
	check(t, pages, "", newcomer)
	id := ingest(t, db, recordToad(t, 2, "astar", newcomer, `{"turns":20}`))
	t.Run("new match", func(t *testing.T) {
		check(t, slices.Concat(pages[:3], []string{"/bots/toad/" + newcomer, "/api/v1/bots/toad/" + newcomer}), newcomer, "")
	})
	t.Run("refit", func(t *testing.T) {
		// River Toad has one seat: its fit stores the problem it met.
		if err := analytics.NewRefitter(db, slog.New(slog.DiscardHandler)).Refit(ctx); err != nil {
			t.Fatal(err)
		}
		check(t, pages[3:], "Not enough matches to rate", "")
	})
	t.Run("deleted match", func(t *testing.T) {
		raw, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on&_busy_timeout=5000")
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		if _, err := raw.Exec(`DELETE FROM replays WHERE id = ?`, id); err != nil {
			t.Fatal(err)
		}
		check(t, pages[:3], "", newcomer)
	})
}

// TestKeptPagesAreRoutes catches a kept route that names no route, which
// would leave its page rendered on every request.
func TestKeptPagesAreRoutes(t *testing.T) {
	e, err := New(Config{DB: openDB(t), Addr: testAddr})
	if err != nil {
		t.Fatal(err)
	}
	routes := map[string]bool{}
	for _, r := range e.Routes() {
		if r.Method == http.MethodGet {
			routes[r.Path] = true
		}
	}
	for _, p := range keptPages {
		if !routes[p] {
			t.Errorf("kept page %s: no GET route has that path", p)
		}
	}
}

// TestPageCacheBounds fills the cache past its bounds and across
// versions: it keeps at most pageCacheEntries answers and pageCacheBytes
// bytes, counts its bytes right, drops an older version's answers and
// never takes an answer older than those it holds.
func TestPageCacheBounds(t *testing.T) {
	pc := newPageCache(nil, nil)
	check := func(t *testing.T, version int64) {
		t.Helper()
		sum := 0
		for _, p := range pc.pages {
			sum += len(p.body)
		}
		if pc.size != sum || pc.size > pageCacheBytes || len(pc.pages) > pageCacheEntries || pc.version != version {
			t.Errorf("got %d answers, %d bytes counted, %d held, version %d; want at most %d answers and %d bytes, counted right, version %d",
				len(pc.pages), pc.size, sum, pc.version, pageCacheEntries, pageCacheBytes, version)
		}
	}
	put := func(version int64, n, size int) {
		for i := range n {
			pc.put(pageKey{uri: fmt.Sprintf("/bots?i=%d", i)}, version, &sentPage{body: make([]byte, size)})
		}
	}
	t.Run("many tiny answers", func(t *testing.T) {
		put(1, pageCacheEntries+10, 3)
		check(t, 1)
		if len(pc.pages) != pageCacheEntries {
			t.Errorf("got %d answers, want %d", len(pc.pages), pageCacheEntries)
		}
	})
	t.Run("large answers", func(t *testing.T) {
		put(1, pageCacheBytes/maxKeptPage+3, maxKeptPage)
		check(t, 1)
	})
	t.Run("the same answers again", func(t *testing.T) {
		put(1, 5, 100)
		check(t, 1)
	})
	t.Run("an older version", func(t *testing.T) {
		before := len(pc.pages)
		pc.put(pageKey{uri: "/old"}, 0, &sentPage{body: []byte("old")})
		check(t, 1)
		if _, ok := pc.get(pageKey{uri: "/old"}, 0); ok || len(pc.pages) != before {
			t.Errorf("an answer of an older version was kept")
		}
	})
	t.Run("a newer version", func(t *testing.T) {
		put(2, 1, 10)
		check(t, 2)
		if len(pc.pages) != 1 {
			t.Errorf("got %d answers after a newer version's, want 1", len(pc.pages))
		}
		if _, ok := pc.get(pageKey{uri: "/bots?i=0"}, 1); ok {
			t.Errorf("an answer was served to a request of another version")
		}
	})
}
