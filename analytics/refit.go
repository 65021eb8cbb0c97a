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

// historyPoints bounds the rating history of a ruleset: it is the fit
// after every historyStep(n) of its n matches (at most historyPoints
// checkpoints), plus all of them. A checkpoint's fit never changes when
// matches arrive after it, so a new match appends to the history instead
// of refitting it; when the step doubles, every other checkpoint goes.
const historyPoints = 40

// historyStep returns the spacing of the checkpoints of n matches: the
// smallest power of two with at most historyPoints multiples up to n.
func historyStep(n int) int {
	step := 1
	for n/step > historyPoints {
		step *= 2
	}
	return step
}

// refitPoll is how often Run looks for matches stored without a Notify,
// by another process (replaylab tournament or import on the same file).
const refitPoll = time.Minute

// When a fit over every match costs more than a few milliseconds, a new
// match updates the last full fit instead (RatingFit.Update), which
// costs what the matches since it cost; the full fit follows after
// fullEvery matches, or at the first pass fullAfter after the last one
// (Run passes every refitPoll), and at every history checkpoint. An
// update is within a few hundredths of a rating point of a full fit when
// every version in the new matches has played settledMatches or more.
const (
	incrementalFrom = 2000 // distinct placings of a ruleset, what a full fit walks
	fullEvery       = 64
	fullAfter       = refitPoll
	settledMatches  = 1000
)

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
	// kept is what r keeps of each ruleset it fitted, to take new
	// matches in without reading the old ones again; only passes, under
	// pass, use it.
	kept map[rulesetKey]*rulesetFit
	// incrementalFrom is the constant of that name, which tests lower.
	incrementalFrom int
	// onFit, when not nil, is called once in every refit of a ruleset
	// that fits or saves it, before the first fit, with the matches it
	// read before (0: it reads them all): for tests that count fits.
	onFit func(game, ruleset string, from int)

	mu   sync.Mutex
	fits map[rulesetKey]*RatingFit
	// stale are the rulesets Changed named (true), or whose fit Fit was
	// asked for and r does not keep (false), since the last pass began.
	stale map[rulesetKey]bool
	// asked are the rulesets Fit made stale, once each: one whose fit
	// has a problem is not fitted again on every request.
	asked map[rulesetKey]bool
}

// rulesetFit is the state of one ruleset's fit: the matches read, in seq
// order, and the fits made of them.
type rulesetFit struct {
	seen    store.RulesetCount // the matches in in
	in      RatingInput
	ids     map[string]int64 // RatingKey → bot id
	addErr  error            // why in stopped taking matches
	fit     *RatingFit       // of all of in; nil when it has a problem
	history []store.RatedAt  // at the checkpoints of seen.Matches
	// base is the last full fit, of the first base.Matches matches of
	// in, the last of them baseSeq, made at baseAt over baseDistinct
	// distinct placings; recent holds the matches of in after them. fit
	// is base or its Update with recent.
	base         *RatingFit
	baseAt       time.Time
	baseSeq      int64
	baseDistinct int
	recent       RatingInput
	// state is base saved (encodeState), nil when base is.
	state []byte
	// partial says that st was taken over from a saved state without
	// its matches (stateFit): in holds none of them, base and recent
	// stand for them, and a full fit reads them all first (fill).
	partial bool
}

type rulesetKey struct{ game, ruleset string }

// newRulesetFit returns the state of a fit of c's ruleset that has read
// no match.
func newRulesetFit(c store.RulesetCount) *rulesetFit {
	return &rulesetFit{seen: store.RulesetCount{Game: c.Game, Ruleset: c.Ruleset}, ids: map[string]int64{}}
}

// fittedCount returns the count of the saved fit of k among saved.
func fittedCount(saved []store.RulesetCount, k rulesetKey) (store.RulesetCount, bool) {
	i := slices.IndexFunc(saved, func(c store.RulesetCount) bool { return c.Game == k.game && c.Ruleset == k.ruleset })
	if i < 0 {
		return store.RulesetCount{}, false
	}
	return saved[i], true
}

// errSavedStale says that the stored matches up to a saved fit's last one
// are not the ones it counted: some were deleted since, and others may
// have taken their seqs.
var errSavedStale = errors.New("the saved fit does not count the stored matches")

// NewRefitter returns a Refitter of db's ratings that logs to log.
func NewRefitter(db *store.DB, log *slog.Logger) *Refitter {
	return &Refitter{db: db, log: log, wake: make(chan struct{}, 1), incrementalFrom: incrementalFrom,
		kept: map[rulesetKey]*rulesetFit{}, fits: map[rulesetKey]*RatingFit{},
		stale: map[rulesetKey]bool{}, asked: map[rulesetKey]bool{}}
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
// then warms up (Warm), then refits after every Notify and every
// refitPoll, until ctx ends. It returns when ctx ends, at the latest when
// the read or write in progress sees it. A failed pass is logged and
// retried at the next wake-up.
func (r *Refitter) Run(ctx context.Context) {
	poll := time.NewTicker(refitPoll)
	defer poll.Stop()
	if err := r.Refit(ctx); err != nil && ctx.Err() == nil {
		r.log.Error("refit ratings", "err", err)
	}
	if err := r.Warm(ctx); err != nil && ctx.Err() == nil {
		r.log.Error("warm up ratings", "err", err)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-poll.C:
		}
		if err := r.Refit(ctx); err != nil && ctx.Err() == nil {
			r.log.Error("refit ratings", "err", err)
		}
	}
}

// Warm takes over the saved fits of the rulesets r does not keep, one
// ruleset a pass, as a pass does for a ruleset Fit asks for: it loads
// the state saved with each (its last full fit) and reads the matches
// stored after that fit, which an update takes in, without saving. Then
// Fit has every ruleset's fit. A saved fit without a usable state (saved
// before schema 21, by another layout, or damaged) is fitted once from
// its saved ratings, reading all its matches, and saved with a state.
// Between rulesets it runs the pass a Notify asked for, so that a new
// match does not wait for the whole warm-up.
func (r *Refitter) Warm(ctx context.Context) error {
	saved, err := r.db.FittedCounts(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range saved {
		select {
		case <-r.wake:
			errs = append(errs, r.Refit(ctx))
		default:
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		k := rulesetKey{c.Game, c.Ruleset}
		r.pass.Lock()
		_, kept := r.kept[k]
		r.pass.Unlock()
		if kept {
			continue
		}
		r.mu.Lock()
		r.stale[k] = r.stale[k] // as Fit marks it, unless Changed did
		r.mu.Unlock()
		errs = append(errs, r.Refit(ctx))
	}
	return errors.Join(errs...)
}

// Refit refits, now and in the caller's goroutine, every game and ruleset
// whose stored match count or last match changed since its last fit, by r
// or stored, or that Changed named, and stores the ratings and history.
// Matches stored after the ones r fitted last are added to that fit,
// which starts from the last ratings and appends to the history, rather
// than read and fitted again. A saved fit r did not make, by another
// server on the same database or before r started, is taken over the
// same way: r loads the state saved with it (its last full fit, see
// encodeState) and reads only the matches after that full fit, which an
// update takes in, keeping the saved history; a ruleset whose saved
// fit covers every stored match is not fitted at all. Without a usable
// state, r reads every match the saved fit covers and fits them once from
// its ratings. On a large ruleset
// the new matches update the last full fit instead of a fit of all
// (see incrementalFrom), and a pass fits it in full when that is due,
// new match or not. A ruleset whose matches are all gone is
// forgotten: its stored fit went with its last match
// (store.DB.DeleteMatches).
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
	saved, err := r.db.FittedCounts(ctx)
	if err != nil {
		r.markStale(stale)
		return err
	}
	var errs []error
	for _, c := range counts {
		k := rulesetKey{c.Game, c.Ruleset}
		deleted, marked := stale[k]
		fitted, ok := fittedCount(saved, k)
		st := r.kept[k]
		// due: r's fit is an update that a full fit should replace.
		due := st != nil && st.seen == c && r.fullDue(st)
		if !marked && ok && fitted == c && !due {
			continue
		}
		if deleted {
			// Changed: what r keeps and the saved fit may both count
			// matches that are gone.
			st, ok = nil, false
		}
		if !ok {
			// Another process deleted the saved fit, with every match.
			st = nil
		}
		var adopt *store.FittedRatings
		if ok && (st == nil || st.seen != fitted) {
			// The saved fit, by r or another process, covers matches r
			// has not read: go on from it rather than fit them again.
			if st != nil && !appended(st.seen, fitted) {
				st = nil
			}
			if adopt, err = r.db.SavedRatings(ctx, c.Game, c.Ruleset); err != nil {
				errs = append(errs, fmt.Errorf("refit %s/%s: %w", c.Game, c.Ruleset, err))
				r.markStale(map[rulesetKey]bool{k: deleted})
				continue
			}
			if adopt.Problem != "" {
				adopt, st = nil, nil
			}
			if adopt != nil && st == nil {
				st = r.takeOver(c, adopt)
			}
		}
		if st == nil || adopt == nil && st.seen != c && !appended(st.seen, c) {
			st = newRulesetFit(c)
		}
		err := r.refit(ctx, st, c, adopt)
		if errors.Is(err, errSavedStale) {
			// The saved fit or its state counts matches that are gone.
			err = r.refit(ctx, newRulesetFit(c), c, nil)
		}
		if err != nil {
			errs = append(errs, err)
			delete(r.kept, k)
			r.markStale(map[rulesetKey]bool{k: deleted})
		}
	}
	r.forgetGone(counts)
	return errors.Join(errs...)
}

// takeOver returns the state of a fit of c's ruleset taken over from the
// state saved with the fit saved, which covers no more matches than it,
// or nil when there is none that r can use. It clears saved's state when
// it cannot be used, so that refit saves one: a state saved by another
// layout or damaged is logged and its ruleset fitted in full, once.
func (r *Refitter) takeOver(c store.RulesetCount, saved *store.FittedRatings) *rulesetFit {
	st, err := stateFit(c, saved.State)
	if err == nil && (st.seen.Matches > saved.Matches || st.seen.LastSeq > saved.LastSeq) {
		err = fmt.Errorf("it covers %d matches up to seq %d, the fit %d up to %d",
			st.seen.Matches, st.seen.LastSeq, saved.Matches, saved.LastSeq)
	}
	if err != nil {
		if saved.State != nil {
			r.log.Warn("saved rating state ignored: the ruleset is fitted in full", "game", c.Game, "ruleset", c.Ruleset, "err", err)
		}
		saved.State = nil
		return nil
	}
	return st
}

// appended says whether now is seen's matches with more stored after
// them, as it is when no match went since the fit of seen was saved (and
// Changed was not called).
func appended(seen, now store.RulesetCount) bool {
	return now.Matches > seen.Matches && now.LastSeq > seen.LastSeq
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
			k := rulesetKey{game, ruleset}
			delete(r.kept, k)
			return r.refit(ctx, newRulesetFit(c), c, nil)
		}
	}
	r.forgetGone(counts)
	return nil
}

// markStale puts back the rulesets of stale a failed pass was to refit,
// with their reasons, so the next pass refits them.
func (r *Refitter) markStale(stale map[rulesetKey]bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, deleted := range stale {
		r.stale[k] = r.stale[k] || deleted
	}
}

// forgetGone drops what r keeps of the rulesets that are not in counts
// any more. It runs under pass.
func (r *Refitter) forgetGone(counts []store.RulesetCount) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := range r.fits {
		if !slices.ContainsFunc(counts, func(c store.RulesetCount) bool { return c.Game == k.game && c.Ruleset == k.ruleset }) {
			delete(r.kept, k)
			delete(r.fits, k)
		}
	}
}

// Fit returns the latest fit of a game and ruleset, whose players are
// RatingKey(name, version), and whether there is one: a ruleset not
// fitted yet, or whose fit has a problem, has none. A ruleset whose
// stored fit r found up to date at start has none until it changes or
// Fit asks for it: then Run's next pass takes over its saved state.
func (r *Refitter) Fit(game, ruleset string) (*RatingFit, bool) {
	r.mu.Lock()
	k := rulesetKey{game, ruleset}
	f, ok := r.fits[k]
	if !ok && !r.asked[k] {
		r.stale[k], r.asked[k] = r.stale[k], true
		defer r.Notify()
	}
	r.mu.Unlock()
	return f, ok
}

// refit adds the matches of c stored after st.seen to st, fits them and
// the checkpoints they pass (see historyPoints), each fit starting from
// the one before, and saves the outcome. Matches stored since the count
// c only move the last fit.
//
// When saved is not nil, it is the stored fit of matches st has not all
// read: the ones up to its last are taken in without a fit, its history
// stands for their checkpoints and its ratings start the next fit. Then
// nothing is fitted or saved when c counts no more matches than saved
// and r has a fit of its own (or updates its saved state with them), but
// a saved fit without a state is saved again with one; refit returns
// errSavedStale when the stored matches up to saved's last are not the
// ones it counted.
//
// A partial st (stateFit) reads only the matches after its state's, and
// none after c; when a full fit is due or an update will not do, it
// reads all of them first (fill).
func (r *Refitter) refit(ctx context.Context, st *rulesetFit, c store.RulesetCount, saved *store.FittedRatings) error {
	start := time.Now()
	before := st.seen
	due := r.fullDue(st)
	stored := before // whose history is saved
	if saved != nil {
		stored = store.RulesetCount{Game: c.Game, Ruleset: c.Ruleset, Matches: saved.Matches, LastSeq: saved.LastSeq}
		st.history = saved.History
	}
	// filled says that a partial st read every match again (fill).
	filled := false
	// count tells onFit once that r fits or saves c's ruleset.
	counted := false
	count := func() {
		if r.onFit != nil && !counted {
			from := before.Matches
			if filled {
				from = 0
			}
			r.onFit(c.Game, c.Ruleset, from)
		}
		counted = true
	}
	// fit fits all the matches st has read, starting from the last fit.
	fit := func() (*RatingFit, error) {
		count()
		from := st.fit
		if from == nil && saved != nil {
			from = savedStart(saved.Latest, st.ids)
		}
		f, err := st.in.FitFrom(RatingPrior, from)
		if err != nil {
			return nil, err
		}
		f.Matches = st.seen.Matches
		st.base, st.baseAt, st.baseSeq, st.baseDistinct, st.recent = f, time.Now(), st.seen.LastSeq, st.in.distinct(), RatingInput{}
		st.state = encodeState(st)
		return f, nil
	}
	// The checkpoints of the old step that the new one keeps.
	kept := st.history[:0:0]
	step := historyStep(c.Matches)
	for _, p := range st.history {
		if p.Upto%step == 0 {
			kept = append(kept, p)
		}
	}
	thinned := len(kept) < len(st.history)
	st.history = kept
	if st.partial && (due || c.Matches/step > max(before.Matches, stored.Matches)/step) {
		// A full fit comes in this pass, at the end or at a checkpoint.
		if err := r.fill(ctx, st); err != nil {
			return fmt.Errorf("refit %s/%s: %w", c.Game, c.Ruleset, err)
		}
		filled = true
	}
	var entries []store.Entry
	err := r.db.PlacingsAfter(ctx, c.Game, c.Ruleset, before.LastSeq, func(m store.MatchPlacings) error {
		if st.partial && m.Seq > max(c.LastSeq, stored.LastSeq) {
			return errRead // the next pass reads it, at a checkpoint filled
		}
		// The matches up to the saved fit's last must be as many as it
		// counted.
		if m.Seq > stored.LastSeq && st.seen.Matches < stored.Matches || m.Seq <= stored.LastSeq && st.seen.Matches >= stored.Matches {
			return errSavedStale
		}
		st.seen.Matches++
		st.seen.LastSeq = m.Seq
		if st.addErr == nil {
			var placings []Placing
			var ok bool
			if placings, entries, ok = st.placings(m, entries); ok {
				if !st.partial {
					st.addErr = st.in.Add(placings)
				}
				if st.addErr == nil && st.base != nil && st.recent.Add(placings) != nil {
					st.base, st.state = nil, nil
				}
			}
		}
		if st.seen.Matches <= stored.Matches || st.seen.Matches%step != 0 || st.addErr != nil || st.empty() {
			return nil
		}
		f, err := fit()
		if err == nil {
			st.fit = f
			st.history = append(st.history, ratedAt(st.seen.Matches, f, st.ids)...)
		}
		return nil
	})
	if errors.Is(err, errRead) {
		err = nil
	}
	if err == nil && st.seen.Matches < stored.Matches {
		err = errSavedStale
	}
	if err == nil && st.partial && st.addErr == nil && r.needsFit(st) {
		// An update of the saved state, or when it will not do, a full
		// fit below, which reads every match first.
		if f, uerr := r.update(st, count); uerr == nil {
			st.fit = f
		} else {
			err, filled = r.fill(ctx, st), true
		}
	}
	if err != nil {
		return fmt.Errorf("refit %s/%s: %w", c.Game, c.Ruleset, err)
	}
	if st.seen == stored && st.fit != nil && st.addErr == nil && !due && (saved == nil || saved.State != nil) {
		// Another process fitted and saved these matches; r goes on with
		// its own last fit until the next match.
		r.keep(st, "")
		return nil
	}
	out := &store.FittedRatings{Game: c.Game, Ruleset: c.Ruleset, Matches: st.seen.Matches, LastSeq: st.seen.LastSeq, FittedAt: time.Now()}
	switch {
	case errors.Is(st.addErr, ErrTooMany):
		out.Problem = problemTooMany
	case st.addErr != nil:
		out.Problem = "Not rated: " + st.addErr.Error() + "."
	case st.empty():
		out.Problem = problemNoMatches
	default:
		last := st.fit
		if r.needsFit(st) {
			// The last match was no checkpoint, or the last fit is an
			// update a full fit replaces now.
			f, err := r.update(st, count)
			if err != nil {
				f, err = fit()
			}
			if err != nil {
				out.Problem = "Not rated: " + err.Error() + "."
				break
			}
			last, st.fit = f, f
		}
		for _, p := range ratedAt(st.seen.Matches, last, st.ids) {
			out.Latest = append(out.Latest, p.Rated)
		}
		if !thinned && stored.Matches > 0 {
			// The checkpoints up to stored stay as saved.
			out.HistoryAfter = stored.Matches - stored.Matches%step
		}
		for _, p := range st.history {
			if p.Upto > out.HistoryAfter {
				out.History = append(out.History, p)
			}
		}
		if st.seen.Matches%step != 0 {
			out.History = append(out.History, ratedAt(st.seen.Matches, last, st.ids)...)
		}
		out.State = st.state
	}
	if st.seen != stored || out.Problem != "" || due || saved != nil && saved.State == nil {
		count()
		if err := r.db.SaveRatings(ctx, out); err != nil {
			return fmt.Errorf("refit %s/%s: %w", c.Game, c.Ruleset, err)
		}
	}
	r.keep(st, out.Problem)
	r.log.Debug("ratings refitted", "game", c.Game, "ruleset", c.Ruleset, "matches", st.seen.Matches,
		"new", st.seen.Matches-stored.Matches, "players", len(out.Latest), "problem", out.Problem, "took", time.Since(start))
	return nil
}

// update returns st's base fit updated with its recent matches when
// that is worth it and within the tolerance that incrementalFrom's
// comment states; otherwise its error says why not, and the caller fits
// all the matches.
func (r *Refitter) update(st *rulesetFit, count func()) (*RatingFit, error) {
	switch {
	case st.base == nil || st.recent.Len() == 0:
		return nil, errors.New("no fit to update")
	case st.distinct() < r.incrementalFrom:
		return nil, errors.New("a full fit is as cheap")
	case r.fullDue(st):
		return nil, errors.New("a full fit is due")
	}
	unsettled := map[string]bool{}
	for _, rt := range st.base.Ratings {
		if rt.Matches < settledMatches {
			unsettled[rt.Player] = true
		}
	}
	for _, p := range st.recent.players {
		if _, ok := st.base.index[p]; !ok || unsettled[p] {
			return nil, fmt.Errorf("%s has played fewer than %d matches", p, settledMatches)
		}
	}
	count()
	f, err := st.base.Update(&st.recent)
	if err != nil {
		return nil, err
	}
	f.Matches = st.seen.Matches
	return f, nil
}

// needsFit says whether st's fit is not of all the matches st has read,
// or is an update that a full fit should replace now.
func (r *Refitter) needsFit(st *rulesetFit) bool {
	return st.fit == nil || st.fit.Matches != st.seen.Matches || st.fit != st.base && r.fullDue(st)
}

// errRead stops a read of matches that has read what it needs.
var errRead = errors.New("read enough")

// fill reads again every match of st's ruleset up to the last st has
// seen, into in, so that a partial st (stateFit) can fit them in full;
// its recent matches and fits stay. It returns errSavedStale when they
// are not as many as st counted.
func (r *Refitter) fill(ctx context.Context, st *rulesetFit) error {
	all := &rulesetFit{ids: st.ids}
	var entries []store.Entry
	n := 0
	err := r.db.Placings(ctx, st.seen.Game, st.seen.Ruleset, func(m store.MatchPlacings) error {
		if m.Seq > st.seen.LastSeq {
			return errRead
		}
		n++
		if all.addErr == nil {
			var placings []Placing
			var ok bool
			if placings, entries, ok = all.placings(m, entries); ok {
				all.addErr = all.in.Add(placings)
			}
		}
		return nil
	})
	if errors.Is(err, errRead) {
		err = nil
	}
	if err == nil && n != st.seen.Matches {
		err = errSavedStale
	}
	if err != nil {
		return err
	}
	st.in, st.addErr, st.partial = all.in, all.addErr, false
	return nil
}

// placings returns what a fit takes from m (EntryPlacings), in entries,
// which it reuses, and notes its bot ids in st.ids.
func (st *rulesetFit) placings(m store.MatchPlacings, entries []store.Entry) ([]Placing, []store.Entry, bool) {
	entries = entries[:0]
	for _, p := range m.Seats {
		st.ids[RatingKey(p.Name, p.Version)] = p.BotID
		entries = append(entries, store.Entry{PlayerSummary: store.PlayerSummary{Seat: p.Seat, Name: p.Name,
			Version: p.Version, Rank: p.Rank, Team: p.Team}, Seats: 1})
	}
	placings, ok := EntryPlacings(entries)
	return placings, entries, ok
}

// empty says whether st has no match to rate.
func (st *rulesetFit) empty() bool {
	return !st.partial && st.in.Len() == 0
}

// distinct returns the distinct placings of st's matches, which a full
// fit walks: of a partial st, as many as its state's and recent's.
func (st *rulesetFit) distinct() int {
	if st.partial {
		return st.baseDistinct + st.recent.distinct()
	}
	return st.in.distinct()
}

// fullDue says whether st's fit is an update that a full fit should
// replace now: after fullEvery matches or fullAfter.
func (r *Refitter) fullDue(st *rulesetFit) bool {
	if st.base == nil {
		return false
	}
	since := st.seen.Matches - st.base.Matches
	return since > 0 && (since >= fullEvery || time.Since(st.baseAt) >= fullAfter)
}

// keep keeps st as the state of its ruleset's fit, and its fit for Fit,
// unless problem says the fit failed: then the next fit reads every
// match again and rebuilds the history.
func (r *Refitter) keep(st *rulesetFit, problem string) {
	k := rulesetKey{st.seen.Game, st.seen.Ruleset}
	r.kept[k] = st
	if problem != "" {
		st.fit = nil
		delete(r.kept, k)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if st.fit != nil {
		r.fits[k] = st.fit
	} else {
		delete(r.fits, k)
	}
}

// savedStart returns the saved ratings latest, by bot id, as a fit to
// start FitFrom from: it has the log-strengths of the players of ids
// and nothing else.
func savedStart(latest []store.Rated, ids map[string]int64) *RatingFit {
	keys := make(map[int64]string, len(ids))
	for k, id := range ids {
		keys[id] = k
	}
	f := &RatingFit{index: make(map[string]int, len(latest))}
	for _, rt := range latest {
		if k, ok := keys[rt.BotID]; ok {
			f.index[k] = len(f.theta)
			f.theta = append(f.theta, (rt.Rating-eloMean)/eloScale)
		}
	}
	return f
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
