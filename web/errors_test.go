package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/store"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		want     int
		internal bool
		body     string // the answer's text when not the error's own
	}{
		{"not found here", notFound("game toad has no metric %q", "mana"), http.StatusNotFound, false, ""},
		{"not found in storage", fmt.Errorf("export: %w", &store.Error{Kind: store.ErrNotFound, Msg: "gone"}), http.StatusNotFound, false, ""},
		{"ambiguous", &store.Error{Kind: store.ErrAmbiguous, Msg: "ambiguous"}, http.StatusBadRequest, false, ""},
		{"invalid", &store.Error{Kind: store.ErrInvalid, Msg: "no metrics"}, http.StatusBadRequest, false, ""},
		{"bad input", badInput("turn %q", "x"), http.StatusBadRequest, false, ""},
		{"stale stored match", fmt.Errorf("frame 420 of abc: %w", &replay.DivergenceError{Turn: 100, Want: 1, Got: 2}), http.StatusConflict, false,
			"the stored replay does not regenerate with this build's engine: turn 100: state hash 0000000000000002, the recording has 0000000000000001: regeneration diverged from the recorded match"},
		{"stored match of an older revision", fmt.Errorf("frame 420 of abc: %w", &replay.Error{Reason: "recorded with an older engine revision of toad/classic (r1; this build plays r2), ...", Err: replay.ErrOldRevision}),
			http.StatusUnprocessableEntity, false, "recorded with an older engine revision of toad/classic (r1; this build plays r2), ..."},
		{"newer schema", fmt.Errorf("open: %w", store.ErrSchemaTooNew), http.StatusInternalServerError, true, ""},
		{"canceled", context.Canceled, http.StatusInternalServerError, true, ""},
		{"anything else", errors.New("disk full"), http.StatusInternalServerError, true, ""},
	}
	for _, tt := range tests {
		status, body, internal := classify(tt.err)
		if status != tt.want || internal != tt.internal {
			t.Errorf("%s: got %d (internal %v), want %d (internal %v)", tt.name, status, internal, tt.want, tt.internal)
		}
		want := tt.body
		if want == "" {
			want = tt.err.Error()
		}
		if !internal && body.Error != want {
			t.Errorf("%s: body %q, want %q", tt.name, body.Error, want)
		}
	}
}

// TestBusyAnswers: every answer that asks the client to come back has a
// Retry-After, and none is logged as a server fault.
func TestBusyAnswers(t *testing.T) {
	for _, tt := range []struct {
		err   error
		retry string
	}{
		{errBusy, retryAfter},
		{errMemoryBusy, retryAfter},
		{errBodiesBusy, retryAfter},
		{fmt.Errorf("ingest: %w", &store.Error{Kind: store.ErrBusy, Msg: "the database is busy"}), busyRetryAfter},
		{echo.NewHTTPError(http.StatusServiceUnavailable, "something else"), ""},
	} {
		status, _, internal := classify(tt.err)
		if got := retryAfterOf(tt.err); got != tt.retry || status != http.StatusServiceUnavailable || internal != (tt.retry == "") {
			t.Errorf("%v: got Retry-After %q, status %d, server fault %v; want %q, 503, %v", tt.err, got, status, internal, tt.retry, tt.retry == "")
		}
	}
}
