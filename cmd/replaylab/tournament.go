package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/regen/tournament"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

type tournamentFlags struct {
	recordFlags
	db       string
	format   string
	seeds    int
	seedFrom uint64
	seats    int
	workers  int
	// newVersion plays a bot whose version is stored with other code as
	// a version of its own (tournament.Plan.CheckFingerprints).
	newVersion bool
	planOnly   bool          // queue the jobs, play none
	status     bool          // report the jobs, play none
	lease      time.Duration // how long a claimed job is a worker's without a heartbeat
}

func newTournamentCmd() *cobra.Command {
	var f tournamentFlags
	cmd := &cobra.Command{
		Use:   "tournament --db FILE --game G --bot SPEC --bot SPEC [--bot SPEC...]",
		Short: "Play bots against each other on the same seeds and rank them",
		Long: `Play bots against each other on the same seeds and rank them.

Round robin plays every group of --seats bots (every pair for two seats),
gauntlet every group that holds the first bot. Each group plays every seed
in every rotation of its seats, so each bot sits in each seat on each seed.
Bot SPECs, --name and --version are as for 'replaylab record'; every bot
needs its own name and version. What external bots write besides their
answers (stray stdout lines, stderr) is stored with each match, for the
inspector's bot output panel.

The tournament's matches are queued as jobs in the database, which
--workers parallel workers of this process claim, play and store as each
finishes. A run again with the same game, ruleset, config and seeds skips
the matches already stored (the same bots by name and version in the same
seats on the same seed), so an interrupted tournament resumes. With
--plan-only it queues the jobs and plays none: 'replaylab worker --db'
processes play them, and --status (the same flags) says how far they are.

A bot's identity is its code: each match stores the fingerprint of every
external bot (a digest of its command line, its program and every file
named on the command line, such as the script in "python3 bot.py"). A run
in which a bot's name and version are stored with another fingerprint
stops before playing and says so: give the changed bot a new --version,
or add --new-version to play it as VERSION+FINGERPRINT (e.g. 2+1a2b3c4d5e6f),
which the same code with --new-version finds again. At the end
it prints the standings: matches, wins-draws-losses, win rate with its
Wilson 95% interval and a rating with its 95% interval, fitted to all of
the tournament's stored matches.

A command line mistake exits with status 2; a failed match with 1.`,
		Example: `  replaylab tournament --db lab.db --game worms --bot builtin:random --bot builtin:tactical --seeds 50
  replaylab tournament --db lab.db --game snake --seats 3 --format gauntlet \
      --bot "./mybot" --name mine --version 2 --bot builtin:greedy --bot builtin:random`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTournament(cmd.Context(), &f, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	addMatchFlags(cmd, &f.recordFlags)
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "database to store the matches in: an SQLite file (created if missing) or a postgres:// URL")
	fl.StringArrayVar(&f.bots, "bot", nil, "a bot of the tournament: builtin:NAME, a command line or an original protocol's spec (codenjoy:, awap2019:, entelect:, toad-solver:, foodfight-runner:) (repeat per bot)")
	fl.StringArrayVar(&f.names, "name", nil, "player name of the next bot (default: from the bot)")
	fl.StringArrayVar(&f.versions, "version", nil, "version of the next bot")
	fl.StringVar(&f.format, "format", tournament.RoundRobin, "round-robin or gauntlet (the first bot against the others)")
	fl.IntVar(&f.seeds, "seeds", 10, "number of seeds every lineup plays")
	fl.Uint64Var(&f.seedFrom, "seed-from", 1, "first seed: the seeds are S, S+1, ...")
	fl.IntVar(&f.seats, "seats", 0, "bots per match (default: the game's fewest seats, at least 2)")
	fl.IntVar(&f.workers, "workers", runtime.NumCPU(), "matches played at once")
	fl.BoolVar(&f.newVersion, "new-version", false, "play an external bot whose version is stored with other code as version VERSION+FINGERPRINT")
	fl.BoolVar(&f.planOnly, "plan-only", false, "queue the matches as jobs for 'replaylab worker' and play none")
	fl.BoolVar(&f.status, "status", false, "print the tournament's jobs (queued, running, done, failed and why) and play none; with no --bot, every job of the database")
	addLeaseFlag(cmd, &f.lease)
	cmd.MarkFlagsMutuallyExclusive("plan-only", "status")
	return cmd
}

// usageError is a mistake in the command line. run reports it with exit
// status 2, so a script can tell it from a run that failed.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// planTournament checks the flags and plans the tournament they describe.
// Every mistake is a usageError.
func planTournament(f *tournamentFlags) (*tournament.Plan, error) {
	if f.db == "" {
		return nil, usagef("--db is required")
	}
	if f.game == "" {
		return nil, usagef("--game is required (see 'replaylab games')")
	}
	g, err := games.Lookup(f.game)
	if err != nil {
		return nil, usageError{err}
	}
	switch {
	case len(f.bots) > tournament.MaxBots:
		return nil, usagef("%d bots: a tournament takes at most %d", len(f.bots), tournament.MaxBots)
	case len(f.names) > len(f.bots) || len(f.versions) > len(f.bots):
		return nil, usagef("%d --name and %d --version flags for %d bots", len(f.names), len(f.versions), len(f.bots))
	case f.workers < 1:
		return nil, usagef("--workers %d: want 1 or more", f.workers)
	}
	var entrants []tournament.Entrant
	for i, spec := range f.bots {
		fp, err := checkBotSpec(g, spec)
		if err != nil {
			return nil, usagef("bot %d (%s): %v", i+1, spec, err)
		}
		e := tournament.Entrant{Spec: spec, Player: playerFor(spec, i, &f.recordFlags)}
		e.Player.Fingerprint = fp
		entrants = append(entrants, e)
	}
	config, err := recordConfig(&f.recordFlags)
	if err != nil {
		return nil, usageError{err}
	}
	p, err := tournament.New(tournament.Spec{
		Game: g, Ruleset: f.ruleset, Config: config, Entrants: entrants,
		Format: f.format, Seeds: f.seeds, SeedFrom: f.seedFrom, Seats: f.seats,
		Settings: tournament.Settings{HashEvery: f.hashEvery, TurnTimeout: f.turnLimit, StartTimeout: f.startLimit},
	})
	return p, usageIf(err)
}

// usageIf turns a tournament's *PlanError into a usageError.
func usageIf(err error) error {
	if pe := (*tournament.PlanError)(nil); errors.As(err, &pe) {
		return usageError{err}
	}
	return err
}

// checkBotSpec says what is wrong with a bot spec before any match starts
// (a built-in bot the game lacks, or a program that cannot be found) and
// returns the fingerprint of an external bot's code.
func checkBotSpec(g *sim.Game, spec string) (string, error) {
	if name, ok := strings.CutPrefix(spec, "builtin:"); ok {
		if _, ok := g.Bot(name); !ok {
			names := make([]string, len(g.Bots))
			for i, b := range g.Bots {
				names[i] = "builtin:" + b.Name
			}
			return "", fmt.Errorf("game %s has no built-in bot %q (have %s)", g.Name, name, strings.Join(names, ", "))
		}
		return "", nil
	}
	if err := checkProtocol(g, spec); err != nil {
		return "", err
	}
	return botFingerprint(spec)
}

// playJob plays a tournament job's match on this machine. A bot spec this
// machine cannot run (a missing program, a built-in bot this build
// lacks) or whose code here is not the code the tournament was planned
// with is a *tournament.SpecError: the job fails, naming the seat.
func playJob(ctx context.Context, h replay.Header, specs []string, s tournament.Settings) (*replay.Log, []store.BotOutput, error) {
	g, err := games.Lookup(h.Game)
	if err != nil {
		return nil, nil, &tournament.SpecError{Err: err}
	}
	for seat, spec := range specs {
		fp, err := checkBotSpec(g, spec)
		if err == nil && fp != h.Players[seat].Fingerprint {
			err = fmt.Errorf("the code here has fingerprint %s, the tournament was planned with %s: install the planned code on this machine",
				replay.ShortFingerprint(fp), replay.ShortFingerprint(h.Players[seat].Fingerprint))
		}
		if err != nil {
			return nil, nil, &tournament.SpecError{Seat: seat, Err: fmt.Errorf("%s (%s): %w", sim.SeatName(seat), spec, err)}
		}
	}
	f := recordFlags{hashEvery: s.HashEvery, turnLimit: s.TurnTimeout, startLimit: s.StartTimeout}
	var out outputLog
	l, err := recordMatch(ctx, g, &replay.Recorder{Header: h}, specs, &f, &out)
	if err != nil {
		return nil, nil, err
	}
	return l, out.lines, nil
}

func runTournament(ctx context.Context, f *tournamentFlags, stdout, stderr io.Writer) error {
	if f.status && len(f.bots) == 0 {
		return printJobStatus(ctx, f.db, "", nil, stdout)
	}
	t, err := planTournament(f)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := t.CheckFingerprints(ctx, db, f.newVersion, stdout); err != nil {
		return usageIf(err)
	}
	if f.status {
		stored, err := t.Stored(ctx, db)
		if err != nil {
			return err
		}
		return printJobStatus(ctx, f.db, t.ID(), &tournamentProgress{planned: len(t.Fixtures), stored: len(stored)}, stdout)
	}
	todo, played, err := t.Queue(ctx, db)
	if err != nil {
		return err
	}
	if f.planOnly {
		fmt.Fprintf(stdout, "tournament %s: %s %s, %s of %d bots, %d per match, %d seeds from %d: %d matches, %d already stored, %d queued as jobs\n",
			t.ID(), t.Game.Name, t.Base.Ruleset, f.format, len(t.Entrants), t.Seats, f.seeds, f.seedFrom, len(t.Fixtures), len(played), todo)
		fmt.Fprintf(stdout, "play them with: replaylab worker --db %s (on any machine that reaches the database); progress: the same command with --status instead of --plan-only\n", store.DisplayName(f.db))
		return nil
	}
	fmt.Fprintf(stdout, "tournament: %s %s, %s of %d bots, %d per match, %d seeds from %d: %d matches, %d already stored (skipped), %d to play on %d workers\n",
		t.Game.Name, t.Base.Ruleset, f.format, len(t.Entrants), t.Seats, f.seeds, f.seedFrom, len(t.Fixtures), len(played), todo, f.workers)

	start := time.Now()
	bar := newProgress(stderr, todo, "tournament", "matches")
	stored, failed := 0, 0
	var troubled []troubledMatch
	err = tournament.Run(ctx, f.workers, tournament.Worker{
		DB: db, Play: playJob, Tournament: t.ID(), Lease: f.lease,
		Report: func(j *tournament.Job, rec *store.Record, err error) {
			switch {
			case err == nil:
				stored++
				if ts := store.Troubles(len(rec.Players), rec.Events); len(ts) > 0 {
					troubled = append(troubled, troubledMatch{j, rec.ID, ts})
				}
			case errors.Is(err, store.ErrLeaseLost):
				return // another worker plays it
			case errors.As(err, new(*tournament.RetryError)):
				bar.println(fmt.Sprintf("seed %d, %s: %v", j.Seed, describeJob(j), err))
				return
			default:
				failed++
				bar.println(fmt.Sprintf("seed %d, %s: %v", j.Seed, describeJob(j), err))
			}
			bar.step()
		},
	})
	bar.done()
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted after storing %d of %d matches; run the same command again to resume: %w", stored, todo, context.Cause(ctx))
	}
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "played %d matches in %v (%.1f matches/s), %d failed\n",
		stored, elapsed.Round(time.Millisecond), float64(stored)/max(elapsed.Seconds(), 1e-9), failed)
	printTrouble(stdout, troubled, stored)

	if played, err = t.Stored(ctx, db); err != nil {
		return err
	}
	if err := printStandings(stdout, t, played); err != nil {
		return err
	}
	if failed > 0 {
		return exitError{1}
	}
	return nil
}

// describeJob names the bots of a job's match in seat order.
func describeJob(j *tournament.Job) string {
	names := make([]string, len(j.Header.Players))
	for s, p := range j.Header.Players {
		names[s] = botLabel(p.Name, p.Version)
	}
	return strings.Join(names, " vs ")
}

// botLabel is how the command line names a bot version: name@version, or
// the name alone when it has no version.
func botLabel(name, version string) string { return tournament.BotLabel(name, version) }

// troubledMatch is a match of the run in which some seat had trouble.
type troubledMatch struct {
	job     *tournament.Job
	id      string
	trouble []store.Trouble
}

// maxTroubledShown bounds the matches printTrouble lists: a broken bot
// may fail every match it plays, and the dashboard lists them all.
const maxTroubledShown = 20

// printTrouble says, match by match, what went wrong in the matches this
// run stored, out of stored: which seat crashed, timed out or sent
// invalid commands, and where to read the bots' output.
func printTrouble(w io.Writer, troubled []troubledMatch, stored int) {
	if len(troubled) == 0 {
		return
	}
	// Jobs are queued seed by seed, lineup by lineup, rotation by rotation.
	slices.SortFunc(troubled, func(a, b troubledMatch) int {
		return cmp.Or(cmp.Compare(a.job.Seed, b.job.Seed), cmp.Compare(a.job.ID, b.job.ID))
	})
	fmt.Fprintf(w, "trouble in %d of the %d matches played; each one's bot output is stored with it (replaylab serve, then /matches/ID):\n", len(troubled), stored)
	for _, m := range troubled[:min(len(troubled), maxTroubledShown)] {
		fmt.Fprintf(w, "  seed %d, %s, match %s:\n", m.job.Seed, describeJob(m.job), m.id[:12])
		writeTrouble(w, "    ", m.job.Header.Players, m.trouble, "")
	}
	if n := len(troubled) - maxTroubledShown; n > 0 {
		fmt.Fprintf(w, "  and %d more: the dashboard lists them all at /matches?trouble=any\n", n)
	}
}

// printStandings ranks the entrants over the tournament's stored matches
// by a Plackett–Luce rating fit (analytics.FitRatings), or, when the fit
// fails, by the lower end of the win-rate interval (analytics.Standings),
// saying why.
func printStandings(w io.Writer, t *tournament.Plan, played map[tournament.Fixture]store.MatchSummary) error {
	index := map[[2]string]int{}
	sums := make([]store.BotSummary, len(t.Entrants))
	for i, e := range t.Entrants {
		index[[2]string{e.Player.Name, e.Player.Version}] = i
		sums[i] = store.BotSummary{Game: t.Game.Name, Ruleset: t.Base.Ruleset, Name: e.Player.Name, Version: e.Player.Version}
	}
	matches := make([][]analytics.Placing, 0, len(played))
	for _, m := range played {
		// A bot counts a match once, at its best seat, and is rated over
		// its match's teams, as the dashboard counts and rates it.
		es := store.Entries(m.Players)
		if placings, ok := analytics.EntryPlacings(es); ok {
			matches = append(matches, placings)
		}
		for _, p := range es {
			b := &sums[index[[2]string{p.Name, p.Version}]]
			b.Matches++
			b.Seats += p.Seats
			b.MeanScore += p.Score
			switch p.Outcome {
			case sim.Win:
				b.Wins++
			case sim.Draw:
				b.Draws++
			default:
				b.Losses++
			}
		}
	}
	for i := range sums {
		if sums[i].Matches > 0 {
			sums[i].MeanScore /= float64(sums[i].Matches)
		}
	}
	standings := analytics.Standings(sums)
	fit, err := analytics.FitRatings(matches, analytics.RatingPrior)
	ratings := map[string]analytics.Rating{}
	if err != nil {
		fmt.Fprintf(w, "no ratings: %v; ranked by win rate instead\n", err)
	} else {
		for _, r := range fit.Ratings {
			ratings[r.Player] = r
		}
		slices.SortStableFunc(standings, func(a, b analytics.Standing) int {
			return cmp.Compare(ratings[analytics.RatingKey(b.Name, b.Version)].Rating, ratings[analytics.RatingKey(a.Name, a.Version)].Rating)
		})
	}
	fmt.Fprintf(w, "standings over the tournament's %d stored matches:\n", len(played))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tBOT\tMATCHES\tSEATS\tW-D-L\tWIN RATE\t95% CI\tMEAN SCORE\tRATING\t95% CI")
	for i, s := range standings {
		rating, ci := "-", "-"
		if r, ok := ratings[analytics.RatingKey(s.Name, s.Version)]; ok && s.Matches > 0 {
			rating, ci = fmt.Sprintf("%.0f", r.Rating), fmt.Sprintf("[%.0f, %.0f]", r.CI.Low, r.CI.High)
		}
		winRate, winCI := "-", "-"
		if s.Matches > 0 {
			winRate, winCI = fmt.Sprintf("%.1f%%", 100*s.WinRate), fmt.Sprintf("[%.1f%%, %.1f%%]", 100*s.WinCI.Low, 100*s.WinCI.High)
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d-%d-%d\t%s\t%s\t%.4g\t%s\t%s\n",
			i+1, botLabel(s.Name, s.Version), s.Matches, s.Seats, s.Wins, s.Draws, s.Losses, winRate, winCI, s.MeanScore, rating, ci)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if fit != nil {
		// The dashboard fits every stored match of the game and ruleset,
		// which may be more than this tournament's: the ratings agree
		// when they are the same matches.
		_, err := fmt.Fprintf(w, "ratings: fitted over these %d matches only, as the dashboard's ratings (which cover every stored %s %s match) are: "+
			"each match once per bot version at its best seat, team-mates as one side, one virtual draw of every version against a 1500 reference; "+
			"mean rating 1500, 400 points = 10-to-1 odds\n", len(played), t.Game.Name, t.Base.Ruleset)
		return err
	}
	return nil
}
