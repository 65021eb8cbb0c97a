package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/store"
)

// syntheticRecord builds a long match with River Toad's metrics for seats
// players, as regen.Build would store it (the store does not check seat counts
// against the game): per-turn numbers, an event every few turns and frames
// with a board. It stands for the large matches of the other games.
func syntheticRecord(t testing.TB, turns, seats int) *store.Record {
	t.Helper()
	sum := sha256.Sum256(fmt.Appendf(nil, "synthetic %d %d", turns, seats))
	rec := &store.Record{
		ID: hex.EncodeToString(sum[:]), Game: "toad", Ruleset: "classic", Seed: 7, Config: json.RawMessage(`{}`),
		Encoded: []byte("synthetic"), Turns: turns, EngineVersion: "test", Result: sim.Result{Winner: 0, Reason: "synthetic"},
	}
	commands := make([]string, seats)
	for s := range seats {
		rec.Players = append(rec.Players, store.Player{Name: fmt.Sprintf("bot%d", s), Version: "v1"})
		outcome := sim.Loss
		if s == 0 {
			outcome = sim.Win
		}
		rec.Result.Players = append(rec.Result.Players, sim.PlayerResult{Rank: s + 1, Score: float64(100 - s), Outcome: outcome})
		commands[s] = "D"
	}
	for s := range seats {
		// River Toad's metrics in its order: hp, score, collisions, flies,
		// snakes, danger, hp_spent; v varies by a quarter now and then.
		values := func(turn int) []float64 {
			v := float64((turn*(s+3))%97) / 4
			return []float64{1, 20 + v, float64(turn) + v, float64(turn / 150), float64(turn / 40), v, float64(turn % 5), float64(turn)}
		}
		for m := range 1 + len(toad.Game.Metrics) {
			l := store.Line{Metric: m - 1, Seat: s, Unit: sim.NoUnit, Values: make([]float64, turns+1)} // Alive first
			for turn := range l.Values {
				l.Values[turn] = values(turn)[m]
			}
			rec.Lines = append(rec.Lines, l)
		}
	}
	var frames []json.RawMessage
	first := 0
	for turn := 0; turn <= turns; turn++ {
		if turn > 0 && turn%7 == 0 {
			rec.Events = append(rec.Events, store.TurnEvent{Turn: turn, Event: sim.Event{Seat: turn % seats, Unit: sim.NoUnit, Kind: "eat", Target: -1, Amount: 5}})
		}
		f, err := json.Marshal(store.StoredFrame{Turn: turn, Commands: commands, State: toad.Frame{
			Turn: turn, Board: [5]string{"#S    #", "#  S  #", "F   S #", "#     #", "#  T  #"}, Status: "alive", HP: 20, Rolls: turns}})
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f)
		if len(frames) == store.FrameChunkTurns || turn == turns {
			data, err := store.EncodeFrames(frames)
			if err != nil {
				t.Fatal(err)
			}
			rec.Frames = append(rec.Frames, store.FrameChunk{First: first, Last: turn, Data: data})
			frames, first = frames[:0], turn+1
		}
	}
	return rec
}

// benchServer is a server holding one 2000-turn, 4-player match.
func benchServer(b *testing.B) (*fixture, string) {
	b.Helper()
	f := &fixture{db: openDB(b)}
	rec := syntheticRecord(b, 2000, 4)
	if _, err := f.db.Ingest(context.Background(), rec); err != nil {
		b.Fatal(err)
	}
	e, err := New(Config{DB: f.db, Addr: testAddr})
	if err != nil {
		b.Fatal(err)
	}
	f.e = e
	return f, shortID(rec.ID)
}

// get serves one request in process and fails on any status but 200.
func get(b *testing.B, f *fixture, url string) int {
	req := httptest.NewRequest(http.MethodGet, url, nil)
	req.Host = testAddr
	rec := httptest.NewRecorder()
	f.e.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("GET %s: status %d: %.200s", url, rec.Code, rec.Body.String())
	}
	return rec.Body.Len()
}

// BenchmarkMatchPage renders the match page (summary and 7 charts of 4
// lines of 2001 points) of a 2000-turn, 4-player match. Target: ≤ 20 ms.
func BenchmarkMatchPage(b *testing.B) {
	f, id := benchServer(b)
	var n int
	for b.Loop() {
		n = get(b, f, "/matches/"+id)
	}
	b.ReportMetric(float64(n), "bytes/page")
}

// BenchmarkSeriesAPI answers one metric of that match: 4 lines of 2001
// points.
func BenchmarkSeriesAPI(b *testing.B) {
	f, id := benchServer(b)
	for b.Loop() {
		get(b, f, "/api/v1/matches/"+id+"/series/score")
	}
}

// BenchmarkTurnJSON answers one inspector turn of that match. Target:
// ≤ 2 ms.
func BenchmarkTurnJSON(b *testing.B) {
	f, id := benchServer(b)
	turn := 0
	for b.Loop() {
		get(b, f, fmt.Sprintf("/api/v1/matches/%s/turns/%d", id, turn))
		turn = (turn + 37) % 2001
	}
}

// BenchmarkMatchSummaryParallel answers the match summary API from
// parallel clients. Target: ≥ 10,000 requests/s.
func BenchmarkMatchSummaryParallel(b *testing.B) {
	f, id := benchServer(b)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			get(b, f, "/api/v1/matches/"+id)
		}
	})
}
