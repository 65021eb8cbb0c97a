package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	MaxTurns        = 1 << 20  // turns in one log
	MaxNameBytes    = 200      // a player name or version
)

// Error is a replay the decoder or the regenerator rejects. Line is the
// 1-based line of a text replay (0 when not known or binary); Turn is the
// turn concerned (0 for the header).
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

// ErrNotReplay means the bytes are neither a text nor a binary replay.
var ErrNotReplay = errors.New("not a replaylab replay")

// Check validates a header against the game registry and puts it in
// canonical form: the default ruleset filled in, the config compacted with
// sorted keys ("{}" when empty). The game's New accepts or rejects the
// config, so a header that passes Check always starts a match.
func (h *Header) Check() (*sim.Game, error) {
	g, _, err := h.start()
	return g, err
}

// start checks the header and returns the started match, so callers that
// go on to play it set the game up once.
func (h *Header) start() (*sim.Game, sim.Match, error) {
	if h.Format != Format {
		return nil, nil, headerErrorf(nil, "format is %q, want %q", h.Format, Format)
	}
	g, err := games.Lookup(h.Game)
	if err != nil {
		return nil, nil, headerErrorf(err, "%v", err)
	}
	rs, err := g.Ruleset(sim.Setup{Ruleset: h.Ruleset})
	if err != nil {
		return nil, nil, headerErrorf(err, "%v", err)
	}
	h.Ruleset = rs
	if err := g.CheckPlayers(len(h.Players)); err != nil {
		return nil, nil, headerErrorf(err, "%v", err)
	}
	for i, p := range h.Players {
		if err := checkName(p.Name, true); err != nil {
			return nil, nil, headerErrorf(nil, "player %d name: %v", i, err)
		}
		if err := checkName(p.Version, false); err != nil {
			return nil, nil, headerErrorf(nil, "player %d version: %v", i, err)
		}
	}
	cfg, err := canonicalConfig(h.Config)
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

// canonicalConfig compacts a JSON object and sorts its keys, so equal
// configs always encode to equal bytes (and equal match ids).
func canonicalConfig(raw json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return json.RawMessage("{}"), nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keep integers such as seeds exact
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON object")
	}
	if v == nil {
		return json.RawMessage("{}"), nil
	}
	out, err := json.Marshal(v) // encoding/json sorts map keys
	if err != nil {
		return nil, err
	}
	return out, nil
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

// decodeHeader parses a JSON header strictly: unknown fields and trailing
// data are errors.
func decodeHeader(b []byte) (Header, error) {
	var h Header
	if len(b) > MaxHeaderBytes {
		return h, headerErrorf(nil, "%d bytes, at most %d", len(b), MaxHeaderBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return h, headerErrorf(err, "bad JSON: %v", err)
	}
	if dec.More() {
		return h, headerErrorf(nil, "trailing data after the JSON object")
	}
	return h, nil
}

// headerErrorf reports a problem with the header. Text decoders set the line
// (always 1) afterwards.
func headerErrorf(cause error, format string, args ...any) *Error {
	return &Error{Reason: "header: " + fmt.Sprintf(format, args...), Err: cause}
}
