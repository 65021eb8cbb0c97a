package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

type criticalFlags struct {
	recordFlags
	seat, every, from, to, maxForks int
	bot, alternatives, db           string
	timeLimit                       time.Duration
	json                            bool
}

func newCriticalCmd() *cobra.Command {
	var f criticalFlags
	cmd := &cobra.Command{
		Use:   "critical REPLAY|ID --seat S [--db FILE] [--bot SPEC] [--alternatives all|K] [--every K] [--json]",
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
the turns it finished.

With --db FILE, REPLAY may be a stored match id (a file's match is
stored first when it is not), and every fork's result is stored as it
finishes: the same command again (same match, seat, bot and
--alternatives) skips the forks already played, so a sweep cut short
or interrupted resumes, and --max-forks counts the forks still to play.
The match page charts the stored sweeps ("decisive turns").

--json prints the whole result as one JSON document instead of the
table.`,
		Example: `  replaylab critical m.rpl --seat 2
  replaylab critical m.rpl --seat 1 --bot "python3 mybot.py" --every 10 --alternatives 3
  replaylab critical 3f2a9c1b --db lab.db --seat 1 --max-forks 1000 --json`,
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
	fl.StringVar(&f.db, "db", "", "database to store every fork's result in and resume the sweep from: an SQLite file (created if missing) or a postgres:// URL")
	fl.BoolVar(&f.json, "json", false, "print the result as one JSON document")
	return cmd
}

// criticalFork is one fork of a critical sweep: the seat plays alt at
// turn, one of the of forks of that turn.
type criticalFork struct {
	turn     int
	of       int
	recorded string
	alt      string
	done     bool
	result   sim.PlayerResult
}

// forkKey names a fork within its sweep.
type forkKey struct {
	turn int
	alt  string
}

func critical(ctx context.Context, arg string, f *criticalFlags, stdout, stderr io.Writer) error {
	var db *store.DB
	if f.db != "" {
		var err error
		if db, err = store.Open(ctx, f.db); err != nil {
			return err
		}
		defer db.Close()
	}
	g, parent, out, err := sweptMatch(ctx, db, f.db, arg)
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
	sw := sweep{match: parent, seat: seat, player: h.Players[seat], spec: specs[seat], limit: limit, f: f}
	if sw.id, err = parent.ID(); err != nil {
		return err
	}
	played := map[forkKey]sim.PlayerResult{}
	if db != nil {
		if out != nil {
			if err := storeMatch(ctx, db, parent, out.lines); err != nil {
				return err
			}
		}
		var stored []store.ForkResult
		sw.stored, stored, err = db.OpenSweep(ctx, store.Sweep{Match: sw.id, Seat: seat, Bot: sw.spec, Fingerprint: sw.player.Fingerprint,
			Player: store.Player{Name: sw.player.Name, Version: sw.player.Version}, Alternatives: limit})
		if err != nil {
			return err
		}
		for _, fk := range stored {
			played[forkKey{fk.Turn, fk.Command}] = fk.Result
		}
	}
	final, err := sw.plan(ctx, played)
	if err != nil {
		return err
	}
	sw.recorded = final.Players[seat]
	for _, fk := range sw.forks {
		if fk.done {
			sw.resumed++
		}
	}
	if sw.resumed > 0 {
		fmt.Fprintf(stderr, "resuming: %d of %d forks already played\n", sw.resumed, len(sw.forks))
	}
	playCtx, cancel := context.WithTimeout(ctx, f.timeLimit)
	defer cancel()
	bar := newProgress(stderr, len(sw.forks), "critical", "forks")
	bar.resume(sw.resumed)
	err = playForks(playCtx, g, parent, h, specs, seat, sw.forks, &f.recordFlags, func(batch []int) error {
		for range batch {
			bar.step()
		}
		if db == nil {
			return nil
		}
		// The command's context, not the time limit's: a fork that
		// finished in time is kept.
		return db.SaveForks(ctx, sw.stored, sw.results(batch))
	})
	bar.done()
	if err != nil && playCtx.Err() == nil {
		return err
	}
	sw.interrupted = ctx.Err() != nil
	if db != nil && (sw.cut || finished(sw.forks) < len(sw.forks)) {
		fmt.Fprintf(stderr, "the forks played are stored in %s: run the same command again to resume\n", store.DisplayName(f.db))
	}
	if f.json {
		return writeCriticalJSON(stdout, &sw)
	}
	writeCritical(stdout, &sw)
	return nil
}

// sweep is a critical sweep of one seat of a match.
type sweep struct {
	match    *replay.Log
	id       string // the match's
	seat     int
	player   replay.Player // who plays the seat on
	spec     string        // its bot spec
	limit    int           // alternatives per turn, 0 for all
	f        *criticalFlags
	recorded sim.PlayerResult
	forks    []criticalFork
	cut      bool // by --max-forks
	resumed  int  // forks found stored
	// interrupted says the command was stopped (Ctrl-C) before the
	// sweep's end.
	interrupted bool
	stored      store.SweepID // with --db
}

// sweptMatch reads the match to sweep as fork does: a replay file or,
// with a database, a stored match's id. For a file read with a database
// it also returns what the file's bots wrote besides their answers, to
// store the match with (storeMatch) once the command line is checked.
func sweptMatch(ctx context.Context, db *store.DB, dbPath, arg string) (*sim.Game, *replay.Log, *outputLog, error) {
	g, l, err := (&matches{dbPath: dbPath, db: db}).parent(ctx, arg, arg)
	if err != nil || db == nil {
		return g, l, nil, err
	}
	if _, err := os.Stat(arg); err != nil { // a stored match
		return g, l, nil, nil
	}
	out, err := readBotOutput(arg)
	return g, l, &outputLog{lines: out}, err
}

// storeMatch stores the match of l, with its bots' output, unless it is
// stored already.
func storeMatch(ctx context.Context, db *store.DB, l *replay.Log, out []store.BotOutput) error {
	rec, err := regen.Build(ctx, l)
	if err != nil {
		return err
	}
	rec.Output = out
	_, err = db.Ingest(ctx, rec)
	return err
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

// plan lists the forks of the sweep in turn order, each turn's in the
// game's order of alternatives (all but the recorded command, the first
// limit of them when limit > 0), those in played marked done with their
// stored result, and returns the recorded result. Only whole turns go in,
// up to --max-forks forks still to play: sw.cut says the sweep stops
// early.
func (sw *sweep) plan(ctx context.Context, played map[forkKey]sim.PlayerResult) (sim.Result, error) {
	f, toPlay := sw.f, 0
	m, err := replay.Run(ctx, sw.match, func(tv *replay.TurnView) error {
		turn := tv.Turn + 1 // the turn whose command is varied
		if sw.cut || turn < f.from || turn > f.to || (turn-f.from)%f.every != 0 || tv.Match.Over() {
			return nil
		}
		alt, ok := tv.Match.(sim.Alternator)
		if !ok {
			return fmt.Errorf("game %s lists no alternative commands", sw.match.Header.Game)
		}
		recorded := sw.match.Turns[turn-1][sw.seat]
		var these []criticalFork
		for _, a := range alt.Alternatives(sw.seat) {
			if a != recorded && (sw.limit == 0 || len(these) < sw.limit) {
				these = append(these, criticalFork{turn: turn, recorded: recorded, alt: a})
			}
		}
		n := 0
		for i := range these {
			these[i].of = len(these)
			these[i].result, these[i].done = played[forkKey{turn, these[i].alt}]
			if !these[i].done {
				n++
			}
		}
		if sw.cut = toPlay+n > f.maxForks; !sw.cut {
			sw.forks, toPlay = append(sw.forks, these...), toPlay+n
		}
		return nil
	})
	if err != nil {
		return sim.Result{}, err
	}
	return m.Result(), nil
}

// results returns the forks of the sweep at indices batch as the store
// keeps them.
func (sw *sweep) results(batch []int) []store.ForkResult {
	rs := make([]store.ForkResult, len(batch))
	for i, k := range batch {
		fk := &sw.forks[k]
		rs[i] = store.ForkResult{Turn: fk.turn, Command: fk.alt, TurnForks: fk.of, Result: fk.result}
	}
	return rs
}

// playForks plays the forks not done on all cores, marking each done with
// the seat's result, and calls finished with the indices of those done
// since its last call (on the calling goroutine, as neither the progress
// bar nor a batch of writes is for concurrent use; the forks finished
// while it ran come in the next batch). It returns the first error of a
// fork or of finished; a cancelled ctx stops the workers, leaving forks
// not done.
func playForks(ctx context.Context, g *sim.Game, parent *replay.Log, h replay.Header, specs []string, seat int, forks []criticalFork, f *recordFlags, finished func(batch []int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var todo []int
	for i := range forks {
		if !forks[i].done {
			todo = append(todo, i)
		}
	}
	next := make(chan int)
	done := make(chan int)
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
				done <- i
			}
		})
	}
	go func() {
		defer close(next)
		for _, i := range todo {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()
	var failed error
	for i := range done {
		batch := []int{i}
		for more := true; more; {
			select {
			case j, ok := <-done:
				if ok {
					batch = append(batch, j)
				}
				more = ok
			default:
				more = false
			}
		}
		if failed == nil {
			if failed = finished(batch); failed != nil {
				cancel(failed)
			}
		}
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
func writeCritical(w io.Writer, sw *sweep) {
	f, forks := sw.f, sw.forks
	n := finished(forks)
	p := sw.match.Header.Players[sw.seat]
	fmt.Fprintf(w, "%s (%s) recorded: %s\n", sim.SeatName(sw.seat), botLabel(p.Name, p.Version), outcomeText(sw.recorded))
	switch {
	case n == 0 && len(forks) == 0:
		fmt.Fprintf(w, "no fork to play: the turns swept have no alternative or one turn's take more than --max-forks %d\n", f.maxForks)
		return
	case n == 0:
		fmt.Fprintf(w, "no turn swept within --time-limit %v\n", f.timeLimit)
		return
	case n < len(forks):
		fmt.Fprintf(w, "swept turns %d to %d (%d forks) before --time-limit %v; turns %d to %d not swept\n", f.from, forks[n-1].turn, n, f.timeLimit, forks[n].turn, f.to)
	case sw.cut:
		fmt.Fprintf(w, "swept turns %d to %d (%d forks, --max-forks %d); later turns not swept\n", f.from, forks[n-1].turn, n, f.maxForks)
	default:
		fmt.Fprintf(w, "swept turns %d to %d (%d forks)\n", f.from, forks[n-1].turn, n)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "turn\trecorded\talternative\toutcome")
	rows := 0
	for _, fk := range forks[:n] {
		if analytics.CompareResults(sw.recorded, fk.result) == 0 {
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

// criticalJSON is the result of a sweep as critical --json prints it.
type criticalJSON struct {
	Match        string     `json:"match"`
	Game         string     `json:"game"`
	SeatIndex    int        `json:"seat_index"`
	SeatNumber   int        `json:"seat_number"`
	Player       string     `json:"player"` // the recorded one, name@version
	Bot          string     `json:"bot"`    // the spec that plays on
	BotPlayer    string     `json:"bot_player"`
	Alternatives string     `json:"alternatives"`
	Recorded     resultJSON `json:"recorded"`
	From         int        `json:"from"`
	To           int        `json:"to"`
	Every        int        `json:"every"`
	// Swept is the range of turns whose every fork was played, nil when
	// none was.
	Swept *sweptJSON `json:"swept"`
	// Stopped says why the sweep ended before To: "max-forks",
	// "time-limit", "interrupted", or "" when it did not.
	Stopped   string          `json:"stopped"`
	MaxForks  int             `json:"max_forks"`
	TimeLimit string          `json:"time_limit"`
	Forks     int             `json:"forks"`   // planned, up to --max-forks
	Resumed   int             `json:"resumed"` // of Forks, found stored
	Turns     []sweptTurnJSON `json:"turns"`
	Changes   []changeJSON    `json:"changes"`
}

type resultJSON struct {
	Outcome sim.Outcome `json:"outcome"`
	Rank    int         `json:"rank"`
	Score   float64     `json:"score"`
}

type sweptJSON struct {
	From  int `json:"from"`
	To    int `json:"to"`
	Forks int `json:"forks"`
}

// sweptTurnJSON is a turn swept: its forks played, and those that change
// the seat's outcome or rank, better or worse.
type sweptTurnJSON struct {
	Turn    int `json:"turn"`
	Forks   int `json:"forks"`
	Changes int `json:"changes"`
	Better  int `json:"better"`
	Worse   int `json:"worse"`
}

// changeJSON is a fork that changes the seat's outcome or rank.
type changeJSON struct {
	Turn     int    `json:"turn"`
	Recorded string `json:"recorded"`
	Command  string `json:"command"`
	resultJSON
	Better bool `json:"better"`
}

// writeCriticalJSON prints the result of the sweep, over the turns whose
// every fork was played, as one JSON document.
func writeCriticalJSON(w io.Writer, sw *sweep) error {
	f, forks := sw.f, sw.forks
	n := finished(forks)
	p := sw.match.Header.Players[sw.seat]
	doc := criticalJSON{
		Match: sw.id, Game: sw.match.Header.Game, SeatIndex: sw.seat, SeatNumber: sim.SeatNumber(sw.seat),
		Player: botLabel(p.Name, p.Version), Bot: sw.spec, BotPlayer: botLabel(sw.player.Name, sw.player.Version),
		Alternatives: f.alternatives, Recorded: resultJSON{sw.recorded.Outcome, sw.recorded.Rank, sw.recorded.Score},
		From: f.from, To: f.to, Every: f.every, MaxForks: f.maxForks, TimeLimit: f.timeLimit.String(),
		Forks: len(forks), Resumed: sw.resumed, Turns: []sweptTurnJSON{}, Changes: []changeJSON{},
	}
	switch {
	case n < len(forks) && sw.interrupted:
		doc.Stopped = "interrupted"
	case n < len(forks):
		doc.Stopped = "time-limit"
	case sw.cut:
		doc.Stopped = "max-forks"
	}
	if n > 0 {
		doc.Swept = &sweptJSON{From: f.from, To: forks[n-1].turn, Forks: n}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for _, t := range analytics.SweptTurns(sw.recorded, sw.results(idx)) {
		doc.Turns = append(doc.Turns, sweptTurnJSON{Turn: t.Turn, Forks: t.Forks, Changes: t.Changes(), Better: t.Better, Worse: t.Worse})
	}
	for _, fk := range forks[:n] {
		if c := analytics.CompareResults(sw.recorded, fk.result); c != 0 {
			doc.Changes = append(doc.Changes, changeJSON{Turn: fk.turn, Recorded: fk.recorded, Command: fk.alt,
				resultJSON: resultJSON{fk.result.Outcome, fk.result.Rank, fk.result.Score}, Better: c > 0})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
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
