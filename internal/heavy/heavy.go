// Package heavy makes replays that cost the most memory the replay limits
// allow, for tests that bound a server's memory: long, distinct commands
// that compress to a few kilobytes, so that a small upload decodes to tens
// of megabytes.
package heavy

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/toad"
)

// MaxTurns is the most turns of replay.MaxCommandBytes commands a log may
// hold (replay.MaxLogCommandBytes): 16,384, whose binary replay is a
// file of 57 KB.
const MaxTurns = replay.MaxLogCommandBytes / replay.MaxCommandBytes

// Toad is a River Toad match of turns turns whose every command is a
// distinct invalid text of replay.MaxCommandBytes bytes, played as Stay.
// Its rolls only ever spawn flies or nothing, so the toad survives them
// all. Different seeds give different matches (and match ids).
func Toad(seed uint64, turns int) (*replay.Log, error) {
	rolls := make([]string, turns)
	for i := range rolls {
		rolls[i] = []string{"32", "33", "0"}[i%3]
	}
	h := replay.Header{Format: replay.Format, Game: "toad", Seed: seed,
		Config:  json.RawMessage(`{"rolls":[` + strings.Join(rolls, ",") + `]}`),
		Players: []replay.Player{{Name: "heavy", Version: "1"}}}
	m, err := toad.Game.New(h.Setup())
	if err != nil {
		return nil, err
	}
	l := &replay.Log{Header: h, Turns: make([][]string, turns)}
	for i := range l.Turns {
		prefix := fmt.Sprintf("%d-%d-", seed, i)
		l.Turns[i] = []string{prefix + strings.Repeat("x", replay.MaxCommandBytes-len(prefix))}
		if err := m.Step(l.Turns[i]); err != nil {
			return nil, fmt.Errorf("turn %d: %w", i+1, err)
		}
	}
	l.End = &replay.Hash{Turn: turns, Sum: m.Hash()} // as the recorder closes a log
	return l, nil
}
