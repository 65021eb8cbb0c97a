package main

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestProgressOffTerminal checks that off a terminal progress prints one
// line per tenth of the work, with the rate and the time left.
func TestProgressOffTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, 40, "tournament", "matches")
	for range 40 {
		p.step()
	}
	p.done()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 10 {
		t.Fatalf("got %d lines, want 10:\n%s", len(lines), buf.String())
	}
	line := regexp.MustCompile(`^tournament: (\d+)/40 \((\d+)%\), [\d.]+ matches/s, ETA \d`)
	for i, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil || m[1] != strconv.Itoa(4*(i+1)) || m[2] != strconv.Itoa(10*(i+1)) {
			t.Errorf("line %d: got %q, want %d/40 (%d%%) with a rate and an ETA", i, l, 4*(i+1), 10*(i+1))
		}
	}
}
