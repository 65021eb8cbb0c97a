package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store/pgtest"
)

// openTest opens a fresh SQLite database file in a temporary directory;
// each :memory: connection would be a different database. Tests of what
// only an SQLite file has (its header, pragmas, query plans, upgrades from
// old files) use it; the rest run on every backend (forEachBackend).
func openTest(t testing.TB) *DB {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "test.db"))
}

// openAt opens the database at path (a file or a PostgreSQL URL) and
// closes it when t ends.
func openAt(t testing.TB, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

// backends are the databases the store's tests run on, each named by a
// fresh place for one database: a file in a temporary directory, or a
// schema of its own on the PostgreSQL server of pgtest.Env (skipped when
// that is not set).
var backends = []struct {
	name  string
	fresh func(testing.TB) string
}{
	{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "test.db") }},
	{"postgres", pgtest.Fresh},
}

// An opener opens a fresh, empty database of the backend a test runs on.
type opener func(testing.TB) *DB

// forEachBackend runs f as a subtest for each backend, with an opener of
// that backend's databases.
func forEachBackend(t *testing.T, f func(t *testing.T, open opener)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			f(t, func(tb testing.TB) *DB {
				tb.Helper()
				return openAt(tb, b.fresh(tb))
			})
		})
	}
}

// testID returns a well-formed match id derived from n.
func testID(n int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "match %d", n))
	return hex.EncodeToString(sum[:])
}

// recordSpec describes a synthetic match for makeRecord.
type recordSpec struct {
	id           string
	game         string
	ruleset      string // "base" when empty
	turns, units int
	players      []Player
	winner       int // -1 for a draw
	// results, when set, is every seat's result; winner then only
	// fills in Result.Winner.
	results []sim.PlayerResult
}

// makeRecord builds a Record the way regen.Build would, with numbers that are a
// known function of turn, seat and unit so queries can be checked exactly:
// turn_stats rows for turns 0..turns of every seat (the player, then its
// units) and events every third turn.
func makeRecord(t testing.TB, s recordSpec) *Record {
	t.Helper()
	if s.game == "" {
		s.game = "worms"
	}
	if s.ruleset == "" {
		s.ruleset = "base"
	}
	if s.players == nil {
		s.players = []Player{{"alpha", "1"}, {"beta", "2"}}
	}
	rec := &Record{
		ID:            s.id,
		Game:          s.game,
		Ruleset:       s.ruleset,
		Seed:          1<<63 + 42, // above MaxInt64: must survive the int64 bit-cast
		Config:        json.RawMessage(`{"map":"small"}`),
		Players:       s.players,
		Encoded:       []byte("RPL\x01 encoded " + s.id),
		Turns:         s.turns,
		EngineVersion: "replaylab@test",
		RegenTime:     1500 * time.Microsecond,
		Result:        sim.Result{Winner: s.winner, Reason: "test over", Players: s.results},
	}
	if s.results == nil {
		for seat := range s.players {
			pr := sim.PlayerResult{Rank: 1, Score: float64(10 * seat), Outcome: sim.Draw}
			if s.winner >= 0 {
				pr.Outcome, pr.Rank = sim.Loss, 2
				if seat == s.winner {
					pr.Outcome, pr.Rank = sim.Win, 1
				}
			}
			rec.Result.Players = append(rec.Result.Players, pr)
		}
	}
	for seat := range s.players {
		for unit := sim.NoUnit; unit < s.units; unit++ {
			for m := Alive; m < synthMetrics; m++ {
				if unit != sim.NoUnit && m >= synthPerUnit {
					continue
				}
				l := Line{Metric: m, Seat: seat, Unit: unit, Values: make([]float64, s.turns+1)}
				for turn := range l.Values {
					l.Values[turn] = valueAt(m, turn, seat, unit)
				}
				rec.Lines = append(rec.Lines, l)
			}
		}
	}
	for turn := 0; turn <= s.turns; turn++ {
		for seat := range s.players {
			if turn > 0 && turn%3 == 0 {
				rec.Events = append(rec.Events,
					TurnEvent{Turn: turn, Event: sim.Event{Seat: seat, Unit: 0, Kind: "hit", Target: (seat + 1) % len(s.players), Amount: 8, X: turn, Y: seat, Detail: "banana"}},
					TurnEvent{Turn: turn, Event: sim.Event{Seat: seat, Unit: sim.NoUnit, Kind: "collision", Target: -1, Amount: 0.5, X: -1, Y: 2}})
			}
		}
	}
	return rec
}

// The synthetic metrics of makeRecord: synthMetrics per player, of which
// the first synthPerUnit apply to units too.
const synthMetrics, synthPerUnit = 10, 2

// valueAt is the synthetic value of a metric (or Alive) at a turn, seat
// and unit: whole and steady, whole and changing, fractional.
func valueAt(metric, turn, seat, unit int) float64 {
	switch metric {
	case Alive:
		if turn < 100 || unit != 0 {
			return 1
		}
		return 0
	case 0:
		return float64(turn*10 + seat)
	case 1:
		return float64(100 - turn)
	case 2:
		return float64(turn*seat) + 0.25
	case 3:
		return float64(unit + 1)
	}
	return float64((metric-4)*turn) + float64(unit)/8
}

// statAt is the synthetic numbers of a turn, seat and unit as the queries
// rebuild them from the lines.
func statAt(turn, seat, unit int) TurnStat {
	s := TurnStat{Turn: turn}
	s.Seat, s.Unit, s.Alive = seat, unit, valueAt(Alive, turn, seat, unit) == 1
	s.Values = make([]float64, synthMetrics)
	for m := range s.Values {
		if unit == sim.NoUnit || m < synthPerUnit {
			s.Values[m] = valueAt(m, turn, seat, unit)
		}
	}
	return s
}

// tables lists every table of the schema, for row counts.
var tables = []string{"replays", "matches", "bots", "match_players", "match_lines", "match_events"}

// rowCounts returns the number of rows of each table.
func rowCounts(t *testing.T, db *DB) map[string]int {
	t.Helper()
	counts := make(map[string]int)
	for _, table := range tables {
		var n int
		if err := db.read.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		counts[table] = n
	}
	return counts
}

func mustIngest(t *testing.T, db *DB, rec *Record) {
	t.Helper()
	created, err := db.Ingest(context.Background(), rec)
	if err != nil || !created {
		t.Fatalf("Ingest %s: got created=%v, %v; want true, nil", rec.ID, created, err)
	}
}

func TestIngestRowCounts(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 130, units: 2, winner: 0})
		mustIngest(t, db, rec)
		want := map[string]int{
			"replays":       1,
			"matches":       1,
			"bots":          2,
			"match_players": 2,
			"match_lines":   1,
			"match_events":  1,
		}
		if got := rowCounts(t, db); !reflect.DeepEqual(got, want) {
			t.Errorf("row counts: got %v, want %v", got, want)
		}
	})
}

func TestIngestIdempotent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		rec := makeRecord(t, recordSpec{id: testID(1), turns: 70, units: 1, winner: 1})
		mustIngest(t, db, rec)
		before := rowCounts(t, db)
		for i := range 2 {
			created, err := db.Ingest(ctx, rec)
			if err != nil || created {
				t.Fatalf("re-ingest %d: got created=%v, %v; want false, nil", i, created, err)
			}
		}
		if after := rowCounts(t, db); !reflect.DeepEqual(after, before) {
			t.Errorf("row counts after re-ingest: got %v, want %v", after, before)
		}
		// A second match by the same bots reuses their rows.
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(2), turns: 5, winner: 0}))
		if got := rowCounts(t, db)["bots"]; got != 2 {
			t.Errorf("bots after a second match: got %d, want 2", got)
		}
	})
}

// TestIngestMany stores a batch holding a stored match and one match
// twice, and refuses a batch with a bad record without writing any of it.
func TestIngestMany(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		rec := func(n int) *Record { return makeRecord(t, recordSpec{id: testID(n), turns: 3, winner: n % 2}) }
		mustIngest(t, db, rec(1))
		created, err := db.IngestMany(ctx, []*Record{rec(1), rec(2), rec(3), rec(2)})
		if created != 2 || err != nil {
			t.Errorf("IngestMany: got %d created, %v; want 2, nil", created, err)
		}
		before := rowCounts(t, db)
		bad := rec(5)
		bad.Result.Winner = 7
		if created, err := db.IngestMany(ctx, []*Record{rec(4), bad}); created != 0 || !errors.Is(err, ErrInvalid) {
			t.Errorf("IngestMany with a bad record: got %d created, %v; want 0 and an invalid-input error", created, err)
		}
		dup := rec(6)
		dup.Lines = append(dup.Lines, dup.Lines[0])
		if created, err := db.IngestMany(ctx, []*Record{rec(4), dup}); created != 0 || err == nil {
			t.Errorf("IngestMany with a failing insert: got %d created, %v; want 0 and an error", created, err)
		}
		if after := rowCounts(t, db); !reflect.DeepEqual(after, before) {
			t.Errorf("row counts after the failed batches: got %v, want %v", after, before)
		}
		checkAggregates(t, db)
	})
}

func TestIngestFailureWritesNothing(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		tests := []struct {
			name    string
			spoil   func(*Record)
			invalid bool // rejected before the transaction
		}{
			{"duplicate series key", func(r *Record) { r.Lines = append(r.Lines, r.Lines[len(r.Lines)/2]) }, true},
			{"series seat out of range", func(r *Record) { r.Lines[len(r.Lines)-1].Seat = -3 }, true},
			{"line short of the last turn", func(r *Record) { r.Lines[3].Values = r.Lines[3].Values[:5] }, true},
			{"line of an unknown number", func(r *Record) { r.Lines[0].Metric = -2 }, true},
			{"event without kind", func(r *Record) { r.Events[len(r.Events)-1].Kind = "" }, true},
			{"pending outcome", func(r *Record) { r.Result.Players[1].Outcome = sim.Pending }, true},
			{"players and results differ", func(r *Record) { r.Result.Players = r.Result.Players[:1] }, true},
			{"winner out of range", func(r *Record) { r.Result.Winner = 2 }, true},
			{"bad id", func(r *Record) { r.ID = "ABC" }, true},
			{"config not JSON", func(r *Record) { r.Config = json.RawMessage("{") }, true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				db := open(t)
				rec := makeRecord(t, recordSpec{id: testID(1), turns: 130, units: 1, winner: 0})
				tt.spoil(rec)
				created, err := db.Ingest(context.Background(), rec)
				if err == nil || created {
					t.Fatalf("Ingest: got created=%v, %v; want an error", created, err)
				}
				if got := errors.Is(err, ErrInvalid); got != tt.invalid {
					t.Errorf("errors.Is(%v, ErrInvalid): got %v, want %v", err, got, tt.invalid)
				}
				for table, n := range rowCounts(t, db) {
					if n != 0 {
						t.Errorf("%s: got %d rows, want 0", table, n)
					}
				}
				// The writer is usable again: the failed transaction is gone.
				mustIngest(t, db, makeRecord(t, recordSpec{id: testID(2), turns: 3, winner: 0}))
			})
		}
	})
}

// BenchmarkIngest writes matches of 2000 turns and 4 seats (FoodFight's
// size, the longest matches) into a WAL file and reports per-turn rows
// (turns x players and units) per second. "foodfight" keeps five metrics
// (as that game reports: energy, score, collisions, two extras) and one
// event per seat every third turn; "all-metrics" keeps ten metrics and
// twice the events, the worst case; "summary" keeps neither.
func BenchmarkIngest(b *testing.B) {
	const turns, seats = 2000, 4
	players := make([]Player, seats)
	for i := range players {
		players[i] = Player{Name: fmt.Sprintf("bot%d", i), Version: "1"}
	}
	foodfight := func(rec *Record) {
		rec.Lines = slices.DeleteFunc(rec.Lines, func(l Line) bool { return l.Metric == 1 || l.Metric > 5 })
		rec.Events = slices.DeleteFunc(rec.Events, func(e TurnEvent) bool { return e.Kind != "hit" })
	}
	for _, bm := range []struct {
		name  string
		shape func(*Record)
	}{
		{"foodfight", foodfight},
		{"all-metrics", func(*Record) {}},
		// Only the replay, match and player rows: the part of a match the
		// aggregates are kept from, so their cost shows most here.
		{"summary", func(rec *Record) { rec.Lines, rec.Events = nil, nil }},
	} {
		for _, be := range backends {
			b.Run(bm.name+"/"+be.name, func(b *testing.B) {
				db := openAt(b, be.fresh(b))
				ctx := context.Background()
				tmpl := makeRecord(b, recordSpec{turns: turns, players: players, winner: 0})
				bm.shape(tmpl)
				rows := 0 // one per turn of every Alive line: every player and unit
				for _, l := range tmpl.Lines {
					if l.Metric == Alive {
						rows += len(l.Values)
					}
				}
				n := 0
				for b.Loop() {
					rec := *tmpl
					rec.ID = testID(n)
					n++
					if _, err := db.Ingest(ctx, &rec); err != nil {
						b.Fatal(err)
					}
				}
				if rows > 0 {
					b.ReportMetric(float64(rows*n)/b.Elapsed().Seconds(), "rows/s")
					b.ReportMetric(float64(len(tmpl.Events)), "events/op")
				}
			})
		}
	}
}
