package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/replaylab/replaylab/store"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		want     int
		internal bool
	}{
		{"not found here", notFound("game toad has no metric %q", "mana"), http.StatusNotFound, false},
		{"not found in storage", fmt.Errorf("export: %w", &store.Error{Kind: store.ErrNotFound, Msg: "gone"}), http.StatusNotFound, false},
		{"ambiguous", &store.Error{Kind: store.ErrAmbiguous, Msg: "ambiguous"}, http.StatusBadRequest, false},
		{"invalid", &store.Error{Kind: store.ErrInvalid, Msg: "no metrics"}, http.StatusBadRequest, false},
		{"bad input", badInput("turn %q", "x"), http.StatusBadRequest, false},
		{"newer schema", fmt.Errorf("open: %w", store.ErrSchemaTooNew), http.StatusInternalServerError, true},
		{"canceled", context.Canceled, http.StatusInternalServerError, true},
		{"anything else", errors.New("disk full"), http.StatusInternalServerError, true},
	}
	for _, tt := range tests {
		status, body, internal := classify(tt.err)
		if status != tt.want || internal != tt.internal {
			t.Errorf("%s: got %d (internal %v), want %d (internal %v)", tt.name, status, internal, tt.want, tt.internal)
		}
		if !internal && body.Error != tt.err.Error() {
			t.Errorf("%s: body %q, want the error's message", tt.name, body.Error)
		}
	}
}
