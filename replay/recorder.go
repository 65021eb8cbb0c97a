package replay

import (
	"context"
	"fmt"
	"sync"

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
	l.Hashes = append(l.Hashes, Hash{Turn: 0, Sum: m.Hash()})
	seats := len(r.Agents)
	answers := make([]Answer, seats)
	budget := MaxLogCommandBytes // what the log's commands may still take
	for turn := 1; !m.Over(); turn++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("turn %d: %w", turn, err)
		}
		if turn > MaxTurns {
			return nil, fmt.Errorf("the match is not over after %d turns", MaxTurns)
		}
		r.ask(ctx, turn, m, answers)
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
	if l.Header.Format == Format {
		l.End = &Hash{Turn: len(l.Turns), Sum: m.Hash()}
	}
	return l, nil
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
