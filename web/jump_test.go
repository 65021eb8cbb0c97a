package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

// TestTurnAPIEncoding: the turn API, which puts the frame in its answer
// as regenerated, answers every turn of a match of every game with the
// bytes encoding/json writes for it (as c.JSON did).
func TestTurnAPIEncoding(t *testing.T) {
	f := newFixture(t, nil)
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			l := longestMatch(t, g)
			id := ingest(t, f.db, l)
			for turn := range len(l.Turns) + 1 {
				url := fmt.Sprintf("/api/v1/matches/%s/turns/%d", id, turn)
				got := []byte(getBody(t, f, url))
				var tj turnJSON
				if err := json.Unmarshal(got, &tj); err != nil {
					t.Fatalf("turn %d: %v", turn, err)
				}
				var want bytes.Buffer
				if err := json.NewEncoder(&want).Encode(tj); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want.Bytes()) {
					t.Fatalf("turn %d: got %.300s, want %.300s", turn, got, want.Bytes())
				}
				if pretty := []byte(getBody(t, f, url+"?pretty")); !bytes.Equal(compact(t, pretty), compact(t, got)) {
					t.Fatalf("turn %d: ?pretty gives another turn: %.300s", turn, pretty)
				}
			}
		})
	}
}

// jumpSetups are the demo's setups (cmd/replaylab's demoSetups) that make
// each game's longest matches; a game not listed plays its defaults.
var jumpSetups = map[string]struct {
	config  string
	players int
}{
	"toad":       {config: `{"turns":80}`},
	"foodfight":  {config: `{"match_type":"TEAM"}`, players: 4},
	"careerfair": {config: `{"board":"gates6"}`},
}

// longestMatch records a match of g on the demo's first seed for each of
// its built-in bots, that bot in every seat, and returns the longest.
func longestMatch(b testing.TB, g *sim.Game) *replay.Log {
	b.Helper()
	s := jumpSetups[g.Name]
	if s.config == "" {
		s.config = "{}"
	}
	if s.players == 0 {
		s.players = g.DefaultPlayers
	}
	var longest *replay.Log
	for _, bot := range g.Bots {
		h := replay.NewHeader(g, "", 1000, json.RawMessage(s.config))
		for range s.players {
			h.Players = append(h.Players, replay.Player{Name: bot.Name, Version: replay.BuiltinVersion})
		}
		if _, err := h.Check(); err != nil {
			b.Fatal(err)
		}
		rec := replay.Recorder{Header: h, HashEvery: 100}
		for seat := range s.players {
			a, err := replay.NewBuiltin(g, bot.Name, h.Setup(), seat)
			if err != nil {
				b.Fatal(err)
			}
			rec.Agents = append(rec.Agents, a)
		}
		l, err := rec.Record(context.Background())
		if err != nil {
			b.Fatalf("record %s with %s: %v", g.Name, bot.Name, err)
		}
		if longest == nil || len(l.Turns) > len(longest.Turns) {
			longest = l
		}
	}
	return longest
}

// compact is JSON without its spaces.
func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
