package replay

import (
	"context"
	"errors"
	"fmt"

	"github.com/replaylab/replaylab/sim"
)

// ErrIncomplete means the log ends before the match does.
var ErrIncomplete = errors.New("the replay ends before the match is over")

// DivergenceError reports the first turn whose regenerated state hash
// differs from the one the recorder wrote: from that turn on, the replay
// does not reproduce the recorded match (a changed engine, a wrong ruleset
// or a corrupted log).
type DivergenceError struct {
	Turn      int
	Want, Got uint64
}

func (e *DivergenceError) Error() string {
	return fmt.Sprintf("turn %d: state hash %016x, the recording has %016x: regeneration diverged from the recorded match", e.Turn, e.Got, e.Want)
}

// TurnView is the regenerated match right after a turn (or, for turn 0,
// right after setup), as a Visitor sees it.
type TurnView struct {
	Turn     int
	Commands []string // the commands of this turn; nil for turn 0
	Match    sim.Match
	// Events are the game's events of this turn followed by the recorder's
	// notes (timeouts, crashes) as events.
	Events []sim.Event
}

// Visitor is called by Run for turn 0 and after every turn. Returning an
// error stops the run with that error.
type Visitor func(*TurnView) error

// Run regenerates the match of a log: it builds the match from the header,
// plays every turn, checks each recorded hash and the end record's final
// hash, and calls visit (which may be nil) for turn 0 and after every turn.
// It returns the finished match. Run stops between turns once ctx is
// done, with an error that wraps ctx.Err() and names the turn.
//
// Errors: *Error for a log that fails its checks or a step the match
// refuses, *DivergenceError for the first hash that differs, ErrIncomplete
// (wrapped with the turn) when the log stops before the match ends.
func Run(ctx context.Context, l *Log, visit Visitor) (sim.Match, error) {
	_, m, err := l.check()
	if err != nil {
		return nil, err
	}
	// A non-blocking receive costs a few nanoseconds a turn, where ctx.Err()
	// takes a lock: a River Toad turn is about 50 ns.
	done := ctx.Done()
	hi, ni := 0, 0
	tv := &TurnView{Match: m}
	var events []sim.Event
	for turn := 0; ; turn++ {
		select {
		case <-done:
			return m, fmt.Errorf("turn %d: %w", turn, ctx.Err())
		default:
		}
		if turn > 0 {
			if m.Over() {
				return m, &Error{Turn: turn, Reason: fmt.Sprintf("the match ended at turn %d but the log goes on to turn %d", turn-1, len(l.Turns))}
			}
			if err := m.Step(l.Turns[turn-1]); err != nil {
				return m, &Error{Turn: turn, Reason: err.Error(), Err: err}
			}
		}
		if hi < len(l.Hashes) && l.Hashes[hi].Turn == turn {
			if got := m.Hash(); got != l.Hashes[hi].Sum {
				return m, &DivergenceError{Turn: turn, Want: l.Hashes[hi].Sum, Got: got}
			}
			hi++
		}
		if visit != nil {
			events = events[:0]
			if turn > 0 {
				events = append(events, m.Events()...)
				tv.Commands = l.Turns[turn-1]
			}
			for ; ni < len(l.Notes) && l.Notes[ni].Turn == turn; ni++ {
				n := l.Notes[ni]
				events = append(events, sim.Event{Seat: n.Seat, Unit: sim.NoUnit, Kind: n.Kind, Target: -1, Detail: noteDetail(n.Kind)})
			}
			tv.Turn, tv.Events = turn, events
			if err := visit(tv); err != nil {
				return m, err
			}
		}
		if turn == len(l.Turns) {
			break
		}
	}
	if l.End != nil {
		if got := m.Hash(); got != l.End.Sum {
			return m, &DivergenceError{Turn: l.End.Turn, Want: l.End.Sum, Got: got}
		}
	}
	if !m.Over() {
		return m, &Error{Turn: len(l.Turns), Reason: ErrIncomplete.Error(), Err: ErrIncomplete}
	}
	return m, nil
}

func noteDetail(kind string) string {
	switch kind {
	case sim.EventTimeout:
		return "no answer within the time limit; no command played"
	case sim.EventCrash:
		return "the bot process exited; it is silent for the rest of the match"
	case sim.EventOversize:
		return "the answer was too long; its first part was played as the command"
	}
	return ""
}
