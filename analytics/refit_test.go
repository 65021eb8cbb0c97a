package analytics

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
	"github.com/replaylab/replaylab/store/pgtest"
)

// seated is one seat of a test match: a bot version and its rank.
type seated struct {
	name, version string
	rank          int
}

// openStore opens a fresh database in a temporary directory.
func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "ratings.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// storeMatch stores a match of game and ruleset with the given seats and
// returns its id, which n makes.
func storeMatch(t *testing.T, db *store.DB, n int, game, ruleset string, seats []seated) string {
	t.Helper()
	sum := sha256.Sum256(fmt.Appendf(nil, "%s %s %d", game, ruleset, n))
	rec := &store.Record{ID: hex.EncodeToString(sum[:]), Game: game, Ruleset: ruleset, Config: []byte("{}"),
		Encoded: []byte("test"), Result: sim.Result{Winner: -1, Reason: "test"}}
	for _, s := range seats {
		o := sim.Loss
		switch {
		case s.rank == 1 && slices.ContainsFunc(seats, func(x seated) bool { return x.rank != 1 }):
			o = sim.Win
		case s.rank == 1:
			o = sim.Draw
		}
		rec.Players = append(rec.Players, store.Player{Name: s.name, Version: s.version})
		rec.Result.Players = append(rec.Result.Players, sim.PlayerResult{Rank: s.rank, Outcome: o})
	}
	if _, err := db.Ingest(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	return rec.ID
}

// randomSeats plays n matches of two or three seats among bot versions.
func randomSeats(r *rand.Rand, n int) [][]seated {
	bots := []seated{{"astar", "v1", 0}, {"astar", "v2", 0}, {"greedy", "v1", 0}, {"random", "", 0}}
	ms := make([][]seated, n)
	for i := range ms {
		m := make([]seated, 2+r.IntN(2))
		for s := range m {
			b := r.IntN(len(bots))
			m[s] = bots[b]
			m[s].rank = max(1, 1+r.IntN(len(m))-b/2)
		}
		ms[i] = m
	}
	return ms
}

// placings turns test matches into FitRatings input with RatingKey keys,
// each bot version once at its best rank, as the store's entries hold
// it; a match of one version alone compares no one and is left out.
func placings(ms [][]seated) [][]Placing {
	var out [][]Placing
	for _, m := range ms {
		var ps []Placing
		for _, s := range m {
			k := RatingKey(s.name, s.version)
			if i := slices.IndexFunc(ps, func(p Placing) bool { return p.Player == k }); i >= 0 {
				ps[i].Rank = min(ps[i].Rank, s.rank)
				continue
			}
			ps = append(ps, Placing{Player: k, Rank: s.rank})
		}
		if len(ps) >= 2 {
			out = append(out, ps)
		}
	}
	return out
}

// storedRatings returns the stored ratings of one game and ruleset, with
// the time of the fit cleared.
func storedRatings(t *testing.T, db *store.DB, game, ruleset string) store.RatingBoard {
	t.Helper()
	bs, err := db.Ratings(context.Background(), game, ruleset)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 {
		t.Fatalf("%s/%s: got %d boards, want 1", game, ruleset, len(bs))
	}
	bs[0].FittedAt = time.Time{}
	return bs[0]
}

func newTestRefitter(db *store.DB) *Refitter {
	return NewRefitter(db, slog.New(slog.DiscardHandler))
}

// TestRefitMatchesFitRatings checks that the stored ratings are those of
// FitRatings over the same matches, that the in-memory fit is that fit,
// and that other rulesets' matches stay out of it.
func TestRefitMatchesFitRatings(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ms := randomSeats(rand.New(rand.NewPCG(7, 8)), 120)
	for i, m := range ms {
		storeMatch(t, db, i, "worms", "base", m)
	}
	storeMatch(t, db, 0, "worms", "final", []seated{{"other", "v1", 1}, {"astar", "v1", 2}})
	r := newTestRefitter(db)
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	want, err := FitRatings(placings(ms), RatingPrior)
	if err != nil {
		t.Fatal(err)
	}
	got := storedRatings(t, db, "worms", "base")
	if got.Matches != len(ms) || got.Problem != "" || len(got.Ratings) != len(want.Ratings) {
		t.Fatalf("got %+v, want %d matches and %d ratings", got, len(ms), len(want.Ratings))
	}
	for i, w := range want.Ratings {
		g := got.Ratings[i]
		if RatingKey(g.Name, g.Version) != w.Player || !sameRating(g, w) {
			t.Errorf("rating %d: got %+v, want %+v", i, g, w)
		}
	}
	f, ok := r.Fit("worms", "base")
	if !ok || f.Matches != len(ms) || len(f.Ratings) != len(want.Ratings) {
		t.Fatalf("Fit: got %v, %v; want the fit of FitRatings over %d matches", f, ok, len(ms))
	}
	for i, w := range want.Ratings {
		if g := f.Ratings[i]; g.Player != w.Player || !sameRating(store.BotRating{Rating: g.Rating, Low: g.CI.Low, High: g.CI.High, Matches: g.Matches}, w) {
			t.Errorf("Fit, rating %d: got %+v, want %+v", i, g, w)
		}
	}
	d, err := f.Difference(RatingKey("astar", "v2"), RatingKey("astar", "v1"))
	if err != nil || math.IsNaN(d.Diff) {
		t.Errorf("Difference: got %v, %v; want a number", d, err)
	}
	if _, ok := r.Fit("worms", "nosuch"); ok {
		t.Error("Fit of a ruleset without matches: got a fit, want none")
	}
}

// ratingSlack is how far, in rating points, two fits of the same matches
// may differ when they started from different ratings: each stops within
// about 2e-8 points of the optimum (fitTolerance).
const ratingSlack = 1e-6

// sameRating says whether a stored rating is w within ratingSlack.
func sameRating(g store.BotRating, w Rating) bool {
	return math.Abs(g.Rating-w.Rating) <= ratingSlack && math.Abs(g.Low-w.CI.Low) <= ratingSlack &&
		math.Abs(g.High-w.CI.High) <= ratingSlack && g.Matches == w.Matches
}

// sameBoard says whether two stored boards are the same within
// ratingSlack.
func sameBoard(a, b store.RatingBoard) bool {
	if a.Game != b.Game || a.Ruleset != b.Ruleset || a.Matches != b.Matches || a.Problem != b.Problem || len(a.Ratings) != len(b.Ratings) {
		return false
	}
	for i, r := range a.Ratings {
		o := b.Ratings[i]
		if r.Name != o.Name || r.Version != o.Version ||
			!sameRating(r, Rating{Rating: o.Rating, CI: Interval{o.Low, o.High}, Matches: o.Matches}) {
			return false
		}
	}
	return true
}

// TestRefitOrderIndependent stores the same matches in two orders: the
// stored ratings are the same within the fit's tolerance (the history's
// fits, from which the last one starts, differ).
func TestRefitOrderIndependent(t *testing.T) {
	ctx := context.Background()
	ms := randomSeats(rand.New(rand.NewPCG(9, 10)), 80)
	var boards []store.RatingBoard
	for run, seed := range []uint64{1, 2} {
		db := openStore(t)
		for _, i := range rand.New(rand.NewPCG(seed, seed)).Perm(len(ms)) {
			m := slices.Clone(ms[i])
			if run == 1 {
				slices.Reverse(m) // the seats in another order too
			}
			storeMatch(t, db, i, "worms", "base", m)
		}
		if err := newTestRefitter(db).Refit(ctx); err != nil {
			t.Fatal(err)
		}
		boards = append(boards, storedRatings(t, db, "worms", "base"))
	}
	if !sameBoard(boards[0], boards[1]) {
		t.Errorf("got %+v\nand %+v, want the same ratings", boards[0], boards[1])
	}
}

// TestRefitHistory checks the checkpoints of the rating history: evenly
// spaced, at most historyPoints of them, the last over all matches, each
// the fit of that prefix.
func TestRefitHistory(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, 7, 40, 103} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			db := openStore(t)
			ms := randomSeats(rand.New(rand.NewPCG(uint64(n), 11)), n)
			for i, m := range ms {
				storeMatch(t, db, i, "snake", "base", m)
			}
			if err := newTestRefitter(db).Refit(ctx); err != nil {
				t.Fatal(err)
			}
			points := historyOf(t, db)
			var got, want []int
			for upto := range points {
				got = append(got, upto)
			}
			step := 1
			for n/step > historyPoints {
				step *= 2
			}
			for upto := step; upto <= n; upto += step {
				want = append(want, upto)
			}
			if n%step != 0 {
				want = append(want, n)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("got checkpoints %v, want %v", got, want)
			}
			for upto, rs := range points {
				want, err := FitRatings(placings(ms[:upto]), RatingPrior)
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range want.Ratings {
					if g, ok := rs[w.Player]; !ok || !sameRating(g, w) {
						t.Errorf("after %d matches, %s: got %+v, want %+v", upto, w.Player, g, w)
					}
				}
			}
		})
	}
}

// TestRefitProblems checks rulesets that cannot be rated get a clear
// problem instead of ratings, and no NaN anywhere.
func TestRefitProblems(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	storeMatch(t, db, 1, "toad", "classic", []seated{{"astar", "v1", 1}})
	storeMatch(t, db, 2, "toad", "classic", []seated{{"random", "v1", 1}})
	storeMatch(t, db, 3, "worms", "base", []seated{{"a", "1", 1}, {"b", "1", 2}})
	storeMatch(t, db, 4, "worms", "final", []seated{{"a", "1", 1}, {"a", "1", 1}})
	r := newTestRefitter(db)
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if got := storedRatings(t, db, "toad", "classic"); got.Problem != problemNoMatches || len(got.Ratings) != 0 || got.Matches != 2 {
		t.Errorf("single-seat matches: got %+v, want the problem %q", got, problemNoMatches)
	}
	if _, ok := r.Fit("toad", "classic"); ok {
		t.Error("single-seat matches: got an in-memory fit, want none")
	}
	// A version in both seats of a match played no one.
	if got := storedRatings(t, db, "worms", "final"); got.Problem != problemNoMatches || len(got.Ratings) != 0 {
		t.Errorf("a match against itself: got %+v, want the problem %q", got, problemNoMatches)
	}
	for _, ruleset := range []string{"base"} {
		got := storedRatings(t, db, "worms", ruleset)
		if got.Problem != "" || len(got.Ratings) == 0 {
			t.Errorf("worms/%s, one match: got %+v, want ratings", ruleset, got)
		}
		for _, rt := range got.Ratings {
			for _, v := range []float64{rt.Rating, rt.Low, rt.High} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("worms/%s: got %+v, want finite numbers", ruleset, rt)
				}
			}
		}
	}
}

// TestRefitOnlyChanged checks that a pass refits only the rulesets whose
// matches changed.
func TestRefitOnlyChanged(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	storeMatch(t, db, 1, "worms", "base", []seated{{"a", "1", 1}, {"b", "1", 2}})
	storeMatch(t, db, 2, "worms", "final", []seated{{"a", "1", 1}, {"b", "1", 2}})
	r := newTestRefitter(db)
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	fitted := func(ruleset string) time.Time {
		bs, err := db.Ratings(ctx, "worms", ruleset)
		if err != nil || len(bs) != 1 {
			t.Fatalf("got %v, %v; want one board", bs, err)
		}
		return bs[0].FittedAt
	}
	base, final := fitted("base"), fitted("final")
	time.Sleep(5 * time.Millisecond) // fit times are in milliseconds
	storeMatch(t, db, 3, "worms", "base", []seated{{"a", "1", 2}, {"b", "1", 1}})
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if !fitted("base").After(base) {
		t.Error("base, with a new match: got no refit, want one")
	}
	if !fitted("final").Equal(final) {
		t.Error("final, unchanged: got a refit, want none")
	}
	if got := storedRatings(t, db, "worms", "base"); got.Matches != 2 {
		t.Errorf("base: got %d matches, want 2", got.Matches)
	}
}

// TestRefitAfterDelete deletes the last match of a ruleset and stores
// another in its place, which leaves the ruleset's count and last
// seq as the last fit saw them: after Changed, a pass rates it exactly as
// a fresh database holding the same matches. A ruleset whose matches are
// all deleted has no fit left, stored or kept.
func TestRefitAfterDelete(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ms := randomSeats(rand.New(rand.NewPCG(3, 4)), 60)
	var ids []string
	for i, m := range ms {
		ids = append(ids, storeMatch(t, db, i, "worms", "base", m))
	}
	final := storeMatch(t, db, 0, "worms", "final", []seated{{"a", "1", 1}, {"b", "1", 2}})
	r := newTestRefitter(db)
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DeleteMatches(ctx, []string{ids[len(ids)-1], final}); err != nil {
		t.Fatal(err)
	}
	ms = ms[:len(ms)-1]
	// The first of the same bots to win every match: the ratings move.
	ms = append(ms, []seated{{"random", "", 1}, {"astar", "v2", 2}})
	storeMatch(t, db, 1000, "worms", "base", ms[len(ms)-1])
	r.Changed("worms", "base")
	r.Changed("worms", "final")
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	fresh := openStore(t)
	for i, m := range ms {
		storeMatch(t, fresh, i, "worms", "base", m)
	}
	if err := newTestRefitter(fresh).Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := storedRatings(t, db, "worms", "base"), storedRatings(t, fresh, "worms", "base"); !reflect.DeepEqual(got, want) {
		t.Errorf("ratings after the delete:\n got %+v\nwant %+v (a fresh database of the same matches)", got, want)
	}
	if bs, err := db.Ratings(ctx, "worms", "final"); len(bs) != 0 || err != nil {
		t.Errorf("stored fits of worms/final, all its matches deleted: got %+v, %v; want none", bs, err)
	}
	if _, ok := r.Fit("worms", "final"); ok {
		t.Error("kept fit of worms/final, all its matches deleted: got one, want none")
	}
}

// TestRefitterRun checks Run rates matches stored before it started and
// after a Notify, that a burst of Notify calls never blocks, and that Run
// ends with its context and leaves no goroutine behind.
func TestRefitterRun(t *testing.T) {
	db := openStore(t)
	storeMatch(t, db, 1, "worms", "base", []seated{{"a", "1", 1}, {"b", "1", 2}})
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	r := newTestRefitter(db)
	done := make(chan struct{})
	go func() {
		r.Run(ctx)
		close(done)
	}()
	waitFor(t, "the first pass", func() bool { _, ok := r.Fit("worms", "base"); return ok })
	storeMatch(t, db, 2, "worms", "final", []seated{{"a", "1", 1}, {"b", "1", 2}})
	for range 1000 {
		r.Notify()
	}
	waitFor(t, "the notified pass", func() bool { _, ok := r.Fit("worms", "final"); return ok })
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

// waitFor polls cond until it holds, failing after a few seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// historyOf returns the stored rating history of the snake/base bots of
// randomSeats by checkpoint and bot version.
func historyOf(t *testing.T, db *store.DB) map[int]map[string]store.BotRating {
	t.Helper()
	points := map[int]map[string]store.BotRating{}
	for _, name := range []string{"astar", "greedy", "random"} {
		h, err := db.RatingHistory(context.Background(), "snake", name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range h {
			if points[p.Upto] == nil {
				points[p.Upto] = map[string]store.BotRating{}
			}
			points[p.Upto][RatingKey(p.Name, p.Version)] = p.BotRating
		}
	}
	return points
}

// TestRefitAppends stores matches in batches, with a pass after each: a
// pass reads only the new matches and starts from the fit before, and
// the stored ratings and history equal those a fresh refitter makes of a
// fresh database of the same matches, through a doubling of the
// history's step.
func TestRefitAppends(t *testing.T) {
	ctx := context.Background()
	ms := randomSeats(rand.New(rand.NewPCG(21, 22)), 130)
	db := openStore(t)
	r := newTestRefitter(db)
	var froms []int
	r.onFit = func(_, _ string, from int) { froms = append(froms, from) }
	stored := 0
	for _, upto := range []int{30, 31, 40, 41, 79, 80, 81, 130} {
		prev := stored
		for ; stored < upto; stored++ {
			storeMatch(t, db, stored, "snake", "base", ms[stored])
		}
		before := len(froms)
		if err := r.Refit(ctx); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(froms[before:], []int{prev}) {
			t.Errorf("pass after %d matches: got fits from %v matches, want one from the last pass's", upto, froms[before:])
		}
		fresh := openStore(t)
		for i, m := range ms[:upto] {
			storeMatch(t, fresh, i, "snake", "base", m)
		}
		if err := newTestRefitter(fresh).Refit(ctx); err != nil {
			t.Fatal(err)
		}
		if got, want := storedRatings(t, db, "snake", "base"), storedRatings(t, fresh, "snake", "base"); !sameBoard(got, want) {
			t.Errorf("after %d matches: got ratings %+v, want %+v", upto, got, want)
		}
		got, want := historyOf(t, db), historyOf(t, fresh)
		if len(got) != len(want) {
			t.Errorf("after %d matches: got %d checkpoints, want %d", upto, len(got), len(want))
		}
		for at, ws := range want {
			for k, w := range ws {
				if g, ok := got[at][k]; !ok || !sameRating(g, Rating{Rating: w.Rating, CI: Interval{w.Low, w.High}, Matches: w.Matches}) {
					t.Errorf("after %d matches, point %d, %s: got %+v, want %+v", upto, at, k, g, w)
				}
			}
		}
	}
}

// TestRefitStartUnchanged checks that a new refitter (a server's start)
// fits nothing whose stored fit covers the stored matches, then fits a
// ruleset once a match is stored, and takes over the saved state of one
// Fit asks for without fitting it; a ruleset that cannot be rated has no
// state and is fitted once.
func TestRefitStartUnchanged(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	storeMatch(t, db, 1, "worms", "base", []seated{{"a", "1", 1}, {"b", "1", 2}})
	storeMatch(t, db, 2, "worms", "final", []seated{{"a", "1", 1}, {"b", "1", 2}})
	storeMatch(t, db, 3, "toad", "classic", []seated{{"a", "1", 1}})
	if err := newTestRefitter(db).Refit(ctx); err != nil {
		t.Fatal(err)
	}
	r := newTestRefitter(db)
	var fits []string
	r.onFit = func(game, ruleset string, _ int) { fits = append(fits, game+"/"+ruleset) }
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if len(fits) != 0 {
		t.Errorf("start on unchanged matches: got fits of %v, want none", fits)
	}
	storeMatch(t, db, 4, "worms", "base", []seated{{"a", "1", 2}, {"b", "1", 1}})
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fits, []string{"worms/base"}) {
		t.Errorf("after a new worms/base match: got fits of %v, want worms/base", fits)
	}
	if _, ok := r.Fit("worms", "final"); ok {
		t.Error("Fit of worms/final, not fitted by this refitter: got one, want none until the next pass")
	}
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Fit("worms", "final"); !ok || !slices.Equal(fits, []string{"worms/base"}) {
		t.Errorf("after Fit asked for worms/final: got a fit %v and fits of %v, want its saved fit and no fit", ok, fits)
	}
	// A ruleset that cannot be rated is fitted once, however often asked.
	for range 2 {
		r.Fit("toad", "classic")
		if err := r.Refit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"worms/base", "toad/classic"}; !slices.Equal(fits, want) {
		t.Errorf("after Fit asked twice for toad/classic: got fits of %v, want %v", fits, want)
	}
}

// TestRefitStartGoesOnFromSaved checks that the first pass after a start
// that finds a new match goes on from the saved fit and its state: it
// reads the new match alone, keeps the saved history rather than fitting
// its checkpoints again (a marker put in it stays), and its ratings are a
// fresh fit's of the same matches.
func TestRefitStartGoesOnFromSaved(t *testing.T) {
	ctx := context.Background()
	ms := randomSeats(rand.New(rand.NewPCG(31, 32)), 61)
	db := openStore(t)
	for i, m := range ms[:60] {
		storeMatch(t, db, i, "snake", "base", m)
	}
	if err := newTestRefitter(db).Refit(ctx); err != nil {
		t.Fatal(err)
	}
	saved, err := db.SavedRatings(ctx, "snake", "base")
	if err != nil {
		t.Fatal(err)
	}
	const marker = 1000
	for i := range saved.History {
		saved.History[i].Rating += marker
	}
	if err := db.SaveRatings(ctx, saved); err != nil {
		t.Fatal(err)
	}
	r := newTestRefitter(db)
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	storeMatch(t, db, 60, "snake", "base", ms[60])
	var froms []int
	r.onFit = func(_, _ string, from int) { froms = append(froms, from) }
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(froms, []int{60}) {
		t.Errorf("first pass after the new match: got fits from %v matches, want one from the saved state's 60", froms)
	}
	got, err := db.SavedRatings(ctx, "snake", "base")
	if err != nil {
		t.Fatal(err)
	}
	marked := map[[2]int64]float64{}
	for _, p := range saved.History {
		marked[[2]int64{int64(p.Upto), p.BotID}] = p.Rating
	}
	for _, p := range got.History {
		if w, ok := marked[[2]int64{int64(p.Upto), p.BotID}]; ok && p.Upto%historyStep(61) == 0 && p.Rating != w {
			t.Errorf("history point after %d matches, bot %d: got rating %v, want the saved %v", p.Upto, p.BotID, p.Rating, w)
		}
	}
	fresh := openStore(t)
	for i, m := range ms {
		storeMatch(t, fresh, i, "snake", "base", m)
	}
	if err := newTestRefitter(fresh).Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := storedRatings(t, db, "snake", "base"), storedRatings(t, fresh, "snake", "base"); !sameBoard(got, want) {
		t.Errorf("got ratings %+v, want %+v", got, want)
	}
}

// TestRefitServersShare runs two refitters on one database, as two
// servers do, each with a pass after every new match: only the first to
// pass fits it; the other takes in the saved fit, and its next fit reads
// only the matches after the ones it had read. The ratings are a fresh
// fit's of the same matches throughout. With pgtest.Env set, it runs on
// PostgreSQL too.
func TestRefitServersShare(t *testing.T) {
	run := func(t *testing.T, open func(t *testing.T) *store.DB) {
		ctx := context.Background()
		ms := randomSeats(rand.New(rand.NewPCG(41, 42)), 8)
		a, b := newTestRefitter(open(t)), newTestRefitter(open(t))
		db := a.db
		type fitted struct{ server, from int }
		var fits []fitted
		a.onFit = func(_, _ string, from int) { fits = append(fits, fitted{0, from}) }
		b.onFit = func(_, _ string, from int) { fits = append(fits, fitted{1, from}) }
		for i, m := range ms {
			storeMatch(t, db, i, "snake", "base", m)
			before := len(fits)
			// The servers take turns to be first after a match.
			for _, r := range []*Refitter{[]*Refitter{a, b}[i%2], []*Refitter{b, a}[i%2]} {
				if err := r.Refit(ctx); err != nil {
					t.Fatal(err)
				}
			}
			// The first pass reads everything; later, the one first
			// after the match reads what it had not: its own last match
			// and the other's, or only the new one after the other's
			// saved state.
			want := []fitted{{i % 2, max(0, i-1)}}
			if i == 1 {
				want = []fitted{{1, 1}} // b's first pass, after a's state
			}
			if got := fits[before:]; !slices.Equal(got, want) {
				t.Errorf("after match %d: got fits (server, from matches) %v, want %v", i+1, got, want)
			}
			fresh := openStore(t)
			for j, m := range ms[:i+1] {
				storeMatch(t, fresh, j, "snake", "base", m)
			}
			if err := newTestRefitter(fresh).Refit(ctx); err != nil {
				t.Fatal(err)
			}
			if got, want := storedRatings(t, db, "snake", "base"), storedRatings(t, fresh, "snake", "base"); !sameBoard(got, want) {
				t.Errorf("after match %d: got ratings %+v, want %+v", i+1, got, want)
			}
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "shared.db")
		run(t, func(t *testing.T) *store.DB { return openAt(t, path) })
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.Fresh(t)
		run(t, func(t *testing.T) *store.DB { return openAt(t, url) })
	})
}

// openAt opens the database at name, closed when t ends.
func openAt(t *testing.T, name string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestRefitSavedStale deletes a match behind a saved fit's back, as
// another process would, and stores two more: the saved fit no longer
// counts the matches up to its last, so the next pass fits them all
// again instead of going on from it.
func TestRefitSavedStale(t *testing.T) {
	ctx := context.Background()
	ms := randomSeats(rand.New(rand.NewPCG(51, 52)), 12)
	db := openStore(t)
	var ids []string
	for i, m := range ms[:10] {
		ids = append(ids, storeMatch(t, db, i, "snake", "base", m))
	}
	if err := newTestRefitter(db).Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DeleteMatches(ctx, ids[2:3]); err != nil {
		t.Fatal(err)
	}
	for i, m := range ms[10:] {
		storeMatch(t, db, 10+i, "snake", "base", m)
	}
	if err := newTestRefitter(db).Refit(ctx); err != nil {
		t.Fatal(err)
	}
	fresh := openStore(t)
	for i, m := range ms {
		if i != 2 {
			storeMatch(t, fresh, i, "snake", "base", m)
		}
	}
	if err := newTestRefitter(fresh).Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := storedRatings(t, db, "snake", "base"), storedRatings(t, fresh, "snake", "base"); !sameBoard(got, want) {
		t.Errorf("got ratings %+v, want %+v", got, want)
	}
	got, want := historyOf(t, db), historyOf(t, fresh)
	if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Errorf("got history points %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for at, ws := range want {
		for k, w := range ws {
			if g := got[at][k]; !sameRating(g, Rating{Rating: w.Rating, CI: Interval{w.Low, w.High}, Matches: w.Matches}) {
				t.Errorf("point %d, %s: got %+v, want %+v", at, k, g, w)
			}
		}
	}
}

// Between full fits a ruleset's ratings are updates (RatingFit.Update):
// within updateSlack rating points of a full fit of the same matches,
// and their intervals' ends within updateCISlack, once every version has
// played settledMatches.
const (
	updateSlack   = 0.01
	updateCISlack = 0.05
)

// TestRefitUpdates stores matches one at a time on a ruleset whose full
// fit the refitter, told it is dear, replaces with updates: the ratings
// stay within updateSlack of FitRatings over the same matches, and a
// full fit, within ratingSlack, comes after fullEvery matches, at a
// history checkpoint and after fullAfter with no new match.
func TestRefitUpdates(t *testing.T) {
	ctx := context.Background()
	// From 2561 matches the history's step is 128. The first pass fits
	// in full: it is more than fullEvery matches after the checkpoint at
	// 2560. Then come a checkpoint at 2688 and fullEvery matches after it.
	const first, last = 2650, 2755
	ms := randomSeats(rand.New(rand.NewPCG(61, 62)), last)
	db := openStore(t)
	for i, m := range ms[:first] {
		storeMatch(t, db, i, "worms", "base", m)
	}
	r := newTestRefitter(db)
	r.incrementalFrom = 0
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	k := rulesetKey{"worms", "base"}
	if st := r.kept[k]; st.fit != st.base {
		t.Fatalf("after the first pass: got an update of the fit of %d matches, want a full fit", st.base.Matches)
	}
	// check compares the stored ratings and r's fit with FitRatings
	// over the first n matches, within slack and ciSlack.
	check := func(n int, slack, ciSlack float64) {
		t.Helper()
		want, err := FitRatings(placings(ms[:n]), RatingPrior)
		if err != nil {
			t.Fatal(err)
		}
		got := storedRatings(t, db, "worms", "base")
		f, _ := r.Fit("worms", "base")
		if got.Matches != n || len(got.Ratings) != len(want.Ratings) || f == nil || f.Matches != n {
			t.Fatalf("after %d matches: got %+v and a fit %v, want %d ratings over %d matches", n, got, f, len(want.Ratings), n)
		}
		for i, w := range want.Ratings {
			g := got.Ratings[i]
			if RatingKey(g.Name, g.Version) != w.Player || math.Abs(g.Rating-w.Rating) > slack ||
				math.Abs(g.Low-w.CI.Low) > ciSlack || math.Abs(g.High-w.CI.High) > ciSlack || g.Matches != w.Matches {
				t.Errorf("after %d matches, rating %d: got %+v, want %+v within %v (interval %v)", n, i, g, w, slack, ciSlack)
			}
		}
		d, err := f.Difference(RatingKey("astar", "v2"), RatingKey("astar", "v1"))
		wd, _ := want.Difference(RatingKey("astar", "v2"), RatingKey("astar", "v1"))
		if err != nil || math.Abs(d.Diff-wd.Diff) > 2*slack {
			t.Errorf("after %d matches, Difference: got %v, %v; want %v", n, d, err, wd)
		}
	}
	full := first
	var fulls []int
	for n := first + 1; n <= last; n++ {
		storeMatch(t, db, n-1, "worms", "base", ms[n-1])
		// However slow the machine, no pass comes fullAfter after the
		// last full fit here.
		r.kept[k].baseAt = time.Now()
		if err := r.Refit(ctx); err != nil {
			t.Fatal(err)
		}
		st := r.kept[k]
		want := n-full == fullEvery || n%historyStep(n) == 0
		if got := st.fit == st.base; got != want {
			t.Errorf("after %d matches: got a full fit %v, want %v", n, got, want)
		}
		if want {
			full = n
			fulls = append(fulls, n)
			check(n, ratingSlack, ratingSlack)
		} else {
			check(n, updateSlack, updateCISlack)
		}
	}
	if !slices.Equal(fulls, []int{2688, 2752}) {
		t.Fatalf("got full fits after %v matches, want after 2688 and 2752 and updates after", fulls)
	}
	st := r.kept[k]
	// A pass fullAfter later, with no new match, fits in full.
	st.baseAt = st.baseAt.Add(-fullAfter)
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if st := r.kept[k]; st.fit != st.base {
		t.Errorf("a pass %v after the last full fit: got an update, want a full fit", fullAfter)
	}
	check(last, ratingSlack, ratingSlack)
}

// TestRefitWarm checks that Warm, after a start, takes over each saved
// fit's state without fitting or saving anything, so that Fit has them,
// and that it runs a pass a Notify asked for.
func TestRefitWarm(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ms := randomSeats(rand.New(rand.NewPCG(81, 82)), 20)
	for i, m := range ms[:19] {
		storeMatch(t, db, i, "snake", "base", m)
	}
	storeMatch(t, db, 0, "worms", "base", []seated{{"a", "1", 1}, {"b", "1", 2}})
	if err := newTestRefitter(db).Refit(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := db.Ratings(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRefitter(db)
	var fits []string
	r.onFit = func(game, ruleset string, from int) {
		fits = append(fits, fmt.Sprintf("%s/%s from %d", game, ruleset, from))
	}
	if err := r.Refit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	if len(fits) > 0 {
		t.Errorf("warm-up: got fits %v, want none", fits)
	}
	if after, err := db.Ratings(ctx, "", ""); err != nil || !reflect.DeepEqual(after, before) {
		t.Errorf("warm-up: got saved ratings %+v, %v; want them as they were, %+v", after, err, before)
	}
	for _, rs := range []string{"snake", "worms"} {
		if _, ok := r.Fit(rs, "base"); !ok {
			t.Errorf("Fit of %s/base after the warm-up: got none", rs)
		}
	}
	storeMatch(t, db, 19, "snake", "base", ms[19])
	r.Notify()
	fits = nil
	// All kept: the warm-up runs the pass the Notify asked for alone.
	if err := r.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	if want := []string{"snake/base from 19"}; !slices.Equal(fits, want) {
		t.Errorf("a new match, notified during the warm-up: got fits %v, want %v", fits, want)
	}
}

// TestRefitStartOnState runs two servers (refitters) on two databases of
// the same matches of a large ruleset, one that never stops and one that
// stops after the full fit and starts again: the new one takes over the
// saved state, reads the new matches alone, updates and gives the
// ratings, intervals, differences and history of the one that never
// stopped, to the bit.
func TestRefitStartOnState(t *testing.T) {
	for _, tc := range []struct {
		name string
		// inputMax is stateInputMax: 0 saves no placings, and the
		// restarted server keeps none (partial).
		inputMax int
		partial  bool
	}{
		{"with its placings", stateInputMax, false},
		{"without", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(m int) { stateInputMax = m }(stateInputMax)
			stateInputMax = tc.inputMax
			testStartOnState(t, tc.partial)
		})
	}
}

func testStartOnState(t *testing.T, partial bool) {
	ctx := context.Background()
	const first = 2650
	ms := randomSeats(rand.New(rand.NewPCG(61, 62)), first+2)
	var dbs [2]*store.DB
	for i := range dbs {
		dbs[i] = openStore(t)
		for j, m := range ms[:first] {
			storeMatch(t, dbs[i], j, "worms", "base", m)
		}
	}
	start := func(db *store.DB) *Refitter {
		r := newTestRefitter(db)
		r.incrementalFrom = 0
		if err := r.Refit(ctx); err != nil {
			t.Fatal(err)
		}
		return r
	}
	kept := start(dbs[0])
	start(dbs[1]) // fits all, saves, and stops
	restarted := start(dbs[1])
	var froms []int
	restarted.onFit = func(_, _ string, from int) { froms = append(froms, from) }
	k := rulesetKey{"worms", "base"}
	for n := first + 1; n <= first+2; n++ {
		for i, r := range []*Refitter{kept, restarted} {
			storeMatch(t, dbs[i], n-1, "worms", "base", ms[n-1])
			if err := r.Refit(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if st := restarted.kept[k]; st == nil || st.partial != partial || st.fit == st.base {
			t.Fatalf("after %d matches: the restarted server kept placings %v or fitted in full, want placings %v and an update of the saved state",
				n, st != nil && !st.partial, !partial)
		}
		want, _ := kept.Fit("worms", "base")
		got, ok := restarted.Fit("worms", "base")
		if !ok || !reflect.DeepEqual(got.Ratings, want.Ratings) || got.Matches != want.Matches {
			t.Errorf("after %d matches: got the fit %+v, want %+v", n, got, want)
		}
		d, err := got.Difference(RatingKey("astar", "v2"), RatingKey("astar", "v1"))
		wd, _ := want.Difference(RatingKey("astar", "v2"), RatingKey("astar", "v1"))
		if err != nil || d != wd {
			t.Errorf("after %d matches, Difference: got %v, %v; want %v", n, d, err, wd)
		}
		if g, w := storedRatings(t, dbs[1], "worms", "base"), storedRatings(t, dbs[0], "worms", "base"); !reflect.DeepEqual(g, w) {
			t.Errorf("after %d matches: got stored ratings %+v, want %+v", n, g, w)
		}
		if g, w := historyOf(t, dbs[1]), historyOf(t, dbs[0]); !reflect.DeepEqual(g, w) {
			t.Errorf("after %d matches: got history %v, want %v", n, g, w)
		}
	}
	if want := []int{first, first + 1}; !slices.Equal(froms, want) {
		t.Errorf("restarted server: got fits after reading %v matches, want %v", froms, want)
	}
}

// TestRefitStateIgnored damages the saved state of a fit in ways another
// build or a broken disk could: a start's warm-up ignores it, fits the
// ruleset in full once, without an error, and saves the same ratings
// with a sound state, which the next start takes over without a fit.
func TestRefitStateIgnored(t *testing.T) {
	ctx := context.Background()
	ms := randomSeats(rand.New(rand.NewPCG(91, 92)), 30)
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"none, as saved before schema 21", func([]byte) []byte { return nil }},
		{"empty", func([]byte) []byte { return []byte{} }},
		{"another layout", func(b []byte) []byte { b[0]++; return b }},
		{"a flipped bit", func(b []byte) []byte { b[len(b)/2] ^= 4; return b }},
		{"cut short", func(b []byte) []byte { return b[:len(b)-9] }},
		{"bytes after it", func(b []byte) []byte { return append(b, 0) }},
		{"a number out of range, checksum right", func(b []byte) []byte {
			b = slices.Clone(b[:len(b)-4])
			b[1] = 0xff // the count of matches, now a varint of many bytes
			return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openStore(t)
			for i, m := range ms {
				storeMatch(t, db, i, "snake", "base", m)
			}
			if err := newTestRefitter(db).Refit(ctx); err != nil {
				t.Fatal(err)
			}
			want := storedRatings(t, db, "snake", "base")
			saved, err := db.SavedRatings(ctx, "snake", "base")
			if err != nil {
				t.Fatal(err)
			}
			saved.State = tc.damage(saved.State)
			if err := db.SaveRatings(ctx, saved); err != nil {
				t.Fatal(err)
			}
			for start, wantFits := range []int{1, 0} {
				r := newTestRefitter(db)
				fits := 0
				r.onFit = func(_, _ string, from int) { fits++ }
				if err := r.Refit(ctx); err != nil {
					t.Fatal(err)
				}
				if err := r.Warm(ctx); err != nil {
					t.Fatal(err)
				}
				if _, ok := r.Fit("snake", "base"); fits != wantFits || !ok {
					t.Errorf("start %d: got %d fits and a fit %v, want %d and a fit", start+1, fits, ok, wantFits)
				}
				if got := storedRatings(t, db, "snake", "base"); !sameBoard(got, want) {
					t.Errorf("start %d: got ratings %+v, want %+v", start+1, got, want)
				}
			}
		})
	}
}
