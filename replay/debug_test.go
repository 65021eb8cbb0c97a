package replay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/replaytest"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

func TestParseDebug(t *testing.T) {
	long := strings.Repeat("é", replay.MaxDebugText+1)
	for _, tc := range []struct {
		name, raw, shapes, note string
	}{
		{"none", ``, "", ""},
		{"null", `null`, "", ""},
		{"empty", `[]`, "", ""},
		{"every kind", `[{"mark":[1,2]},{"line":[0,0,3.333,4]},{"circle":[5,5,1.5],"color":"Blue"},{"text":"<b>hi</b>","at":[1,1],"color":"#A0B0C0"}]`,
			`[{"mark":[1,2]},{"line":[0,0,3.33,4]},{"circle":[5,5,1.5],"color":"blue"},{"text":"\u003cb\u003ehi\u003c/b\u003e","at":[1,1],"color":"#a0b0c0"}]`, ""},
		{"not an array", `{"mark":[1,2]}`, "", "[debug: want an array of shapes; dropped]"},
		{"a string", `"x"`, "", "[debug: want an array of shapes; dropped]"},
		{"two kinds", `[{"mark":[1,2],"line":[0,0,1,1]},{"mark":[3,4]}]`, `[{"mark":[3,4]}]`,
			"[debug: 1 malformed shape(s) dropped, the first shape 1: want exactly one of mark, line, circle and text, got 2]"},
		{"no kind", `[{"color":"red"}]`, "", "[debug: 1 malformed shape(s) dropped, the first shape 1: want exactly one of mark, line, circle and text, got 0]"},
		{"unknown field", `[{"mark":[1,2],"size":3}]`, "", `[debug: 1 malformed shape(s) dropped, the first shape 1: want an object with mark, line, circle or text (and color): json: unknown field "size"]`},
		{"short line", `[{"line":[1,2,3]}]`, "", "[debug: 1 malformed shape(s) dropped, the first shape 1: line has 3 numbers, want 4]"},
		{"zero radius", `[{"circle":[1,2,0]}]`, "", "[debug: 1 malformed shape(s) dropped, the first shape 1: circle's radius is 0, want above 0]"},
		{"far", `[{"mark":[1,2e7]}]`, "", "[debug: 1 malformed shape(s) dropped, the first shape 1: mark's number 2e+07 is out of ±1e+06]"},
		{"text without at", `[{"text":"a"}]`, "", "[debug: 1 malformed shape(s) dropped, the first shape 1: text's at has 0 numbers, want 2]"},
		{"at without text", `[{"mark":[1,2],"at":[1,1]}]`, "", "[debug: 1 malformed shape(s) dropped, the first shape 1: at is for a text]"},
		{"long text", `[{"text":"` + long + `","at":[0,0]}]`, "", "[debug: 1 malformed shape(s) dropped, the first shape 1: text has 65 characters, want at most 64]"},
		{"control", `[{"text":"a\nb","at":[0,0]}]`, "", "[debug: 1 malformed shape(s) dropped, the first shape 1: text holds a control character]"},
		{"css colour", `[{"mark":[1,2],"color":"red;background:url(x)"}]`, "", `[debug: 1 malformed shape(s) dropped, the first shape 1: color "red;background:u…", want #rrggbb or one of red, orange, yellow, green, blue, purple, pink, brown, gray, black, white]`},
		{"short hex", `[{"mark":[1,2],"color":"#abc"}]`, "", `[debug: 1 malformed shape(s) dropped, the first shape 1: color "#abc", want #rrggbb or one of red, orange, yellow, green, blue, purple, pink, brown, gray, black, white]`},
		{"not an object", `[1,{"mark":[0,0]}]`, `[{"mark":[0,0]}]`, "[debug: 1 malformed shape(s) dropped, the first shape 1: want an object with mark, line, circle or text (and color): json: cannot unmarshal number into Go value of type replay.Shape]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shapes, note := replay.ParseDebug(json.RawMessage(tc.raw))
			if shapes != tc.shapes || note != tc.note {
				t.Errorf("got %s, %q\nwant %s, %q", shapes, note, tc.shapes, tc.note)
			}
		})
	}
}

func TestParseDebugBounds(t *testing.T) {
	var many []string
	for i := range 100 {
		many = append(many, fmt.Sprintf(`{"mark":[%d,1]}`, i))
	}
	shapes, note := replay.ParseDebug(json.RawMessage("[" + strings.Join(many, ",") + "]"))
	var got []replay.Shape
	if err := json.Unmarshal([]byte(shapes), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != replay.MaxDebugShapes || note != "[debug: kept the first 64 of 100 shapes: at most 64 shapes and 4096 bytes a turn]" {
		t.Errorf("100 marks: got %d shapes, note %q; want %d and a note", len(got), note, replay.MaxDebugShapes)
	}

	text := strings.Repeat("x", replay.MaxDebugText)
	many = many[:0]
	for range 60 {
		many = append(many, `{"text":"`+text+`","at":[1,1],"color":"#ffffff"}`)
	}
	shapes, note = replay.ParseDebug(json.RawMessage("[" + strings.Join(many, ",") + "]"))
	if len(shapes) > replay.MaxDebugBytes || !strings.HasSuffix(shapes, "}]") || !strings.Contains(note, "of 60 shapes") {
		t.Errorf("60 long texts: got %d bytes ending %q, note %q; want at most %d bytes, whole shapes and a note", len(shapes), shapes[len(shapes)-2:], note, replay.MaxDebugBytes)
	}
}

func FuzzParseDebug(f *testing.F) {
	for _, s := range []string{`[{"mark":[1,2]}]`, `[{"text":"é","at":[0,0],"color":"red"}]`, `[{"circle":[1,1,1e6]},{"line":[0,0,1,1]}]`, `{}`, `[[]]`, `[{"text":"\u0000","at":[0,0]}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		shapes, note := replay.ParseDebug(json.RawMessage(raw))
		if shapes == "" {
			return
		}
		if len(shapes) > replay.MaxDebugBytes {
			t.Fatalf("%d bytes, want at most %d", len(shapes), replay.MaxDebugBytes)
		}
		// The normalised form is a fixed point: it parses to itself.
		again, note2 := replay.ParseDebug(json.RawMessage(shapes))
		if again != shapes || note2 != "" {
			t.Fatalf("%s parses to %s, %q (first note %q)", shapes, again, note2, note)
		}
		var got []replay.Shape
		if err := json.Unmarshal([]byte(shapes), &got); err != nil || len(got) > replay.MaxDebugShapes {
			t.Fatalf("%s: %d shapes, %v", shapes, len(got), err)
		}
	})
}

// TestProcessDebug records a real bot that draws: its shapes are kept per
// turn, a malformed one is noted in the turn's output, and the match is
// the one it plays without drawing.
func TestProcessDebug(t *testing.T) {
	replaytest.CheckGoroutines(t)
	p := startBot(t, 5*time.Second, "drawing")
	defer p.Close()
	outs := map[int]string{}
	r := replay.Recorder{Header: recordHeader(), Agents: []replay.Agent{p},
		OnOutput: func(turn, _ int, out replay.Output) { outs[turn] = out.Stdout }}
	l, err := r.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Debug) != 1 || len(r.Debug[0]) != len(l.Turns) {
		t.Fatalf("got debug %v, want one seat's, one per turn of %d", r.Debug, len(l.Turns))
	}
	for i, d := range r.Debug[0] {
		want := fmt.Sprintf(`[{"mark":[%d,1]},{"line":[0,0,2,3],"color":"red"},{"text":"t%d","at":[1,2]}]`, (i+1)%5+1, i+1)
		if d != want {
			t.Errorf("turn %d: got debug %s, want %s", i+1, d, want)
		}
	}
	if want := "[debug: 1 malformed shape(s) dropped, the first shape 4: circle's radius is 0, want above 0]\n"; outs[2] != want || outs[1] != "" {
		t.Errorf("got output %q at turn 1, %q at turn 2; want none, then %q", outs[1], outs[2], want)
	}
	for _, c := range l.Turns {
		if c[0] != "D" {
			t.Fatalf("got commands %v, want D every turn", l.Turns)
		}
	}

	plain := replay.Recorder{Header: recordHeader(), Agents: []replay.Agent{startBot(t, 5*time.Second, "drawing", "plain")}}
	defer plain.Agents[0].Close()
	lp, err := plain.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := l.ID()
	b, _ := lp.ID()
	if a != b || plain.Debug != nil {
		t.Errorf("a drawing bot's replay is %s, a plain one's %s (debug %v): want the same, and no debug", a, b, plain.Debug)
	}
}

// TestBuiltinDrawings plays every built-in bot that draws (sim.Drawer)
// against the game's others through NewDrawingBuiltin, under each ruleset: each keeps a
// drawing in most turns, none is dropped or noted by ParseDebug (the
// bots draw within the protocol's bounds), and the match, replay and id,
// is the one NewBuiltin records.
func TestBuiltinDrawings(t *testing.T) {
	drawers := 0
	for _, g := range games.All() {
		for _, def := range g.Bots {
			bot, err := def.New(sim.Setup{Players: g.DefaultPlayers}, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := bot.(sim.Drawer); !ok {
				continue
			}
			drawers++
			for _, rs := range g.Rulesets {
				t.Run(g.Name+"/"+rs+"/"+def.Name, func(t *testing.T) {
					h := replay.NewHeader(g, rs, 7, nil)
					var names []string
					for seat := range g.DefaultPlayers {
						name := def.Name
						if seat > 0 {
							name = g.Bots[seat%len(g.Bots)].Name
						}
						names = append(names, name)
						h.Players = append(h.Players, replay.Player{Name: name, Version: replay.BuiltinVersion})
					}
					record := func(agent func(*sim.Game, string, sim.Setup, int) (replay.Agent, error)) (*replay.Recorder, *replay.Log, string) {
						rec := &replay.Recorder{Header: h}
						for seat, name := range names {
							a, err := agent(g, name, h.Setup(), seat)
							if err != nil {
								t.Fatal(err)
							}
							rec.Agents = append(rec.Agents, a)
						}
						l, outputs := replaytest.Record(t, rec)
						for seat, byTurn := range outputs {
							noted := 0
							for _, o := range byTurn {
								if o.Stdout != "" {
									noted++
								}
							}
							if noted > 0 {
								t.Errorf("%s: notes in %d turns", sim.SeatName(seat), noted)
							}
						}
						id, err := l.ID()
						if err != nil {
							t.Fatal(err)
						}
						return rec, l, id
					}
					rec, l, id := record(replay.NewDrawingBuiltin)
					drawn := 0
					if len(rec.Debug) > 0 {
						for _, shapes := range rec.Debug[0] { // Seat 1, the bot that draws
							if shapes != "" {
								drawn++
							}
						}
					}
					if drawn < len(l.Turns)/2 {
						t.Errorf("drew in %d of %d turns, want most", drawn, len(l.Turns))
					}
					if _, _, plain := record(replay.NewBuiltin); plain != id {
						t.Errorf("id %s with drawings, %s without", id, plain)
					}
				})
			}
		}
	}
	if drawers < len(games.All()) {
		t.Errorf("%d built-in bots draw, want one a game at least", drawers)
	}
}
