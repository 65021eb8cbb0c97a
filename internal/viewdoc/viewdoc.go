// Package viewdoc holds a game's sim.ViewDoc to the views its matches
// really show: each game's tests play matches with its built-in bots and
// walk the JSON of every seat's view, every turn. A field with no meaning
// for the match's ruleset, a documented field that never turns up, and a
// board symbol missing from the legend each fail the test, so what
// `replaylab view --fields` and docs/bots.md tell bot authors cannot drift
// from the code.
package viewdoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// Play is a match for Check: a setup and the built-in bots that play it,
// seat s playing Bots[s % len(Bots)].
type Play struct {
	Setup sim.Setup
	Bots  []string
}

// Check plays every match to its end and checks the view of every seat
// before every turn, and once more after the last, against g.View.
// Between them the matches must play every ruleset of g, and each
// ruleset's views must show every field and glyph documented for it.
func Check(t *testing.T, g *sim.Game, plays ...Play) {
	t.Helper()
	c := newChecker(t, g)
	for _, p := range plays {
		c.play(t, p.Setup, p.Bots)
	}
	for _, rs := range g.Rulesets {
		seen, played := c.seen[rs]
		if !played {
			t.Errorf("no setup plays ruleset %s, so its views go unchecked", rs)
			continue
		}
		for _, f := range g.View.Fields {
			if f.In(rs) && !seen.fields[f.Path] {
				t.Errorf("ruleset %s: documented field %s never appears in a view (drop it, or play a setup that shows it)", rs, f.Path)
			}
		}
		for _, gl := range g.View.Glyphs {
			if gl.In(rs) && !seen.glyphs[gl.Glyph] {
				t.Errorf("ruleset %s: documented glyph %q never appears on a board (drop it, or play a setup that shows it)", rs, gl.Glyph)
			}
		}
	}
}

// checker walks views against one game's ViewDoc.
type checker struct {
	g      *sim.Game
	fields map[string]sim.ViewField
	glyphs map[string]sim.Glyph
	seen   map[string]seen // per ruleset
	// reported keeps each problem to one report, however many views show it.
	reported map[string]bool
}

func newChecker(t *testing.T, g *sim.Game) *checker {
	t.Helper()
	c := &checker{g: g, fields: map[string]sim.ViewField{}, glyphs: map[string]sim.Glyph{},
		seen: map[string]seen{}, reported: map[string]bool{}}
	if len(g.View.Fields) == 0 {
		t.Fatalf("game %s documents no view fields (sim.Game.View)", g.Name)
	}
	for _, f := range g.View.Fields {
		if _, dup := c.fields[f.Path]; dup {
			t.Errorf("field %s is documented twice", f.Path)
		}
		if strings.TrimSpace(f.Meaning) == "" {
			t.Errorf("field %s has an empty meaning", f.Path)
		}
		checkRulesets(t, g, "field "+f.Path, f.Rulesets)
		c.fields[f.Path] = f
	}
	for _, f := range g.View.Fields {
		if _, ok := c.fields[f.Like]; f.Like != "" && !ok {
			t.Errorf("field %s is like %s, which is not documented", f.Path, f.Like)
		}
	}
	if b := g.View.Board; b != "" {
		if _, ok := c.fields[b]; !ok {
			t.Errorf("the board %s is not a documented field", b)
		}
	} else if len(g.View.Glyphs) > 0 {
		t.Errorf("glyphs documented for no board (sim.ViewDoc.Board)")
	}
	for _, gl := range g.View.Glyphs {
		if _, dup := c.glyphs[gl.Glyph]; dup {
			t.Errorf("glyph %q is documented twice", gl.Glyph)
		}
		if len([]rune(gl.Glyph)) != 1 {
			t.Errorf("glyph %q is not one symbol", gl.Glyph)
		}
		checkRulesets(t, g, fmt.Sprintf("glyph %q", gl.Glyph), gl.Rulesets)
		c.glyphs[gl.Glyph] = gl
	}
	return c
}

func checkRulesets(t *testing.T, g *sim.Game, what string, rulesets []string) {
	t.Helper()
	for _, rs := range rulesets {
		if !slices.Contains(g.Rulesets, rs) {
			t.Errorf("%s names ruleset %q, which game %s does not have", what, rs, g.Name)
		}
	}
}

// play plays s to its end and checks the views.
func (c *checker) play(t *testing.T, s sim.Setup, bots []string) {
	t.Helper()
	m, err := c.g.New(s)
	if err != nil {
		t.Fatalf("New(%+v): %v", s, err)
	}
	s, _ = c.g.Check(s) // the ruleset named, for the default one
	players := make([]sim.Bot, s.Players)
	for seat := range players {
		name := bots[seat%len(bots)]
		def, ok := c.g.Bot(name)
		if !ok {
			t.Fatalf("game %s has no built-in bot %q", c.g.Name, name)
		}
		if players[seat], err = def.New(s, seat, uint64(seat)); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.seen[s.Ruleset]; !ok {
		c.seen[s.Ruleset] = seen{fields: map[string]bool{}, glyphs: map[string]bool{}}
	}
	cmds := make([]string, s.Players)
	for {
		for seat, bot := range players {
			view := m.View(seat)
			c.checkView(t, s, m.Turn(), view)
			cmds[seat] = bot.Act(view)
		}
		if m.Over() {
			return
		}
		if err := m.Step(cmds); err != nil {
			t.Fatalf("turn %d: %v", m.Turn()+1, err)
		}
	}
}

// checkView walks the JSON of one view.
func (c *checker) checkView(t *testing.T, s sim.Setup, turn int, view any) {
	t.Helper()
	data, err := json.Marshal(view)
	if err != nil {
		t.Fatalf("turn %d: encode view: %v", turn, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("turn %d: decode view: %v", turn, err)
	}
	w := walk{c: c, t: t, setup: s, turn: turn}
	w.value("", v)
}

// seen is what the views of a ruleset have shown: documented field paths
// and board glyphs.
type seen struct{ fields, glyphs map[string]bool }

// walk is the walk of one view.
type walk struct {
	c     *checker
	t     *testing.T
	setup sim.Setup
	turn  int
}

// value checks v, the value of the documented field path ("" for the view
// itself), and what it holds.
func (w walk) value(path string, v any) {
	w.t.Helper()
	switch v := v.(type) {
	case map[string]any:
		data := w.c.documented(path + ".*")
		for k, x := range v {
			switch {
			case data:
				w.value(w.child(path, ".*"), x)
			case path == "":
				w.value(w.child(path, k), x)
			default:
				w.value(w.child(path, "."+k), x)
			}
		}
	case []any:
		for _, x := range v {
			w.value(w.child(path, "[]"), x)
		}
	case string:
		if path == w.c.g.View.Board {
			for _, r := range v {
				if gl, ok := w.c.glyphs[string(r)]; !ok || !gl.In(w.setup.Ruleset) {
					w.report("glyph %q on board %s has no meaning in ruleset %s", r, path, w.setup.Ruleset)
				}
				w.c.seen[w.setup.Ruleset].glyphs[string(r)] = true
			}
		}
	}
}

// child returns the documented path of the field path+suffix: itself when
// documented, else the same field of what path is like.
func (w walk) child(path, suffix string) string {
	w.t.Helper()
	p := path + suffix
	for at := path; ; {
		f, ok := w.c.fields[at]
		if _, doc := w.c.fields[p]; doc || !ok || f.Like == "" {
			break
		}
		at, p = f.Like, f.Like+suffix
	}
	f, ok := w.c.fields[p]
	switch {
	case !ok:
		w.report("field %s (ruleset %s) has no meaning in game %s's sim.ViewDoc", p, w.setup.Ruleset, w.c.g.Name)
	case !f.In(w.setup.Ruleset):
		w.report("field %s is documented for rulesets %v, but a view of ruleset %s has it", p, f.Rulesets, w.setup.Ruleset)
	default:
		w.c.seen[w.setup.Ruleset].fields[p] = true
	}
	return p
}

func (c *checker) documented(path string) bool {
	_, ok := c.fields[path]
	return ok
}

// report fails the test once per distinct problem, naming the setup and
// turn where it first showed.
func (w walk) report(format string, args ...any) {
	w.t.Helper()
	msg := fmt.Sprintf(format, args...)
	if w.c.reported[msg] {
		return
	}
	w.c.reported[msg] = true
	w.t.Errorf("%s (first in the view before turn %d of %+v)", msg, w.turn+1, w.setup)
}
