package replay_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/replaylab/replaylab/replay"
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
