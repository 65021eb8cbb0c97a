package careerfair

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestFrameAppendJSON: a frame's own encoding is encoding/json's, byte
// for byte, at every step of whole matches of every pair of built-in bots
// (booths with queues and talkers, events, the end), and for the empty
// slices a frame can hold.
func TestFrameAppendJSON(t *testing.T) {
	check := func(t *testing.T, f *Frame) {
		t.Helper()
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.AppendJSON([]byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("turn %d: AppendJSON differs from encoding/json:\n got %.300s\nwant %.300s", f.Turn, got, want)
		}
	}
	steps := 0
	for _, a := range Game.Bots {
		for _, b := range Game.Bots {
			m := botMatch(t, 5, "", [2]string{a.Name, b.Name}, func(m *match, _ []string) {
				check(t, m.Frame().(*Frame))
				steps++
			})
			check(t, m.Frame().(*Frame))
		}
	}
	check(t, &Frame{Phase: `<"odd">`, Booths: []FrameBooth{{Company: "A&B <x>"}}, Teams: []FrameTeam{{}}})
	check(t, &Frame{})
	if steps == 0 {
		t.Fatal("no steps played")
	}
}
