package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// Tournament formats.
const (
	roundRobin = "round-robin" // every group of --seats bots
	gauntlet   = "gauntlet"    // the first bot in every group
)

// Limits of a tournament: the plan is held in memory, and the ratings fit
// takes at most a few hundred players well.
const (
	maxTournamentBots    = 100
	maxTournamentSeeds   = 100_000
	maxTournamentMatches = 1_000_000
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
	// a version of its own (tournament.checkFingerprints).
	newVersion bool
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

Matches are played by parallel workers, regenerated and stored as each
finishes. A run again with the same game, ruleset, config and seeds skips
the matches already stored (the same bots by name and version in the same
seats on the same seed), so an interrupted tournament resumes.

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
	fl.StringVar(&f.format, "format", roundRobin, "round-robin or gauntlet (the first bot against the others)")
	fl.IntVar(&f.seeds, "seeds", 10, "number of seeds every lineup plays")
	fl.Uint64Var(&f.seedFrom, "seed-from", 1, "first seed: the seeds are S, S+1, ...")
	fl.IntVar(&f.seats, "seats", 0, "bots per match (default: the game's fewest seats, at least 2)")
	fl.IntVar(&f.workers, "workers", runtime.NumCPU(), "matches played at once")
	fl.BoolVar(&f.newVersion, "new-version", false, "play an external bot whose version is stored with other code as version VERSION+FINGERPRINT")
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

// entrant is one bot of a tournament.
type entrant struct {
	spec   string
	player replay.Player
}

// fixture is one match of a tournament: a seed, a lineup and which of its
// rotations sits in the seats.
type fixture struct {
	seed             uint64
	lineup, rotation int
}

// tournament is the plan of a tournament.
type tournament struct {
	game     *sim.Game
	base     replay.Header // checked: ruleset and canonical config; seed and players per fixture
	entrants []entrant
	lineups  [][]int // entrant indices, one group per lineup
	seats    int
	fixtures []fixture
	f        *tournamentFlags
}

// planTournament checks the flags and lists the tournament's matches,
// seed by seed. Every mistake is a usageError.
func planTournament(f *tournamentFlags) (*tournament, error) {
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
	case len(f.bots) < 2:
		return nil, usagef("a tournament needs at least 2 bots, got %d --bot", len(f.bots))
	case len(f.bots) > maxTournamentBots:
		return nil, usagef("%d bots: a tournament takes at most %d", len(f.bots), maxTournamentBots)
	case len(f.names) > len(f.bots) || len(f.versions) > len(f.bots):
		return nil, usagef("%d --name and %d --version flags for %d bots", len(f.names), len(f.versions), len(f.bots))
	case f.format != roundRobin && f.format != gauntlet:
		return nil, usagef("--format %q: want %s or %s", f.format, roundRobin, gauntlet)
	case f.seeds < 1 || f.seeds > maxTournamentSeeds:
		return nil, usagef("--seeds %d: want 1 to %d", f.seeds, maxTournamentSeeds)
	case f.seedFrom > math.MaxUint64-uint64(f.seeds-1):
		return nil, usagef("--seed-from %d: %d seeds from there go past the largest seed, 2^64-1", f.seedFrom, f.seeds)
	case f.workers < 1:
		return nil, usagef("--workers %d: want 1 or more", f.workers)
	}
	t := &tournament{game: g, f: f}
	if t.seats, err = tournamentSeats(g, f.seats, len(f.bots)); err != nil {
		return nil, err
	}
	if err := t.addEntrants(); err != nil {
		return nil, err
	}
	if n := lineupCount(len(t.entrants), t.seats, f.format) * float64(t.seats*f.seeds); n > maxTournamentMatches {
		return nil, usagef("%s of %d bots, %d per match, on %d seeds is %.3g matches; at most %d at once",
			f.format, len(t.entrants), t.seats, f.seeds, n, maxTournamentMatches)
	}
	t.addLineups()
	for i := range f.seeds {
		for l := range t.lineups {
			for r := range t.seats {
				t.fixtures = append(t.fixtures, fixture{seed: f.seedFrom + uint64(i), lineup: l, rotation: r})
			}
		}
	}
	return t, nil
}

// tournamentSeats returns the seats of every match: k when given, else the
// fewest the game allows, but at least 2.
func tournamentSeats(g *sim.Game, k, bots int) (int, error) {
	if k == 0 {
		k = max(2, g.MinPlayers)
	}
	switch {
	case k < 2:
		return 0, usagef("--seats %d: a tournament match seats at least 2 bots", k)
	case k < g.MinPlayers || k > g.MaxPlayers:
		return 0, usagef("game %s seats %d to %d players, a tournament match %d (--seats)", g.Name, g.MinPlayers, g.MaxPlayers, k)
	case k > bots:
		return 0, usagef("--seats %d: more seats than the %d bots", k, bots)
	}
	return k, nil
}

// addEntrants checks every bot, its name and version, and the ruleset and
// config, which it puts in canonical form in t.base.
func (t *tournament) addEntrants() error {
	f := &t.f.recordFlags
	for i, spec := range f.bots {
		fp, err := checkBotSpec(t.game, spec)
		if err != nil {
			return usagef("bot %d (%s): %v", i+1, spec, err)
		}
		e := entrant{spec: spec, player: playerFor(spec, i, f)}
		e.player.Fingerprint = fp
		t.entrants = append(t.entrants, e)
	}
	config, err := recordConfig(f)
	if err != nil {
		return usageError{err}
	}
	// Placeholder players let the header check the setup alone; a header
	// of one entrant in every seat then checks each name and version.
	t.base = replay.NewHeader(t.game, f.ruleset, t.f.seedFrom, config)
	t.base.Players = slices.Repeat([]replay.Player{{Name: "bot"}}, t.seats)
	if _, err := t.base.Check(); err != nil {
		return usageError{err}
	}
	return t.checkPlayers()
}

// checkPlayers checks every entrant's name and version, in a header of
// it in every seat, and that no two are the same bot version.
func (t *tournament) checkPlayers() error {
	seen := map[string]int{}
	for i, e := range t.entrants {
		k := entrantKey(e.player.Name, e.player.Version)
		if j, ok := seen[k]; ok {
			return usagef("bots %d and %d are both %s: give them different --name or --version", j+1, i+1, botLabel(e.player.Name, e.player.Version))
		}
		seen[k] = i
		h := t.base
		h.Players = slices.Repeat([]replay.Player{e.player}, t.seats)
		if _, err := h.Check(); err != nil {
			return usagef("bot %d (%s): %v", i+1, e.spec, err)
		}
	}
	return nil
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

// lineupCount is the number of lineups of a tournament, as a float so that
// a huge one is refused instead of overflowing.
func lineupCount(bots, seats int, format string) float64 {
	if format == gauntlet {
		return binomial(bots-1, seats-1)
	}
	return binomial(bots, seats)
}

func binomial(n, k int) float64 {
	c := 1.0
	for i := range k {
		c = c * float64(n-i) / float64(i+1)
	}
	return math.Round(c)
}

// addLineups lists the groups of entrants that meet: every t.seats of them
// in a round robin, every one with the first entrant in a gauntlet.
func (t *tournament) addLineups() {
	if t.f.format == gauntlet {
		combinations(len(t.entrants)-1, t.seats-1, func(c []int) {
			l := []int{0}
			for _, i := range c {
				l = append(l, i+1)
			}
			t.lineups = append(t.lineups, l)
		})
		return
	}
	combinations(len(t.entrants), t.seats, func(c []int) { t.lineups = append(t.lineups, slices.Clone(c)) })
}

// combinations calls fn with every k-subset of 0..n-1, each in increasing
// order, in lexicographic order; fn must not keep the slice.
func combinations(n, k int, fn func([]int)) {
	if k > n {
		return
	}
	c := make([]int, k)
	for i := range c {
		c[i] = i
	}
	for {
		fn(c)
		i := k - 1
		for i >= 0 && c[i] == n-k+i {
			i--
		}
		if i < 0 {
			return
		}
		c[i]++
		for j := i + 1; j < k; j++ {
			c[j] = c[j-1] + 1
		}
	}
}

// seated returns the entrant in each seat of a fixture: its lineup turned
// by its rotation.
func (t *tournament) seated(fx fixture) []int {
	l := t.lineups[fx.lineup]
	seats := make([]int, t.seats)
	for s := range seats {
		seats[s] = l[(s+fx.rotation)%t.seats]
	}
	return seats
}

// header returns a fixture's replay header and the bot spec of each seat.
func (t *tournament) header(fx fixture) (replay.Header, []string) {
	h := t.base
	h.Seed = fx.seed
	h.Players = make([]replay.Player, t.seats)
	specs := make([]string, t.seats)
	for s, e := range t.seated(fx) {
		h.Players[s], specs[s] = t.entrants[e].player, t.entrants[e].spec
	}
	return h, specs
}

// build plays a fixture and regenerates it into a store record.
func (t *tournament) build(ctx context.Context, fx fixture) (*store.Record, error) {
	h, specs := t.header(fx)
	var botOut outputLog
	l, err := recordMatch(ctx, t.game, &replay.Recorder{Header: h}, specs, &t.f.recordFlags, &botOut)
	if err != nil {
		return nil, err
	}
	rec, err := regen.Build(ctx, l)
	if err != nil {
		return nil, err
	}
	rec.Output = botOut.lines
	return rec, nil
}

// playedKey identifies a match of the tournament among the stored ones:
// its seed and who sat in each seat.
type playedKey struct {
	seed   uint64
	lineup string
}

// entrantKey joins a name and version with a control character, which
// neither may hold (replay.Header.Check), so distinct pairs never collide.
func entrantKey(name, version string) string { return name + "\x1f" + version }

// botLabel is how the tournament names a bot version: name@version, or
// the name alone when it has no version.
func botLabel(name, version string) string {
	if version == "" {
		return name
	}
	return name + "@" + version
}

func (t *tournament) keyOf(fx fixture) playedKey {
	ks := make([]string, t.seats)
	for s, e := range t.seated(fx) {
		ks[s] = entrantKey(t.entrants[e].player.Name, t.entrants[e].player.Version)
	}
	return playedKey{fx.seed, strings.Join(ks, "\x1e")}
}

// stored returns the tournament's matches already in db, one per fixture
// (the first stored), looked up seed by seed.
func (t *tournament) stored(ctx context.Context, db *store.DB) (map[playedKey]store.MatchSummary, error) {
	want := map[playedKey]bool{}
	for _, fx := range t.fixtures {
		want[t.keyOf(fx)] = true
	}
	played := map[playedKey]store.MatchSummary{}
	for i := range t.f.seeds {
		seed := t.f.seedFrom + uint64(i)
		ms, err := db.MatchesOnSeed(ctx, t.game.Name, t.base.Ruleset, t.base.Config, seed)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			ks := make([]string, len(m.Players))
			for s, p := range m.Players {
				ks[s] = entrantKey(p.Name, p.Version)
			}
			k := playedKey{seed, strings.Join(ks, "\x1e")}
			if _, dup := played[k]; want[k] && !dup {
				played[k] = m
			}
		}
	}
	return played, nil
}

func runTournament(ctx context.Context, f *tournamentFlags, stdout, stderr io.Writer) error {
	t, err := planTournament(f)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := t.checkFingerprints(ctx, db, stdout); err != nil {
		return err
	}
	played, err := t.stored(ctx, db)
	if err != nil {
		return err
	}
	var todo []fixture
	for _, fx := range t.fixtures {
		if _, ok := played[t.keyOf(fx)]; !ok {
			todo = append(todo, fx)
		}
	}
	fmt.Fprintf(stdout, "tournament: %s %s, %s of %d bots, %d per match, %d seeds from %d: %d matches, %d already stored (skipped), %d to play on %d workers\n",
		t.game.Name, t.base.Ruleset, f.format, len(t.entrants), t.seats, f.seeds, f.seedFrom, len(t.fixtures), len(played), len(todo), f.workers)

	start := time.Now()
	bar := newProgress(stderr, len(todo), "tournament", "matches")
	stored, failed := 0, 0
	var troubled []troubledMatch
	buildAll(ctx, f.workers, todo, t.build, func(fx fixture, rec *store.Record, err error) {
		if err == nil {
			_, err = db.Ingest(ctx, rec)
		}
		switch {
		case err == nil:
			stored++
			if ts := store.Troubles(len(rec.Players), rec.Events); len(ts) > 0 {
				troubled = append(troubled, troubledMatch{fx, rec.ID, ts})
			}
		case ctx.Err() != nil:
			return // an interrupted match is neither played nor failed
		default:
			failed++
			bar.println(fmt.Sprintf("seed %d, %s: %v", fx.seed, t.describe(fx), err))
		}
		bar.step()
	})
	bar.done()
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted after storing %d of %d matches; run the same command again to resume: %w", stored, len(todo), context.Cause(ctx))
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "played %d matches in %v (%.1f matches/s), %d failed\n",
		stored, elapsed.Round(time.Millisecond), float64(stored)/max(elapsed.Seconds(), 1e-9), failed)
	t.printTrouble(stdout, troubled, stored)

	if played, err = t.stored(ctx, db); err != nil {
		return err
	}
	if err := t.printStandings(stdout, played); err != nil {
		return err
	}
	if failed > 0 {
		return exitError{1}
	}
	return nil
}

// troubledMatch is a match of the run in which some seat had trouble.
type troubledMatch struct {
	fx      fixture
	id      string
	trouble []store.Trouble
}

// maxTroubledShown bounds the matches printTrouble lists: a broken bot
// may fail every match it plays, and the dashboard lists them all.
const maxTroubledShown = 20

// printTrouble says, match by match, what went wrong in the matches this
// run stored, out of stored: which seat crashed, timed out or sent
// invalid commands, and where to read the bots' output.
func (t *tournament) printTrouble(w io.Writer, troubled []troubledMatch, stored int) {
	if len(troubled) == 0 {
		return
	}
	slices.SortFunc(troubled, func(a, b troubledMatch) int {
		return cmp.Or(cmp.Compare(a.fx.seed, b.fx.seed), cmp.Compare(a.fx.lineup, b.fx.lineup), cmp.Compare(a.fx.rotation, b.fx.rotation))
	})
	fmt.Fprintf(w, "trouble in %d of the %d matches played; each one's bot output is stored with it (replaylab serve, then /matches/ID):\n", len(troubled), stored)
	for _, m := range troubled[:min(len(troubled), maxTroubledShown)] {
		h, _ := t.header(m.fx)
		fmt.Fprintf(w, "  seed %d, %s, match %s:\n", m.fx.seed, t.describe(m.fx), m.id[:12])
		writeTrouble(w, "    ", h.Players, m.trouble, "")
	}
	if n := len(troubled) - maxTroubledShown; n > 0 {
		fmt.Fprintf(w, "  and %d more: the dashboard lists them all at /matches?trouble=any\n", n)
	}
}

// checkFingerprints refuses, before any match is played, an external bot
// whose name@version is stored with other code: its stored matches would
// be skipped as played by it, and new ones added to a record that mixes
// two programs. With --new-version such a bot plays as version
// VERSION+FINGERPRINT (short), which a later run with the same code and
// flag finds again, so the edited bot's tournament resumes. Versions
// stored without fingerprints (before replaylab kept them, or by built-in
// bots) are taken as played by the current code.
func (t *tournament) checkFingerprints(ctx context.Context, db *store.DB, w io.Writer) error {
	var refused []string
	for i := range t.entrants {
		p := &t.entrants[i].player
		if p.Fingerprint == "" {
			continue
		}
		fps, err := db.Fingerprints(ctx, t.game.Name, p.Name)
		if err != nil {
			return err
		}
		other := otherCode(fps, p.Version, p.Fingerprint)
		if other == nil {
			continue
		}
		next := newVersion(p.Version, p.Fingerprint)
		if !t.f.newVersion || otherCode(fps, next, p.Fingerprint) != nil {
			refused = append(refused, fmt.Sprintf("bot %d (%s): %s is stored with other code (fingerprint %s, %d matches), and its code now has fingerprint %s: "+
				"give the changed bot a new --version, or add --new-version to play it as %s",
				i+1, t.entrants[i].spec, botLabel(p.Name, p.Version), replay.ShortFingerprint(other.Fingerprint), other.Matches,
				replay.ShortFingerprint(p.Fingerprint), botLabel(p.Name, next)))
			continue
		}
		fmt.Fprintf(w, "bot %d: %s is stored with other code (fingerprint %s), playing the changed bot as %s\n",
			i+1, botLabel(p.Name, p.Version), replay.ShortFingerprint(other.Fingerprint), botLabel(p.Name, next))
		p.Version = next
	}
	if len(refused) > 0 {
		return usageError{errors.New(strings.Join(refused, "\n"))}
	}
	return t.checkPlayers()
}

// otherCode returns the first fingerprint other than fp that version was
// stored with, or nil.
func otherCode(fps []store.BotFingerprint, version, fp string) *store.BotFingerprint {
	for i, f := range fps {
		if f.Version == version && f.Fingerprint != fp {
			return &fps[i]
		}
	}
	return nil
}

// newVersion is the version --new-version gives a bot whose code changed:
// its version and the short fingerprint of its code, joined with "+" as
// semantic versions add build metadata.
func newVersion(version, fp string) string {
	if version == "" {
		return replay.ShortFingerprint(fp)
	}
	return version + "+" + replay.ShortFingerprint(fp)
}

// describe names the bots of a fixture in seat order.
func (t *tournament) describe(fx fixture) string {
	names := make([]string, t.seats)
	for s, e := range t.seated(fx) {
		names[s] = botLabel(t.entrants[e].player.Name, t.entrants[e].player.Version)
	}
	return strings.Join(names, " vs ")
}

// printStandings ranks the entrants over the tournament's stored matches
// by a Plackett–Luce rating fit (analytics.FitRatings), or, when the fit
// fails, by the lower end of the win-rate interval (analytics.Standings),
// saying why.
func (t *tournament) printStandings(w io.Writer, played map[playedKey]store.MatchSummary) error {
	index := map[string]int{}
	sums := make([]store.BotSummary, len(t.entrants))
	for i, e := range t.entrants {
		index[entrantKey(e.player.Name, e.player.Version)] = i
		sums[i] = store.BotSummary{Game: t.game.Name, Ruleset: t.base.Ruleset, Name: e.player.Name, Version: e.player.Version}
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
			b := &sums[index[entrantKey(p.Name, p.Version)]]
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
			"mean rating 1500, 400 points = 10-to-1 odds\n", len(played), t.game.Name, t.base.Ruleset)
		return err
	}
	return nil
}
