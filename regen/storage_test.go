package regen_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
	"github.com/replaylab/replaylab/store/pgtest"
)

// typicalPairing is the i-th match of a game's typical set: its default
// ruleset and seat count, the built-in bots taken in turn seat after seat,
// starting one bot further along for each match, so every bot plays every
// seat over len(g.Bots) matches.
func typicalPairing(g *sim.Game, i int) pairing {
	return pairing{g, g.Rulesets[0], seatsOf(g, func(s int) string { return g.Bots[(i+s)%len(g.Bots)].Name })}
}

// typicalRecords records and regenerates n typical matches of g (seeds
// 1..n) and returns their records and the total size of their replays.
func typicalRecords(tb testing.TB, g *sim.Game, n int) (recs []*store.Record, rplBytes int) {
	tb.Helper()
	for i := range n {
		rec, err := regen.Build(context.Background(), recordPairing(tb, typicalPairing(g, i), uint64(i+1)))
		if err != nil {
			tb.Fatal(err)
		}
		recs = append(recs, rec)
		rplBytes += len(rec.Encoded)
	}
	return recs, rplBytes
}

// storedBytes ingests recs into a fresh database at path (an SQLite file
// or a PostgreSQL URL) and returns how much the database grew
// (store.DB.Size).
func storedBytes(tb testing.TB, path string, recs []*store.Record) int64 {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	empty, err := db.Size(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := db.IngestMany(ctx, recs); err != nil {
		tb.Fatal(err)
	}
	full, err := db.Size(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return full - empty
}

// storageMatches is how many typical matches of each game the storage
// figures store: enough that the last, partly filled page of each table
// and index weighs little beside them.
const storageMatches = 20

// BenchmarkStorage reports what a typical match of each game (see
// typicalPairing) costs in the database beside its replay: stored-B/match
// is the growth of the database's pages in use (store.DB.Size: tables,
// indexes and the slack of their pages) over storageMatches matches
// ingested in one transaction into a fresh SQLite file, rpl-B/match the
// mean size of their binary replays (.rpl), and ratio the first over the
// second. The sizes are deterministic; the time is that of the ingest.
// With pgtest.Env set, each game is measured again in a fresh PostgreSQL
// schema (GAME/postgres), its growth being store.DB.Size's
// pg_total_relation_size of the schema's tables.
//
//	go test ./regen -run '^$' -bench Storage -benchtime 1x
func BenchmarkStorage(b *testing.B) {
	for _, g := range games.All() {
		recs, rpl := typicalRecords(b, g, storageMatches)
		b.Run(g.Name, func(b *testing.B) {
			benchStorage(b, recs, rpl, func() string { return filepath.Join(b.TempDir(), "size.db") })
		})
		if os.Getenv(pgtest.Env) != "" {
			b.Run(g.Name+"/postgres", func(b *testing.B) { benchStorage(b, recs, rpl, func() string { return pgtest.Fresh(b) }) })
		}
	}
}

// benchStorage is BenchmarkStorage for one game on the database fresh
// returns.
func benchStorage(b *testing.B, recs []*store.Record, rpl int, fresh func() string) {
	var stored int64
	for b.Loop() {
		stored = storedBytes(b, fresh(), recs)
	}
	b.ReportMetric(float64(stored)/storageMatches, "stored-B/match")
	b.ReportMetric(float64(rpl)/storageMatches, "rpl-B/match")
	b.ReportMetric(float64(stored)/float64(rpl), "ratio")
}

// maxStorageRatio is the most a game's typical match may take in the
// database, as a multiple of its replay (issue 25).
const maxStorageRatio = 20

// TestStorageRatio holds every game's typical matches, stored, to at
// most maxStorageRatio times their replays. Sizes do not depend on the
// machine or the clock: the same matches give the same pages.
func TestStorageRatio(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			recs, rpl := typicalRecords(t, g, storageMatches)
			stored := storedBytes(t, filepath.Join(t.TempDir(), "size.db"), recs)
			if ratio := float64(stored) / float64(rpl); ratio > maxStorageRatio {
				t.Errorf("%d matches stored in %d bytes, %.1f times their %d bytes of replays; want at most %d times",
					storageMatches, stored, ratio, rpl, maxStorageRatio)
			}
		})
	}
}
