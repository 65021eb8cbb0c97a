package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
)

type criticalFlags struct {
	recordFlags
	seat, every, from, to, maxForks int
	bot, alternatives               string
	timeLimit                       time.Duration
}

func newCriticalCmd() *cobra.Command {
	var f criticalFlags
	cmd := &cobra.Command{
		Use:   "critical REPLAY --seat S [--bot SPEC] [--alternatives all|K] [--every K]",
		Short: "Find the turns where another command would have changed a seat's outcome",
		Long: `Fork the match in REPLAY (a replay file) at every turn (--every K: every
K-th) with each alternative command of Seat S in place of the recorded
one, play each fork to its end and print, as a table, the forks where
the seat's outcome (win, loss or draw, and rank) differs from the
recorded one: the turns that decided the match for that seat.

The game lists the seat's alternatives at each position: Snake's four
directions and ACT, River Toad's letters, FoodFight's actions it would
not refuse, the worms' active worm's moves, digs and shots, the career
fair's moves of one team bot at a time. --alternatives K tries only the
first K of them.

Each fork is played as 'replaylab fork' plays one: turns 1 to N-1 as
recorded, every bot fed their views, then live. Seat S plays --bot
SPEC after its forced turn (default: its recorded built-in bot); every
other seat its recorded built-in bot (a seat whose external bot the
replay cannot start is refused). Forks run on all cores, up to
--max-forks of them, within --time-limit; a sweep cut short reports
the turns it finished.`,
		Example: `  replaylab critical m.rpl --seat 2
  replaylab critical m.rpl --seat 1 --bot "python3 mybot.py" --every 10 --alternatives 3`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.ExactArgs(1)(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("seat") {
				return usagef("--seat is required")
			}
			return critical(cmd.Context(), args[0], &f, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	addTimeoutFlags(cmd, &f.recordFlags)
	fl := cmd.Flags()
	fl.IntVar(&f.seat, "seat", 0, "the seat whose commands to vary, from 1")
	fl.StringVar(&f.bot, "bot", "", "the seat's bot after the forced turn: builtin:NAME, a command line or an original protocol's spec (default: its recorded built-in bot)")
	fl.StringVar(&f.alternatives, "alternatives", "all", "alternatives to try per turn: all, or the game's first K")
	fl.IntVar(&f.every, "every", 1, "fork every K-th turn only")
	fl.IntVar(&f.from, "from", 1, "first turn to fork at")
	fl.IntVar(&f.to, "to", 0, "last turn to fork at (default: the match's last)")
	fl.IntVar(&f.maxForks, "max-forks", 100_000, "most forks to play; the sweep stops at the turn that reaches it")
	fl.DurationVar(&f.timeLimit, "time-limit", 10*time.Minute, "stop the sweep after this long and report the turns finished")
	return cmd
}

// criticalFork is one fork of a critical sweep: the seat plays alt at turn.
type criticalFork struct {
	turn     int
	recorded string
	alt      string
	done     bool
	result   sim.PlayerResult
}

func critical(ctx context.Context, path string, f *criticalFlags, stdout, stderr io.Writer) error {
	g, parent, err := readParent(ctx, path)
	if err != nil {
		return err
	}
	last := len(parent.Turns)
	if f.to == 0 {
		f.to = last
	}
	if err := checkPosition(parent, 1, f.seat); err != nil {
		return err
	}
	seat := f.seat - 1
	switch {
	case f.from < 1 || f.from > last:
		return usagef("--from %d: the match has turns 1 to %d", f.from, last)
	case f.to < f.from || f.to > last:
		return usagef("--to %d: give a turn from --from (%d) to the match's last, %d", f.to, f.from, last)
	case f.every < 1:
		return usagef("--every %d: give 1 or more", f.every)
	case f.maxForks < 1:
		return usagef("--max-forks %d: give 1 or more", f.maxForks)
	}
	limit, err := alternativeLimit(f.alternatives)
	if err != nil {
		return err
	}
	h, err := replay.Fork(parent, 1) // the players; each fork names its own turn
	if err != nil {
		return err
	}
	named := map[int]string{}
	if f.bot != "" {
		named[seat] = f.bot
	}
	specs, err := seatSpecs(g, &h, named, nil)
	if err != nil {
		return err
	}
	final, forks, cut, err := criticalForks(ctx, parent, seat, f, limit)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeLimit)
	defer cancel()
	bar := newProgress(stderr, len(forks), "critical", "forks")
	err = playForks(ctx, g, parent, h, specs, seat, forks, &f.recordFlags, bar.step)
	bar.done()
	if err != nil && ctx.Err() == nil {
		return err
	}
	writeCritical(stdout, parent, seat, final.Players[seat], forks, cut, f)
	return nil
}

// alternativeLimit parses --alternatives: 0 for all, else K.
func alternativeLimit(s string) (int, error) {
	if s == "all" {
		return 0, nil
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 {
		return 0, usagef("--alternatives %s: want all or a number from 1", s)
	}
	return k, nil
}

// criticalForks returns the recorded result and the forks to play in
// turn order, each turn's in the game's order of alternatives (all but
// the recorded command, the first limit of them when limit > 0). Only
// whole turns go in, up to --max-forks: cut says the sweep stops early.
func criticalForks(ctx context.Context, parent *replay.Log, seat int, f *criticalFlags, limit int) (res sim.Result, forks []criticalFork, cut bool, err error) {
	m, err := replay.Run(ctx, parent, func(tv *replay.TurnView) error {
		turn := tv.Turn + 1 // the turn whose command is varied
		if cut || turn < f.from || turn > f.to || (turn-f.from)%f.every != 0 || tv.Match.Over() {
			return nil
		}
		alt, ok := tv.Match.(sim.Alternator)
		if !ok {
			return fmt.Errorf("game %s lists no alternative commands", parent.Header.Game)
		}
		recorded := parent.Turns[turn-1][seat]
		var these []criticalFork
		for _, a := range alt.Alternatives(seat) {
			if a != recorded && (limit == 0 || len(these) < limit) {
				these = append(these, criticalFork{turn: turn, recorded: recorded, alt: a})
			}
		}
		if cut = len(forks)+len(these) > f.maxForks; !cut {
			forks = append(forks, these...)
		}
		return nil
	})
	if err != nil {
		return sim.Result{}, nil, false, err
	}
	return m.Result(), forks, cut, nil
}

// playForks plays the forks on all cores, marking each done with the
// seat's result, and calls step after each (on the calling goroutine, as
// the progress bar is not safe for concurrent use). It returns the first
// error; a cancelled ctx stops the workers, leaving forks not done.
func playForks(ctx context.Context, g *sim.Game, parent *replay.Log, h replay.Header, specs []string, seat int, forks []criticalFork, f *recordFlags, step func()) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				res, err := playFork(ctx, g, parent, h, specs, seat, &forks[i], f)
				if err != nil {
					cancel(err)
					continue
				}
				forks[i].done, forks[i].result = true, res
				done <- struct{}{}
			}
		})
	}
	go func() {
		defer close(next)
		for i := range forks {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()
	for range done {
		step()
	}
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// playFork plays one fork to its end and returns the seat's result.
func playFork(ctx context.Context, g *sim.Game, parent *replay.Log, h replay.Header, specs []string, seat int, fk *criticalFork, f *recordFlags) (sim.PlayerResult, error) {
	at := fk.turn - 1
	if at == 0 { // no turn taken from the parent: a match from its start
		h.Parent = nil
	} else {
		p := *h.Parent
		p.Turn, h.Parent = at, &p
	}
	agents, err := startAgents(ctx, g, specs, h.Setup(), f)
	defer closeAgents(agents)
	if err != nil {
		return sim.PlayerResult{}, err
	}
	rec := &replay.Recorder{Header: h, Agents: agents, From: parent, At: at, Force: map[int]string{seat: fk.alt}}
	if _, err := rec.Record(ctx); err != nil {
		return sim.PlayerResult{}, fmt.Errorf("turn %d, %s plays %s: %w", fk.turn, sim.SeatName(seat), sim.QuoteCommand(fk.alt), err)
	}
	return rec.Result.Players[seat], nil
}

// writeCritical prints the forks that change the seat's outcome, for the
// turns whose every fork was played: a sweep cut short says where.
func writeCritical(w io.Writer, parent *replay.Log, seat int, recorded sim.PlayerResult, forks []criticalFork, cut bool, f *criticalFlags) {
	n := finished(forks)
	p := parent.Header.Players[seat]
	fmt.Fprintf(w, "%s (%s) recorded: %s\n", sim.SeatName(seat), botLabel(p.Name, p.Version), outcomeText(recorded))
	switch {
	case n == 0 && len(forks) == 0:
		fmt.Fprintf(w, "no fork to play: the turns swept have no alternative or one turn's take more than --max-forks %d\n", f.maxForks)
		return
	case n == 0:
		fmt.Fprintf(w, "no turn swept within --time-limit %v\n", f.timeLimit)
		return
	case n < len(forks):
		fmt.Fprintf(w, "swept turns %d to %d (%d forks) before --time-limit %v; turns %d to %d not swept\n", f.from, forks[n-1].turn, n, f.timeLimit, forks[n].turn, f.to)
	case cut:
		fmt.Fprintf(w, "swept turns %d to %d (%d forks, --max-forks %d); later turns not swept\n", f.from, forks[n-1].turn, n, f.maxForks)
	default:
		fmt.Fprintf(w, "swept turns %d to %d (%d forks)\n", f.from, forks[n-1].turn, n)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "turn\trecorded\talternative\toutcome")
	rows := 0
	for _, fk := range forks[:n] {
		if fk.result.Outcome == recorded.Outcome && fk.result.Rank == recorded.Rank {
			continue
		}
		rows++
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", fk.turn, sim.QuoteCommand(fk.recorded), sim.QuoteCommand(fk.alt), outcomeText(fk.result))
	}
	if rows == 0 {
		fmt.Fprintln(w, "no alternative changes the outcome")
		return
	}
	tw.Flush()
}

// finished returns how many forks, from the first, make whole turns all
// played: workers finish out of order, and a turn half swept would say
// nothing of it the next run could not contradict.
func finished(forks []criticalFork) int {
	n := 0
	for i, fk := range forks {
		if !fk.done {
			return n
		}
		if i+1 == len(forks) || forks[i+1].turn != fk.turn {
			n = i + 1
		}
	}
	return n
}

// outcomeText says a seat's result in a few words.
func outcomeText(r sim.PlayerResult) string {
	o := string(r.Outcome)
	if r.Outcome == sim.Pending {
		o = "not over"
	}
	return fmt.Sprintf("%s, rank %d, score %g", o, r.Rank, r.Score)
}
