package store

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// benchBots is how many bot versions play the generated league.
const benchBots = 20

// fillLeague adds two-seat Worms base matches between benchBots bot
// versions until the database holds n, in one transaction of plain
// INSERTs: Ingest's per-turn rows are not what these benchmarks measure,
// and a million matches through it would take an hour.
func fillLeague(b *testing.B, db *DB, from, n int) {
	b.Helper()
	ctx := context.Background()
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	for i := range benchBots {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO bots (id, game, name, version) VALUES (?, 'worms', ?, 'v1')`, i+1, fmt.Sprint("bot", i)); err != nil {
			b.Fatal(err)
		}
	}
	replay, _ := tx.PrepareContext(ctx, `INSERT INTO replays (id, game, ruleset, seed, config, encoded, uploaded_at) VALUES (?, 'worms', 'base', ?, '{}', x'00', 0)`)
	match, _ := tx.PrepareContext(ctx, `INSERT INTO matches (seq, id, game, ruleset, turns, winner, reason, engine_version, regen_ms, created_at)
		VALUES (?, ?, 'worms', 'base', 100, 0, 'bench', 'bench', 1, 0)`)
	player, err := tx.PrepareContext(ctx, `INSERT INTO match_players (match_seq, seat, bot_id, score, rank, outcome) VALUES (?, ?, ?, 0, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	for i := from; i < n; i++ {
		id := testID(i)
		a, c := 1+i%benchBots, 1+(i*7+3)%benchBots
		if c == a {
			c = 1 + c%benchBots
		}
		if _, err := replay.ExecContext(ctx, id, i); err != nil {
			b.Fatal(err)
		}
		if _, err := match.ExecContext(ctx, i+1, id); err != nil {
			b.Fatal(err)
		}
		// The lower id wins three times in four.
		win, lose := min(a, c), max(a, c)
		if i%4 == 0 {
			win, lose = lose, win
		}
		if _, err := player.ExecContext(ctx, i+1, 0, win, 1, "win"); err != nil {
			b.Fatal(err)
		}
		if _, err := player.ExecContext(ctx, i+1, 1, lose, 2, "loss"); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// benchSizes are the league sizes of the scale benchmarks: 10k and 100k,
// and up to REPLAYLAB_BENCH_MATCHES (say 1000000) when it is set.
func benchSizes() []int {
	sizes := []int{10_000, 100_000}
	if n, err := strconv.Atoi(os.Getenv("REPLAYLAB_BENCH_MATCHES")); err == nil && n > sizes[len(sizes)-1] {
		sizes = append(sizes, n)
	}
	return sizes
}

// BenchmarkRatingsAtScale measures, on one growing database, the read of
// the stored ratings that every leaderboard request makes (which must not
// grow with the matches) and the stream of all placings a background
// refit makes (which grows linearly).
func BenchmarkRatingsAtScale(b *testing.B) {
	ctx := context.Background()
	db := openTest(b)
	have := 0
	for _, n := range benchSizes() {
		start := time.Now()
		fillLeague(b, db, have, n)
		have = n
		b.Logf("filled to %d matches in %v", n, time.Since(start))
		fit := &FittedRatings{Game: "worms", Ruleset: "base", Matches: n, LastSeq: int64(n), FittedAt: time.Now()}
		for i := range benchBots {
			fit.Latest = append(fit.Latest, Rated{BotID: int64(i + 1), Rating: 1500 + float64(i), Low: 1400, High: 1600, Matches: n / 10})
			for p := 1; p <= 41; p++ {
				fit.History = append(fit.History, RatedAt{Upto: p * n / 41, Rated: fit.Latest[i]})
			}
		}
		if err := db.SaveRatings(ctx, fit); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("read/%d", n), func(b *testing.B) {
			timed(b, func() {
				if bs, err := db.Ratings(ctx, "worms", ""); err != nil || len(bs[0].Ratings) != benchBots {
					b.Fatalf("got %v, %v", bs, err)
				}
			})
		})
		b.Run(fmt.Sprintf("history/%d", n), func(b *testing.B) {
			timed(b, func() {
				if h, err := db.RatingHistory(ctx, "worms", "bot3"); err != nil || len(h) != 41 {
					b.Fatalf("got %d points, %v", len(h), err)
				}
			})
		})
		b.Run(fmt.Sprintf("placings/%d", n), func(b *testing.B) {
			for b.Loop() {
				seen := 0
				if err := db.Placings(ctx, "worms", "base", func(MatchPlacings) error { seen++; return nil }); err != nil || seen != n {
					b.Fatalf("got %d matches, %v", seen, err)
				}
			}
		})
	}
}

// timed runs fn b.N times and reports the median and 90th percentile of
// its durations: on a shared machine the mean says more about the
// neighbours than about the query.
func timed(b *testing.B, fn func()) {
	b.Helper()
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		fn()
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(ds[len(ds)*9/10].Microseconds())/1000, "p90-ms")
}
