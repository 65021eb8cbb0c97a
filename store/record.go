package store

import (
	"encoding/json"
	"time"

	"github.com/replaylab/replaylab/sim"
)

// Record is everything Ingest writes for one match: the replay it came from
// and every turn regenerated from it. Building one is CPU work with no
// database access (see regen.Build), so many can be built in parallel and handed
// to the single writer.
type Record struct {
	ID      string // hex SHA-256 of the canonical binary replay
	Game    string
	Ruleset string
	Seed    uint64
	Config  json.RawMessage // canonical JSON object ("{}" when empty)
	Players []Player
	// Fingerprints holds, seat by seat, the fingerprint of the code that
	// played it (the replay header's, "" when it has none), or nil for
	// none at all.
	Fingerprints []string
	Encoded      []byte // the binary replay (.rpl bytes)
	// Parent is the match this one was forked from, nil for a match
	// played from its start.
	Parent *Parent

	Turns         int // turns played
	Result        sim.Result
	EngineVersion string
	RegenTime     time.Duration // how long regeneration took

	// Lines holds the per-turn numbers of turns 0 (the initial state) to
	// Turns: for every player and unit, its Alive line and a line per
	// metric that applies to it.
	Lines []Line
	// Events holds every event of turns 1..Turns.
	Events []TurnEvent
	// Output holds what external bots wrote besides their answers, when
	// the recorder kept it; regeneration cannot rebuild it.
	Output []BotOutput
}

// Parent names the match a fork was played from and the last turn taken
// from it (the replay header's parent). The parent need not be stored.
type Parent struct {
	ID   string // full match id
	Turn int
}

// Player is the bot in one seat.
type Player struct {
	Name    string
	Version string
}

// TurnStat is the numbers of one player or unit at one turn, rebuilt from
// its lines: Values[i] is metric i, 0 where no line of metric i is stored.
type TurnStat struct {
	Turn int
	sim.Stat
}

// value returns metric i, or 0 when the row has no such metric.
func (s *TurnStat) value(i int) float64 {
	if i < len(s.Values) {
		return s.Values[i]
	}
	return 0
}

// TurnEvent is one row of events.
type TurnEvent struct {
	Turn int
	sim.Event
}
