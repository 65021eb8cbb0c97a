package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/store"
)

type recordFlags struct {
	game, ruleset, config, rolls, out, outputFile string
	seed                                          uint64
	players, hashEvery                            int
	bots, names, versions                         []string
	turnLimit, startLimit                         time.Duration
	seedSet                                       bool // --seed was given (0 is a valid seed)
	builtinDebug                                  bool // built-in bots that draw keep their drawings
}

func newRecordCmd() *cobra.Command {
	var f recordFlags
	cmd := &cobra.Command{
		Use:   "record --game G --bot SPEC [--bot SPEC...] -o FILE",
		Short: "Play a match between bots and write its replay",
		Long: `Play a match between bots and write its replay.

A bot SPEC is builtin:NAME for a built-in bot (see 'replaylab games') or the
command line of an external program (split on spaces, no shell). External
bots read one JSON line per turn on stdin,
  {"turn":N,"player":P,"view":{...}}
and answer with one line: {"turn":N,"command":"..."}, or the raw command.
The answer is the first line printed after reading the request in the JSON
form or, for a bot that has never answered in the JSON form, the first line
at all (the last two bytes of a request, "}" and the newline, are sent once
the bot has read the rest; what it printed until then is output). Other
stdout lines and all of stderr are saved per turn to FILE.output.jsonl
(16 KiB per turn and 1 MiB per match of each stream). A late answer is
recorded as no command plus a timeout note, one over 4096 bytes is cut
(oversize note); a bot that exits is silent for the rest of the match.
Each bot runs in its own process group, ended when the match ends: input
closed, 1 s grace, SIGTERM, 0.5 s, SIGKILL. On Ctrl-C or SIGTERM the match
stops, the bots are ended the same way and no replay is written.

A bot written for an original game's runner plays unchanged with its
protocol's spec (docs/bots.md, "Original bot protocols"): 'codenjoy:COMMAND {url}'
for a Snake bot of the codenjoy websocket, given its board URL in place of
{url} and in CODENJOY_URL (codenjoy-listen prints the URL and waits for a
bot started by hand), awap2019:PATH/team.py for an AWAP 2019 career
fair Team class, run under python3, entelect:DIR for a Worms bot of the
Entelect 2019 runner (DIR holds its bot.json), toad-solver:COMMAND for a
River Toad solver, given the input file of rolls ({input} and {output}
in COMMAND stand for files), and 'foodfight-runner:java -Xmx32m -jar
RUNNER.jar BOT.jar MAIN' for BitBrawl's FoodFight runner.

The replay's header holds each external bot's fingerprint: a digest of
its command line and of the files it names (the program, found on PATH,
and every argument that is a file, such as the script in "python3
bot.py"), so the code that played can be told apart from an edited one.

The output is a binary replay (.rpl) unless FILE ends in .rlog or is "-"
(text to standard output).`,
		Example: `  replaylab record --game toad --seed 7 --bot builtin:astar -o m.rpl
  replaylab record --game toad --rolls input.txt --bot "python3 mybot.py" -o m.rlog`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.seedSet = cmd.Flags().Changed("seed")
			return record(cmd.Context(), &f, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	addMatchFlags(cmd, &f)
	fl := cmd.Flags()
	fl.Uint64Var(&f.seed, "seed", 0, "match seed (default: a random seed, printed)")
	fl.IntVar(&f.players, "players", 0, "number of seats (default: one per --bot, or the game's default count when it cannot seat that few)")
	fl.StringArrayVar(&f.bots, "bot", nil, "bot of the next seat: builtin:NAME, a command line or an original protocol's spec (codenjoy:, awap2019:, entelect:, toad-solver:, foodfight-runner:) (repeat per seat; the last one fills the remaining seats)")
	fl.StringArrayVar(&f.names, "name", nil, "player name of the next seat (default: from the bot)")
	fl.StringArrayVar(&f.versions, "version", nil, "bot version of the next seat")
	fl.StringVar(&f.rolls, "rolls", "", "toad: file of rolls, in the original input format or as a JSON array")
	fl.StringVarP(&f.out, "out", "o", "", "output file (.rpl binary, .rlog text, - = text on stdout)")
	fl.StringVar(&f.outputFile, "bot-output", "", "where to save external bots' stray stdout and stderr (default FILE.output.jsonl)")
	fl.BoolVar(&f.builtinDebug, "builtin-debug", false, "keep the debug drawings of the built-in bots that draw (saved with the bot output)")
	cmd.MarkFlagRequired("game")
	cmd.MarkFlagRequired("out")
	return cmd
}

// addMatchFlags adds the flags that set up a match and its external bots,
// shared by record and tournament.
func addMatchFlags(cmd *cobra.Command, f *recordFlags) {
	addSetupFlags(cmd, f)
	addPlayFlags(cmd, f)
}

// addPlayFlags adds the flags of how a match is played and recorded,
// shared by every command that plays one.
func addPlayFlags(cmd *cobra.Command, f *recordFlags) {
	cmd.Flags().IntVar(&f.hashEvery, "hash-every", 100, "also record the state hash every N turns (0 = only the first and last)")
	addTimeoutFlags(cmd, f)
}

// addTimeoutFlags adds the time limits of external bots.
func addTimeoutFlags(cmd *cobra.Command, f *recordFlags) {
	fl := cmd.Flags()
	fl.DurationVar(&f.turnLimit, "turn-timeout", time.Second, "time an external bot has per turn")
	fl.DurationVar(&f.startLimit, "start-timeout", 10*time.Second, "time an external bot has for its first turn, start-up included")
}

// addSetupFlags adds the flags that name a game, ruleset and config,
// shared by every command that starts a match.
func addSetupFlags(cmd *cobra.Command, f *recordFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.game, "game", "", "game to play (see 'replaylab games')")
	fl.StringVar(&f.ruleset, "ruleset", "", "ruleset (default: the game's first)")
	fl.StringVar(&f.config, "config", "", "game config as a JSON object")
}

func record(ctx context.Context, f *recordFlags, stdout, stderr io.Writer) error {
	g, h, specs, err := recordHeader(f, stderr)
	if err != nil {
		return usageError{err} // all from the flags: exit status 2, as tournament's
	}
	_, err = recordAndWrite(ctx, g, &replay.Recorder{Header: h}, specs, f, stdout, stderr, nil)
	return err
}

// recordAndWrite records rec's match between agents started from specs,
// one per seat, calls report (when not nil) with the finished recorder,
// writes the replay as f says (none when f.out is empty), sums up each
// seat's trouble and returns the regenerated match with its bots' output,
// to store. record and fork share it.
func recordAndWrite(ctx context.Context, g *sim.Game, rec *replay.Recorder, specs []string, f *recordFlags, stdout, stderr io.Writer, report func(*replay.Recorder)) (*store.Record, error) {
	botOut := botOutputFor(f, f.builtinDebug || slices.ContainsFunc(specs, isExternal))
	// Saved whatever happens, so a failed match leaves the bots' last
	// words; once saved, the trouble summary can name the file.
	defer func() {
		if botOut != nil {
			botOut.close(stderr)
		}
	}()
	start := time.Now()
	l, err := recordMatch(ctx, g, rec, specs, f, botOut)
	if err != nil {
		return nil, err
	}
	if report != nil {
		report(rec)
	}
	built, err := writeRecording(ctx, g, l, f, stdout, stderr, start)
	if err != nil {
		return nil, err
	}
	output := ""
	if botOut != nil {
		if botOut.close(stderr) {
			output = botOut.path
		}
		built.Output, botOut = botOut.lines, nil
	}
	writeTrouble(stderr, "", l.Header.Players, store.Troubles(len(built.Players), built.Events), output)
	return built, nil
}

// recordMatch plays rec's match between agents started from specs, one
// per seat, and closes them. botOut, which may be nil, receives what
// external bots wrote besides their answers, up to their exit.
func recordMatch(ctx context.Context, g *sim.Game, rec *replay.Recorder, specs []string, f *recordFlags, botOut *outputLog) (*replay.Log, error) {
	agents, err := startAgents(ctx, g, specs, rec.Header.Setup(), f)
	defer func() { closeAgents(agents) }()
	if err != nil {
		return nil, err
	}
	rec.Agents, rec.HashEvery = agents, f.hashEvery
	l, err := play(ctx, rec, botOut)
	if err != nil {
		return nil, err
	}
	for s, last := range closeAgents(agents) {
		if botOut != nil {
			botOut.add(len(l.Turns), s, last)
		}
	}
	if botOut != nil {
		botOut.addTimes(rec.Times, f.turnLimit)
		botOut.addDebug(rec.Debug)
	}
	agents = nil
	return l, nil
}

// recordHeader builds the header of the match the flags describe and the
// bot spec of every seat (the last --bot fills the remaining seats). A seed
// that was not given is drawn and printed, so the match can be played again.
func recordHeader(f *recordFlags, stderr io.Writer) (*sim.Game, replay.Header, []string, error) {
	g, err := games.Lookup(f.game)
	if err != nil {
		return nil, replay.Header{}, nil, err
	}
	if len(f.bots) == 0 {
		return nil, replay.Header{}, nil, errors.New("no --bot given")
	}
	config, err := recordConfig(f)
	if err != nil {
		return nil, replay.Header{}, nil, err
	}
	players := f.players
	if players == 0 {
		players = defaultSeats(g, f.ruleset, config, len(f.bots))
	}
	if len(f.bots) > players {
		return nil, replay.Header{}, nil, fmt.Errorf("%d --bot flags for %d players", len(f.bots), players)
	}
	if !f.seedSet {
		var b [8]byte
		rand.Read(b[:])
		f.seed = binary.LittleEndian.Uint64(b[:]) >> 11 // fits a JSON number exactly
		fmt.Fprintf(stderr, "seed %d\n", f.seed)
	}
	fps := make([]string, len(f.bots))
	for i, spec := range f.bots {
		if err := checkProtocol(g, spec); err != nil {
			return nil, replay.Header{}, nil, fmt.Errorf("bot %d (%s): %w", i+1, spec, err)
		}
		if fps[i], err = botFingerprint(spec); err != nil {
			return nil, replay.Header{}, nil, fmt.Errorf("bot %d (%s): %w", i+1, spec, err)
		}
	}
	h := replay.NewHeader(g, f.ruleset, f.seed, config)
	specs := make([]string, players)
	for s := range specs {
		b := min(s, len(f.bots)-1)
		specs[s] = f.bots[b]
		p := playerFor(specs[s], s, f)
		p.Fingerprint = fps[b]
		h.Players = append(h.Players, p)
	}
	if _, err := h.Check(); err != nil {
		return nil, replay.Header{}, nil, err
	}
	return g, h, specs, nil
}

// defaultSeats is the seat count of a recording whose flags name none:
// one seat per --bot, as a user who names two bots expects a match of two
// (a FoodFight DUEL, not a three-player match). Only when the game or the
// ruleset cannot seat that few (one bot for Snake, or for a two-team
// career fair) is it the game's default count, the last --bot filling the
// seats; more bots than the game seats stay an error.
func defaultSeats(g *sim.Game, ruleset string, config json.RawMessage, bots int) int {
	if bots >= g.DefaultPlayers {
		return bots
	}
	_, err := g.New(sim.Setup{Ruleset: ruleset, Players: bots, Config: config})
	if se := (*sim.SetupError)(nil); errors.As(err, &se) && se.Field == "players" {
		return g.DefaultPlayers
	}
	return bots
}

// startAgents starts the agent of every seat whose spec is not empty (the
// others stay nil). On an error it returns the agents started so far,
// for the caller to close.
func startAgents(ctx context.Context, g *sim.Game, specs []string, setup sim.Setup, f *recordFlags) ([]replay.Agent, error) {
	agents := make([]replay.Agent, len(specs))
	for s, spec := range specs {
		if spec == "" {
			continue
		}
		a, err := newAgent(ctx, g, spec, setup, s, f)
		if err != nil {
			return agents, fmt.Errorf("%s: %w", sim.SeatName(s), err)
		}
		agents[s] = a
	}
	return agents, nil
}

// botOutputFor returns the gathering of the bots' output, saved to
// --bot-output or beside the replay, and kept for the store (fork --db);
// nil when no bot writes any (wanted false: no bot is external and no
// built-in one keeps its drawings). It is saved nowhere when the replay
// goes to stdout, or to no file, without --bot-output.
func botOutputFor(f *recordFlags, wanted bool) *outputLog {
	if !wanted {
		return nil
	}
	path := f.outputFile
	if path == "" && f.out != "-" && f.out != "" {
		path = f.out + outputFileSuffix
	}
	return &outputLog{path: path}
}

// play records the match between the agents. A match cut short by Ctrl-C
// is an error even if it reached its end: the interrupted turn was
// recorded as a time-out, so it is not the match that was played.
func play(ctx context.Context, rec *replay.Recorder, botOut *outputLog) (*replay.Log, error) {
	if botOut != nil {
		rec.OnOutput = botOut.add
	}
	l, err := rec.Record(ctx)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w; no replay written", context.Cause(ctx))
	}
	return l, err
}

// writeRecording writes the replay (atomically, or to stdout for "-"; not
// at all when f.out is empty), checks that it regenerates, says who won
// (unless the replay went to stdout) and returns the regenerated match.
func writeRecording(ctx context.Context, g *sim.Game, l *replay.Log, f *recordFlags, stdout, stderr io.Writer, start time.Time) (*store.Record, error) {
	var written string // where the replay went, for the summary line
	if f.out != "" {
		data, err := encodeFor(l, f.out)
		if err != nil {
			return nil, err
		}
		if f.out == "-" {
			_, err = stdout.Write(data)
		} else {
			err = writeFileAtomic(f.out, data)
			written = fmt.Sprintf(" -> %s (%d bytes)", f.out, len(data))
		}
		if err != nil {
			return nil, err
		}
	}
	rec, err := regen.Build(ctx, l)
	if err != nil {
		return nil, fmt.Errorf("the recorded match does not regenerate (a simulator bug): %w", err)
	}
	if f.out != "-" {
		fmt.Fprintf(stderr, "recorded %s %s: %d turns in %v, %s; id %s%s\n",
			g.Name, l.Header.Ruleset, len(l.Turns), time.Since(start).Round(time.Millisecond), describeResult(rec.Result, l.Header.Players), rec.ID[:12], written)
	}
	return rec, nil
}

// writeTrouble says what went wrong for each seat of a match that had
// trouble (store.Troubles), one line a seat, each starting with indent,
// and where the bots' output went when output is not empty. It writes
// nothing for a match without trouble.
func writeTrouble(w io.Writer, indent string, players []replay.Player, ts []store.Trouble, output string) {
	for _, t := range ts {
		name := ""
		if t.Seat < len(players) {
			name = " (" + botLabel(players[t.Seat].Name, players[t.Seat].Version) + ")"
		}
		fmt.Fprintf(w, "%s%s%s: %s\n", indent, sim.SeatName(t.Seat), name, t)
	}
	if len(ts) > 0 && output != "" {
		fmt.Fprintf(w, "%sthe bots' stderr and stray output, turn by turn: %s\n", indent, output)
	}
}

// closeAgents closes all agents at once, so the grace each process may
// take to exit is not added up, and returns each one's output of the
// last turn.
func closeAgents(agents []replay.Agent) []replay.Output {
	rest := make([]replay.Output, len(agents))
	var wg sync.WaitGroup
	for s, a := range agents {
		if a != nil { // a seat startAgents did not reach
			wg.Go(func() { rest[s] = a.Close() })
		}
	}
	wg.Wait()
	return rest
}

// recordConfig returns --config, with the rolls of --rolls added, in
// canonical form. The game judges its keys when the header is checked.
func recordConfig(f *recordFlags) (json.RawMessage, error) {
	cfg, err := sim.CanonicalConfig(json.RawMessage(f.config))
	if err != nil {
		return nil, fmt.Errorf("--config: %w", err)
	}
	if f.rolls == "" {
		return cfg, nil
	}
	if f.game != toad.Game.Name {
		return nil, fmt.Errorf("--rolls is for the toad game only")
	}
	data, err := os.ReadFile(f.rolls)
	if err != nil {
		return nil, err
	}
	rolls, err := parseRollsFile(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.rolls, err)
	}
	members := map[string]json.RawMessage{}
	json.Unmarshal(cfg, &members) // a canonical config: one object, no key twice
	if _, ok := members["rolls"]; ok {
		return nil, errors.New("--rolls and a \"rolls\" key in --config: give the rolls once")
	}
	members["rolls"], _ = json.Marshal(rolls)
	return json.Marshal(members)
}

// parseRollsFile accepts a JSON array of rolls or the original game's
// input file (a count, then one roll per line).
func parseRollsFile(data []byte) ([]int, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		var rolls []int
		if err := json.Unmarshal(t, &rolls); err != nil {
			return nil, fmt.Errorf("JSON rolls: %w", err)
		}
		return rolls, nil
	}
	return toad.ParseRolls(bytes.NewReader(data))
}

func playerFor(spec string, seat int, f *recordFlags) replay.Player {
	p := replay.Player{}
	if name, ok := protocolBotName(spec); ok {
		p.Name = name
	} else if name, ok := strings.CutPrefix(spec, "builtin:"); ok {
		p.Name, p.Version = name, replay.BuiltinVersion
	} else if fields := strings.Fields(spec); len(fields) > 0 {
		p.Name = filepath.Base(fields[len(fields)-1])
	}
	if seat < len(f.names) {
		p.Name = f.names[seat]
	}
	if seat < len(f.versions) {
		p.Version = f.versions[seat]
	}
	return p
}

// botFingerprint returns the fingerprint of the code of the bot a spec
// starts (replay.Fingerprint), or "" for a built-in bot, whose code is
// this build's and whose version says so ("builtin").
func botFingerprint(spec string) (string, error) {
	if !isExternal(spec) {
		return "", nil
	}
	if fp, ok, err := protocolFingerprint(spec); ok {
		return fp, err
	}
	return replay.Fingerprint(strings.Fields(spec))
}

// isExternal reports whether a bot spec is an external program's command
// line rather than a built-in bot.
func isExternal(spec string) bool { return !strings.HasPrefix(spec, "builtin:") }

func newAgent(ctx context.Context, g *sim.Game, spec string, setup sim.Setup, seat int, f *recordFlags) (replay.Agent, error) {
	if name, ok := strings.CutPrefix(spec, "builtin:"); ok {
		if f.builtinDebug {
			return replay.NewDrawingBuiltin(g, name, setup, seat)
		}
		return replay.NewBuiltin(g, name, setup, seat)
	}
	if a, ok, err := newProtocolAgent(ctx, g, spec, setup, seat, f); ok {
		return a, err
	}
	return replay.StartProcess(ctx, strings.Fields(spec), replay.ProcessOptions{Seat: seat, TurnLimit: f.turnLimit, StartLimit: f.startLimit})
}

// encodeFor encodes a log in the encoding the output name asks for.
func encodeFor(l *replay.Log, out string) ([]byte, error) {
	if out == "-" || strings.HasSuffix(out, ".rlog") {
		return l.EncodeText()
	}
	enc, err := l.Encode()
	return enc.Bytes, err
}

// writeFileAtomic writes through a temporary file and a rename, so a failed
// or interrupted write never leaves a half replay behind.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	// CreateTemp makes the file private (0600); a replay is meant to be
	// shared, so give it the mode os.WriteFile would.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// describeResult says who won in words.
func describeResult(r sim.Result, players []replay.Player) string {
	var b strings.Builder
	switch {
	case r.Winner >= 0 && r.Winner < len(players) && len(r.Players) == len(players):
		var seats, names []string
		for s := range r.Players {
			if r.TeamOf(s) == r.TeamOf(r.Winner) {
				seats, names = append(seats, sim.SeatName(s)), append(names, players[s].Name)
			}
		}
		if len(seats) == 1 {
			fmt.Fprintf(&b, "winner %s (%s)", seats[0], names[0])
		} else { // a team's win is every member's
			fmt.Fprintf(&b, "winners %s (%s)", strings.Join(seats, ", "), strings.Join(names, ", "))
		}
	case len(players) == 1 && len(r.Players) == 1:
		fmt.Fprintf(&b, "%s", r.Players[0].Outcome)
	default:
		b.WriteString("draw")
	}
	if r.Reason != "" {
		fmt.Fprintf(&b, ", %s", r.Reason)
	}
	for s, p := range r.Players {
		fmt.Fprintf(&b, "; %s score %g", sim.SeatName(s), p.Score)
	}
	return b.String()
}

// outputLog gathers what bots wrote besides their answers, one piece per
// turn, seat and stream, as the store wants it: the recorder gives the
// last turn's whole when the bots are closed, and keeps each as UTF-8
// within store.MaxBotOutput.
type outputLog struct {
	path  string // where close saves it (store.WriteBotOutput)
	lines []store.BotOutput
}

func (o *outputLog) add(turn, seat int, out replay.Output) {
	for _, s := range [...]struct{ stream, text string }{{store.Stdout, out.Stdout}, {store.Stderr, out.Stderr}} {
		if s.text != "" {
			o.lines = append(o.lines, store.BotOutput{Turn: turn, Seat: seat, Stream: s.stream, Text: s.text})
		}
	}
}

// addTimes adds each timed seat's answer times (Recorder.Times) and the
// turn limit the seats had.
func (o *outputLog) addTimes(times [][]time.Duration, limit time.Duration) {
	for seat, ts := range times {
		if ts != nil {
			o.lines = append(o.lines, store.BotOutput{Seat: seat, Stream: store.Times, Times: ts, Limit: limit})
		}
	}
}

// addDebug adds each seat's debug drawings (Recorder.Debug), a piece per
// turn drawn.
func (o *outputLog) addDebug(debug [][]string) {
	for seat, turns := range debug {
		for i, shapes := range turns {
			if shapes != "" {
				o.lines = append(o.lines, store.BotOutput{Turn: i + 1, Seat: seat, Stream: store.Debug, Text: shapes})
			}
		}
	}
}

// close saves the output, when there is any and a path to save it to,
// and reports whether it did.
func (o *outputLog) close(warn io.Writer) bool {
	if len(o.lines) == 0 || o.path == "" {
		return false
	}
	var buf bytes.Buffer
	store.WriteBotOutput(&buf, o.lines) // a bytes.Buffer takes every write
	if err := os.WriteFile(o.path, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(warn, "save bot output: %v\n", err)
		return false
	}
	return true
}
