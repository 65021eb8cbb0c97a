package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
)

type askFlags struct {
	recordFlags
	turn, seat, turns int
	bot, suite, db    string
	json              bool
}

func newAskCmd() *cobra.Command {
	var f askFlags
	cmd := &cobra.Command{
		Use:   "ask REPLAY|ID --turn N --seat S --bot SPEC [--turns K [-o FILE]] [--db FILE] | ask --suite FILE --bot SPEC [--json]",
		Short: "Ask a bot what it plays at a recorded position of a match",
		Long: `Print the request Seat S's bot received before turn N of the match in
REPLAY (a replay file, or with --db FILE a stored match's id or unique
prefix of at least 8 hex digits; a file of that name comes first), then
the command the bot SPEC gives there now and the recorded one. The bot is
first fed the views of turns 1 to N-1, as a fork does (see 'replaylab
fork'), and the report says whether it repeated the recorded commands.

--turns K plays K turns from turn N on, as a fork: Seat S plays SPEC,
every other seat its recorded built-in bot or, for an external bot the
replay cannot start, the recorded commands (none past the recorded
match's end). Each turn's command of Seat S is printed beside the
recorded one, and the result if the match ends.

-o FILE writes that match, turns 1 to N-1 as recorded then the K turns
played, as fork writes one: its header names the parent match and N-1
(no parent for N = 1). A replay holds a whole match, so the match must
end within the K turns, and every other seat must have a built-in bot
(a seat replaying recorded commands would be credited with moves its
bot never chose: fork the match with --bot for it instead); otherwise
nothing is written and the exit status is 2.

--suite FILE checks the bot at many positions instead: FILE holds
positions as JSON (an array, or one object a line; blank lines and
lines starting with # skipped), each
  {"replay": PATH, "turn": N, "seat": S, "expect": REGEXP}
or as TOML (a .toml file, or one starting with [[position]]), each
  [[position]]
  replay = PATH
  turn = N
  seat = S
  expect = REGEXP
with "forbid" in place of "expect" for a command the bot must not give;
a relative PATH is relative to FILE's directory (with --db, a PATH that
is no file may be a stored match's id), seats count from 1 and the
pattern must match the whole command. A table says which pass (--json
prints them as JSON, for CI); the exit status is 1 when any fails.`,
		Example: `  replaylab ask --suite positions.jsonl --bot "python3 mybot.py"
  replaylab ask m.rpl --turn 150 --seat 2 --bot "python3 mybot.py"
  replaylab ask m.rpl --turn 150 --seat 2 --bot builtin:greedy --turns 20
  replaylab ask --db replaylab.db 3fa9c2e1 --turn 900 --seat 1 --bot builtin:greedy --turns 20 -o end.rpl`,
		Args: func(cmd *cobra.Command, args []string) error {
			check := cobra.ExactArgs(1)
			if cmd.Flags().Changed("suite") { // the suite names the replays
				check = cobra.NoArgs
			}
			if err := check(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, name := range []string{"turn", "seat"} {
				if !cmd.Flags().Changed(name) && f.suite == "" {
					return usagef("--%s is required (or give --suite)", name)
				}
			}
			path := ""
			if len(args) > 0 {
				path = args[0]
			}
			return ask(cmd.Context(), path, &f, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	addPlayFlags(cmd, &f.recordFlags)
	fl := cmd.Flags()
	fl.IntVar(&f.turn, "turn", 0, "turn whose request to ask about, from 1")
	fl.IntVar(&f.seat, "seat", 0, "seat to ask about, from 1")
	fl.StringVar(&f.bot, "bot", "", "the bot to ask: builtin:NAME, a command line or an original protocol's spec (codenjoy:, awap2019:, entelect:, toad-solver:, foodfight-runner:)")
	fl.IntVar(&f.turns, "turns", 1, "turns to play from turn N on")
	fl.StringVar(&f.suite, "suite", "", "a file of positions to check the bot at, instead of REPLAY (see above)")
	fl.BoolVar(&f.json, "json", false, "with --suite: print the results as JSON")
	fl.StringVar(&f.db, "db", "", "database to read stored matches from, named by id (for REPLAY and suite entries): an SQLite file or a postgres:// URL")
	fl.StringVarP(&f.out, "out", "o", "", "write the match played on as a replay (.rpl binary, .rlog text); see above")
	cmd.MarkFlagRequired("bot")
	return cmd
}

func ask(ctx context.Context, path string, f *askFlags, w, stderr io.Writer) error {
	src := &matches{dbPath: f.db}
	defer src.close()
	if f.suite != "" {
		if f.out != "" {
			return usagef("-o is for one position, not --suite")
		}
		return askSuite(ctx, src, f, w)
	}
	if f.out == "-" {
		return usagef("-o -: ask prints its report on stdout; give a file")
	}
	start := time.Now()
	g, parent, err := src.parent(ctx, path, path)
	if err != nil {
		return err
	}
	if f.turns < 1 {
		return usagef("--turns %d: play at least one turn", f.turns)
	}
	if err := checkPosition(parent, f.turn, f.seat); err != nil {
		return err
	}
	if f.out != "" {
		if err := checkWritable(g, parent, f.seat-1, f.turn); err != nil {
			return err
		}
	}
	req, err := requestBefore(ctx, parent, f.turn, f.seat-1)
	if err != nil {
		return err
	}
	if err := writeIndented(w, req); err != nil {
		return err
	}
	p, err := playAt(ctx, g, parent, f.turn, f.seat-1, f.turns, f.bot, &f.recordFlags)
	if err != nil {
		return err
	}
	seat, at, l := f.seat-1, f.turn-1, p.log
	players := p.rec.Header.Players
	label := fmt.Sprintf("%s (%s)", sim.SeatName(seat), botLabel(players[seat].Name, players[seat].Version))
	if at > 0 {
		fmt.Fprintf(w, "%s: the bot %s", label, p.rec.Agreements[seat])
		if p.rec.Agreements[seat].Turn == 0 {
			fmt.Fprintf(w, " up to turn %d", at)
		}
		fmt.Fprintln(w)
	}
	for turn := f.turn; turn <= len(l.Turns); turn++ {
		recorded := "(the recorded match had ended)"
		if turn <= len(parent.Turns) {
			recorded = sim.QuoteCommand(parent.Turns[turn-1][seat])
		}
		fmt.Fprintf(w, "turn %d, %s: recorded %s, now %s\n", turn, label, recorded, sim.QuoteCommand(l.Turns[turn-1][seat]))
	}
	if l.End != nil {
		m, err := replay.Run(ctx, l, nil)
		if err != nil {
			return fmt.Errorf("the played match does not regenerate (a simulator bug): %w", err)
		}
		fmt.Fprintf(w, "the match ends at turn %d: %s\n", len(l.Turns), describeResult(m.Result(), players))
	}
	if f.out == "" {
		return nil
	}
	if l.End == nil {
		return usagef("-o %s: the match is not over after turn %d, and a replay holds a whole match: give more --turns, or fork it ('replaylab fork --at %d'), which plays it to its end; nothing written",
			f.out, len(l.Turns), f.turn-1)
	}
	_, err = writeRecording(ctx, g, l, &f.recordFlags, w, stderr, start)
	return err
}

// checkWritable refuses to write a match played on from turn with seat's
// bot asked when another seat's bot is not built-in: that seat would only
// replay its recorded commands, and the replay would credit its bot with
// the live turns' moves.
func checkWritable(g *sim.Game, l *replay.Log, seat, turn int) error {
	var external []string
	for s, p := range l.Header.Players {
		if s != seat && !replay.IsBuiltin(g, p) {
			external = append(external, fmt.Sprintf("%s (%s)", sim.SeatName(s), botLabel(p.Name, p.Version)))
		}
	}
	if len(external) == 0 {
		return nil
	}
	return usagef("-o: not a built-in bot, so it would only replay its recorded commands, which the written match would credit to it: %s; fork the match with a bot for each ('replaylab fork --at %d --bot SEAT=SPEC')",
		strings.Join(external, ", "), turn-1)
}

// checkPosition refuses a turn or a seat (both from 1) the match lacks.
func checkPosition(l *replay.Log, turn, seat int) error {
	if n := len(l.Turns); turn < 1 || turn > n {
		return usagef("--turn %d: the match has turns 1 to %d", turn, n)
	}
	if n := len(l.Header.Players); seat < 1 || seat > n {
		return usagef("--seat %d: the match has seats 1 to %d", seat, n)
	}
	return nil
}

// played is what playAt played: the recorder (its header and agreements)
// and the log, which stops after the turns asked.
type played struct {
	rec *replay.Recorder
	log *replay.Log
}

// playAt plays turns of parent from turn on, as a fork from the turn
// before that is not written: seat plays bot, every other seat its
// recorded built-in bot or the recorded commands.
func playAt(ctx context.Context, g *sim.Game, parent *replay.Log, turn, seat, turns int, bot string, f *recordFlags) (played, error) {
	at := turn - 1
	h, err := replay.Fork(parent, max(at, 1))
	if err != nil {
		return played{}, err
	}
	if at == 0 { // no turn taken from the parent: a match from its start
		h.Parent = nil
	}
	var repeat []int
	specs, err := seatSpecs(g, &h, map[int]string{seat: bot}, func(s int) { repeat = append(repeat, s) })
	if err != nil {
		return played{}, err
	}
	agents, err := startAgents(ctx, g, specs, h.Setup(), f)
	defer func() { closeAgents(agents) }()
	if err != nil {
		return played{}, err
	}
	for _, s := range repeat {
		agents[s] = recordedAgent{parent, s}
	}
	rec := &replay.Recorder{Header: h, Agents: agents, HashEvery: f.hashEvery, From: parent, At: at, Until: at + turns}
	l, err := play(ctx, rec, nil)
	return played{rec, l}, err
}

// requestBefore returns the request the recorder sent seat before turn of
// the match l, from the regenerated match.
func requestBefore(ctx context.Context, l *replay.Log, turn, seat int) ([]byte, error) {
	var buf bytes.Buffer
	_, err := replay.Run(ctx, l, func(tv *replay.TurnView) error {
		if tv.Turn < turn-1 {
			return nil
		}
		if err := replay.WriteRequest(&buf, turn, seat, tv.Match.View(seat)); err != nil {
			return err
		}
		return errStop
	})
	if !errors.Is(err, errStop) {
		return nil, err
	}
	return buf.Bytes(), nil
}

// recordedAgent plays the recorded commands of a seat whose bot cannot be
// started, and none past the recorded match's end.
type recordedAgent struct {
	l    *replay.Log
	seat int
}

func (r recordedAgent) Act(_ context.Context, turn int, _ any) replay.Answer {
	if turn > len(r.l.Turns) {
		return replay.Answer{}
	}
	return replay.Answer{Command: r.l.Turns[turn-1][r.seat]}
}

func (recordedAgent) Close() replay.Output { return replay.Output{} }
