package analytics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/replaylab/replaylab/store"
)

// RatingKey is the player key of a bot version in the fits of a Refitter:
// its name and version, quoted so that no two versions share a key.
func RatingKey(name, version string) string {
	return strconv.Quote(name) + " " + strconv.Quote(version)
}

// EntryPlacings returns what a rating fit takes from a stored match's
// entries (store.Entries: one per bot version, its best seat): each
// version once, at its best seat's rank and team, keyed by RatingKey;
// and false when they are fewer than two teams, a match that compares no
// one. The dashboard's fits (Refitter) and a tournament's standings both
// read matches through it, so the same matches give the same ratings.
func EntryPlacings(es []store.Entry) ([]Placing, bool) {
	ps := make([]Placing, len(es))
	teams := 0
	for i, e := range es {
		// store's teams count from seat 0, Placing's from 1 (0 is alone).
		ps[i] = Placing{Player: RatingKey(e.Name, e.Version), Rank: e.Rank, Team: e.Team + 1}
		if !slices.ContainsFunc(es[:i], func(o store.Entry) bool { return o.Team == e.Team }) {
			teams++
		}
	}
	return ps, teams >= 2
}

// RatingBasis says, for people, what the ratings of one game and ruleset
// were fitted over: which matches and what anchors the scale.
func RatingBasis(game, ruleset string, matches int) string {
	return fmt.Sprintf("Fitted over all %d stored %s matches under ruleset %s, every bot version at once, "+
		"each match counted once per version (at its best seat) and team-mates as one side; "+
		"a Plackett–Luce fit with teams as in Huang, Weng and Lin (2006), plus one virtual draw of every version "+
		"against a fixed reference, so the mean rating is 1500 and 400 points are 10-to-1 odds.", matches, game, ruleset)
}

// historyPoints is how many evenly spaced prefixes of a ruleset's matches
// the rating history is fitted after, besides all of them. Each prefix
// fit costs about one fit of the distinct outcomes (RatingInput), not of
// the matches, so a refit costs one pass over the matches plus at most
// historyPoints+1 fits, however many matches there are.
const historyPoints = 40

// refitPoll is how often Run looks for matches stored without a Notify,
// by another process (replaylab tournament or import on the same file).
const refitPoll = time.Minute

// Problems a ruleset's fit stores instead of ratings: sentences that
// pages show as they are.
const (
	problemNoMatches = "Not enough matches to rate: ratings compare bots that met in a match, and no match here had two or more sides (bot versions on different teams)."
	problemTooMany   = "Too many bot versions to rate: a fit rates at most 1000 per ruleset."
)

// Refitter keeps the stored ratings of every game and ruleset up to date
// in the background: Run refits a ruleset when its stored matches change,
// so that no request ever waits for a fit. The latest fits stay in memory
// for Fit, which rating differences with intervals need.
type Refitter struct {
	db   *store.DB
	log  *slog.Logger
	wake chan struct{}

	pass sync.Mutex // one Refit at a time
	// seen is what the last fit of each ruleset covered; only Refit,
	// under pass, uses it.
	seen map[rulesetKey]store.RulesetCount

	mu   sync.Mutex
	fits map[rulesetKey]*RatingFit
	// stale are the rulesets Changed named since the last pass began.
	stale map[rulesetKey]bool
}

type rulesetKey struct{ game, ruleset string }

// NewRefitter returns a Refitter of db's ratings that logs to log.
func NewRefitter(db *store.DB, log *slog.Logger) *Refitter {
	return &Refitter{db: db, log: log, wake: make(chan struct{}, 1),
		seen: map[rulesetKey]store.RulesetCount{}, fits: map[rulesetKey]*RatingFit{}, stale: map[rulesetKey]bool{}}
}

// Notify tells Run that matches were stored. It never blocks: notices
// that arrive while one is pending or a refit runs merge into one more
// pass.
func (r *Refitter) Notify() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Changed tells Run that matches of a game and ruleset were deleted, and
// never blocks. The next pass refits that ruleset whatever its count and
// last seq say: they can be what the last fit saw when matches were stored
// after the delete, as SQLite numbers a new match one past the largest
// seq, which was the deleted last match's.
func (r *Refitter) Changed(game, ruleset string) {
	r.mu.Lock()
	r.stale[rulesetKey{game, ruleset}] = true
	r.mu.Unlock()
	r.Notify()
}

// Run refits at once, which rates the matches stored before it started,
// then after every Notify and every refitPoll, until ctx ends. It returns
// when ctx ends, at the latest when the read or write in progress sees
// it. A failed pass is logged and retried at the next wake-up.
func (r *Refitter) Run(ctx context.Context) {
	poll := time.NewTicker(refitPoll)
	defer poll.Stop()
	for {
		if err := r.Refit(ctx); err != nil && ctx.Err() == nil {
			r.log.Error("refit ratings", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-poll.C:
		}
	}
}

// Refit refits, now and in the caller's goroutine, every game and ruleset
// whose stored match count or last match changed since its last fit by r
// (all of them on r's first pass) or that Changed named, and stores the
// ratings and history. A ruleset whose matches are all gone is forgotten:
// its stored fit went with its last match (store.DB.DeleteMatches).
//
// On a database that several servers share, one of them refits at a time
// (store.DB.RefitLock); the others wait their turn.
func (r *Refitter) Refit(ctx context.Context) error {
	r.pass.Lock()
	defer r.pass.Unlock()
	unlock, err := r.db.RefitLock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	r.mu.Lock()
	stale := r.stale
	r.stale = map[rulesetKey]bool{}
	r.mu.Unlock()
	counts, err := r.db.RulesetCounts(ctx)
	if err != nil {
		r.markStale(stale)
		return err
	}
	var errs []error
	for _, c := range counts {
		k := rulesetKey{c.Game, c.Ruleset}
		if seen, ok := r.seen[k]; ok && seen == c && !stale[k] {
			continue
		}
		if err := r.refit(ctx, c); err != nil {
			errs = append(errs, err)
			r.markStale(map[rulesetKey]bool{k: stale[k]})
		}
	}
	r.forgetGone(counts)
	return errors.Join(errs...)
}

// RefitRuleset refits one game and ruleset now, in the caller's
// goroutine, whatever its counts say: what a program that deleted some of
// its matches does rather than wait for a server's pass. A ruleset left
// without matches has nothing to fit.
func (r *Refitter) RefitRuleset(ctx context.Context, game, ruleset string) error {
	r.pass.Lock()
	defer r.pass.Unlock()
	unlock, err := r.db.RefitLock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	counts, err := r.db.RulesetCounts(ctx)
	if err != nil {
		return err
	}
	for _, c := range counts {
		if c.Game == game && c.Ruleset == ruleset {
			return r.refit(ctx, c)
		}
	}
	r.forgetGone(counts)
	return nil
}

// markStale puts back the rulesets of stale a failed pass was to refit
// for Changed's reason, so the next pass refits them.
func (r *Refitter) markStale(stale map[rulesetKey]bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, ok := range stale {
		if ok {
			r.stale[k] = true
		}
	}
}

// forgetGone drops what r keeps of the rulesets that are not in counts
// any more. It runs under pass.
func (r *Refitter) forgetGone(counts []store.RulesetCount) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := range r.seen {
		if !slices.ContainsFunc(counts, func(c store.RulesetCount) bool { return c.Game == k.game && c.Ruleset == k.ruleset }) {
			delete(r.seen, k)
			delete(r.fits, k)
		}
	}
}

// Fit returns the latest fit of a game and ruleset, whose players are
// RatingKey(name, version), and whether there is one: a ruleset not
// fitted yet, or whose fit has a problem, has none.
func (r *Refitter) Fit(game, ruleset string) (*RatingFit, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok := r.fits[rulesetKey{game, ruleset}]
	return f, ok
}

// refit fits one ruleset over all its matches, and after historyPoints
// evenly spaced prefixes of them in the order they were stored, and saves
// the outcome. c.Matches spaces the prefixes; matches stored since the
// count only move the last fit.
func (r *Refitter) refit(ctx context.Context, c store.RulesetCount) error {
	start := time.Now()
	var (
		in      RatingInput
		keys    = map[int64]string{} // bot id → RatingKey
		ids     = map[string]int64{}
		seen    = store.RulesetCount{Game: c.Game, Ruleset: c.Ruleset}
		history []store.RatedAt
		entries []store.Entry
		addErr  error
		next    = 1 // the next history point, 1..historyPoints
	)
	err := r.db.Placings(ctx, c.Game, c.Ruleset, func(m store.MatchPlacings) error {
		seen.Matches++
		seen.LastSeq = m.Seq
		if addErr == nil {
			entries = entries[:0]
			for _, p := range m.Seats {
				if _, ok := keys[p.BotID]; !ok {
					k := RatingKey(p.Name, p.Version)
					keys[p.BotID], ids[k] = k, p.BotID
				}
				entries = append(entries, store.Entry{PlayerSummary: store.PlayerSummary{Seat: p.Seat, Name: p.Name,
					Version: p.Version, Rank: p.Rank, Team: p.Team}, Seats: 1})
			}
			if placings, ok := EntryPlacings(entries); ok {
				addErr = in.Add(placings)
			}
		}
		// Point i is the first ceil(i·n/historyPoints) matches.
		for next <= historyPoints && seen.Matches*historyPoints >= next*c.Matches {
			next++
			if addErr != nil || in.Len() == 0 {
				continue
			}
			if f, err := in.Fit(RatingPrior); err == nil && (len(history) == 0 || history[len(history)-1].Upto != seen.Matches) {
				history = append(history, ratedAt(seen.Matches, f, ids)...)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("refit %s/%s: %w", c.Game, c.Ruleset, err)
	}
	out := &store.FittedRatings{Game: c.Game, Ruleset: c.Ruleset, Matches: seen.Matches, LastSeq: seen.LastSeq, FittedAt: time.Now()}
	var fit *RatingFit
	switch {
	case errors.Is(addErr, ErrTooMany):
		out.Problem = problemTooMany
	case addErr != nil:
		out.Problem = "Not rated: " + addErr.Error() + "."
	case in.Len() == 0:
		out.Problem = problemNoMatches
	default:
		fit, err = in.Fit(RatingPrior)
		if err != nil {
			out.Problem = "Not rated: " + err.Error() + "."
			break
		}
		for _, p := range ratedAt(seen.Matches, fit, ids) {
			out.Latest = append(out.Latest, p.Rated)
		}
		if len(history) == 0 || history[len(history)-1].Upto != seen.Matches {
			history = append(history, ratedAt(seen.Matches, fit, ids)...)
		}
		out.History = history
	}
	if err := r.db.SaveRatings(ctx, out); err != nil {
		return fmt.Errorf("refit %s/%s: %w", c.Game, c.Ruleset, err)
	}
	k := rulesetKey{c.Game, c.Ruleset}
	r.seen[k] = seen
	r.mu.Lock()
	if fit != nil {
		fit.Matches = seen.Matches
		r.fits[k] = fit
	} else {
		delete(r.fits, k)
	}
	r.mu.Unlock()
	r.log.Debug("ratings refitted", "game", c.Game, "ruleset", c.Ruleset, "matches", seen.Matches,
		"players", len(out.Latest), "problem", out.Problem, "took", time.Since(start))
	return nil
}

// ratedAt returns the ratings of f, after upto matches, by bot id.
func ratedAt(upto int, f *RatingFit, ids map[string]int64) []store.RatedAt {
	out := make([]store.RatedAt, len(f.Ratings))
	for i, rt := range f.Ratings {
		out[i] = store.RatedAt{Upto: upto, Rated: store.Rated{BotID: ids[rt.Player], Rating: rt.Rating,
			Low: rt.CI.Low, High: rt.CI.High, Matches: rt.Matches}}
	}
	return out
}
