package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// scaleEnv chooses how many matches BenchmarkPagesAtScale stores; 10,000
// when unset, so that a plain -bench run stays short.
const scaleEnv = "REPLAYLAB_SCALE_MATCHES"

// scaleBots is how many bots each game of the generated database has;
// bot k plays in 1 + k%3 versions.
const scaleBots = 20

// scaleGeneration names the generator's output in the cached file name:
// bump it when scaleRecord changes, so an old file is not reused.
const scaleGeneration = 1

// scaleSeats returns the seats a generated match of g has: 2 to 5, within
// the game's bounds, or ok false for a game of fewer than 2 players.
func scaleSeats(g *sim.Game) (lo, hi int, ok bool) {
	lo, hi = max(2, g.MinPlayers), min(5, g.MaxPlayers)
	return lo, hi, lo <= hi
}

// scaleRecord generates the nth match of the scale database: a game of
// two players or more, in turn, under a random ruleset, between distinct
// bots, usually in their latest version, ranked at random (one match in
// twenty a draw). Only what the leaderboards and lists read is filled in:
// no per-turn numbers or events, and a stand-in for the replay.
func scaleRecord(r *rand.Rand, gs []*sim.Game, n int) *store.Record {
	g := gs[n%len(gs)]
	lo, hi, _ := scaleSeats(g)
	seats := lo + r.IntN(hi-lo+1)
	sum := sha256.Sum256(fmt.Appendf(nil, "scale match %d", n))
	rec := &store.Record{
		ID: hex.EncodeToString(sum[:]), Game: g.Name, Ruleset: g.Rulesets[r.IntN(len(g.Rulesets))],
		Seed: r.Uint64(), Config: json.RawMessage(`{}`), Encoded: []byte("scale"), Turns: 100 + r.IntN(400),
		EngineVersion: "scale", Result: sim.Result{Winner: -1, Reason: "scale"},
	}
	draw := r.IntN(20) == 0
	ranks := r.Perm(seats)
	for seat, k := range r.Perm(scaleBots)[:seats] {
		versions := 1 + k%3
		v := versions
		if r.IntN(10) < 3 {
			v = 1 + r.IntN(versions)
		}
		rec.Players = append(rec.Players, store.Player{Name: fmt.Sprintf("bot%02d", k), Version: strconv.Itoa(v)})
		pr := sim.PlayerResult{Rank: 1 + ranks[seat], Score: float64(r.IntN(200)), Outcome: sim.Loss}
		switch {
		case draw:
			pr.Rank, pr.Outcome = 1, sim.Draw
		case pr.Rank == 1:
			pr.Outcome, rec.Result.Winner = sim.Win, seat
		}
		rec.Result.Players = append(rec.Result.Players, pr)
	}
	return rec
}

// scaleDB opens a database of n generated matches, generating it on the
// first run into the temporary directory, where later runs find it. The
// matches go through store.IngestMany, so the aggregates the pages read
// are the ones ingest keeps.
func scaleDB(b *testing.B, n int) *store.DB {
	b.Helper()
	ctx := context.Background()
	path := filepath.Join(os.TempDir(), fmt.Sprintf("replaylab-scale-%d-gen%d.db", n, scaleGeneration))
	if _, err := os.Stat(path); err != nil {
		start := time.Now()
		generateScaleDB(b, path+".tmp", n)
		// The log goes with its file: what it holds, a close that did
		// not check it in, is part of the database.
		os.Remove(path + ".tmp-shm")
		for _, ext := range []string{"-wal", ""} {
			if err := os.Rename(path+".tmp"+ext, path+ext); err != nil && !os.IsNotExist(err) {
				b.Fatal(err)
			}
		}
		b.Logf("generated %d matches into %s in %v", n, path, time.Since(start).Round(time.Millisecond))
	}
	// Opening a file of an older schema upgrades it: the time is what a
	// user's upgrade of that many matches costs.
	start := time.Now()
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("opened %s in %v", path, time.Since(start).Round(time.Millisecond))
	b.Cleanup(func() { db.Close() })
	if got, err := db.CountMatches(ctx); got != n || err != nil {
		b.Fatalf("%s holds %d matches, %v; want %d", path, got, err, n)
	}
	return db
}

// generateScaleDB writes n generated matches into a new database at path,
// in batches of one transaction each.
func generateScaleDB(b *testing.B, path string, n int) {
	b.Helper()
	ctx := context.Background()
	for _, ext := range []string{"", "-wal", "-shm"} {
		os.Remove(path + ext)
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var gs []*sim.Game
	for _, g := range games.All() {
		if _, _, ok := scaleSeats(g); ok {
			gs = append(gs, g)
		}
	}
	r := rand.New(rand.NewPCG(13, uint64(n)))
	const batch = 10_000
	recs := make([]*store.Record, 0, batch)
	for i := 0; i < n; i += batch {
		recs = recs[:0]
		for j := i; j < min(n, i+batch); j++ {
			recs = append(recs, scaleRecord(r, gs, j))
		}
		if _, err := db.IngestMany(ctx, recs); err != nil {
			b.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
}

// scaleMatches reads the number of matches from scaleEnv.
func scaleMatches(b *testing.B) int {
	b.Helper()
	v := os.Getenv(scaleEnv)
	if v == "" {
		return 10_000
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 10_000_000 {
		b.Fatalf("%s=%q: want a number of matches from 1 to 10000000", scaleEnv, v)
	}
	return n
}

// BenchmarkPagesAtScale serves the leaderboard and bot pages and their API
// over a real listener from a database of REPLAYLAB_SCALE_MATCHES
// generated matches (10,000 unless set; 100,000 and 1,000,000 on request)
// and reports each page's median and 90th percentile latency, after
// fitting the ratings once as serve does, and the latency of its first
// request, which renders it. Target: a p50 of 5 ms or less at every size
// for the leaderboards, 20 ms for the filtered lists and the comparison.
func BenchmarkPagesAtScale(b *testing.B) {
	n := scaleMatches(b)
	db := scaleDB(b, n)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	// As serve does: the refitter's first pass rates every stored match
	// before the pages are measured, so the boards are rated ones.
	refit := analytics.NewRefitter(db, slog.New(slog.DiscardHandler))
	start := time.Now()
	if err := refit.Refit(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Logf("fitted the ratings of %d matches in %v", n, time.Since(start).Round(time.Millisecond))
	e, err := New(Config{DB: db, Addr: ln.Addr().String(), Refitter: refit})
	if err != nil {
		b.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: e}}
	srv.Start()
	defer srv.Close()
	for _, p := range []struct{ name, path string }{
		{"overview", "/"},
		{"bots", "/bots"},
		{"bot", "/bots/snake/bot07"},
		{"api-bots", "/api/v1/bots"},
		{"api-bot", "/api/v1/bots/snake/bot07"},
		{"headtohead", "/headtohead/snake/codebattle2020"},
		{"api-ratings", "/api/v1/ratings"},
		{"api-bot-ratings", "/api/v1/bots/snake/bot07/ratings"},
		// The filtered lists and the comparison are not kept (keptPages):
		// every request reads the store.
		{"matches-bot", "/matches?game=snake&bot=bot07"},
		{"matches-bot-result", "/matches?game=snake&bot=bot07&result=win"},
		{"matches-bot-rank", "/matches?game=snake&bot=bot07&rank=2"},
		{"matches-vs", "/matches?game=snake&bot=bot07&vs=bot03"},
		{"api-matches-bot", "/api/v1/matches?game=snake&bot=bot07"},
		{"api-matches-vs", "/api/v1/matches?game=snake&bot=bot07&vs=bot03"},
		// Page 200 of a bot's list, by offset as old links ask for it,
		// and by the cursor its older link carries (deepCursor).
		{"matches-bot-deep", "/matches?game=snake&bot=bot07&offset=4975"},
		{"api-matches-bot-deep", "/api/v1/matches?game=snake&bot=bot07&offset=4975&limit=25"},
		{"matches-bot-deep-cursor", "/matches?game=snake&bot=bot07&at=4976&before=" + deepCursor(b, srv)},
		{"api-matches-bot-deep-cursor", "/api/v1/matches?game=snake&bot=bot07&limit=25&before=" + deepCursor(b, srv)},
		{"compare", "/compare?game=snake&a=bot07&b=bot03"},
		{"api-compare", "/api/v1/compare?game=snake&a=bot07&b=bot03"},
	} {
		b.Run(fmt.Sprintf("matches=%d/%s", n, p.name), func(b *testing.B) {
			var (
				took []time.Duration
				size int
			)
			// The first request renders the page; later ones find it
			// kept (pageCache) until the data change.
			start := time.Now()
			fetch(b, srv.Client(), srv.URL+p.path)
			first := time.Since(start)
			cpu := processCPU()
			for b.Loop() {
				start := time.Now()
				size = fetch(b, srv.Client(), srv.URL+p.path)
				took = append(took, time.Since(start))
			}
			// On a shared machine the latencies include waiting for a
			// core; the CPU time (server and client, in this process)
			// does not.
			if cpu := processCPU() - cpu; cpu > 0 {
				b.ReportMetric(ms(cpu)/float64(len(took)), "cpu-ms/op")
			}
			slices.Sort(took)
			b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
			b.ReportMetric(ms(took[len(took)*9/10]), "p90-ms")
			b.ReportMetric(ms(first), "first-ms")
			b.ReportMetric(float64(size), "bytes/page")
		})
	}
	benchRefits(b, db, n)
}

// benchRefits measures what the ratings cost as serve runs them: a start
// (a new Refitter's first pass over the data the last one fitted) and the
// pass after one more match is stored. The matches it adds are deleted at
// the end, so the cached database keeps n matches.
func benchRefits(b *testing.B, db *store.DB, n int) {
	ctx := context.Background()
	refit := analytics.NewRefitter(db, slog.New(slog.DiscardHandler))
	if err := refit.Refit(ctx); err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("matches=%d/refit-start", n), func(b *testing.B) {
		timedCPU(b, nil, func() {
			if err := analytics.NewRefitter(db, slog.New(slog.DiscardHandler)).Refit(ctx); err != nil {
				b.Fatal(err)
			}
		})
	})
	var gs []*sim.Game
	for _, g := range games.All() {
		if _, _, ok := scaleSeats(g); ok {
			gs = append(gs, g)
		}
	}
	r := rand.New(rand.NewPCG(17, uint64(n)))
	var added []string
	defer func() {
		if _, err := db.DeleteMatches(ctx, added); err != nil {
			b.Fatal(err)
		}
	}()
	store1 := func() {
		rec := scaleRecord(r, gs, n+len(added))
		if _, err := db.Ingest(ctx, rec); err != nil {
			b.Fatal(err)
		}
		added = append(added, rec.ID)
	}
	pass := func() {
		if err := refit.Refit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	// The first new match after a start is fitted with all the matches
	// of its ruleset, which the refitter has not read yet.
	b.Run(fmt.Sprintf("matches=%d/refit-first-new-match", n), func(b *testing.B) {
		timedCPU(b, func() {
			refit = analytics.NewRefitter(db, slog.New(slog.DiscardHandler))
			pass() // a start: nothing to fit
			store1()
		}, pass)
	})
	// A server that has run a while keeps every ruleset's fit: have Fit
	// ask for each, so that a new match of any is added to its fit.
	counts, err := db.RulesetCounts(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range counts {
		refit.Fit(c.Game, c.Ruleset)
	}
	pass()
	b.Run(fmt.Sprintf("matches=%d/refit-new-match", n), func(b *testing.B) {
		timedCPU(b, store1, pass)
	})
}

// timedCPU runs prepare (unless nil) and fn b.N times and reports the
// median and 90th percentile of fn's durations and the process's CPU time
// in fn.
func timedCPU(b *testing.B, prepare, fn func()) {
	b.Helper()
	var took, cpus []time.Duration
	for b.Loop() {
		if prepare != nil {
			b.StopTimer()
			prepare()
			b.StartTimer()
		}
		start, cpu := time.Now(), processCPU()
		fn()
		took, cpus = append(took, time.Since(start)), append(cpus, processCPU()-cpu)
	}
	slices.Sort(took)
	slices.Sort(cpus)
	b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
	b.ReportMetric(ms(took[len(took)*9/10]), "p90-ms")
	b.ReportMetric(ms(cpus[len(cpus)/2]), "cpu-ms/op")
}

// fetch GETs url and reads the whole body, failing on any status but 200,
// and returns the body's size, uncompressed.
// deepCursor returns the cursor of page 200 of bot07's Snake matches:
// the next of page 199; in a database too small for it, a cursor past
// the end, as the offset page is.
func deepCursor(b *testing.B, srv *httptest.Server) string {
	b.Helper()
	resp, err := srv.Client().Get(srv.URL + "/api/v1/matches?game=snake&bot=bot07&offset=4950&limit=25")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var page struct{ Next *int64 }
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		b.Fatalf("page 199: %v", err)
	}
	if page.Next == nil {
		return "1"
	}
	return strconv.FormatInt(*page.Next, 10)
}

func fetch(b *testing.B, c *http.Client, url string) int {
	b.Helper()
	resp, err := c.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: status %d: %.200s", url, resp.StatusCode, body)
	}
	return len(body)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
