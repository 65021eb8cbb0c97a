package regen_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
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

// A storageCase is a kind of match whose storage the figures measure:
// the i-th match of it in game g is pairing(g, i), played on seed i+1.
type storageCase struct {
	name    string
	game    string // the game it is played in; "" for every game
	pairing func(g *sim.Game, i int) pairing
}

// storageCases are every game's typical matches and the matches that
// cost a game the most: FoodFight where every bot keeps moving (a
// distance that changes every turn by a speed drawn at random), and Worms
// played to its turn limit with events in most turns.
var storageCases = []storageCase{
	{"typical", "", typicalPairing},
	{"walls", "foodfight", func(g *sim.Game, i int) pairing { return samePairing(g, "walls") }},
	{"random", "worms", func(g *sim.Game, i int) pairing { return samePairing(g, "random") }},
}

// samePairing seats the built-in bot named bot in every seat of g.
func samePairing(g *sim.Game, bot string) pairing {
	return pairing{g, g.Rulesets[0], seatsOf(g, func(int) string { return bot })}
}

// storageMatches is how many matches of each case the storage figures
// store twice over (REPLAYLAB_STORAGE_MATCHES sets another number): what
// a match costs is the growth from the first storageMatches to twice as
// many, divided by storageMatches. The database's first pages, the
// partly filled last page of each table and index and PostgreSQL's
// per-table maps weigh on the first matches only.
func storageMatches(tb testing.TB) int {
	tb.Helper()
	s := os.Getenv("REPLAYLAB_STORAGE_MATCHES")
	if s == "" {
		return 30
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		tb.Fatalf("REPLAYLAB_STORAGE_MATCHES=%q: want a positive number", s)
	}
	return n
}

// storageRecords records and regenerates 2n matches of case c in game g
// and returns their records and the size of the replays of the second n.
func storageRecords(tb testing.TB, g *sim.Game, c storageCase, n int) (recs []*store.Record, rplBytes int) {
	tb.Helper()
	for i := range 2 * n {
		rec, err := regen.Build(context.Background(), recordPairing(tb, c.pairing(g, i), uint64(i+1)))
		if err != nil {
			tb.Fatal(err)
		}
		recs = append(recs, rec)
		if i >= n {
			rplBytes += len(rec.Encoded)
		}
	}
	return recs, rplBytes
}

// storedBytes ingests the first and then the second half of recs into a
// fresh database at path (an SQLite file or a PostgreSQL URL), a
// transaction each, and returns how much the database grew
// (store.DB.Size) with the second half.
func storedBytes(tb testing.TB, path string, recs []*store.Record) int64 {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var sizes [2]int64
	for i, half := range [][]*store.Record{recs[:len(recs)/2], recs[len(recs)/2:]} {
		if _, err := db.IngestMany(ctx, half); err != nil {
			tb.Fatal(err)
		}
		if sizes[i], err = db.Size(ctx); err != nil {
			tb.Fatal(err)
		}
	}
	return sizes[1] - sizes[0]
}

// A storageBackend is a database the storage figures measure: fresh
// returns the --db of an empty one.
type storageBackend struct {
	name  string
	fresh func(testing.TB) string
}

// storageBackends are SQLite, and PostgreSQL when pgtest.Env names a
// server.
func storageBackends() []storageBackend {
	bs := []storageBackend{{"sqlite", func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "size.db") }}}
	if os.Getenv(pgtest.Env) != "" {
		bs = append(bs, storageBackend{"postgres", pgtest.Fresh})
	}
	return bs
}

// eachStorageCase calls f with every game and case the storage figures
// measure (named GAME/CASE), its records (storageRecords) and every
// backend.
func eachStorageCase(tb testing.TB, f func(name string, recs []*store.Record, rpl int, be storageBackend)) {
	tb.Helper()
	n := storageMatches(tb)
	for _, c := range storageCases {
		for _, g := range games.All() {
			if c.game != "" && c.game != g.Name {
				continue
			}
			recs, rpl := storageRecords(tb, g, c, n)
			for _, be := range storageBackends() {
				f(g.Name+"/"+c.name, recs, rpl, be)
			}
		}
	}
}

// BenchmarkStorage reports what a match of each game and case (see
// storageCases) costs in the database beside its replay: stored-B/match
// is the growth of the database's pages in use (store.DB.Size: tables,
// indexes and the slack of their pages; on PostgreSQL
// pg_total_relation_size of the schema's tables, TOAST and maps
// included) from storageMatches matches to twice as many, each half
// ingested in one transaction into a fresh database, divided by
// storageMatches; rpl-B/match the mean size of the second half's binary
// replays (.rpl), and ratio the first over the second. The sizes are
// deterministic; the time is that of the ingests.
//
//	go test ./regen -run '^$' -bench Storage -benchtime 1x
//	pg_virtualenv -t -- env REPLAYLAB_TEST_POSTGRES=postgres: REPLAYLAB_STORAGE_MATCHES=200 \
//		go test ./regen -run '^$' -bench Storage -benchtime 1x
func BenchmarkStorage(b *testing.B) {
	eachStorageCase(b, func(name string, recs []*store.Record, rpl int, be storageBackend) {
		b.Run(name+"/"+be.name, func(b *testing.B) {
			var stored int64
			for b.Loop() {
				stored = storedBytes(b, be.fresh(b), recs)
			}
			n := float64(len(recs) / 2)
			b.ReportMetric(float64(stored)/n, "stored-B/match")
			b.ReportMetric(float64(rpl)/n, "rpl-B/match")
			b.ReportMetric(float64(stored)/float64(rpl), "ratio")
		})
	})
}

// maxStorageRatio is the most a game's match may take in the database,
// as a multiple of its replay (issue 25).
const maxStorageRatio = 20

// TestStorageRatio holds every game's matches, typical and hard ones,
// stored, to at most maxStorageRatio times their replays, on SQLite and,
// with pgtest.Env set, on PostgreSQL. Sizes do not depend on the machine
// or the clock: the same matches give the same pages.
func TestStorageRatio(t *testing.T) {
	eachStorageCase(t, func(name string, recs []*store.Record, rpl int, be storageBackend) {
		t.Run(name+"/"+be.name, func(t *testing.T) {
			stored := storedBytes(t, be.fresh(t), recs)
			if ratio := float64(stored) / float64(rpl); ratio > maxStorageRatio {
				t.Errorf("%d matches stored in %d bytes, %.1f times their %d bytes of replays; want at most %d times",
					len(recs)/2, stored, ratio, rpl, maxStorageRatio)
			}
		})
	})
}
