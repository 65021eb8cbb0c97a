package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// TestContentBound: Encode sizes the body with contentBound, which must be
// at least what writeContent writes, also for commands that are all
// literals, long ones and a dictionary grown past 2^15 symbols.
func TestContentBound(t *testing.T) {
	h := Header{Format: FormatV1, Game: "toad", Config: []byte(`{"turns":100000}`), Players: []Player{{Name: "a"}}}
	cases := map[string]func(i int) string{
		"empty":    func(int) string { return "" },
		"repeated": func(int) string { return "R" },
		"distinct": func(i int) string { return fmt.Sprint(i) },
		"long":     func(i int) string { return fmt.Sprint(i) + strings.Repeat("x", 200) },
	}
	for name, cmd := range cases {
		t.Run(name, func(t *testing.T) {
			l := &Log{Header: h}
			for i := range 40000 {
				l.Turns = append(l.Turns, []string{cmd(i)})
				if i%7 == 0 {
					l.Notes = append(l.Notes, Note{Turn: i + 1, Seat: 0, Kind: sim.EventTimeout})
				}
			}
			g, err := l.Check()
			if err != nil {
				t.Fatal(err)
			}
			var sb strings.Builder
			w := &bodyWriter{w: &sb}
			l.writeContent(w, g.Alphabet)
			if bound := contentBound(l); bound < w.n {
				t.Errorf("contentBound = %d, writeContent wrote %d", bound, w.n)
			}
		})
	}
}
