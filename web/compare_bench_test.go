package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/worms"
	"github.com/replaylab/replaylab/store"
)

// compareBenchSeeds is how many seeds the compare benchmark's two bots
// play, once in each pair of seats: twice store.MaxRecent matches, so
// each side's search for pairs reads its whole bound.
const compareBenchSeeds = store.MaxRecent

// BenchmarkCompare answers the compare API for two Worms bots that met
// on compareBenchSeeds seeds with the seats swapped, each match 200 turns
// of the game's metrics: pairs sought on the seeds of A's newest
// pairMatches matches,
// distributions and curves over 200 of each, one divergence decoded; and
// the page, which adds the charts.
func BenchmarkCompare(b *testing.B) {
	db := openDB(b)
	ctx := context.Background()
	l := recordBuiltin(b, worms.Game, "base", `{"rounds":200}`, 1, []string{"tactical", "random"}, nil)
	enc, err := l.Encode()
	if err != nil {
		b.Fatal(err)
	}
	const turns = 200
	for seed := range compareBenchSeeds {
		for swap := range 2 {
			sum := sha256.Sum256(fmt.Appendf(nil, "compare %d %d", seed, swap))
			rec := &store.Record{ID: hex.EncodeToString(sum[:]), Game: "worms", Ruleset: "base", Seed: uint64(seed),
				Config: json.RawMessage(`{}`), Encoded: enc.Bytes, Turns: turns, EngineVersion: "test",
				Result: sim.Result{Winner: 0, Reason: "synthetic"}}
			for s := range 2 {
				name := []string{"a", "b"}[(s+swap)%2]
				rec.Players = append(rec.Players, store.Player{Name: name, Version: "v1"})
				outcome := []sim.Outcome{sim.Win, sim.Loss}[(s+seed)%2]
				rec.Result.Players = append(rec.Result.Players, sim.PlayerResult{Rank: 1 + (s+seed)%2, Score: float64(seed % 7), Outcome: outcome})
				for m := range worms.Game.Metrics {
					line := store.Line{Metric: m, Seat: s, Unit: sim.NoUnit, Values: make([]float64, turns+1)}
					for t := range line.Values {
						line.Values[t] = float64((t*(m+1) + seed + s) % 53)
					}
					rec.Lines = append(rec.Lines, line)
				}
			}
			if _, err := db.Ingest(ctx, rec); err != nil {
				b.Fatal(err)
			}
		}
	}
	e, err := New(Config{DB: db, Addr: testAddr})
	if err != nil {
		b.Fatal(err)
	}
	f := &fixture{db: db, e: e}
	for _, url := range []string{"/api/v1/compare?game=worms&a=a&b=b", "/compare?game=worms&a=a&b=b"} {
		b.Run(url[:len(url)-len("?game=worms&a=a&b=b")], func(b *testing.B) {
			var n, runs int
			cpu := processCPU()
			for b.Loop() {
				n = get(b, f, url)
				runs++
			}
			// On a shared machine the wall time includes waiting for a
			// core; the CPU time does not.
			if cpu := processCPU() - cpu; cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(runs), "cpu-ms/op")
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
