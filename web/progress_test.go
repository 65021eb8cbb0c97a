package web

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestOverviewFill shows a running fill's progress on the overview, never
// from the page cache, and nothing of it once the fill ends.
func TestOverviewFill(t *testing.T) {
	fill := new(Fill)
	f := newFixture(t, func(c *Config) { c.Fill = fill })
	get := func(t *testing.T) *httptest.ResponseRecorder {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Host = testAddr
		rec := httptest.NewRecorder()
		f.e.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET /: got %d, want 200", rec.Code)
		}
		return rec
	}
	if body := get(t).Body.String(); strings.Contains(body, "Loading demo matches") || strings.Contains(body, `http-equiv="refresh"`) {
		t.Errorf("before the fill starts, the overview shows it:\n%s", body)
	}
	fill.Start(60)
	for i, tt := range []struct {
		err  error
		want string
	}{
		{nil, "Loading demo matches: 1/60."},
		{nil, "Loading demo matches: 2/60."},
		{errors.New("bot crashed"), "Loading demo matches: 3/60 (1 failed)."},
	} {
		fill.Step(tt.err)
		rec := get(t)
		body := rec.Body.String()
		if !strings.Contains(body, tt.want) {
			t.Errorf("step %d: the overview lacks %q", i+1, tt.want)
		}
		if !strings.Contains(body, `<meta http-equiv="refresh" content="2">`) {
			t.Errorf("step %d: the overview does not reload itself", i+1)
		}
		if got := rec.Header().Get("Cache-Control"); got != "no-store" {
			t.Errorf("step %d: Cache-Control %q, want no-store", i+1, got)
		}
	}
	fill.Finish()
	if body := get(t).Body.String(); strings.Contains(body, "Loading demo matches") || strings.Contains(body, `http-equiv="refresh"`) {
		t.Errorf("after the fill, the overview still shows it")
	}
}
