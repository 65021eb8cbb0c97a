package replay

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/rng"
)

// Agent plays one seat of a recorded match.
type Agent interface {
	// Act returns the seat's answer for turn given its view.
	Act(ctx context.Context, turn int, view any) Answer
	// Close releases the agent (ends a process and its children) and
	// returns the output of the match's last turn, whole: what it wrote
	// during that turn and after, up to its end, under the bound of one
	// turn. The Recorder leaves that turn's output to it.
	Close() Output
}

// Answer is what an agent did in one turn.
type Answer struct {
	Command string
	// Note is "" for a normal answer, sim.EventTimeout when the answer was
	// late (Command is then ""), sim.EventCrash the turn the agent died or
	// sim.EventOversize when the answer was cut to MaxCommandBytes.
	Note string
	// Time is how long an external bot took to answer: from writing the
	// request to reading the answer, the turn's limit for a time-out, 0
	// when nothing was timed (a built-in bot, a bot that died before).
	Time time.Duration
	// Debug is the answer's debug drawing, its shapes as compact JSON
	// (ParseDebug), "" for none: drawn over the board, never played.
	Debug string
	Output
}

// Output is what an external bot wrote in a turn besides its answer: from
// just after its previous answer to its answer to this turn (to its end,
// for the last turn). Each stream is UTF-8, with U+FFFD for bytes that
// were not, and at most MaxOutputBytes long; a cut one ends with a line
// "[N bytes truncated]".
type Output struct {
	Stdout string // lines that were not the answer
	Stderr string
}

// builtin adapts a game's built-in bot; drawer is the bot as a sim.Drawer
// when its drawings are kept, else nil, and then drawn holds their budget
// and the notes of the last turn, which the Recorder takes from Close.
type builtin struct {
	bot    sim.Bot
	drawer sim.Drawer
	drawn  *drawnState
}

type drawnState struct {
	budget debugBudget
	notes  string
}

// BuiltinVersion is the version a recording gives a seat played by a
// built-in bot, by which a fork knows the bot can be started again.
const BuiltinVersion = "builtin"

// IsBuiltin reports whether the player p of a match of g was one of g's
// built-in bots: its version says so and g has a bot of its name. Only
// such a seat can be played on from a replay without being given a bot;
// any other bot may be a program only its author has.
func IsBuiltin(g *sim.Game, p Player) bool {
	_, ok := g.Bot(p.Name)
	return ok && p.Version == BuiltinVersion
}

// CheckBuiltin refuses a name that is not one of g's built-in bots,
// listing those it has.
func CheckBuiltin(g *sim.Game, name string) error {
	if _, ok := g.Bot(name); ok {
		return nil
	}
	names := make([]string, len(g.Bots))
	for i, b := range g.Bots {
		names[i] = b.Name
	}
	return fmt.Errorf("game %s has no built-in bot %q (have %s)", g.Name, name, strings.Join(names, ", "))
}

// NewBuiltin returns an agent for the built-in bot name of game g, seeded
// from the match seed and the seat so each seat's randomness is its own.
func NewBuiltin(g *sim.Game, name string, setup sim.Setup, seat int) (Agent, error) {
	if err := CheckBuiltin(g, name); err != nil {
		return nil, err
	}
	def, _ := g.Bot(name)
	bot, err := def.New(setup, seat, rng.SubSeed(setup.Seed, uint64(seat)))
	if err != nil {
		return nil, err
	}
	return builtin{bot: bot}, nil
}

// NewDrawingBuiltin is NewBuiltin keeping the bot's debug drawings, when
// it draws (sim.Drawer), as an external bot's are kept: within the same
// bounds, with a note in the turn's output on what was dropped. The
// commands, and so the replay, are the same as NewBuiltin's.
func NewDrawingBuiltin(g *sim.Game, name string, setup sim.Setup, seat int) (Agent, error) {
	a, err := NewBuiltin(g, name, setup, seat)
	if err != nil {
		return nil, err
	}
	b := a.(builtin)
	if d, ok := b.bot.(sim.Drawer); ok {
		b.drawer, b.drawn = d, &drawnState{}
	}
	return b, nil
}

func (b builtin) Act(_ context.Context, _ int, view any) Answer {
	a := Answer{Command: b.bot.Act(view)}
	if b.drawer != nil {
		a.Debug = b.drawn.budget.keep(b.drawer.Drawing(), func(note string) { a.Stdout += note + "\n" })
		b.drawn.notes = a.Stdout
	}
	return a
}

// Close returns the notes of the last turn's drawing, if any: the
// Recorder leaves a match's last turn's output to Close.
func (b builtin) Close() Output {
	if b.drawn == nil {
		return Output{}
	}
	return Output{Stdout: b.drawn.notes}
}
