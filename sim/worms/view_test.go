package worms

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/internal/viewdoc"
	"github.com/replaylab/replaylab/sim"
)

// TestMapJSONRoundTrip: a view decoded from its JSON encodes to the same
// bytes, health packs and worms included.
func TestMapJSONRoundTrip(t *testing.T) {
	m := start(t, "final", 3)
	for range 5 {
		if err := m.Step([]string{"shoot N", "shoot S"}); err != nil {
			t.Fatal(err)
		}
	}
	for seat := range numSeats {
		want, err := json.Marshal(m.View(seat))
		if err != nil {
			t.Fatal(err)
		}
		var v View
		if err := json.Unmarshal(want, &v); err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
		got, err := json.Marshal(&v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("seat %d: got %d bytes after a round trip, want the %d bytes encoded", seat, len(got), len(want))
		}
		if !bytes.Contains(want, []byte(`"occupier"`)) || !bytes.Contains(want, []byte(`"HEALTH_PACK"`)) {
			t.Errorf("seat %d: the view shows no worm or no health pack", seat)
		}
	}
}

// TestMapJSONRejects: a map no match shows fails to decode with ErrMap,
// so a bot reading it plays nothing rather than a misread board.
func TestMapJSONRejects(t *testing.T) {
	good, err := json.Marshal(start(t, "base", 1).View(0).(*View).Map)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data string
	}{
		{"no rows", `[]`},
		{"short row", strings.Replace(string(good), `,{"x":32,"y":0,"type":"DEEP_SPACE"}]`, `]`, 1)},
		{"cell out of place", strings.Replace(string(good), `{"x":1,"y":0,`, `{"x":2,"y":0,`, 1)},
		{"unknown terrain", strings.Replace(string(good), `"DEEP_SPACE"`, `"MAGMA"`, 1)},
		{"other power-up", strings.Replace(string(good), `"value":10`, `"value":99`, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.data == string(good) {
				t.Fatal("the test's edit did not apply")
			}
			var mp Map
			if err := json.Unmarshal([]byte(tt.data), &mp); !errors.Is(err, ErrMap) {
				t.Errorf("got error %v, want ErrMap", err)
			}
		})
	}
}

// TestViewDoc holds viewDoc to whole matches of both rulesets: tactical
// worms against each other and against random ones, so worms die, freeze,
// throw and stand on lava.
func TestViewDoc(t *testing.T) {
	var plays []viewdoc.Play
	for _, rs := range Game.Rulesets {
		plays = append(plays,
			viewdoc.Play{Setup: sim.Setup{Ruleset: rs, Seed: 1, Players: 2}, Bots: []string{"tactical"}},
			viewdoc.Play{Setup: sim.Setup{Ruleset: rs, Seed: 2, Players: 2}, Bots: []string{"random", "tactical"}})
	}
	viewdoc.Check(t, Game, plays...)
}
