package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/replaylab/replaylab/sim"
)

// Recorder plays a match between agents and writes it as a Log.
type Recorder struct {
	Header Header  // game, ruleset, seed, config and players of the match
	Agents []Agent // one per seat
	// HashEvery adds a state hash every that many turns (0 = none); the
	// initial and the final state are always hashed.
	HashEvery int
	// OnTurn, if set, is called after every turn (for progress).
	OnTurn func(turn int)
	// OnOutput, if set, receives what a bot wrote during a turn besides its
	// answer, for every turn but the last: a bot may write until it has
	// ended, so the agents' Close returns the last turn's whole.
	OnOutput func(turn, seat int, out Output)

	// From, when set, makes the recording a fork of that match (see
	// Fork): turns 1..At are From's, commands and notes, and the match
	// is live from turn At+1. Each agent is still asked every turn of
	// From, with its view as usual, so one with memory (a built-in bot's
	// rng, an external bot's state) reaches turn At+1 as it would have;
	// its answers are compared with From's commands (Agreements) and
	// discarded.
	From *Log
	At   int
	// Force, if set, maps seats to the command each plays at turn At+1
	// whatever its agent answers (which is asked all the same).
	Force map[int]string
	// Until, when above 0, stops the recording after that turn even if
	// the match is not over: the log then lacks its end record and is
	// not a replay to write, but what a bot would do next (ask).
	Until int

	// Agreements is set by Record for a fork: how far each seat's agent
	// repeated From's commands, one entry per seat.
	Agreements []Agreement
	// Times is set by Record: Times[seat][turn-1] is how long the seat's
	// agent took to answer turn (Answer.Time), 0 where it was not timed.
	// A seat none of whose answers was timed (a built-in bot) has no
	// slice, and Times is nil when no seat has one.
	Times [][]time.Duration
	// Debug is set by Record: Debug[seat][turn-1] is the seat's debug
	// drawing of turn (Answer.Debug), "" where it drew none. A seat that
	// drew none has no slice, and Debug is nil when no seat has one.
	Debug [][]string
	// Result is set by Record: the match's result after the last turn
	// played, so a caller that wants only the outcome (critical, which
	// plays thousands of forks) need not regenerate the log.
	Result sim.Result
}

// Agreement says how far the agent of a fork's seat repeated the commands
// of the parent match in turns 1..At.
type Agreement struct {
	Seat int
	// Turn is the first turn the agent's answer differed from the
	// recorded command; 0 when it repeated every one.
	Turn          int
	Recorded, Now string // the commands of that turn
	Note          string // the answer's note at Turn (a timeout, a crash), if any
}

func (a Agreement) String() string {
	switch {
	case a.Turn == 0:
		return "repeats the recorded commands"
	case a.Note != "":
		return fmt.Sprintf("differs first at turn %d (%s; recorded %s)", a.Turn, a.Note, sim.QuoteCommand(a.Recorded))
	}
	return fmt.Sprintf("differs first at turn %d (recorded %s, now %s)", a.Turn, sim.QuoteCommand(a.Recorded), sim.QuoteCommand(a.Now))
}

// Fork returns the header of a fork of from at turn at: from's setup and
// players (replace those whose bot changes) under the current format and
// the rules revision this build plays, naming from and at as its parent.
// The fork must be played from turn 1 of from for its commands to count
// (Recorder.From), and at must leave at least one turn to play live.
func Fork(from *Log, at int) (Header, error) {
	id, err := from.ID()
	if err != nil {
		return Header{}, err
	}
	if at < 1 || at >= len(from.Turns) {
		return Header{}, fmt.Errorf("turn %d: a fork takes turns 1 to %d of the match (it has %d turns, the last one ends it)", at, len(from.Turns)-1, len(from.Turns))
	}
	g, _ := from.Check()
	h := from.Header
	h.Format, h.Revision = Format, g.Revision(h.Ruleset)
	h.Players = slices.Clone(h.Players)
	h.Parent = &Parent{Match: id, Turn: at}
	return h, nil
}

// Record plays the match to its end and returns its log, with the end
// record when the header's format has one (replaylab/2). The header must
// name the rules revision this build plays (NewHeader does). External
// agents answer concurrently (see ask). It does not close the agents.
func (r *Recorder) Record(ctx context.Context) (*Log, error) {
	l := &Log{Header: r.Header}
	g, m, err := l.Header.start()
	if err != nil {
		return nil, err
	}
	if h := &l.Header; h.RulesRevision() != g.Revision(h.Ruleset) {
		return nil, fmt.Errorf("the header names rules revision %d of %s/%s, but this build plays revision %d (start from NewHeader)", h.RulesRevision(), h.Game, h.Ruleset, g.Revision(h.Ruleset))
	}
	if len(r.Agents) != len(l.Header.Players) {
		return nil, fmt.Errorf("%d agents for %d players", len(r.Agents), len(l.Header.Players))
	}
	r.Times, r.Debug = nil, nil
	pf, err := r.parent(g)
	if err != nil {
		return nil, err
	}
	l.Hashes = append(l.Hashes, Hash{Turn: 0, Sum: m.Hash()})
	if err := pf.check(0, m); err != nil {
		return nil, err
	}
	seats := len(r.Agents)
	answers := make([]Answer, seats)
	budget := MaxLogCommandBytes // what the log's commands may still take
	for turn := 1; !m.Over() && (r.Until <= 0 || turn <= r.Until); turn++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("turn %d: %w", turn, err)
		}
		if turn > MaxTurns {
			return nil, fmt.Errorf("the match is not over after %d turns", MaxTurns)
		}
		r.ask(ctx, turn, m, answers)
		r.keepTimes(turn, answers)
		if turn <= r.At && pf != nil {
			r.compare(turn, answers)
			answers = pf.answers(turn, answers)
		} else if turn == r.At+1 {
			for s, c := range r.Force {
				answers[s].Command, answers[s].Note = c, ""
			}
		}
		cmds := make([]string, seats)
		for s, a := range answers {
			if len(a.Command) > budget { // played cut, like an over-long answer
				a.Command, a.Note = sim.Clip(a.Command, budget), sim.EventOversize
			}
			budget -= len(a.Command)
			cmds[s] = a.Command
			if a.Note != "" {
				l.Notes = append(l.Notes, Note{Turn: turn, Seat: s, Kind: a.Note})
			}
		}
		if err := m.Step(cmds); err != nil {
			return nil, fmt.Errorf("turn %d: %w", turn, err)
		}
		if turn <= r.At {
			if err := pf.check(turn, m); err != nil {
				return nil, err
			}
		}
		if r.OnOutput != nil && !m.Over() { // the last turn's is Close's
			for s, a := range answers {
				if a.Output != (Output{}) {
					r.OnOutput(turn, s, a.Output)
				}
			}
		}
		l.Turns = append(l.Turns, cmds)
		if m.Over() || r.HashEvery > 0 && turn%r.HashEvery == 0 {
			l.Hashes = append(l.Hashes, Hash{Turn: turn, Sum: m.Hash()})
		}
		if r.OnTurn != nil {
			r.OnTurn(turn)
		}
	}
	if l.Header.Format == Format && m.Over() {
		l.End = &Hash{Turn: len(l.Turns), Sum: m.Hash()}
	}
	r.Result = m.Result()
	return l, nil
}

// keepTimes adds the answers' times of turn to Times, and their debug
// drawings to Debug.
func (r *Recorder) keepTimes(turn int, answers []Answer) {
	for s, a := range answers {
		r.Times = keepTurn(r.Times, len(answers), s, turn, a.Time)
		r.Debug = keepTurn(r.Debug, len(answers), s, turn, a.Debug)
	}
}

// keepTurn sets rows[seat][turn-1] to v unless v is zero, making rows
// (of seats rows) and growing the seat's row as needed.
func keepTurn[T comparable](rows [][]T, seats, seat, turn int, v T) [][]T {
	var zero T
	if v == zero {
		return rows
	}
	if rows == nil {
		rows = make([][]T, seats)
	}
	if n := len(rows[seat]); n < turn {
		rows[seat] = append(rows[seat], make([]T, turn-n)...)
	}
	rows[seat][turn-1] = v
	return rows
}

// parent is the match a fork plays its first turns from: its log and the
// index of the next recorded hash to check.
type parent struct {
	from  *Log
	old   bool // recorded under an older rules revision
	hi    int
	notes []Note
}

// parent checks a fork's From against the recording's header and returns
// it, or nil for a match played from its start.
func (r *Recorder) parent(g *sim.Game) (*parent, error) {
	if r.From == nil {
		if r.At != 0 || r.Force != nil {
			return nil, errors.New("At and Force are for a fork (From)")
		}
		return nil, nil
	}
	// Check puts a header in its canonical form, in place: it checks a
	// copy, so that forks of one parent may be recorded at once.
	from := *r.From
	f, h := &from, &r.Header
	if _, err := f.Check(); err != nil {
		return nil, fmt.Errorf("the parent match: %w", err)
	}
	if r.At < 0 || r.At >= len(f.Turns) {
		return nil, fmt.Errorf("turn %d: a fork takes turns 1 to %d of its parent", r.At, len(f.Turns)-1)
	}
	// A recording live from turn 1 (At 0) is no fork: ask plays one
	// from a match's start without naming a parent.
	if p := h.Parent; p != nil && p.Turn != r.At || p == nil && r.At > 0 {
		return nil, errors.New("a fork's header names its parent and turn (start from Fork)")
	}
	fh := &f.Header
	if fh.Game != h.Game || fh.Ruleset != h.Ruleset || fh.Seed != h.Seed || !bytes.Equal(fh.Config, h.Config) || len(fh.Players) != len(h.Players) {
		return nil, errors.New("a fork has its parent's game, ruleset, seed, config and seats (start from Fork)")
	}
	for s, c := range r.Force {
		if s < 0 || s >= len(h.Players) {
			return nil, fmt.Errorf("a forced command for %s of a match of %d seats", sim.SeatName(s), len(h.Players))
		}
		if len(c) > MaxCommandBytes {
			return nil, fmt.Errorf("%s: forced command of %d bytes, at most %d", sim.SeatName(s), len(c), MaxCommandBytes)
		}
	}
	r.Agreements = make([]Agreement, len(h.Players))
	for s := range r.Agreements {
		r.Agreements[s].Seat = s
	}
	n, _ := slices.BinarySearchFunc(f.Notes, r.At+1, func(n Note, turn int) int { return n.Turn - turn })
	return &parent{from: f, old: fh.RulesRevision() < g.Revision(fh.Ruleset), notes: f.Notes[:n]}, nil
}

// check compares the state after turn with the parent's recorded hash of
// that turn, if it has one, as Run does: a parent that does not reproduce
// is refused, with the turn, before any live turn is played.
func (p *parent) check(turn int, m sim.Match) error {
	if p == nil {
		return nil
	}
	hs := p.from.Hashes
	for p.hi < len(hs) && hs[p.hi].Turn < turn {
		p.hi++
	}
	if p.hi == len(hs) || hs[p.hi].Turn != turn {
		return nil
	}
	if got := m.Hash(); got != hs[p.hi].Sum {
		err := error(&DivergenceError{Turn: turn, Want: hs[p.hi].Sum, Got: got})
		if p.old {
			h := &p.from.Header
			err = &Error{Err: ErrOldRevision, Reason: fmt.Sprintf("the parent match is %v of %s/%s (r%d), which this build does not reproduce: %v", ErrOldRevision, h.Game, h.Ruleset, h.RulesRevision(), err)}
		}
		return fmt.Errorf("the parent match does not reproduce: %w", err)
	}
	return nil
}

// answers returns the parent's commands and notes of turn in place of the
// agents'.
func (p *parent) answers(turn int, answers []Answer) []Answer {
	for s, c := range p.from.Turns[turn-1] { // what the bots wrote besides stays theirs
		answers[s].Command, answers[s].Note = c, ""
	}
	for len(p.notes) > 0 && p.notes[0].Turn == turn {
		answers[p.notes[0].Seat].Note = p.notes[0].Kind
		p.notes = p.notes[1:]
	}
	return answers
}

// compare records in Agreements the first turn each agent's answer
// differs from the parent's command.
func (r *Recorder) compare(turn int, answers []Answer) {
	for s, a := range answers {
		ag := &r.Agreements[s]
		if rec := r.From.Turns[turn-1][s]; ag.Turn == 0 && (a.Command != rec || a.Note != "") {
			ag.Turn, ag.Recorded, ag.Now, ag.Note = turn, rec, a.Command, a.Note
		}
	}
}

// peeker is a match that can lend a built-in bot a view that reads the
// match until its next Step, cheaper than a View, which is a copy any
// agent may keep.
type peeker interface {
	Peek(seat int) any
}

// ask collects every seat's answer to turn. Processes answer concurrently
// (bots of simultaneous-move games think at the same time); built-in bots
// answer on the calling goroutine meanwhile, as handing each of them to a
// goroutine every turn costs more than most of them think, and read a
// peeked view where the match lends one, as none keeps it past the turn.
func (r *Recorder) ask(ctx context.Context, turn int, m sim.Match, answers []Answer) {
	views := make([]any, len(r.Agents))
	p, peeks := m.(peeker)
	for s, a := range r.Agents { // the match is not safe for concurrent use
		if _, inline := a.(builtin); inline && peeks {
			views[s] = p.Peek(s)
		} else {
			views[s] = m.View(s)
		}
	}
	var wg sync.WaitGroup
	for s, a := range r.Agents {
		if _, inline := a.(builtin); !inline {
			wg.Go(func() { answers[s] = a.Act(ctx, turn, views[s]) })
		}
	}
	for s, a := range r.Agents {
		if _, inline := a.(builtin); inline {
			answers[s] = a.Act(ctx, turn, views[s])
		}
	}
	wg.Wait()
}
