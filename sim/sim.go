// Package sim is the contract every game simulator implements: a match is
// built from a Setup, advanced one turn at a time from each player's raw
// command text, and observed through metrics, events, frames, bot views and a
// state hash.
//
// Everything under sim/ is deterministic: the same Setup and the same
// commands give bit-identical states on every machine and Go build. Packages
// under sim/ import only the standard library and other sim/ packages, never
// time, os, net or database packages (see imports_test.go), keep no global
// mutable state, start no goroutines and draw all randomness from sim/rng.
package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Game describes one game: its names, the setups it accepts, the numbers it
// reports and the built-in bots that play it. Each game package exposes one.
type Game struct {
	// Name is the short lower-case identifier used in replays and URLs.
	Name string
	// Title is the human name shown in the dashboard.
	Title string
	// Rulesets lists the accepted ruleset names; the first is the default.
	Rulesets []string
	// Revisions holds the current rules revision of each ruleset; a ruleset
	// absent here is at revision 1. Bump a ruleset's revision when a rule
	// change alters any state hash or view for some input, and record the
	// change in the revision changelog (docs/replay-format.md): replays recorded under an
	// older revision are then checked against this build's rules (see
	// replay.Run) instead of silently regenerating differently.
	Revisions map[string]int
	// MinPlayers and MaxPlayers bound the number of seats.
	MinPlayers, MaxPlayers int
	// DefaultPlayers is the seat count used when a recording names none.
	DefaultPlayers int
	// Metrics lists, in display order, the per-turn numbers the game reports
	// in Stat.Values. Only these are stored and charted.
	Metrics []MetricDef
	// Units says how people call the units of games that report metrics
	// per unit; the zero value numbers them from 0 as "unit 0".
	Units UnitNaming
	// Alphabet lists the game's common commands. The binary replay encodes a
	// command found here as its index, so frequent commands cost a few bits;
	// anything else is stored as escaped raw text. Append only: reordering
	// changes the binary encoding of existing replays.
	Alphabet []string
	// Bots lists the built-in bots by name.
	Bots []BotDef
	// View explains what Match.View shows a bot, field by field.
	View ViewDoc
	// Start starts a match from a setup that Game.New has checked: its
	// Ruleset is one of Rulesets and its Players is in range. The config is
	// still raw JSON: Start decodes it with DecodeConfig and returns a
	// *SetupError for anything it does not accept. Call Game.New, never
	// Start, so every match starts through the same checks.
	Start func(Setup) (Match, error)
}

// Setup is everything that, together with the commands, determines a match.
// All of it is written into the replay header.
type Setup struct {
	Ruleset string
	Seed    uint64
	Players int
	// Config holds game-specific settings as a JSON object (board name,
	// round count, explicit rolls...). Nil or empty means the defaults.
	Config json.RawMessage
}

// Match is one match in progress. It is not safe for concurrent use.
type Match interface {
	// Step plays one turn. cmds holds one raw command per seat; "" means no
	// command. Text the game cannot parse follows the game's own
	// invalid-command rule and never fails the step. Step returns an error
	// only when the call itself is wrong: the match is over (ErrOver) or
	// len(cmds) differs from the number of seats.
	Step(cmds []string) error
	// Over reports whether the match has ended.
	Over() bool
	// Turn is the number of turns played so far (0 before the first Step).
	Turn() int
	// MaxTurns is the most turns this match can last, fixed by the game, its
	// ruleset and config when the match starts. Replay decoders refuse a log
	// with more turns before reading them.
	MaxTurns() int
	// Result is the outcome so far; final once Over is true.
	Result() Result
	// AppendStats appends the per-turn numbers of every player, and of every
	// unit where the game has units, and returns the extended slice. Each
	// row holds a value for every metric the game declares (see Stat).
	AppendStats(dst []Stat) []Stat
	// Events are what happened during the last Step. The slice is owned by
	// the match and valid until the next Step.
	Events() []Event
	// Frame is a JSON-encodable snapshot of the full state for the inspector.
	Frame() any
	// View is what the bot in seat sees before choosing its next command, in
	// the spirit of the original game's bot protocol. JSON-encodable.
	View(seat int) any
	// Hash is a 64-bit digest of a canonical encoding of the full state.
	Hash() uint64
}

// JSONAppender is implemented by frames (Match.Frame) that write their own
// JSON: byte for byte what encoding/json writes for them, appended to b,
// without reflection. The inspector encodes a frame per request, and a
// frame of thousands of small integers costs most of it by reflection.
type JSONAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// Renderer is implemented by matches that can draw their current state as
// text in the original game's symbols (used by `replaylab inspect`).
type Renderer interface {
	Render() string
}

// Cloner is implemented by matches that can copy themselves: Clone
// returns a match in the same state that plays on independently of the
// original, stepping, hashing and framing exactly as the original would.
// The inspector keeps clones as checkpoints to jump to any turn without
// replaying from turn 0; a game without it is replayed.
type Cloner interface {
	Clone() Match
}

// Alternator is implemented by matches that list the commands a seat may
// play next: what `replaylab critical` tries in place of the recorded
// one. Every game implements it; it stays outside Match so a test match
// need not. The list is short (tens of commands: a game with many units
// samples them deterministically and says how), holds only commands the
// game accepts in the match's present state, in its native syntax, in a
// fixed order, and is a pure function of the state.
type Alternator interface {
	Alternatives(seat int) []string
}

// Result is the outcome of a match.
type Result struct {
	// Winner is the winning seat, or -1 for a draw or a match with no winner.
	Winner int
	// Reason says in a few words why the match ended ("survived all rolls",
	// "caught by a snake", "time-out, higher score").
	Reason string
	// Players holds one entry per seat.
	Players []PlayerResult
}

// Outcome is a seat's result in a match.
type Outcome string

// The outcomes of a seat.
const (
	Win     Outcome = "win"
	Loss    Outcome = "loss"
	Draw    Outcome = "draw"
	Pending Outcome = "" // the match is not over
)

// PlayerResult is one seat's final standing.
type PlayerResult struct {
	Rank    int // 1 = best; equal ranks for a tie
	Score   float64
	Outcome Outcome
	// Team says which seats played together: seats with the same Team,
	// counted from 1, were one side of the match and share its placing.
	// 0, what games without teams leave, is a seat that played alone, so
	// a result built without teams means what it always meant.
	Team int
}

// TeamOf returns the team of a seat as the lowest seat of its team: the
// same number for seats that played together and a different one for
// seats that did not, whether the game has teams or not. Storage and
// analytics compare these, so only the game decides who is a team-mate.
func (r Result) TeamOf(seat int) int {
	t := r.Players[seat].Team
	if t == 0 {
		return seat
	}
	for s, p := range r.Players[:seat] {
		if p.Team == t {
			return s
		}
	}
	return seat
}

// MetricDef declares a per-turn number of a game. A game's Metrics list is
// the order of the values in every Stat, and a metric's index in that list is
// how storage refers to it: append only, like the alphabet.
type MetricDef struct {
	Name  string // stable identifier used in URLs, the API and CSV headers
	Label string // human label for charts
	// Short is the label of a table column, a word or two that fits a
	// narrow column; the table gives Label on hover. Empty: Label.
	Short string
	Unit  string // unit of the values ("HP", "cells"); empty for a plain count
	// PerUnit is true when the metric is reported for each unit as well as
	// for the player as a whole.
	PerUnit bool
	Kind    MetricKind
	// Integer is true when every value is a whole number.
	Integer bool
	// Resolution is the step a fractional metric's values are stored,
	// charted, listed and exported at: a power of ten from 1 down to
	// 1e-9, no finer than a chart or table shows (FoodFight's energy:
	// 0.01, the inspector's two decimals; its distances: whole pixels,
	// as a position drawn at random each turn costs a byte a turn more
	// at 0.01 than it shows). Storage rounds each value to
	// it (Round) and keeps whole steps, a few bits a turn, where a float
	// off by its rounding error (99.96000000000001) takes up to nine bytes.
	// 0 keeps the values exact. The inspector's board is regenerated,
	// never rounded.
	Resolution float64
	// Key marks the few metrics that tell how a match went, which a match
	// page draws first; the others wait, collapsed, until asked for.
	Key bool
	// Flag is true when every value is 0 or 1, a yes or no per turn (a bot
	// standing in line), which reads better as the spans of turns it holds
	// than as a line jumping between 0 and 1.
	Flag bool
}

// ShortLabel is the metric's label for a narrow table column.
func (md *MetricDef) ShortLabel() string {
	if md.Short != "" {
		return md.Short
	}
	return md.Label
}

// Round returns v rounded to the metric's Resolution (half away from zero),
// or v itself when it has none. A value that rounds to zero is +0, never
// -0.
func (md *MetricDef) Round(v float64) float64 {
	if md.Resolution == 0 {
		return v
	}
	scale := math.Round(1 / md.Resolution)
	if r := math.Round(v*scale) / scale; r != 0 {
		return r
	}
	return 0
}

// MetricKind says how a metric's values move from turn to turn.
type MetricKind int

// The kinds of metric.
const (
	// Gauge is a level that goes up and down (HP, length, score).
	Gauge MetricKind = iota
	// Counter is a running total that never decreases (kills, hits).
	Counter
)

func (k MetricKind) String() string {
	if k == Counter {
		return "counter"
	}
	return "gauge"
}

// Applies reports whether metric i of the game is reported on a row of
// unit (NoUnit for the player's own row): every metric applies to a
// player, only PerUnit metrics to a unit.
func (g *Game) Applies(i, unit int) bool {
	return unit == NoUnit || g.Metrics[i].PerUnit
}

// NoUnit marks a Stat or Event that belongs to a whole player, not a unit.
const NoUnit = -1

// Stat is one row of per-turn numbers for a player (Unit == NoUnit) or for
// one of its units. Values holds one value per metric of the game, in the
// order of Game.Metrics; a metric that does not apply to the row (see
// Game.Applies) is 0.
type Stat struct {
	Seat   int
	Unit   int
	Alive  bool
	Values []float64
}

// AppendStat appends a row for seat and unit with n zero values to dst and
// returns the extended slice and the row's values for the caller to fill.
// A row left in dst's spare capacity by an earlier call lends its Values
// array, so a match that reports into the same slice every turn allocates
// nothing after the first turn.
func AppendStat(dst []Stat, n, seat, unit int, alive bool) ([]Stat, []float64) {
	if len(dst) < cap(dst) {
		dst = dst[:len(dst)+1]
	} else {
		dst = append(dst, Stat{})
	}
	s := &dst[len(dst)-1]
	s.Seat, s.Unit, s.Alive = seat, unit, alive
	if cap(s.Values) < n {
		s.Values = make([]float64, n)
	} else {
		s.Values = s.Values[:n]
		clear(s.Values)
	}
	return dst, s.Values
}

// Event is something that happened during a turn.
type Event struct {
	Seat   int    // acting seat, or -1 for the game itself
	Unit   int    // acting unit, or NoUnit
	Kind   string // collision, hit, kill, death, eat, pickup, spawn, invalid, timeout...
	Target int    // affected seat, or -1
	Amount float64
	X, Y   int
	Detail string
}

// Event kinds shared by every game. Games add their own.
const (
	EventInvalid = "invalid" // a command the game rejected
	EventTimeout = "timeout" // the bot answered too late; no command was played
	EventCrash   = "crash"   // the bot process died; it is silent from now on
	// EventOversize: the bot's answer was longer than a command may be; the
	// recorder kept its first replay.MaxCommandBytes bytes as the command.
	EventOversize = "oversize"
)

// BotDef names a built-in bot and builds it.
type BotDef struct {
	Name        string
	Description string
	// New builds the bot for one seat of a match with the given setup. seed
	// is the bot's own seed for any randomness it uses.
	New func(setup Setup, seat int, seed uint64) (Bot, error)
}

// Bot is a built-in bot: a pure function of the views it has been shown
// and its own seeded randomness.
type Bot interface {
	// Act returns the command for the next turn given the view from
	// Match.View for the bot's seat.
	Act(view any) string
}

// Drawer is a built-in bot that can show what it thinks, as a bot of the
// JSON-lines protocol does with an answer's "debug" (docs/bots.md).
type Drawer interface {
	// Drawing returns the debug shapes of the bot's last Act, as that
	// protocol's JSON array in the game's coordinates, or nil for none.
	Drawing() json.RawMessage
}

// ErrOver is returned by Step once the match has ended.
var ErrOver = errors.New("match is over")

// SetupError reports a setup the game does not accept.
type SetupError struct {
	Field  string // "ruleset", "players", "config", "config.rolls"...
	Reason string
}

func (e *SetupError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Reason) }

// New starts a match of g: it checks s (see Check) and hands the canonical
// setup to the game's Start. Every match starts here.
func (g *Game) New(s Setup) (Match, error) {
	s, err := g.Check(s)
	if err != nil {
		return nil, err
	}
	return g.Start(s)
}

// Check returns s in canonical form, with the game's default ruleset filled
// in when s names none, or a *SetupError for a ruleset the game does not
// know or a player count outside its range. Only the game's Start can judge
// the config, so a setup that passes Check may still fail New.
func (g *Game) Check(s Setup) (Setup, error) {
	if s.Ruleset == "" {
		s.Ruleset = g.Rulesets[0]
	} else if !slices.Contains(g.Rulesets, s.Ruleset) {
		return s, &SetupError{Field: "ruleset", Reason: fmt.Sprintf("game %s has no ruleset %s (have %v)", g.Name, QuoteCommand(s.Ruleset), g.Rulesets)}
	}
	if n := s.Players; n < g.MinPlayers || n > g.MaxPlayers {
		if g.MinPlayers == g.MaxPlayers {
			return s, &SetupError{Field: "players", Reason: fmt.Sprintf("game %s takes %d players, got %d", g.Name, g.MinPlayers, n)}
		}
		return s, &SetupError{Field: "players", Reason: fmt.Sprintf("game %s takes %d to %d players, got %d", g.Name, g.MinPlayers, g.MaxPlayers, n)}
	}
	return s, nil
}

// Revision returns the current rules revision of a ruleset ("" = the
// default ruleset): its entry in Revisions, or 1.
func (g *Game) Revision(ruleset string) int {
	if ruleset == "" {
		ruleset = g.Rulesets[0]
	}
	if r, ok := g.Revisions[ruleset]; ok {
		return r
	}
	return 1
}

// Bot returns the built-in bot named name, or false.
func (g *Game) Bot(name string) (BotDef, bool) {
	for _, b := range g.Bots {
		if b.Name == name {
			return b, true
		}
	}
	return BotDef{}, false
}

// Metric returns the index in Metrics of the metric with the given name,
// or false.
func (g *Game) Metric(name string) (int, bool) {
	for i, m := range g.Metrics {
		if m.Name == name {
			return i, true
		}
	}
	return 0, false
}

// maxQuoted bounds how much of a raw command goes into an event detail.
const maxQuoted = 40

// QuoteCommand quotes a raw command for an event detail (an invalid
// command's reason), or any other untrusted text for a message, cut to a
// bounded length, so hostile or huge text stays readable and small: control
// characters come out escaped.
func QuoteCommand(s string) string {
	if c := Clip(s, maxQuoted); len(c) < len(s) {
		return strconv.Quote(c) + "..."
	}
	return strconv.Quote(s)
}

// Clip returns s cut to at most n bytes on a UTF-8 character boundary.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		n--
	}
	return s[:n]
}

// ReadView returns the view a built-in bot was given as the game's view
// type V: the *V or V that Match.View returned, or anything whose JSON
// decodes into a V (a view that went through JSON, as an external bot
// receives it). Bots that read only this behave the same in and out of
// process.
func ReadView[V any](v any) (*V, bool) {
	switch v := v.(type) {
	case *V:
		return v, true
	case V:
		return &v, true
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var view V
	if err := json.Unmarshal(data, &view); err != nil {
		return nil, false
	}
	return &view, true
}
