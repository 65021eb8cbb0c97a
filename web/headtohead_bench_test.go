package web

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/replaylab/replaylab/store"
)

// h2hBenchBots is how many bot versions the generated Snake matches draw
// from: more than a matrix shows, so the board is cut to maxMatrixBots.
const h2hBenchBots = 60

// generateMatches fills a fresh database with n Snake matches through
// plain SQL, as fast as SQLite inserts rows: no replay, no per-turn
// numbers, only what the head-to-head board reads. Odd matches have four
// seats, even ones two; bots, ranks and scores are arithmetic mixes of the
// match and seat numbers, ties and self-play included. The pair records
// come from the schema's triggers, as they do on Ingest.
func generateMatches(b *testing.B, n int) *store.DB {
	b.Helper()
	path := filepath.Join(b.TempDir(), "h2h.db")
	db, err := store.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	db.Close()
	raw, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on&_journal_mode=WAL&_synchronous=OFF")
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	start := time.Now()
	for _, stmt := range []string{
		`BEGIN`,
		`WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ` + fmt.Sprint(h2hBenchBots) + `)
		INSERT INTO bots (id, game, name, version) SELECT i, 'snake', 'bot' || (i % 20), 'v' || (i / 20) FROM k`,
		`WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ` + fmt.Sprint(n) + `)
		INSERT INTO replays (id, game, ruleset, seed, config, encoded, uploaded_at)
		SELECT printf('%064x', i), 'snake', 'codebattle2020', i, '{}', x'00', 0 FROM k`,
		`INSERT INTO matches (seq, id, game, ruleset, turns, winner, reason, engine_version, regen_ms, created_at)
		SELECT rowid, id, game, ruleset, 100, NULL, 'generated', 'bench', 1, 0 FROM replays`,
		`INSERT INTO match_players (match_seq, seat, bot_id, score, rank, outcome)
		SELECT m.seq, s.seat, 1 + (m.seq * 7919 + s.seat * 104729) % ` + fmt.Sprint(h2hBenchBots) + `,
			(m.seq * 31 + s.seat * 17) % 100, 1 + (m.seq + s.seat * 3) % 4, 'loss'
		FROM matches m, (SELECT 0 AS seat UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) s
		WHERE s.seat < 2 + 2 * (m.seq % 2)
		ORDER BY m.seq, s.seat`,
		`COMMIT`,
	} {
		if _, err := raw.Exec(stmt); err != nil {
			b.Fatalf("generate %d matches: %v", n, err)
		}
	}
	b.Logf("generated %d matches in %v", n, time.Since(start).Round(time.Millisecond))
	db, err = store.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkHeadToHeadScale answers the head-to-head page and API over
// 10 k, 100 k and 1 M generated matches and reports the median latency
// (p50-ms): the board reads the pair records, so it must not grow with
// the matches. Target: p50 ≤ 5 ms at every size.
//
//	go test ./web -run '^$' -bench HeadToHeadScale -benchtime 200x
func BenchmarkHeadToHeadScale(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("matches=%d", n), func(b *testing.B) {
			db := generateMatches(b, n)
			e, err := New(Config{DB: db, Addr: testAddr})
			if err != nil {
				b.Fatal(err)
			}
			for _, url := range []string{"/headtohead/snake/codebattle2020", "/api/v1/headtohead?game=snake&ruleset=codebattle2020"} {
				b.Run(url[1:4], func(b *testing.B) {
					var times []time.Duration
					for b.Loop() {
						req := httptest.NewRequest(http.MethodGet, url, nil)
						req.Host = testAddr
						rec := httptest.NewRecorder()
						t0 := time.Now()
						e.ServeHTTP(rec, req)
						times = append(times, time.Since(t0))
						if rec.Code != http.StatusOK {
							b.Fatalf("GET %s: status %d", url, rec.Code)
						}
					}
					slices.Sort(times)
					b.ReportMetric(float64(times[len(times)/2])/float64(time.Millisecond), "p50-ms")
				})
			}
		})
	}
}
