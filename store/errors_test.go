package store

import "testing"

func TestErrorMessage(t *testing.T) {
	err := error(invalidf("unknown frame %q", "bogus"))
	if got, want := err.Error(), `unknown frame "bogus"`; got != want {
		t.Errorf("Error(): got %q, want %q", got, want)
	}
}
