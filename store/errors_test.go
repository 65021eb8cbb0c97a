package store

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
)

func TestHTTPStatus(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"no error", nil, http.StatusOK},
		{"not found", notFoundf("match %s not found", "x"), http.StatusNotFound},
		{"wrapped not found", fmt.Errorf("export: %w", notFoundf("gone")), http.StatusNotFound},
		{"ambiguous", &Error{Kind: ErrAmbiguous, Msg: "ambiguous"}, http.StatusBadRequest},
		{"invalid", invalidf("bad key"), http.StatusBadRequest},
		{"newer schema", fmt.Errorf("open: %w", ErrSchemaTooNew), http.StatusInternalServerError},
		{"canceled", context.Canceled, http.StatusInternalServerError},
		{"anything else", errors.New("disk full"), http.StatusInternalServerError},
	}
	for _, tt := range tests {
		if got := HTTPStatus(tt.err); got != tt.want {
			t.Errorf("%s: HTTPStatus(%v): got %d, want %d", tt.name, tt.err, got, tt.want)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	err := error(invalidf("unknown metric key %q", "bogus"))
	if got, want := err.Error(), `unknown metric key "bogus"`; got != want {
		t.Errorf("Error(): got %q, want %q", got, want)
	}
}
