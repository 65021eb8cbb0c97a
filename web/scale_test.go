package web

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver, for scalePostgres

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
// bump it when scaleRecord or the schema changes, so an old file is
// neither reused nor upgraded in place.
const scaleGeneration = 2

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

// scalePostgresEnv names a PostgreSQL server (a postgres:// URL, or
// "postgres:" for the PG* environment) for BenchmarkPagesAtScale to run
// on instead of an SQLite file.
const scalePostgresEnv = "REPLAYLAB_SCALE_POSTGRES"

// scaleDB opens a database of n generated matches, generating it on the
// first run, where later runs find it: a file in the temporary directory,
// or with scalePostgresEnv set a schema on that server. The matches go
// through store.IngestMany, so the aggregates the pages read are the ones
// ingest keeps.
func scaleDB(b *testing.B, n int) *store.DB {
	b.Helper()
	ctx := context.Background()
	var name string
	if server := os.Getenv(scalePostgresEnv); server != "" {
		name = scalePostgres(b, server, n)
	} else {
		name = scaleSQLite(b, n)
	}
	// Opening a database of an older schema upgrades it: the time is
	// what a user's upgrade of that many matches costs.
	start := time.Now()
	db, err := store.Open(ctx, name)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("opened %s in %v", store.DisplayName(name), time.Since(start).Round(time.Millisecond))
	b.Cleanup(func() { db.Close() })
	if got, err := db.CountMatches(ctx); got != n || err != nil {
		b.Fatalf("%s holds %d matches, %v; want %d", store.DisplayName(name), got, err, n)
	}
	return db
}

// scaleSQLite returns the path of the SQLite file of n generated
// matches, generating it first if the temporary directory lacks it.
func scaleSQLite(b *testing.B, n int) string {
	b.Helper()
	path := filepath.Join(os.TempDir(), fmt.Sprintf("replaylab-scale-%d-gen%d.db", n, scaleGeneration))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	start := time.Now()
	for _, ext := range []string{"", "-wal", "-shm"} {
		os.Remove(path + ".tmp" + ext)
	}
	generateScaleDB(b, path+".tmp", n)
	// The log goes with its file: what it holds, a close that did not
	// check it in, is part of the database.
	os.Remove(path + ".tmp-shm")
	for _, ext := range []string{"-wal", ""} {
		if err := os.Rename(path+".tmp"+ext, path+ext); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
	}
	b.Logf("generated %d matches into %s in %v", n, path, time.Since(start).Round(time.Millisecond))
	return path
}

// scalePostgres returns the --db URL of the schema of n generated matches
// on server, loading it first if the server lacks it: a copy of the
// SQLite file of n matches (scaleSQLite), table by table. Storing a
// million matches one by one takes PostgreSQL over an hour here (about
// 250 a second, most of it round trips and the aggregate triggers); the
// copy takes minutes, and gives both backends the same rows. As with the
// file, the schema is written under a name of its own and renamed when
// whole, so a run cut short leaves nothing a later run takes for done.
func scalePostgres(b *testing.B, server string, n int) string {
	b.Helper()
	ctx := context.Background()
	if server == "postgres:" {
		server = "postgres://"
	}
	admin, err := sql.Open("pgx", server)
	if err != nil {
		b.Fatalf("%s=%s: %v", scalePostgresEnv, store.DisplayName(server), err)
	}
	defer admin.Close()
	// The names are ours, of letters, digits and underscores: no
	// quoting needed.
	schema := fmt.Sprintf("replaylab_scale_%d_gen%d", n, scaleGeneration)
	url := func(schema string) string {
		sep := "?"
		if strings.Contains(server, "?") {
			sep = "&"
		}
		return server + sep + "search_path=" + schema
	}
	var found bool
	err = admin.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, schema).Scan(&found)
	if err != nil {
		b.Fatalf("%s=%s: %v", scalePostgresEnv, store.DisplayName(server), err)
	}
	var backend int
	if err := admin.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		b.Fatalf("%s=%s: %v", scalePostgresEnv, store.DisplayName(server), err)
	}
	scaleServer = postmaster(backend)
	if found {
		return url(schema)
	}
	start := time.Now()
	for _, q := range []string{"DROP SCHEMA IF EXISTS " + schema + "_tmp CASCADE", "CREATE SCHEMA " + schema + "_tmp"} {
		if _, err := admin.ExecContext(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	copyScaleDB(b, scaleSQLite(b, n), url(schema+"_tmp"))
	q := "ALTER SCHEMA " + schema + "_tmp RENAME TO " + schema
	if _, err := admin.ExecContext(ctx, q); err != nil {
		b.Fatalf("%s: %v", q, err)
	}
	b.Logf("copied %d matches into schema %s in %v", n, schema, time.Since(start).Round(time.Millisecond))
	return url(schema)
}

// scaleServer is the process id of the PostgreSQL server the benchmark
// runs on when it runs on this machine, else 0.
var scaleServer int

// postmaster returns the parent of the local process pid when both are
// PostgreSQL's, else 0 (the server runs elsewhere, or /proc is missing).
func postmaster(pid int) int {
	comm, ppid, _ := procStat(pid)
	if comm != "postgres" {
		return 0
	}
	if comm, _, _ := procStat(ppid); comm != "postgres" {
		return 0
	}
	return ppid
}

// procStat reads a process's name, parent and CPU time, user and system,
// from /proc/PID/stat; an empty name where it cannot.
func procStat(pid int) (comm string, ppid int, cpu time.Duration) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, 0
	}
	// pid (comm) state ppid ... utime stime (fields 14 and 15, in ticks
	// of 1/100 s, which Linux keeps for /proc whatever its HZ).
	open, end := strings.IndexByte(string(stat), '('), strings.LastIndexByte(string(stat), ')')
	if open < 0 || end < open {
		return "", 0, 0
	}
	f := strings.Fields(string(stat[end+1:]))
	if len(f) < 13 {
		return "", 0, 0
	}
	ppid, _ = strconv.Atoi(f[1])
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return string(stat[open+1 : end]), ppid, time.Duration(utime+stime) * 10 * time.Millisecond
}

// serverCPU returns the CPU time the local PostgreSQL server's processes
// alive now have used (scaleServer's children), or 0 for SQLite or a
// server elsewhere. A worker that ended (a parallel query's) is not
// counted: this is the least the server spent.
func serverCPU() time.Duration {
	if scaleServer == 0 {
		return 0
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	var sum time.Duration
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		if _, ppid, cpu := procStat(pid); ppid == scaleServer {
			sum += cpu
		}
	}
	return sum
}

// copyScaleDB copies every table of the SQLite database at path, but the
// schema marker, into the new PostgreSQL database at url: the schema as
// store.Open creates it, then the rows by COPY with triggers and foreign
// keys off (session_replication_role), since the rows hold the aggregates
// SQLite's triggers kept already, then the identity columns' sequences
// moved past the copied ids. One transaction: all or nothing. Turning
// the triggers off takes a superuser (as pg_virtualenv's user is).
func copyScaleDB(b *testing.B, path, url string) {
	b.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	lite, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer lite.Close()
	pg, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer pg.Close(ctx)
	tx, err := pg.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
		b.Fatal(err)
	}
	rows, err := tx.Query(ctx, `
		SELECT table_name, column_name, data_type, is_identity = 'YES' FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name <> 'replaylab_schema'
		ORDER BY table_name, ordinal_position`)
	if err != nil {
		b.Fatal(err)
	}
	type column struct{ name, kind string }
	tables := map[string][]column{}
	var identity [][2]string
	for rows.Next() {
		var table string
		var c column
		var ident bool
		if err := rows.Scan(&table, &c.name, &c.kind, &ident); err != nil {
			b.Fatal(err)
		}
		tables[table] = append(tables[table], c)
		if ident {
			identity = append(identity, [2]string{table, c.name})
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	for _, table := range slices.Sorted(maps.Keys(tables)) {
		cols := tables[table]
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.name
		}
		// The rows the new schema starts with (the data version's).
		if _, err := tx.Exec(ctx, "DELETE FROM "+table); err != nil {
			b.Fatal(err)
		}
		src, err := lite.QueryContext(ctx, "SELECT "+strings.Join(names, ", ")+" FROM "+table)
		if err != nil {
			b.Fatalf("%s: %v", table, err)
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		_, err = tx.CopyFrom(ctx, pgx.Identifier{table}, names, pgx.CopyFromFunc(func() ([]any, error) {
			if !src.Next() {
				return nil, src.Err()
			}
			if err := src.Scan(ptrs...); err != nil {
				return nil, err
			}
			// SQLite keeps a whole number in a REAL column as
			// written and text and blobs as either.
			for i, c := range cols {
				switch v := vals[i].(type) {
				case int64:
					if c.kind == "double precision" || c.kind == "real" {
						vals[i] = float64(v)
					}
				case []byte:
					if c.kind == "text" {
						vals[i] = string(v)
					}
				case string:
					if c.kind == "bytea" {
						vals[i] = []byte(v)
					}
				}
			}
			return vals, nil
		}))
		src.Close()
		if err != nil {
			b.Fatalf("copy %s: %v", table, err)
		}
	}
	for _, c := range identity {
		if _, err := tx.Exec(ctx, fmt.Sprintf(`SELECT setval(pg_get_serial_sequence('%[1]s', '%[2]s'), max(%[2]s)) FROM %[1]s HAVING max(%[2]s) IS NOT NULL`,
			c[0], c[1])); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		b.Fatal(err)
	}
	// The planner's statistics and the visibility map, as autovacuum
	// would make them in a while, so that the first run measures the
	// plans later runs get.
	if _, err := pg.Exec(ctx, "VACUUM ANALYZE "+strings.Join(slices.Sorted(maps.Keys(tables)), ", ")); err != nil {
		b.Fatal(err)
	}
}

// generateScaleDB writes n generated matches into the new, empty SQLite
// database at path, in batches of one transaction each.
func generateScaleDB(b *testing.B, path string, n int) {
	b.Helper()
	ctx := context.Background()
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
	start := time.Now()
	for i := 0; i < n; i += batch {
		recs = recs[:0]
		for j := i; j < min(n, i+batch); j++ {
			recs = append(recs, scaleRecord(r, gs, j))
		}
		if _, err := db.IngestMany(ctx, recs); err != nil {
			b.Fatal(err)
		}
		if done := i + len(recs); done%100_000 == 0 {
			b.Logf("stored %d matches in %v", done, time.Since(start).Round(time.Millisecond))
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
			dbCPU := serverCPU()
			cpu := processCPU()
			for b.Loop() {
				start := time.Now()
				size = fetch(b, srv.Client(), srv.URL+p.path)
				took = append(took, time.Since(start))
			}
			// On a shared machine the latencies include waiting for a
			// core; the CPU time (server and client, in this process,
			// and a local PostgreSQL server's apart) does not.
			if cpu := processCPU() - cpu; cpu > 0 {
				b.ReportMetric(ms(cpu)/float64(len(took)), "cpu-ms/op")
			}
			if cpu := serverCPU() - dbCPU; cpu > 0 {
				b.ReportMetric(ms(cpu)/float64(len(took)), "pg-cpu-ms/op")
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
// (a new Refitter's first pass over the data the last one fitted), its
// warm-up, and the pass after one more match is stored, with and without
// the warm-up before it. The matches it adds are deleted at
// the end, and their rulesets fitted again, so the cached database keeps
// n matches and a fit with a state of each ruleset.
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
		deleted, err := db.DeleteMatches(ctx, added)
		if err != nil {
			b.Fatal(err)
		}
		// A delete clears the saved state of its rulesets' fits: fit
		// them again, so the next run starts on saved states too.
		done := map[[2]string]bool{}
		for _, d := range deleted {
			if k := [2]string{d.Game, d.Ruleset}; !done[k] {
				done[k] = true
				if err := refit.RefitRuleset(ctx, d.Game, d.Ruleset); err != nil {
					b.Fatal(err)
				}
			}
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
	// After a start, as serve's refitter does, the warm-up takes over
	// every saved fit: it loads the state saved with it and reads the
	// matches after its last full fit. (A fit saved without a state, as
	// before schema 21, is fitted once from all its matches: the first
	// warm-up on such a database.)
	b.Run(fmt.Sprintf("matches=%d/refit-warm-up", n), func(b *testing.B) {
		timedCPU(b, func() {
			refit = analytics.NewRefitter(db, slog.New(slog.DiscardHandler))
			pass() // a start: nothing to fit
		}, func() {
			if err := refit.Warm(ctx); err != nil {
				b.Fatal(err)
			}
		})
	})
	// The first new match after a start and its warm-up.
	b.Run(fmt.Sprintf("matches=%d/refit-first-new-match", n), func(b *testing.B) {
		timedCPU(b, func() {
			refit = analytics.NewRefitter(db, slog.New(slog.DiscardHandler))
			pass()
			if err := refit.Warm(ctx); err != nil {
				b.Fatal(err)
			}
			store1()
		}, pass)
	})
	// Without the warm-up (a match that arrives before it is done), the
	// pass takes over the ruleset's saved state as the warm-up does.
	b.Run(fmt.Sprintf("matches=%d/refit-first-new-match-cold", n), func(b *testing.B) {
		timedCPU(b, func() {
			refit = analytics.NewRefitter(db, slog.New(slog.DiscardHandler))
			pass()
			store1()
		}, pass)
	})
	b.Run(fmt.Sprintf("matches=%d/refit-new-match", n), func(b *testing.B) {
		// A server that has run a while keeps every ruleset's fit: its
		// warm-up took each over.
		if err := refit.Warm(ctx); err != nil {
			b.Fatal(err)
		}
		timedCPU(b, store1, pass)
	})
}

// timedCPU runs prepare (unless nil) and fn b.N times and reports the
// median and 90th percentile of fn's durations and the median CPU time in
// fn of the process and of a local PostgreSQL server (serverCPU).
func timedCPU(b *testing.B, prepare, fn func()) {
	b.Helper()
	var took, cpus, dbCPUs []time.Duration
	for b.Loop() {
		if prepare != nil {
			b.StopTimer()
			prepare()
			b.StartTimer()
		}
		dbCPU := serverCPU() // first: reading /proc takes this process's time
		start, cpu := time.Now(), processCPU()
		fn()
		took, cpus = append(took, time.Since(start)), append(cpus, processCPU()-cpu)
		dbCPUs = append(dbCPUs, serverCPU()-dbCPU)
	}
	slices.Sort(took)
	slices.Sort(cpus)
	slices.Sort(dbCPUs)
	b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
	b.ReportMetric(ms(took[len(took)*9/10]), "p90-ms")
	b.ReportMetric(ms(cpus[len(cpus)/2]), "cpu-ms/op")
	if scaleServer != 0 {
		b.ReportMetric(ms(dbCPUs[len(dbCPUs)/2]), "pg-cpu-ms/op")
	}
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
