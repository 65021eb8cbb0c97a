// Package tournament plans tournaments between bots and plays them as
// jobs: planning lists every match (a seed, a lineup and a rotation of its
// seats) and queues the ones not yet stored as jobs in the database;
// workers on any machine sharing the database claim a job under a lease,
// play it, and store the match and mark the job done in one transaction.
//
// How a bot spec becomes a running bot is the caller's (a Play function):
// the package knows matches, jobs and the store, not processes.
package tournament

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// Formats of a tournament.
const (
	RoundRobin = "round-robin" // every group of Seats bots
	Gauntlet   = "gauntlet"    // the first bot in every group
)

// Limits of a tournament: the plan is held in memory, and the ratings fit
// takes at most a few hundred players well.
const (
	MaxBots    = 100
	MaxSeeds   = 100_000
	MaxMatches = 1_000_000
)

// PlanError is a mistake in what a tournament was asked to be: the
// command line's, not the database's or a bot's.
type PlanError struct{ Err error }

func (e *PlanError) Error() string { return e.Err.Error() }
func (e *PlanError) Unwrap() error { return e.Err }

func planErrorf(format string, args ...any) error {
	return &PlanError{fmt.Errorf(format, args...)}
}

// Entrant is one bot of a tournament: its spec and its player entry (name,
// version and the fingerprint of an external bot's code).
type Entrant struct {
	Spec   string
	Player replay.Player
}

// Spec is what a tournament is asked to be.
type Spec struct {
	Game     *sim.Game
	Ruleset  string
	Config   json.RawMessage // canonical (sim.CanonicalConfig)
	Entrants []Entrant
	Format   string
	Seeds    int
	SeedFrom uint64
	Seats    int // 0: the game's fewest, at least 2
	Settings Settings
}

// Fixture is one match of a tournament: a seed, a lineup and which of its
// rotations sits in the seats.
type Fixture struct {
	Seed             uint64
	Lineup, Rotation int
}

// Plan is a checked tournament and its matches.
type Plan struct {
	Game     *sim.Game
	Base     replay.Header // checked: ruleset and canonical config; seed and players per fixture
	Entrants []Entrant
	Lineups  [][]int // entrant indices, one group per lineup
	Seats    int
	Fixtures []Fixture
	Format   string
	Seeds    int
	SeedFrom uint64
	Settings Settings
}

// New checks a tournament and lists its matches, seed by seed. Every
// mistake is a *PlanError.
func New(s Spec) (*Plan, error) {
	switch {
	case len(s.Entrants) < 2:
		return nil, planErrorf("a tournament needs at least 2 bots, got %d --bot", len(s.Entrants))
	case len(s.Entrants) > MaxBots:
		return nil, planErrorf("%d bots: a tournament takes at most %d", len(s.Entrants), MaxBots)
	case s.Format != RoundRobin && s.Format != Gauntlet:
		return nil, planErrorf("--format %q: want %s or %s", s.Format, RoundRobin, Gauntlet)
	case s.Seeds < 1 || s.Seeds > MaxSeeds:
		return nil, planErrorf("--seeds %d: want 1 to %d", s.Seeds, MaxSeeds)
	case s.SeedFrom > math.MaxUint64-uint64(s.Seeds-1):
		return nil, planErrorf("--seed-from %d: %d seeds from there go past the largest seed, 2^64-1", s.SeedFrom, s.Seeds)
	}
	p := &Plan{Game: s.Game, Entrants: slices.Clone(s.Entrants), Format: s.Format, Seeds: s.Seeds, SeedFrom: s.SeedFrom, Settings: s.Settings}
	var err error
	if p.Seats, err = seatsOf(s.Game, s.Seats, len(s.Entrants)); err != nil {
		return nil, err
	}
	// Placeholder players let the header check the setup alone; a header
	// of one entrant in every seat then checks each name and version.
	p.Base = replay.NewHeader(s.Game, s.Ruleset, s.SeedFrom, s.Config)
	p.Base.Players = slices.Repeat([]replay.Player{{Name: "bot"}}, p.Seats)
	if _, err := p.Base.Check(); err != nil {
		return nil, &PlanError{err}
	}
	if err := p.checkPlayers(); err != nil {
		return nil, err
	}
	if n := lineupCount(len(p.Entrants), p.Seats, s.Format) * float64(p.Seats*s.Seeds); n > MaxMatches {
		return nil, planErrorf("%s of %d bots, %d per match, on %d seeds is %.3g matches; at most %d at once",
			s.Format, len(p.Entrants), p.Seats, s.Seeds, n, MaxMatches)
	}
	p.addLineups()
	for i := range s.Seeds {
		for l := range p.Lineups {
			for r := range p.Seats {
				p.Fixtures = append(p.Fixtures, Fixture{Seed: s.SeedFrom + uint64(i), Lineup: l, Rotation: r})
			}
		}
	}
	return p, nil
}

// seatsOf returns the seats of every match: k when given, else the fewest
// the game allows, but at least 2.
func seatsOf(g *sim.Game, k, bots int) (int, error) {
	if k == 0 {
		k = max(2, g.MinPlayers)
	}
	switch {
	case k < 2:
		return 0, planErrorf("--seats %d: a tournament match seats at least 2 bots", k)
	case k < g.MinPlayers || k > g.MaxPlayers:
		return 0, planErrorf("game %s seats %d to %d players, a tournament match %d (--seats)", g.Name, g.MinPlayers, g.MaxPlayers, k)
	case k > bots:
		return 0, planErrorf("--seats %d: more seats than the %d bots", k, bots)
	}
	return k, nil
}

// checkPlayers checks every entrant's name and version, in a header of
// it in every seat, and that no two are the same bot version.
func (p *Plan) checkPlayers() error {
	seen := map[string]int{}
	for i, e := range p.Entrants {
		k := entrantKey(e.Player.Name, e.Player.Version)
		if j, ok := seen[k]; ok {
			return planErrorf("bots %d and %d are both %s: give them different --name or --version", j+1, i+1, BotLabel(e.Player.Name, e.Player.Version))
		}
		seen[k] = i
		h := p.Base
		h.Players = slices.Repeat([]replay.Player{e.Player}, p.Seats)
		if _, err := h.Check(); err != nil {
			return planErrorf("bot %d (%s): %v", i+1, e.Spec, err)
		}
	}
	return nil
}

// lineupCount is the number of lineups of a tournament, as a float so that
// a huge one is refused instead of overflowing.
func lineupCount(bots, seats int, format string) float64 {
	if format == Gauntlet {
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

// addLineups lists the groups of entrants that meet: every p.Seats of them
// in a round robin, every one with the first entrant in a gauntlet.
func (p *Plan) addLineups() {
	if p.Format == Gauntlet {
		combinations(len(p.Entrants)-1, p.Seats-1, func(c []int) {
			l := []int{0}
			for _, i := range c {
				l = append(l, i+1)
			}
			p.Lineups = append(p.Lineups, l)
		})
		return
	}
	combinations(len(p.Entrants), p.Seats, func(c []int) { p.Lineups = append(p.Lineups, slices.Clone(c)) })
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

// Seated returns the entrant in each seat of a fixture: its lineup turned
// by its rotation.
func (p *Plan) Seated(fx Fixture) []int {
	l := p.Lineups[fx.Lineup]
	seats := make([]int, p.Seats)
	for s := range seats {
		seats[s] = l[(s+fx.Rotation)%p.Seats]
	}
	return seats
}

// Header returns a fixture's replay header and the bot spec of each seat.
func (p *Plan) Header(fx Fixture) (replay.Header, []string) {
	h := p.Base
	h.Seed = fx.Seed
	h.Players = make([]replay.Player, p.Seats)
	specs := make([]string, p.Seats)
	for s, e := range p.Seated(fx) {
		h.Players[s], specs[s] = p.Entrants[e].Player, p.Entrants[e].Spec
	}
	return h, specs
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

// BotLabel is how a tournament names a bot version: name@version, or the
// name alone when it has no version.
func BotLabel(name, version string) string {
	if version == "" {
		return name
	}
	return name + "@" + version
}

func (p *Plan) keyOf(fx Fixture) playedKey {
	ks := make([]string, p.Seats)
	for s, e := range p.Seated(fx) {
		ks[s] = entrantKey(p.Entrants[e].Player.Name, p.Entrants[e].Player.Version)
	}
	return playedKey{fx.Seed, strings.Join(ks, "\x1e")}
}

// Stored returns the tournament's matches already in db, one per fixture
// (the first stored), looked up seed by seed.
func (p *Plan) Stored(ctx context.Context, db *store.DB) (map[Fixture]store.MatchSummary, error) {
	want := map[playedKey]Fixture{}
	for _, fx := range p.Fixtures {
		want[p.keyOf(fx)] = fx
	}
	played := map[Fixture]store.MatchSummary{}
	for i := range p.Seeds {
		seed := p.SeedFrom + uint64(i)
		ms, err := db.MatchesOnSeed(ctx, p.Game.Name, p.Base.Ruleset, p.Base.Config, seed)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			ks := make([]string, len(m.Players))
			for s, pl := range m.Players {
				ks[s] = entrantKey(pl.Name, pl.Version)
			}
			fx, ok := want[playedKey{seed, strings.Join(ks, "\x1e")}]
			if _, dup := played[fx]; ok && !dup {
				played[fx] = m
			}
		}
	}
	return played, nil
}

// ID names the tournament: a digest of its game, ruleset, config, format,
// seats, seeds and bots (spec, name and version), the same for the same
// command line on every machine. Its jobs carry it.
func (p *Plan) ID() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%d\x00%d\x00%d", p.Game.Name, p.Base.Ruleset, p.Base.Config, p.Format, p.Seats, p.Seeds, p.SeedFrom)
	for _, e := range p.Entrants {
		fmt.Fprintf(h, "\x00%s\x1f%s\x1f%s", e.Spec, e.Player.Name, e.Player.Version)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// CheckFingerprints refuses, before any match is played, an external bot
// whose name@version is stored with other code: its stored matches would
// be skipped as played by it, and new ones added to a record that mixes
// two programs. With newVersion such a bot plays as version
// VERSION+FINGERPRINT (short), which a later run with the same code and
// flag finds again, so the edited bot's tournament resumes; w is told.
// Versions stored without fingerprints (before replaylab kept them, or by
// built-in bots) are taken as played by the current code. A refusal is a
// *PlanError.
func (p *Plan) CheckFingerprints(ctx context.Context, db *store.DB, newVersion bool, w io.Writer) error {
	var refused []string
	for i := range p.Entrants {
		pl := &p.Entrants[i].Player
		if pl.Fingerprint == "" {
			continue
		}
		fps, err := db.Fingerprints(ctx, p.Game.Name, pl.Name)
		if err != nil {
			return err
		}
		other := otherCode(fps, pl.Version, pl.Fingerprint)
		if other == nil {
			continue
		}
		next := NewVersion(pl.Version, pl.Fingerprint)
		if !newVersion || otherCode(fps, next, pl.Fingerprint) != nil {
			refused = append(refused, fmt.Sprintf("bot %d (%s): %s is stored with other code (fingerprint %s, %d matches), and its code now has fingerprint %s: "+
				"give the changed bot a new --version, or add --new-version to play it as %s",
				i+1, p.Entrants[i].Spec, BotLabel(pl.Name, pl.Version), replay.ShortFingerprint(other.Fingerprint), other.Matches,
				replay.ShortFingerprint(pl.Fingerprint), BotLabel(pl.Name, next)))
			continue
		}
		fmt.Fprintf(w, "bot %d: %s is stored with other code (fingerprint %s), playing the changed bot as %s\n",
			i+1, BotLabel(pl.Name, pl.Version), replay.ShortFingerprint(other.Fingerprint), BotLabel(pl.Name, next))
		pl.Version = next
	}
	if len(refused) > 0 {
		return &PlanError{errors.New(strings.Join(refused, "\n"))}
	}
	return p.checkPlayers()
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

// NewVersion is the version --new-version gives a bot whose code changed:
// its version and the short fingerprint of its code, joined with "+" as
// semantic versions add build metadata.
func NewVersion(version, fp string) string {
	if version == "" {
		return replay.ShortFingerprint(fp)
	}
	return version + "+" + replay.ShortFingerprint(fp)
}
