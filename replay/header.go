package replay

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

// Limits on what a replay may hold. They bound the memory a hostile file can
// make a decoder allocate; real matches are far below them.
const (
	MaxHeaderBytes  = 64 << 10 // the JSON header line
	MaxCommandBytes = 4 << 10  // one raw command
	// MaxLogCommandBytes bounds the commands of a whole log, all turns and
	// seats together.
	MaxLogCommandBytes = 64 << 20
	// MaxTurns is the absolute ceiling on the turns of a log; each match
	// states its own, lower limit (sim.Match.MaxTurns).
	MaxTurns     = 1 << 20
	MaxNameBytes = 200 // a player name or version
)

// Error is a replay the decoder or the regenerator rejects. Line is the
// 1-based line of a text replay (0 when not known or binary); Turn is the
// turn concerned (0 for the header or when no valid turn is concerned: never
// negative). Err is one of the sentinels below when one applies.
type Error struct {
	Line   int
	Turn   int
	Reason string
	Err    error // the underlying cause, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Turn > 0 {
		fmt.Fprintf(&b, "turn %d: ", e.Turn)
	}
	b.WriteString(e.Reason)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Kinds of replay errors, found with errors.Is.
var (
	// ErrNotReplay means the bytes are neither a text nor a binary replay.
	ErrNotReplay = errors.New("not a replaylab replay")
	// ErrNewer means the replay was written by a newer replaylab.
	ErrNewer = errors.New("written by a newer replaylab")
	// ErrTruncated means a replay that has an end record lost it: the file
	// was cut short.
	ErrTruncated = errors.New("truncated")
	// ErrCorrupt means bytes were changed: the checksum or the end record's
	// digest does not match.
	ErrCorrupt = errors.New("corrupt")
	// ErrTooLarge means the replay is over a size, turn or byte limit.
	ErrTooLarge = errors.New("too large")
)

// kindErrorf returns an *Error of a kind: its reason starts with the kind.
func kindErrorf(kind error, format string, args ...any) *Error {
	return &Error{Reason: kind.Error() + ": " + fmt.Sprintf(format, args...), Err: kind}
}

// truncatedError reports a replay that should end with an end record and
// does not, naming the last turn present.
func truncatedError(turns int) *Error {
	return kindErrorf(ErrTruncated, "the replay ends after turn %d (no end record)", turns)
}

// quote quotes untrusted text for an error message (escaped and clipped).
func quote(s string) string { return sim.QuoteCommand(s) }

// Check validates a header against the game registry and puts it in
// canonical form: the default ruleset filled in (by sim.Game.Check),
// revision 1 written as 0, the config in sim.CanonicalConfig's form ("{}"
// when empty), so one match has one id. A revision newer than this build
// plays is an ErrNewer; an older one passes (Run checks it). Check starts
// the match with sim.Game.New, which lets the game judge the config (its
// keys exactly), so a header that passes Check always starts a match.
func (h *Header) Check() (*sim.Game, error) {
	g, _, err := h.start()
	return g, err
}

// start checks the header and returns the started match, so callers that
// go on to play it set the game up once.
func (h *Header) start() (*sim.Game, sim.Match, error) {
	if err := checkFormat(h.Format); err != nil {
		return nil, nil, err
	}
	g, err := games.Lookup(h.Game)
	if err != nil {
		return nil, nil, headerErrorf(err, "unknown game %s", quote(h.Game))
	}
	s, err := g.Check(h.Setup())
	if err != nil {
		return nil, nil, headerErrorf(err, "%v", err)
	}
	h.Ruleset = s.Ruleset
	if err := h.checkRevision(g); err != nil {
		return nil, nil, err
	}
	for i, p := range h.Players {
		if err := checkName(p.Name, true); err != nil {
			return nil, nil, headerErrorf(nil, "%s name: %v", playerField(i), err)
		}
		if err := checkName(p.Version, false); err != nil {
			return nil, nil, headerErrorf(nil, "%s version: %v", playerField(i), err)
		}
		if err := checkName(p.Fingerprint, false); err != nil {
			return nil, nil, headerErrorf(nil, "%s fingerprint: %v", playerField(i), err)
		}
	}
	if err := h.Parent.check(); err != nil {
		return nil, nil, err
	}
	cfg, err := sim.CanonicalConfig(h.Config)
	if err != nil {
		return nil, nil, headerErrorf(err, "config: %v", err)
	}
	h.Config = cfg
	m, err := g.New(h.Setup())
	if err != nil {
		return nil, nil, headerErrorf(err, "%v", err)
	}
	return g, m, nil
}

// checkFormat accepts the format versions this build reads and tells a
// newer one from a foreign one.
func checkFormat(f string) error {
	if f == Format || f == FormatV1 {
		return nil
	}
	if v, ok := strings.CutPrefix(f, "replaylab/"); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 2 {
			return &Error{Reason: fmt.Sprintf("header: format %s: written by a newer replaylab (this build reads %s and %s)", quote(f), FormatV1, Format), Err: ErrNewer}
		}
	}
	return headerErrorf(nil, "format is %s, want %q or %q", quote(f), Format, FormatV1)
}

// NewHeader returns the header of a new recording of game g, with no
// players yet: the current format and the current rules revision of the
// ruleset ("" = the default). Every recording starts from it, so none
// misses its revision.
func NewHeader(g *sim.Game, ruleset string, seed uint64, config json.RawMessage) Header {
	return Header{Format: Format, Game: g.Name, Ruleset: ruleset, Revision: g.Revision(ruleset), Seed: seed, Config: config}
}

// RulesRevision returns the rules revision the header names: Revision, or
// 1 when that is 0.
func (h *Header) RulesRevision() int { return max(h.Revision, 1) }

// checkRevision refuses a negative revision and one newer than this build
// plays, and writes revision 1 in its canonical form, 0 (omitted).
func (h *Header) checkRevision(g *sim.Game) error {
	switch current := g.Revision(h.Ruleset); {
	case h.Revision < 0:
		return headerErrorf(nil, "revision %d: revisions count from 1", h.Revision)
	case h.Revision > current:
		return &Error{Reason: fmt.Sprintf("header: recorded with a newer engine revision of %s/%s (r%d; this build plays r%d)", h.Game, h.Ruleset, h.Revision, current), Err: ErrNewer}
	case h.Revision == 1:
		h.Revision = 0
	}
	return nil
}

// check accepts a parent that names a match id in its canonical form (64
// lower-case hex digits) and a turn from 1: turn 0 would be a new match
// with the parent's setup, which is just a recording. A nil parent passes.
func (p *Parent) check() error {
	if p == nil {
		return nil
	}
	if len(p.Match) != 2*sha256.Size || strings.Trim(p.Match, "0123456789abcdef") != "" {
		return headerErrorf(nil, "parent: match %s is not a match id (64 lower-case hex digits)", quote(p.Match))
	}
	if p.Turn < 1 {
		return headerErrorf(nil, "parent: turn %d: a fork takes turns from 1 of its parent", p.Turn)
	}
	return nil
}

// Setup returns the simulator setup the header describes.
func (h *Header) Setup() sim.Setup {
	return sim.Setup{Ruleset: h.Ruleset, Seed: h.Seed, Players: len(h.Players), Config: h.Config}
}

// checkName accepts any printable UTF-8 text of bounded length: names are
// shown in pages and charts, where they are always escaped, so hostile text
// is harmless there, but control characters would corrupt the text format
// and terminal output.
func checkName(s string, required bool) error {
	switch {
	case required && s == "":
		return errors.New("empty")
	case len(s) > MaxNameBytes:
		return fmt.Errorf("%d bytes, at most %d", len(s), MaxNameBytes)
	case !utf8.ValidString(s):
		return errors.New("not valid UTF-8")
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("control character %U", r)
		}
	}
	return nil
}

// encodeHeader writes the canonical JSON of a checked header.
func encodeHeader(h *Header) []byte {
	b, err := json.Marshal(h)
	if err != nil {
		// A checked header holds only strings, numbers and a compacted JSON
		// object, all of which marshal.
		panic(fmt.Sprintf("replay: marshal checked header: %v", err))
	}
	return b
}

// decodeHeader parses a JSON header strictly: keys are matched exactly (not
// case-insensitively as encoding/json does), a repeated, unknown or missing
// required field is an error, and so is trailing data. format, game, seed
// and players are required; a missing ruleset means the game's default, a
// missing revision revision 1 and a missing config the defaults. In a
// player, name is required and version and fingerprint may be left out
// (empty).
func decodeHeader(b []byte) (Header, error) {
	var h Header
	if len(b) > MaxHeaderBytes {
		return h, kindErrorf(ErrTooLarge, "header of %d bytes, at most %d", len(b), MaxHeaderBytes)
	}
	var players []json.RawMessage
	var parent json.RawMessage
	err := decodeObject(b, []field{
		{"format", &h.Format, true},
		{"game", &h.Game, true},
		{"ruleset", &h.Ruleset, false},
		{"revision", &h.Revision, false},
		{"seed", &h.Seed, true},
		{"config", &h.Config, false},
		{"players", &players, true},
		{"parent", &parent, false},
	})
	if err != nil {
		return h, headerErrorf(err, "%v", err)
	}
	if parent != nil {
		h.Parent = new(Parent)
		if err := decodeObject(parent, []field{{"match", &h.Parent.Match, true}, {"turn", &h.Parent.Turn, true}}); err != nil {
			return h, headerErrorf(err, "parent: %v", err)
		}
	}
	if len(players) > maxPlayers {
		return h, headerErrorf(nil, "%d players, at most %d", len(players), maxPlayers)
	}
	h.Players = make([]Player, len(players))
	for i, raw := range players {
		p := &h.Players[i]
		if err := decodeObject(raw, []field{{"name", &p.Name, true}, {"version", &p.Version, false}, {"fingerprint", &p.Fingerprint, false}}); err != nil {
			return h, headerErrorf(err, "%s: %v", playerField(i), err)
		}
	}
	return h, nil
}

// maxPlayers bounds the seats a header may list, above every game's range.
const maxPlayers = 64

// field is a key of a strictly decoded JSON object and where its value goes.
type field struct {
	key      string
	dst      any // passed to json.Unmarshal
	required bool
}

// decodeObject decodes one JSON object with exactly the given keys, through
// sim.Members, the strict reader configs go through too.
func decodeObject(b []byte, fields []field) error {
	seen := make([]bool, len(fields))
	err := sim.Members(b, func(key string, raw json.RawMessage) error {
		i := slices.IndexFunc(fields, func(f field) bool { return f.key == key })
		if i < 0 {
			keys := make([]string, len(fields))
			for j, f := range fields {
				keys[j] = f.key
			}
			return sim.UnknownKey(key, keys)
		}
		seen[i] = true
		if _, isRaw := fields[i].dst.(*json.RawMessage); string(raw) == "null" && !isRaw {
			return fmt.Errorf("field %q is null", key) // Unmarshal would leave the zero value
		}
		if err := json.Unmarshal(raw, fields[i].dst); err != nil {
			return fmt.Errorf("field %q: want %s", key, kindOf(fields[i].dst))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, f := range fields {
		if f.required && !seen[i] {
			return fmt.Errorf("missing field %q", f.key)
		}
	}
	return nil
}

// kindOf names what a decodeObject destination accepts, for errors that do
// not echo the value.
func kindOf(dst any) string {
	switch dst.(type) {
	case *string:
		return "a string"
	case *uint64:
		return "an integer from 0 to 2^64-1"
	case *int:
		return "an integer"
	case *[]json.RawMessage:
		return "an array"
	}
	return "a JSON value"
}

// headerErrorf reports a problem with the header. Text decoders set the line
// (always 1) afterwards.
func headerErrorf(cause error, format string, args ...any) *Error {
	return &Error{Reason: "header: " + sim.Clip(fmt.Sprintf(format, args...), maxReason), Err: cause}
}

// maxReason bounds an error reason built from a cause whose text may quote
// input at length (a JSON or setup error).
const maxReason = 300

// playerField names the header's entry of seat for an error: by its index
// in the JSON, as the person fixes it there, and by the seat's name, as
// every other message calls that seat ("players[0] (Seat 1)").
func playerField(seat int) string {
	return fmt.Sprintf("players[%d] (%s)", seat, sim.SeatName(seat))
}
