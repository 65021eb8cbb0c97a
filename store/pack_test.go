package store

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/replaylab/replaylab"
	"github.com/replaylab/replaylab/sim"
)

// version16Tables returns the statements that create the per-line and
// per-event tables of schema version 16, which version 17 packs into
// match_lines and match_events, as the schemas that had them wrote them:
// on SQLite upgrade 2 (series) and the version 1 schema (events), on
// PostgreSQL schema_postgres.sql.
func version16Tables(t *testing.T, postgres bool) string {
	t.Helper()
	if postgres {
		return createTable(t, replaylab.SchemaPostgres, "series") + createTable(t, replaylab.SchemaPostgres, "events")
	}
	v1, err := os.ReadFile(filepath.Join("testdata", "schema-v1.sql"))
	if err != nil {
		t.Fatal(err)
	}
	return createTable(t, upgrades[0], "series") + createTable(t, string(v1), "events")
}

// seedlessEntries are the statements that take match_entries back to
// schema version 19 on each backend (keyed by postgres): no seed or
// ruleset, and
// match_entries_by_bot as version 18 made it.
var seedlessEntries = map[bool]string{
	false: `DROP INDEX match_entries_by_seed; DROP INDEX match_entries_by_bot;
		CREATE INDEX match_entries_by_bot ON match_entries (bot_id, match_seq, team, rank, outcome);
		ALTER TABLE match_entries DROP COLUMN seed; ALTER TABLE match_entries DROP COLUMN ruleset`,
	true: `DROP INDEX match_entries_by_seed; DROP INDEX match_entries_by_bot;
		CREATE INDEX match_entries_by_bot ON match_entries (bot_id, match_seq) INCLUDE (team, rank, outcome);
		ALTER TABLE match_entries DROP COLUMN seed; ALTER TABLE match_entries DROP COLUMN ruleset`,
}

// createTable returns the CREATE TABLE statement of table in schema.
func createTable(t *testing.T, schema, table string) string {
	t.Helper()
	start := strings.Index(schema, "CREATE TABLE "+table+" (")
	end := strings.Index(schema[max(start, 0):], ";")
	if start < 0 || end < 0 {
		t.Fatalf("no table %s in the schema", table)
	}
	return schema[start:start+end+1] + "\n"
}

// unpackToVersion16 turns db, open at the current version, into a
// database of version 16 with the same matches: a row per line and per
// event, as builds before packedVersion wrote them. The events of a turn
// are numbered from 0, as version 16 numbered them.
func unpackToVersion16(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(version16Tables(t, db.postgres))
	packs := map[string]map[int64][]byte{}
	for _, table := range []string{"match_lines", "match_events"} {
		packs[table] = map[int64][]byte{}
		for _, r := range queryRows(t, db, `SELECT match_seq, data FROM `+table) {
			packs[table][r[0].(int64)] = r[1].([]byte)
		}
	}
	for seq, data := range packs["match_lines"] {
		err := eachPackedLine(data, func(l Line, enc []byte) error {
			exec(`INSERT INTO series VALUES (?, ?, ?, ?, ?)`, seq, l.Metric, l.Seat, l.Unit, enc)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for seq, data := range packs["match_events"] {
		evs, err := unpackEvents(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			exec(`INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				seq, e.Turn, e.pos, e.Seat, e.Unit, e.Kind, e.Target, e.Amount, e.X, e.Y, e.Detail)
		}
	}
	// Versions 17, 19, 20, 21 and 22.
	exec(`DROP TABLE match_lines; DROP TABLE match_events; DROP TABLE bot_times; DROP TABLE bot_debug; ALTER TABLE rating_fits DROP COLUMN state`)
	exec(seedlessEntries[db.postgres])
	if db.postgres {
		exec(`UPDATE replaylab_schema SET version = 16`)
	} else {
		exec(`PRAGMA user_version = 16`)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// matchReads is everything the store reads from a match's lines and
// events.
type matchReads struct {
	Stats  []TurnStat
	Series [][]Line
	Events EventPage
	Counts map[string]int
	Kinds  []TurnEvent
	Seats  []Line
}

func readMatch(t *testing.T, db *DB, id string) matchReads {
	t.Helper()
	ctx := context.Background()
	var r matchReads
	err := db.TurnStats(ctx, id, func(s TurnStat) error { r.Stats = append(r.Stats, s); return nil })
	if err != nil {
		t.Fatalf("TurnStats: %v", err)
	}
	if r.Series, err = db.Series(ctx, id, Alive, 0, 1); err != nil {
		t.Fatalf("Series: %v", err)
	}
	if r.Events, err = db.Events(ctx, id, EventQuery{From: 0, To: 1 << 30}); err != nil {
		t.Fatalf("Events: %v", err)
	}
	if r.Counts, err = db.EventCounts(ctx, id); err != nil {
		t.Fatalf("EventCounts: %v", err)
	}
	if r.Kinds, err = db.EventsOfKinds(ctx, id, []string{"hit", "late"}, 5); err != nil {
		t.Fatalf("EventsOfKinds: %v", err)
	}
	m, err := db.Match(ctx, id)
	if err != nil {
		t.Fatalf("Match: %v", err)
	}
	if len(m.Players) > 1 {
		// The comparison's read: every line of seat 2's bot version.
		v := BotVersion{Name: m.Players[1].Name, Version: m.Players[1].Version}
		_, err = db.VersionLines(ctx, m.Game, m.Ruleset, v, MaxRecent, func(l Line) error {
			l.Values = append([]float64(nil), l.Values...)
			r.Seats = append(r.Seats, l)
			return nil
		})
		if err != nil {
			t.Fatalf("VersionLines: %v", err)
		}
	}
	return r
}

// TestOpenUpgradesVersion16 opens a database of schema version 16, a row
// per line and per event, on each backend: the upgrade packs them, and
// every reader gives what it gave before.
func TestOpenUpgradesVersion16(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			path := b.fresh(t)
			recs := []*Record{
				makeRecord(t, recordSpec{id: testID(1), turns: 130, units: 2, winner: 0}),
				makeRecord(t, recordSpec{id: testID(2), turns: 0, winner: 1}),
			}
			recs[0].Events = append(recs[0].Events, TurnEvent{Turn: 3, Event: sim.Event{Seat: 1, Unit: sim.NoUnit, Kind: "late", Target: -1, Amount: 0.25}})
			recs[1].Events = nil
			want := map[string]matchReads{}
			func() {
				db, err := Open(context.Background(), path)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				for _, rec := range recs {
					mustIngest(t, db, rec)
				}
				// Read once all are stored: the comparison's read spans
				// a version's matches.
				for _, rec := range recs {
					want[rec.ID] = readMatch(t, db, rec.ID)
				}
				unpackToVersion16(t, db)
			}()
			db := openAt(t, path)
			if !db.postgres {
				if got, want := schemaOf(t, db), schemaOf(t, openTest(t)); got != want {
					t.Errorf("schema after the upgrade:\n%s\nwant\n%s", got, want)
				}
			}
			for _, rec := range recs {
				if got := readMatch(t, db, rec.ID); !reflect.DeepEqual(got, want[rec.ID]) {
					t.Errorf("match %.8s after the upgrade:\n got %+v\nwant %+v", rec.ID, got, want[rec.ID])
				}
			}
			checkAggregates(t, db)
		})
	}
}

// TestUnpackDamaged cuts packs of lines and events short at every byte,
// plain and compressed: each fails with an error, none panics.
func TestUnpackDamaged(t *testing.T) {
	rec := makeRecord(t, recordSpec{id: testID(1), turns: 40, units: 1, winner: 0})
	lines, err := packLines(nil, rec.Lines)
	if err != nil {
		t.Fatal(err)
	}
	events := packEvents(nil, rec.Events)
	for _, tt := range []struct {
		name   string
		pack   []byte
		unpack func([]byte) error
	}{
		{"lines", lines, func(b []byte) error { return eachPackedLine(b, func(Line, []byte) error { return nil }) }},
		{"events", events, func(b []byte) error { _, err := unpackEvents(b); return err }},
	} {
		compressed := compressPack(tt.pack)
		if compressed[0] != packDeflated {
			t.Fatalf("%s: %d bytes did not compress", tt.name, len(tt.pack))
		}
		for _, b := range [][]byte{tt.pack, compressed} {
			if err := tt.unpack(b); err != nil {
				t.Fatalf("%s whole: %v", tt.name, err)
			}
			for n := range len(b) {
				if err := tt.unpack(b[:n]); err == nil {
					t.Errorf("%s (layout %d) cut to %d of %d bytes: no error", tt.name, b[0], n, len(b))
				}
			}
		}
	}
}
