package toadsolver_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/toadsolver"
)

// BenchmarkMatch records a 500-turn match of empty rolls, where staying
// is safe, with a trivial bot that stays: a solver printing its plan at
// once, and a JSON-lines bot answering D each turn, both in sh. It
// reports the time per turn, start-up included. (The JSON-lines bot's
// turns are slow mostly because sh reads each request, which holds all
// the rolls, a byte at a time.)
func BenchmarkMatch(b *testing.B) {
	const turns = 500
	h := replay.Header{Format: replay.Format, Game: "toad", Seed: 1,
		Config:  []byte(`{"rolls":[0` + strings.Repeat(",0", turns-1) + `]}`),
		Players: []replay.Player{{Name: "bot"}}}
	run := func(b *testing.B, start func() replay.Agent) {
		for b.Loop() {
			a := start()
			r := replay.Recorder{Header: h, Agents: []replay.Agent{a}}
			l, err := r.Record(context.Background())
			a.Close()
			if err != nil || len(l.Turns) != turns || len(l.Notes) > 0 {
				b.Fatalf("got %v, %d turns, notes %v", err, len(l.Turns), l.Notes)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*turns), "ns/turn")
	}
	b.Run("jsonlines", func(b *testing.B) {
		run(b, func() replay.Agent {
			p, err := replay.StartProcess(context.Background(), []string{"/bin/sh", "-c", "while read -r l; do echo D; done"},
				replay.ProcessOptions{TurnLimit: 10 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			return p
		})
	})
	b.Run("solver", func(b *testing.B) {
		run(b, func() replay.Agent {
			a, err := toadsolver.New([]string{"/bin/sh", "-c", `read -r n; head -c "$n" /dev/zero | tr '\0' D; echo`}, 10*time.Second)
			if err != nil {
				b.Fatal(err)
			}
			return a
		})
	})
}
