package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/sim/games"
)

// BenchmarkInspectorJump asks a real server over loopback for inspector
// turns of each game's longest built-in match, as the inspector's
// timeline does: "jump" asks random turns, "step" the turns one after
// another. It reports the latencies' p50 and p99 in ms, the CPU time of
// server and client per request, and the answers' size. Target: a jump
// ≤ 1 ms p50 and ≤ 5 ms p99 in every game.
func BenchmarkInspectorJump(b *testing.B) {
	db := openDB(b)
	srv := httptest.NewUnstartedServer(nil)
	e, err := New(Config{DB: db, Addr: srv.Listener.Addr().String()})
	if err != nil {
		b.Fatal(err)
	}
	srv.Config.Handler = e
	srv.Start()
	b.Cleanup(srv.Close)
	client := srv.Client()
	for _, g := range games.All() {
		l := longestMatch(b, g)
		rec, err := regen.Build(context.Background(), l)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.Ingest(context.Background(), rec); err != nil {
			b.Fatal(err)
		}
		last := len(l.Turns)
		url := func(turn int) string { return fmt.Sprintf("%s/api/v1/matches/%s/turns/%d", srv.URL, rec.ID, turn) }
		for _, kind := range []string{"jump", "step"} {
			b.Run(g.Name+"/"+kind, func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 2))
				turn := 0
				fetch(b, client, url(turn)) // loads the match's cursor
				var took []time.Duration
				size := 0
				cpu := processCPU()
				for b.Loop() {
					if kind == "jump" {
						turn = r.IntN(last + 1)
					} else {
						turn = (turn + 1) % (last + 1)
					}
					start := time.Now()
					size += fetch(b, client, url(turn))
					took = append(took, time.Since(start))
				}
				// On a shared machine the latencies include waiting for a
				// core; the CPU time (server and client) does not.
				if cpu := processCPU() - cpu; cpu > 0 {
					b.ReportMetric(ms(cpu)/float64(len(took)), "cpu-ms/op")
				}
				b.ReportMetric(float64(size/len(took)), "bytes/op")
				slices.Sort(took)
				b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
				b.ReportMetric(ms(took[len(took)*99/100]), "p99-ms")
				b.ReportMetric(float64(last), "turns")
			})
		}
	}
}
