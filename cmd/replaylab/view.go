package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

type viewFlags struct {
	recordFlags
	seat, turn  int
	raw, fields bool
}

func newViewCmd() *cobra.Command {
	var f viewFlags
	cmd := &cobra.Command{
		Use:   "view --game G [--ruleset R] [--seed N] [--players P] [--config JSON] [--seat S] [--turn N] [--raw | --fields]",
		Short: "Print the request an external bot gets, or what each of its fields means",
		Long: `Print the line the recorder writes to the external bot of Seat S before
turn N, {"turn":N,"player":S-1,"view":{...}}, from a real match: the game's
last built-in bot (see 'replaylab games') plays every seat of the turns
before it. Seats count from 1 here as everywhere people read them; the
request's "player", like every index in JSON, counts from 0. The same flags give the same match, so the output can be
compared with what a bot parses.

The request is printed indented, each value that fits on a line kept on
one; --raw prints it exactly as sent, one line, to pipe into a bot.
--fields prints instead what every field of the game's view means (and,
for a game that draws its board as text, every glyph), as Markdown
tables: those of --ruleset, or of every ruleset with the fields only some
rulesets have marked.`,
		Example: `  replaylab view --game worms --turn 20
  replaylab view --game snake --seat 2 --turn 30 --raw | python3 mybot.py
  replaylab view --game worms --ruleset final --fields`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return view(cmd.Context(), &f, cmd.OutOrStdout())
		},
	}
	addSetupFlags(cmd, &f.recordFlags)
	fl := cmd.Flags()
	fl.Uint64Var(&f.seed, "seed", 1, "match seed")
	fl.IntVar(&f.players, "players", 0, "number of seats (default: the game's default count, see 'replaylab games')")
	fl.IntVar(&f.seat, "seat", 1, "seat whose request to print, from 1 (its request says \"player\": seat − 1)")
	fl.IntVar(&f.turn, "turn", 1, "turn whose request to print, from 1")
	fl.BoolVar(&f.raw, "raw", false, "print the request exactly as sent: one line")
	fl.BoolVar(&f.fields, "fields", false, "print what every field of the view means instead of a request")
	cmd.MarkFlagRequired("game")
	return cmd
}

func view(ctx context.Context, f *viewFlags, w io.Writer) error {
	g, err := games.Lookup(f.game)
	if err != nil {
		return usageError{err}
	}
	if f.fields {
		if f.raw {
			return usagef("--raw and --fields: choose one")
		}
		if f.ruleset != "" {
			if _, err := g.Check(sim.Setup{Ruleset: f.ruleset, Players: g.DefaultPlayers}); err != nil {
				return usageError{err}
			}
		}
		return writeViewDoc(w, g, f.ruleset)
	}
	req, err := viewRequest(ctx, g, f)
	if err != nil {
		return err
	}
	if f.raw {
		_, err := w.Write(req)
		return err
	}
	return writeIndented(w, req)
}

// viewRequest plays the match the flags describe up to --turn and returns
// the request the recorder sends --seat before that turn.
func viewRequest(ctx context.Context, g *sim.Game, f *viewFlags) ([]byte, error) {
	if f.turn < 1 {
		return nil, usagef("--turn %d: turns count from 1", f.turn)
	}
	if f.players == 0 {
		f.players = g.DefaultPlayers
	}
	// The game's last built-in bot is its most capable (see 'replaylab
	// games'), so later turns show a match under way rather than bots
	// standing still.
	f.bots = []string{"builtin:" + g.Bots[len(g.Bots)-1].Name}
	f.seedSet = true
	_, h, specs, err := recordHeader(&f.recordFlags, io.Discard)
	if err != nil {
		return nil, usageError{err}
	}
	seat := f.seat - 1
	if seat < 0 || seat >= len(specs) {
		return nil, usagef("--seat %d: the match has seats 1 to %d", f.seat, len(specs))
	}
	setup := h.Setup()
	m, err := g.New(setup)
	if err != nil {
		return nil, err
	}
	agents := make([]replay.Agent, 0, len(specs))
	defer func() { closeAgents(agents) }()
	for s, spec := range specs {
		a, err := newAgent(ctx, g, spec, setup, s, &f.recordFlags)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sim.SeatName(s), err)
		}
		agents = append(agents, a)
	}
	cmds := make([]string, len(agents))
	for turn := 1; turn < f.turn && !m.Over(); turn++ {
		for s, a := range agents {
			cmds[s] = a.Act(ctx, turn, m.View(s)).Command
		}
		if err := m.Step(cmds); err != nil {
			return nil, fmt.Errorf("turn %d: %w", turn, err)
		}
	}
	if m.Over() {
		return nil, usagef("--turn %d: the match is over after turn %d", f.turn, m.Turn())
	}
	var buf bytes.Buffer
	if err := replay.WriteRequest(&buf, f.turn, seat, m.View(seat)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// indentWidth is the line length up to which writeIndented keeps a value
// on one line.
const indentWidth = 120

// writeIndented writes the JSON value data, compact as the recorder sends
// it, indented for people: a value that fits on its line stays there as
// sent; a longer object or array gets a line per member, and a longer
// array of numbers and strings fills its lines. Every value keeps data's
// own bytes, so the text is the same JSON as data.
func writeIndented(w io.Writer, data []byte) error {
	var b bytes.Buffer
	if err := indentValue(&b, bytes.TrimSpace(data), "", 0); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

// indentValue appends v to b, whose last line is indent and col columns
// long.
func indentValue(b *bytes.Buffer, v []byte, indent string, col int) error {
	if col+utf8.RuneCount(v) < indentWidth || v[0] != '{' && v[0] != '[' {
		b.Write(v)
		return nil
	}
	keys, values, err := members(v)
	if err != nil {
		return err
	}
	inner := indent + "  "
	b.WriteByte(v[0])
	if keys == nil && scalars(values) {
		fillLines(b, values, inner)
	} else {
		for i, x := range values {
			b.WriteString("\n" + inner)
			at := len(inner)
			if keys != nil {
				b.Write(keys[i])
				b.WriteString(": ")
				at += utf8.RuneCount(keys[i]) + 2
			}
			if err := indentValue(b, x, inner, at); err != nil {
				return err
			}
			if i < len(values)-1 {
				b.WriteByte(',')
			}
		}
	}
	b.WriteString("\n" + indent)
	b.WriteByte(v[len(v)-1])
	return nil
}

// members splits a JSON object or array into its members' raw bytes, with
// the object's keys (nil for an array).
func members(v []byte) (keys, values [][]byte, err error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	open, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	for dec.More() {
		if open == json.Delim('{') {
			k, err := dec.Token()
			if err != nil {
				return nil, nil, err
			}
			key, _ := json.Marshal(k) // a key is a string: encoding/json writes it as it was sent
			keys = append(keys, key)
		}
		var x json.RawMessage
		if err := dec.Decode(&x); err != nil {
			return nil, nil, err
		}
		values = append(values, x)
	}
	return keys, values, nil
}

// scalars reports whether no value is an object or array.
func scalars(values [][]byte) bool {
	for _, x := range values {
		if x[0] == '{' || x[0] == '[' {
			return false
		}
	}
	return true
}

// fillLines appends values to b as many to a line as fit.
func fillLines(b *bytes.Buffer, values [][]byte, indent string) {
	col := indentWidth // start a line at the first value
	for i, x := range values {
		n := utf8.RuneCount(x)
		if col+n+2 > indentWidth {
			b.WriteString("\n" + indent)
			col = len(indent)
		} else {
			b.WriteByte(' ')
			col++
		}
		b.Write(x)
		col += n
		if i < len(values)-1 {
			b.WriteByte(',')
			col++
		}
	}
}

// writeViewDoc writes g.View as Markdown tables: the fields of ruleset, or
// of every ruleset ("") with the fields only some rulesets have marked,
// then the board's glyphs.
func writeViewDoc(w io.Writer, g *sim.Game, ruleset string) error {
	var b strings.Builder
	b.WriteString("| field | meaning |\n|---|---|\n")
	for _, f := range g.View.Fields {
		if ruleset != "" && !f.In(ruleset) {
			continue
		}
		meaning := marked(f.Meaning, f.Rulesets, ruleset)
		if f.Like != "" {
			meaning += " Other fields as in `" + f.Like + "`."
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", f.Path, cell(meaning))
	}
	if g.View.Board != "" {
		fmt.Fprintf(&b, "\nThe glyphs of `%s`:\n\n| glyph | meaning |\n|---|---|\n", g.View.Board)
		for _, gl := range g.View.Glyphs {
			if ruleset != "" && !gl.In(ruleset) {
				continue
			}
			glyph := "`" + gl.Glyph + "`"
			if gl.Glyph == " " {
				glyph = "space"
			}
			fmt.Fprintf(&b, "| %s | %s |\n", glyph, cell(marked(gl.Meaning, gl.Rulesets, ruleset)))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// marked returns meaning, marked with the rulesets it is limited to when
// the table is of every ruleset (ruleset "").
func marked(meaning string, only []string, ruleset string) string {
	if ruleset != "" || only == nil {
		return meaning
	}
	return "(" + strings.Join(only, ", ") + " only) " + meaning
}

// cell makes text safe in a Markdown table cell.
func cell(text string) string { return strings.ReplaceAll(text, "|", `\|`) }
