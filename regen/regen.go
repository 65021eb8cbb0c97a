// Package regen regenerates a replay into the rows storage keeps: it runs
// the match through replay.Run and collects each turn's numbers, events and
// inspector frames into a store.Record. It touches no database, so callers
// run many regenerations in parallel and hand the records to the store's
// single writer.
package regen

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// EngineVersion names the build that regenerated a match, stored with it so
// a match can be traced to the code that produced its numbers.
var EngineVersion = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return "replaylab@" + s.Value[:12]
			}
		}
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return "replaylab@" + v
		}
	}
	return "replaylab@devel"
})

// Build regenerates the match of a log and collects everything
// store.DB.Ingest writes.
func Build(l *replay.Log) (*store.Record, error) {
	enc, err := l.Encode()
	if err != nil {
		return nil, err
	}
	rec := &store.Record{
		ID:            enc.ID,
		Game:          l.Header.Game,
		Ruleset:       l.Header.Ruleset,
		Seed:          l.Header.Seed,
		Config:        l.Header.Config,
		Encoded:       enc.Bytes,
		EngineVersion: EngineVersion(),
	}
	for _, p := range l.Header.Players {
		rec.Players = append(rec.Players, store.Player{Name: p.Name, Version: p.Version})
	}
	var (
		stats  []sim.Stat
		frames []json.RawMessage
		first  int
	)
	flush := func(last int) error {
		data, err := store.EncodeFrames(frames)
		if err != nil {
			return err
		}
		rec.Frames = append(rec.Frames, store.FrameChunk{First: first, Last: last, Data: data})
		frames, first = frames[:0], last+1
		return nil
	}
	start := time.Now()
	m, err := replay.Run(l, func(tv *replay.TurnView) error {
		stats = tv.Match.AppendStats(stats[:0])
		for _, s := range stats {
			rec.Stats = append(rec.Stats, store.TurnStat{Turn: tv.Turn, Stat: s})
		}
		for _, e := range tv.Events {
			rec.Events = append(rec.Events, store.TurnEvent{Turn: tv.Turn, Event: e})
		}
		cmds := tv.Commands
		if cmds == nil {
			cmds = []string{}
		}
		f, err := json.Marshal(store.StoredFrame{Turn: tv.Turn, Commands: cmds, State: tv.Match.Frame()})
		if err != nil {
			return fmt.Errorf("turn %d: encode frame: %w", tv.Turn, err)
		}
		frames = append(frames, f)
		if len(frames) == store.FrameChunkTurns {
			return flush(tv.Turn)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(frames) > 0 {
		if err := flush(m.Turn()); err != nil {
			return nil, err
		}
	}
	rec.RegenTime = time.Since(start)
	rec.Turns = m.Turn()
	rec.Result = m.Result()
	return rec, nil
}
