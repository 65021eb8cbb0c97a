package web

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/internal/heavy"
	"github.com/replaylab/replaylab/regen"
)

// TestMemoryAtTheLeast: a server given the least memory it accepts
// refuses an upload that needs more than its budget, saying which flag
// sets it, yet serves the turns and the text of the largest match stored
// (by a server with more memory), and takes ordinary uploads.
func TestMemoryAtTheLeast(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes replays of 64 MiB")
	}
	if _, err := New(Config{DB: openDB(t), Addr: testAddr, MaxMemory: MinMaxMemory - 1}); err == nil {
		t.Error("New with less than MinMaxMemory: want an error")
	}
	f := newFixture(t, func(c *Config) { c.MaxMemory = MinMaxMemory })
	big, err := heavy.Toad(1, heavy.MaxTurns)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := big.Encode()
	if err != nil {
		t.Fatal(err)
	}
	stored, err := heavy.Toad(2, heavy.MaxTurns)
	if err != nil {
		t.Fatal(err)
	}
	id := ingest(t, f.db, stored)
	fresh, _ := f.encodeFresh(t)
	for _, sc := range []scenario{
		{name: "largest upload", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, status: 413,
			want: []string{"needs about", "--max-memory"}},
		{name: "ordinary upload", method: http.MethodPost, url: "/api/v1/replays", body: fresh.Bytes, status: 201},
		{name: "largest match's turn", url: "/api/v1/matches/" + id + "/turns/9000", status: 200, want: []string{`"turn":9000`}},
		{name: "largest match's text", url: "/api/v1/matches/" + id + "/replay.rlog", status: 200, want: []string{"9000\t2-8999-xxx"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}

// TestMemoryFault: a budget that stays full is 503 with Retry-After, and
// no server fault; a stored match larger than the budget is 503 without
// it, an upload 413; other errors pass unchanged.
func TestMemoryFault(t *testing.T) {
	s := &server{log: slog.New(slog.DiscardHandler)}
	other := errors.New("other")
	tooLarge := fmt.Errorf("replay x: %w", &regen.TooLargeError{Need: 300 << 20, Limit: 288 << 20})
	for _, tt := range []struct {
		name, method string
		err          error
		status       int
		retry        bool
	}{
		{"busy view", http.MethodGet, fmt.Errorf("replay x: %w", regen.ErrBusy), 503, true},
		{"busy upload", http.MethodPost, regen.ErrBusy, 503, true},
		{"stored too large", http.MethodGet, tooLarge, 503, false},
		{"upload too large", http.MethodPost, tooLarge, 413, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			c := echo.New().NewContext(httptest.NewRequest(tt.method, "/api/v1/x", nil), rec)
			err := s.memoryFault(c, tt.err)
			status, body, internal := classify(err)
			if status != tt.status || internal != (status == 503 && !tt.retry) {
				t.Errorf("got %d (server fault %v), want %d", status, internal, tt.status)
			}
			s.handleError(err, c) // the one place that answers, headers included
			if got := rec.Header().Get("Retry-After") != ""; got != tt.retry {
				t.Errorf("Retry-After set: %v, want %v", got, tt.retry)
			}
			if !strings.Contains(body.Error, "--max-memory") {
				t.Errorf("error %q does not name --max-memory", body.Error)
			}
		})
	}
	c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/", nil), httptest.NewRecorder())
	if err := s.memoryFault(c, other); err != other {
		t.Errorf("memoryFault(other): got %v, want it unchanged", err)
	}
	if err := s.memoryFault(c, nil); err != nil {
		t.Errorf("memoryFault(nil): got %v, want nil", err)
	}
}
