// Package replay is replaylab's action-log format: a header (game, ruleset,
// rules revision, seed, config, players) plus each player's raw command per turn, in a text
// encoding (.rlog) for people and harnesses and a compact binary encoding
// (.rpl) for storage. It also regenerates matches from logs (Run) and
// records new ones (Recorder).
package replay

import "encoding/json"

// Values of the header's "format" field.
const (
	// Format is the version new recordings write: both encodings end with an
	// end record, and the binary one carries a checksum over its bytes.
	Format = "replaylab/2"
	// FormatV1 is the version written before end records and checksums. It
	// is still read, but losing its last lines cannot be detected.
	FormatV1 = "replaylab/1"
)

// Header is the first line of a text replay and the head of a binary one.
type Header struct {
	Format  string `json:"format"`
	Game    string `json:"game"`
	Ruleset string `json:"ruleset"`
	// Revision is the rules revision of the ruleset the match was recorded
	// under (sim.Game.Revision). 0 means revision 1 and is the canonical form
	// of it, so replays recorded before revisions existed, and every
	// revision-1 replay, keep their bytes and match id. Run checks a replay
	// of an older revision against this build's rules.
	Revision int             `json:"revision,omitempty"`
	Seed     uint64          `json:"seed"`
	Config   json.RawMessage `json:"config"`
	Players  []Player        `json:"players"`
	// Parent names the match this one was forked from (see Recorder.From),
	// nil for a match played from its start. Omitted when nil, so every
	// other match keeps its bytes and id. A fork of a fork names its direct
	// parent only: the lineage is followed from parent to parent.
	Parent *Parent `json:"parent,omitempty"`
}

// Parent is the match a fork was played from and the last turn it took
// from it as recorded: the fork is live from turn Turn+1.
type Parent struct {
	Match string `json:"match"` // the parent's full match id (Log.ID)
	Turn  int    `json:"turn"`
}

// Player names the bot in one seat.
type Player struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Fingerprint identifies the code that played the seat: for an
	// external bot the recorder writes Fingerprint of its command line;
	// a built-in bot has none, its code being the build's. It is opaque
	// printable text, so a harness may write its own (a commit id).
	// Omitted when empty, so replays written before fingerprints keep
	// their bytes and match ids.
	Fingerprint string `json:"fingerprint,omitempty"`
}

// Log is a whole replay: the header, the commands and the recorder's notes.
type Log struct {
	Header Header
	// Turns holds one entry per turn, in order: Turns[i] is turn i+1 and has
	// one raw command per seat ("" = no command).
	Turns [][]string
	// Hashes are state hashes the recorder saw, in increasing turn order.
	Hashes []Hash
	// Notes are recorder observations that are not commands (timeouts,
	// crashes), in increasing turn order.
	Notes []Note
	// End is the end record: the turn count and the final state hash. A
	// replaylab/2 log must have one, a replaylab/1 log has none. Encoders add
	// a digest of the content to it (see the format comments), so a log that
	// lost its last lines, or had a line changed, is refused.
	End *Hash
}

// Hash is the state hash after a turn (turn 0 is the initial state).
type Hash struct {
	Turn int
	Sum  uint64
}

// Note is something the recorder saw about a seat in a turn.
type Note struct {
	Turn int
	Seat int
	Kind string // sim.EventTimeout, sim.EventCrash or sim.EventOversize
}
