package replay_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/sim/toad"
)

// longToad records (once) a 5000-turn River Toad match played by astar,
// with the default checkpoints (initial, every 100 turns, final).
var longToad = sync.OnceValues(func() (*replay.Log, error) {
	h := replay.Header{Format: replay.Format, Game: "toad", Seed: 5, Config: []byte(`{"turns":5000}`), Players: []replay.Player{{Name: "astar"}}}
	a, err := replay.NewBuiltin(toad.Game, "astar", h.Setup(), 0)
	if err != nil {
		return nil, err
	}
	r := replay.Recorder{Header: h, Agents: []replay.Agent{a}, HashEvery: 100}
	return r.Record(context.Background())
})

func benchLog(b *testing.B) *replay.Log {
	b.Helper()
	l, err := longToad()
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// BenchmarkSize reports the bytes per player-turn of each encoding for the
// long match: text, binary before compression (commands only and whole
// file) and the binary file as stored (zstd).
func BenchmarkSize(b *testing.B) {
	l := benchLog(b)
	var text []byte
	var enc replay.Encoded
	for b.Loop() {
		text, _ = l.EncodeText()
		enc, _ = l.Encode()
	}
	pt := float64(len(l.Turns) * len(l.Header.Players))
	b.ReportMetric(float64(len(text))/pt, "text-B/pturn")
	b.ReportMetric(float64(enc.CommandBytes)/pt, "bin-cmd-B/pturn")
	b.ReportMetric(float64(enc.RawSize)/pt, "bin-raw-B/pturn")
	b.ReportMetric(float64(len(enc.Bytes))/pt, "bin-zstd-B/pturn")
}

func BenchmarkEncodeBinary(b *testing.B) {
	l := benchLog(b)
	for b.Loop() {
		if _, err := l.Encode(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(l.Turns))*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}

func BenchmarkDecodeBinary(b *testing.B) {
	l := benchLog(b)
	enc, _ := l.Encode()
	for b.Loop() {
		if _, err := replay.DecodeBinary(enc.Bytes); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(l.Turns))*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}

func BenchmarkDecodeText(b *testing.B) {
	l := benchLog(b)
	text, _ := l.EncodeText()
	for b.Loop() {
		if _, err := replay.DecodeText(bytes.NewReader(text)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(l.Turns))*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}

// BenchmarkRun is regeneration as verify does it: setup, every turn and
// the recorded checkpoints, no visitor.
func BenchmarkRun(b *testing.B) {
	l := benchLog(b)
	for b.Loop() {
		if _, err := replay.Run(context.Background(), l, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(l.Turns))*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}

// BenchmarkFork measures how long a fork takes to reach its first live
// turn when forked at the last turn of a match of each game between its
// last (most capable) built-in bots, default seats: every turn before is
// regenerated and every bot fed its view, as a fork does (issue 23's
// target: turn 901 of a 5-seat Snake match within 5 ms).
func BenchmarkFork(b *testing.B) {
	for _, g := range games.All() {
		b.Run(g.Name, func(b *testing.B) {
			bot := g.Bots[len(g.Bots)-1].Name
			h := replay.NewHeader(g, "", 1, nil)
			bots := make([]string, g.DefaultPlayers)
			for s := range bots {
				bots[s] = bot
				h.Players = append(h.Players, replay.Player{Name: bot})
			}
			parent, _ := recordBuiltins(b, replay.Recorder{Header: h}, bots...)
			at := len(parent.Turns) - 1
			fh := forkOf(b, parent, at)
			for b.Loop() {
				// Until at+1: the fork stops once its first live turn is played.
				fork, _ := recordBuiltins(b, replay.Recorder{Header: fh, From: parent, At: at, Until: at + 1}, bots...)
				if len(fork.Turns) != at+1 {
					b.Fatalf("got %d turns, want %d", len(fork.Turns), at+1)
				}
			}
			b.ReportMetric(float64(at), "turns")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/fork")
		})
	}
}

// BenchmarkID hashes the long match's identifying content, as decoding a
// replay with an end record does (verify takes the id from there: ReadID).
func BenchmarkID(b *testing.B) {
	l := benchLog(b)
	for b.Loop() {
		if _, err := l.ID(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(l.Turns))*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}
