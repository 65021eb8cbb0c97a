package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/store"
)

// syntheticRecord builds a long match with River Toad's metrics for seats
// players, as regen.Build would store it (the store does not check seat counts
// against the game): per-turn numbers and an event every few turns. Its
// replay, which the inspector's frames are regenerated from, is a real
// one-player River Toad match of as many turns. It stands for the large
// matches of the other games.
func syntheticRecord(t testing.TB, turns, seats int) *store.Record {
	t.Helper()
	l := recordToad(t, 7, "astar", "astar", fmt.Sprintf(`{"turns":%d}`, turns))
	if len(l.Turns) != turns {
		t.Fatalf("the toad replay has %d turns, want %d", len(l.Turns), turns)
	}
	enc, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "synthetic %d %d", turns, seats))
	rec := &store.Record{
		ID: hex.EncodeToString(sum[:]), Game: "toad", Ruleset: "classic", Seed: 7, Config: json.RawMessage(`{}`),
		Encoded: enc.Bytes, Turns: turns, EngineVersion: "test", Result: sim.Result{Winner: 0, Reason: "synthetic"},
	}
	for s := range seats {
		rec.Players = append(rec.Players, store.Player{Name: fmt.Sprintf("bot%d", s), Version: "v1"})
		outcome := sim.Loss
		if s == 0 {
			outcome = sim.Win
		}
		rec.Result.Players = append(rec.Result.Players, sim.PlayerResult{Rank: s + 1, Score: float64(100 - s), Outcome: outcome})
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
	for turn := 7; turn <= turns; turn += 7 {
		rec.Events = append(rec.Events, store.TurnEvent{Turn: turn, Event: sim.Event{Seat: turn % seats, Unit: sim.NoUnit, Kind: "eat", Target: -1, Amount: 5}})
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

// benchTurns answers inspector turns of that match, each chosen by next
// from the one before, starting at turn 0.
func benchTurns(b *testing.B, next func(turn int) int) {
	f, id := benchServer(b)
	turn := 0
	for b.Loop() {
		get(b, f, fmt.Sprintf("/api/v1/matches/%s/turns/%d", id, turn))
		turn = next(turn)
	}
}

// BenchmarkTurnJSON answers one inspector turn of that match, 37 turns
// after the last one asked, wrapping at the end. Target: ≤ 2 ms.
func BenchmarkTurnJSON(b *testing.B) {
	benchTurns(b, func(turn int) int { return (turn + 37) % 2001 })
}

// BenchmarkTurnJSONRandom answers turns of that match in a random order,
// as a user jumping about the timeline asks them: about half are behind
// the last one and regenerate from turn 0. Target: ≤ 2 ms.
func BenchmarkTurnJSONRandom(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchTurns(b, func(int) int { return r.IntN(2001) })
}

// BenchmarkTurnJSONNext answers the turns of that match one after another,
// as playback does.
func BenchmarkTurnJSONNext(b *testing.B) {
	benchTurns(b, func(turn int) int { return (turn + 1) % 2001 })
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
