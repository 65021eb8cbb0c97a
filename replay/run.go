package replay

import (
	"context"
	"errors"
	"fmt"

	"github.com/replaylab/replaylab/sim"
)

// ErrIncomplete means the log ends before the match does.
var ErrIncomplete = errors.New("the replay ends before the match is over")

// ErrOldRevision means the replay was recorded under an older rules
// revision of its ruleset than this build plays, and this build does not
// reproduce it: a rule change since then alters the match. The replay is
// sound, so callers show the error's message (it names both revisions),
// never a divergence or a corruption.
var ErrOldRevision = errors.New("recorded with an older engine revision")

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
// A log recorded under an older rules revision than this build plays (see
// Header.Revision) is first regenerated in full without visit: when every
// recorded hash and the end record match, the rule changes since its
// revision did not touch this match (identical states make an identical
// match), and Run goes on as for a current log; otherwise, or when the log
// records no hash to compare, Run returns an *Error of kind ErrOldRevision
// that names both revisions, and visit is never called. So old replays
// that no rule change touched stay usable, and the others are reported as
// recorded under an older revision, not as a divergence at some turn.
//
// Errors: *Error for a log that fails its checks or a step the match
// refuses, *DivergenceError for the first hash that differs, ErrIncomplete
// (wrapped with the turn) when the log stops before the match ends,
// ErrOldRevision (above) instead of any of these for an older revision.
func Run(ctx context.Context, l *Log, visit Visitor) (sim.Match, error) {
	g, m, err := l.check()
	if err != nil {
		return nil, err
	}
	h := &l.Header
	if h.RulesRevision() < g.Revision(h.Ruleset) {
		if m, err = compare(ctx, l, g, m); err != nil || visit == nil {
			return m, err
		}
		if m, err = g.New(h.Setup()); err != nil { // a fresh match for the visited run
			return nil, err
		}
	}
	return run(ctx, l, m, visit)
}

// compare regenerates a log of an older rules revision on m and returns an
// ErrOldRevision *Error unless every recorded hash matches. A cancelled ctx
// is returned as it is: it says nothing about the log.
func compare(ctx context.Context, l *Log, g *sim.Game, m sim.Match) (sim.Match, error) {
	err := errors.New("the replay records no state hash to compare")
	if len(l.Hashes) > 0 || l.End != nil {
		m, err = run(ctx, l, m, nil)
	}
	if err == nil || ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return m, err
	}
	h := &l.Header
	return m, &Error{Err: ErrOldRevision, Reason: sim.Clip(fmt.Sprintf(
		"%v of %s/%s (r%d; this build plays r%d), which this build does not reproduce: %v",
		ErrOldRevision, h.Game, h.Ruleset, h.RulesRevision(), g.Revision(h.Ruleset), err), maxReason)}
}

// run is Run for a current log, or an older one being compared.
func run(ctx context.Context, l *Log, m sim.Match, visit Visitor) (sim.Match, error) {
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
