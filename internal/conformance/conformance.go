// Package conformance is the test every registered game passes: the parts
// of the simulator contract (DESIGN.md §3, §4) that hold for any game,
// checked by playing short matches with random commands, hostile text and
// the game's own bots. Registering a game in sim/games puts it under test
// (see conformance_test.go); nothing here names a game except the few rules
// files that make some garbage a legal no-op (see quirks).
package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
	"github.com/replaylab/replaylab/sim/worms"
)

// Check plays matches of g under every ruleset, at its smallest, default
// and largest player counts, with a few seeds, and reports every breach of
// the contract. testing.Short keeps one seed and the default player count.
func Check(t *testing.T, g *sim.Game) {
	t.Helper()
	seeds := []uint64{1, 2}
	counts := []int{g.DefaultPlayers, g.MinPlayers, g.MaxPlayers}
	if testing.Short() {
		seeds, counts = seeds[:1], counts[:1]
	}
	counts = slices.Compact(slices.Sorted(slices.Values(counts)))
	for _, rs := range g.Rulesets {
		for _, players := range counts {
			for _, seed := range seeds {
				s := sim.Setup{Ruleset: rs, Seed: seed, Players: players}
				t.Run(fmt.Sprintf("%s/players=%d/seed=%d", rs, players, seed), func(t *testing.T) {
					skipUnseated(t, g, s)
					checkRandom(t, g, s)
					checkBots(t, g, s)
				})
			}
		}
	}
}

// skipUnseated skips a player count that the game's range allows but the
// ruleset refuses (a ruleset may take fewer counts than the game), which
// the game must report as a players setup error. The default ruleset must
// take the default count.
func skipUnseated(t *testing.T, g *sim.Game, s sim.Setup) {
	t.Helper()
	_, err := g.New(s)
	var se *sim.SetupError
	if !errors.As(err, &se) || se.Field != "players" {
		return
	}
	if s.Ruleset == g.Rulesets[0] && s.Players == g.DefaultPlayers {
		t.Fatalf("New(%+v): the default ruleset refuses the default player count: %v", s, err)
	}
	t.Skipf("ruleset %s refuses %d players: %v", s.Ruleset, s.Players, err)
}

// randomTurns is how many turns of random commands checkRandom plays per
// setup at least: random play ends some games within a few turns, so those
// get more matches.
const randomTurns = 200

// checkRandom plays matches of random commands until randomTurns turns are
// played, each twice: both runs must agree turn by turn, and the log must
// round-trip through both encodings to the same match id and regenerate.
func checkRandom(t *testing.T, g *sim.Game, s sim.Setup) {
	for stream, turns := uint64(0), 0; turns < randomTurns && stream < randomTurns; stream++ {
		first := play(t, g, s, randomCommands(g, s, stream))
		again := play(t, g, s, randomCommands(g, s, stream))
		if !slices.Equal(first.hashes, again.hashes) {
			t.Fatalf("commands %d: the same seed and commands gave different state hashes: %s", stream, firstDiff(first.hashes, again.hashes))
		}
		checkRoundTrip(t, g, s, first)
		turns += len(first.turns)
	}
}

// checkBots plays the game's built-in bots, one seat each in turn, twice.
func checkBots(t *testing.T, g *sim.Game, s sim.Setup) {
	first := play(t, g, s, botCommands(t, g, s))
	again := play(t, g, s, botCommands(t, g, s))
	if !slices.Equal(first.hashes, again.hashes) {
		t.Fatalf("the same seed and bots gave different state hashes: %s", firstDiff(first.hashes, again.hashes))
	}
}

func firstDiff(a, b []uint64) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("turn %d: %016x, then %016x", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("%d turns, then %d", len(a)-1, len(b)-1)
}

// kind is what the suite knows about a command it sends.
type kind uint8

const (
	// unknown may be valid or not: an alphabet command the state may
	// refuse, a bot's command, random bytes.
	unknown kind = iota
	// garbage holds no command of any game (no letters, see rejectPieces):
	// the game must report it invalid, unless its rules say it is a no-op.
	garbage
)

// source fills in the commands of the next turn.
type source func(m sim.Match, cmds []string, kinds []kind)

// played is a finished match with everything that went into it.
type played struct {
	turns  [][]string
	hashes []uint64 // after every turn; hashes[0] is the initial state
}

// play runs a match to its end and checks every turn: commands the game
// rejects are reported, stats cover every seat, the hash follows the
// frame, the match ends within its limit with a well-formed result, and
// Step refuses to go on after that.
func play(t *testing.T, g *sim.Game, s sim.Setup, next source) played {
	t.Helper()
	m, err := g.New(s)
	if err != nil {
		t.Fatalf("New(%+v): %v", s, err)
	}
	limit := m.MaxTurns()
	if limit < 1 || limit > replay.MaxTurns {
		t.Fatalf("MaxTurns() = %d, want 1..%d", limit, replay.MaxTurns)
	}
	noOp := quirks[g.Name].noOp
	if noOp == nil {
		noOp = func(cmd string) bool { return cmd == "" }
	}
	p := played{hashes: []uint64{m.Hash()}}
	stats := checkStats(t, g, m, s.Players, nil)
	frame := frameJSON(t, m)
	for !m.Over() {
		if m.Turn() >= limit {
			t.Fatalf("turn %d: not over at its limit MaxTurns() = %d", m.Turn(), limit)
		}
		cmds, kinds := make([]string, s.Players), make([]kind, s.Players)
		next(m, cmds, kinds)
		turn := m.Turn() + 1
		if err := catch(func() error { return m.Step(cmds) }); err != nil {
			t.Fatalf("turn %d: Step(%s): %v", turn, quoteAll(cmds), err)
		}
		if m.Turn() != turn {
			t.Fatalf("Turn() = %d after turn %d", m.Turn(), turn)
		}
		if got := m.MaxTurns(); got != limit {
			t.Fatalf("turn %d: MaxTurns() = %d, was %d at the start", turn, got, limit)
		}
		checkEvents(t, g, m, turn, cmds, kinds, noOp)
		stats = checkStats(t, g, m, s.Players, stats)
		h, f := m.Hash(), frameJSON(t, m)
		if h == p.hashes[len(p.hashes)-1] && !bytes.Equal(f, frame) {
			t.Fatalf("turn %d: the frame changed but the state hash %016x did not\nbefore: %s\nafter:  %s", turn, h, frame, f)
		}
		frame = f
		p.turns = append(p.turns, cmds)
		p.hashes = append(p.hashes, h)
	}
	checkResult(t, m, s.Players)
	cmds := make([]string, s.Players)
	if err := m.Step(cmds); !errors.Is(err, sim.ErrOver) {
		t.Fatalf("Step after the end: %v, want %v", err, sim.ErrOver)
	}
	return p
}

// catch turns a panic in Step into an error, so the report names the turn
// and the commands that caused it.
func catch(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

func quoteAll(cmds []string) string {
	q := make([]string, len(cmds))
	for i, c := range cmds {
		q[i] = sim.QuoteCommand(c)
	}
	return strings.Join(q, ", ")
}

// checkEvents checks that every seat's garbage is reported invalid (or, where
// the rules say so, as the game's own kind of refusal) and that events name
// seats that exist.
func checkEvents(t *testing.T, g *sim.Game, m sim.Match, turn int, cmds []string, kinds []kind, noOp func(string) bool) {
	t.Helper()
	events := m.Events()
	for _, e := range events {
		if e.Seat < -1 || e.Seat >= len(cmds) {
			t.Fatalf("turn %d: event %+v names seat %d of %d", turn, e, e.Seat, len(cmds))
		}
	}
	for seat, cmd := range cmds {
		if kinds[seat] != garbage || noOp(cmd) {
			continue
		}
		reported := slices.ContainsFunc(events, func(e sim.Event) bool {
			return e.Seat == seat && (e.Kind == sim.EventInvalid || slices.Contains(quirks[g.Name].refusals, e.Kind))
		})
		if !reported {
			t.Fatalf("turn %d: seat %d sent %s, which holds no command, and got no %q event; events %+v", turn, seat, sim.QuoteCommand(cmd), sim.EventInvalid, events)
		}
	}
}

// checkStats checks the rows of AppendStats against the game's metrics
// and the turn before (prev; nil at the start): one per-player row per
// seat; the same rows in the same order every turn (storage keeps a line
// of each); a value for every declared metric and nothing more, 0 where a
// metric does not apply to the row (sim.Game.Applies); finite values,
// whole for Integer metrics, and for a Counter never less than the turn
// before. It returns this turn's rows.
func checkStats(t *testing.T, g *sim.Game, m sim.Match, players int, prev []sim.Stat) []sim.Stat {
	t.Helper()
	rows := m.AppendStats(nil)
	perPlayer := make([]int, players)
	for _, r := range rows {
		if r.Seat < 0 || r.Seat >= players {
			t.Fatalf("turn %d: stat row %+v for seat %d of %d", m.Turn(), r, r.Seat, players)
		}
		switch {
		case r.Unit == sim.NoUnit:
			perPlayer[r.Seat]++
		case r.Unit < 0:
			t.Fatalf("turn %d: stat row %+v has unit %d", m.Turn(), r, r.Unit)
		}
	}
	for seat, n := range perPlayer {
		if n != 1 {
			t.Fatalf("turn %d: seat %d has %d per-player stat rows, want 1", m.Turn(), seat, n)
		}
	}
	if prev != nil && len(rows) != len(prev) {
		t.Fatalf("turn %d: %d stat rows, the turn before %d", m.Turn(), len(rows), len(prev))
	}
	for k, r := range rows {
		if prev != nil && (r.Seat != prev[k].Seat || r.Unit != prev[k].Unit) {
			t.Fatalf("turn %d: stat row %d is seat %d unit %d, the turn before seat %d unit %d", m.Turn(), k, r.Seat, r.Unit, prev[k].Seat, prev[k].Unit)
		}
		if len(r.Values) != len(g.Metrics) {
			t.Fatalf("turn %d: seat %d unit %d reports %d values, the game declares %d metrics", m.Turn(), r.Seat, r.Unit, len(r.Values), len(g.Metrics))
		}
		for i, v := range r.Values {
			md := &g.Metrics[i]
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				t.Fatalf("turn %d: seat %d unit %d reports %s = %v", m.Turn(), r.Seat, r.Unit, md.Name, v)
			case !g.Applies(i, r.Unit) && v != 0:
				t.Fatalf("turn %d: unit %d of seat %d reports %s = %v, a metric not declared per unit", m.Turn(), r.Unit, r.Seat, md.Name, v)
			case md.Integer && v != math.Trunc(v):
				t.Fatalf("turn %d: seat %d unit %d reports %s = %v, declared integer", m.Turn(), r.Seat, r.Unit, md.Name, v)
			case md.Kind == sim.Counter && prev != nil && v < prev[k].Values[i]:
				t.Fatalf("turn %d: seat %d unit %d reports counter %s = %v, down from %v", m.Turn(), r.Seat, r.Unit, md.Name, v, prev[k].Values[i])
			}
		}
	}
	return rows
}

func frameJSON(t *testing.T, m sim.Match) []byte {
	t.Helper()
	b, err := json.Marshal(m.Frame())
	if err != nil {
		t.Fatalf("turn %d: Frame: %v", m.Turn(), err)
	}
	return b
}

// checkResult checks a finished match's result: one entry per seat, ranks
// from 1, a winner that is a seat or -1.
func checkResult(t *testing.T, m sim.Match, players int) {
	t.Helper()
	r := m.Result()
	if len(r.Players) != players {
		t.Fatalf("Result has %d players, want %d", len(r.Players), players)
	}
	if r.Winner < -1 || r.Winner >= players {
		t.Fatalf("Result winner %d, want -1..%d", r.Winner, players-1)
	}
	for seat, p := range r.Players {
		if p.Rank < 1 || p.Rank > players {
			t.Fatalf("Result seat %d: rank %d, want 1..%d", seat, p.Rank, players)
		}
		if p.Outcome == sim.Pending {
			t.Fatalf("Result seat %d: outcome pending after the end", seat)
		}
	}
	if r.Winner >= 0 && r.Players[r.Winner].Rank != 1 {
		t.Fatalf("Result winner %d has rank %d", r.Winner, r.Players[r.Winner].Rank)
	}
}

// checkRoundTrip writes a played match as a log, encodes it both ways,
// decodes it and regenerates it: the match id must survive and Run must
// reach the same final hash.
func checkRoundTrip(t *testing.T, g *sim.Game, s sim.Setup, p played) {
	t.Helper()
	n := len(p.turns)
	l := &replay.Log{
		Header: replay.NewHeader(g, s.Ruleset, s.Seed, s.Config),
		Turns:  p.turns,
		Hashes: []replay.Hash{{Turn: 0, Sum: p.hashes[0]}, {Turn: n, Sum: p.hashes[n]}},
		End:    &replay.Hash{Turn: n, Sum: p.hashes[n]},
	}
	for seat := range s.Players {
		l.Header.Players = append(l.Header.Players, replay.Player{Name: fmt.Sprintf("seat %d", seat)})
	}
	enc, err := l.Encode()
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	text, err := l.EncodeText()
	if err != nil {
		t.Fatalf("EncodeText: %v", err)
	}
	fromBinary, err := replay.DecodeBinary(enc.Bytes)
	if err != nil {
		t.Fatalf("DecodeBinary: %v", err)
	}
	fromText, err := replay.DecodeText(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("DecodeText: %v", err)
	}
	for _, d := range []struct {
		name string
		l    *replay.Log
	}{{"binary", fromBinary}, {"text", fromText}} {
		if id, err := d.l.ID(); err != nil || id != enc.ID {
			t.Fatalf("%s round trip: id %s, %v; want %s", d.name, id, err, enc.ID)
		}
		m, err := replay.Run(context.Background(), d.l, nil)
		if err != nil {
			t.Fatalf("%s round trip: Run: %v", d.name, err)
		}
		if m.Hash() != p.hashes[n] {
			t.Fatalf("%s round trip: final hash %016x, want %016x", d.name, m.Hash(), p.hashes[n])
		}
	}
}

// quirk is what a game's rules file says about text that holds no command.
type quirk struct {
	// noOp reports whether the rules play cmd as a legal "no command"
	// rather than reject it. Without one, only "" is (sim.Match.Step).
	noOp func(cmd string) bool
	// refusals are event kinds besides sim.EventInvalid that report a
	// command the game did not follow.
	refusals []string
}

// quirks holds the rules that make garbage legal or refuse it otherwise,
// each from its game's rules file.
var quirks = map[string]quirk{
	// worms.md §7.1: the runner splits the text on ';', trims each part
	// (Java's trim: every char <= ' ') and drops empty ones; with no command
	// left the worm does nothing, without penalty. An empty text is a
	// time-out, which the runner sends as "No Command": invalid.
	// §7.6: a frozen worm's command is suppressed, "not invalid".
	"worms": {
		noOp: func(cmd string) bool {
			return cmd != "" && strings.TrimFunc(cmd, func(r rune) bool { return r <= ' ' || r == ';' }) == ""
		},
		refusals: []string{worms.EventFrozen},
	},
}

// randomCommands draws each seat's command from the game's alphabet, from
// garbage that holds no command, or from noise, with the project's PRNG
// seeded from the setup and the stream number.
func randomCommands(g *sim.Game, s sim.Setup, stream uint64) source {
	r := rng.New(rng.SubSeed(s.Seed, stream))
	return func(_ sim.Match, cmds []string, kinds []kind) {
		for seat := range cmds {
			switch p := r.IntN(100); {
			case p < 60:
				cmds[seat], kinds[seat] = g.Alphabet[r.IntN(len(g.Alphabet))], unknown
			case p < 85:
				cmds[seat], kinds[seat] = garbageCommand(r), garbage
			default:
				cmds[seat], kinds[seat] = noise(r, g.Alphabet), unknown
			}
		}
	}
}

// rejectPieces build garbage: no letters, so no keyword of any game, and
// no bytes that could join into a non-ASCII letter that folds to one
// (U+017F ſ, U+212A K): lone continuation bytes, never-valid bytes and
// whole runes only.
var rejectPieces = func() []string {
	p := strings.Split(`! " # $ % & ' ( ) * + , - . / 0 1 2 3 4 5 6 7 8 9 : ; < = > ? @ [ \ ] ^ _ { | } ~`, " ")
	for c := range byte(' ') {
		p = append(p, string(rune(c)))
	}
	return append(p, " ", "  ", "\x7f", "\x80", "\xbf", "\xc0", "\xf8", "\xfe", "\xff",
		"\u00a0", "\u2028", "\u200b", "\ufeff", "\ufffd", "é", "☼", "日本", "💥")
}()

// blanks are whitespace-only texts.
var blanks = []string{"", " ", "\t", "\n", "\r\n", "   ", ";", " ; ", "\x00", "\u00a0", "\u2028"}

// garbageCommand returns text that holds no command: empty, blank, a few
// pieces, or pieces up to the longest command a replay keeps.
func garbageCommand(r *rng.Rand) string {
	switch r.IntN(10) {
	case 0, 1:
		return blanks[r.IntN(len(blanks))]
	case 2:
		return pieces(r, replay.MaxCommandBytes)
	}
	return pieces(r, 1+r.IntN(24))
}

func pieces(r *rng.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(rejectPieces[r.IntN(len(rejectPieces))])
	}
	return sim.Clip(b.String(), n)
}

// noise returns text the game may or may not accept: random bytes, or
// alphabet commands with their case, spacing and separators mangled.
func noise(r *rng.Rand, alphabet []string) string {
	switch r.IntN(4) {
	case 0:
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return string(b)
	case 1:
		w := alphabet[r.IntN(len(alphabet))]
		return strings.Repeat(w, replay.MaxCommandBytes/len(w))
	}
	var b strings.Builder
	for range 1 + r.IntN(3) {
		w := []byte(alphabet[r.IntN(len(alphabet))])
		for i := range w {
			if r.IntN(3) == 0 {
				w[i] ^= 0x20 // flips the case of a letter, garbles anything else
			}
		}
		b.Write(w)
		b.WriteString([]string{"", " ", ",", ";", ", ", "\t"}[r.IntN(6)])
	}
	return b.String()
}

// botCommands seats the game's built-in bots in turn, each with its own
// seed, and asks them for every command.
func botCommands(t *testing.T, g *sim.Game, s sim.Setup) source {
	t.Helper()
	bots := make([]sim.Bot, s.Players)
	for seat := range bots {
		def := g.Bots[(seat+int(s.Seed))%len(g.Bots)]
		b, err := def.New(s, seat, rng.SubSeed(s.Seed, uint64(seat)))
		if err != nil {
			t.Fatalf("bot %s for seat %d: %v", def.Name, seat, err)
		}
		bots[seat] = b
	}
	return func(m sim.Match, cmds []string, kinds []kind) {
		for seat, b := range bots {
			cmds[seat], kinds[seat] = b.Act(m.View(seat)), unknown
		}
	}
}
