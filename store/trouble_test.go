package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// ev is an event of kind by seat at turn.
func ev(turn, seat int, kind string) TurnEvent {
	return TurnEvent{Turn: turn, Event: sim.Event{Seat: seat, Unit: sim.NoUnit, Kind: kind, Target: -1}}
}

func TestTroubles(t *testing.T) {
	tests := []struct {
		name   string
		seats  int
		events []TurnEvent
		want   []Trouble
	}{
		{"no events", 2, nil, nil},
		{"other kinds only", 2, []TurnEvent{ev(1, 0, "hit"), ev(2, 1, "collision"), ev(3, -1, sim.EventCrash)}, nil},
		{"crash then silence", 2,
			[]TurnEvent{ev(3, 1, sim.EventTimeout), ev(20, 1, sim.EventCrash), ev(21, 1, sim.EventInvalid), ev(22, 1, sim.EventInvalid)},
			[]Trouble{{Seat: 1, CrashTurn: 20, Timeouts: 1, FirstTimeout: 3, Invalid: 2, FirstInvalid: 21}}},
		// Career Fair reports one invalid event per unit of a command.
		{"several invalid events of one command", 1,
			[]TurnEvent{ev(4, 0, sim.EventInvalid), ev(4, 0, sim.EventInvalid), ev(5, 0, sim.EventInvalid)},
			[]Trouble{{Seat: 0, Invalid: 2, FirstInvalid: 4}}},
		{"each seat its own", 3,
			[]TurnEvent{ev(2, 2, sim.EventOversize), ev(2, 0, sim.EventTimeout), ev(5, 2, sim.EventOversize), ev(6, 0, sim.EventTimeout)},
			[]Trouble{{Seat: 0, Timeouts: 2, FirstTimeout: 2}, {Seat: 2, Oversize: 2, FirstOversize: 2}}},
		{"seat out of range", 1, []TurnEvent{ev(1, 1, sim.EventCrash)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Troubles(tt.seats, tt.events); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTroubleString(t *testing.T) {
	tests := []struct {
		t    Trouble
		want string
	}{
		{Trouble{CrashTurn: 20, Invalid: 19, FirstInvalid: 21}, "crashed at turn 20, 19 invalid commands (first at turn 21)"},
		{Trouble{Timeouts: 1, FirstTimeout: 7, Oversize: 2, FirstOversize: 3}, "1 time-out at turn 7, 2 over-long answers (first at turn 3)"},
		{Trouble{}, ""},
	}
	for _, tt := range tests {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.t, got, tt.want)
		}
	}
}

// troubleRecord is a two-seat match in which beta crashes at turn 5 after
// a time-out at 2 and is rejected from turn 6 on, and alpha, when sloppy,
// sends one invalid command at turn 3.
func troubleRecord(t *testing.T, n int, sloppy bool) *Record {
	t.Helper()
	rec := makeRecord(t, recordSpec{id: testID(n), turns: 9, winner: 0})
	rec.Events = append(rec.Events, ev(2, 1, sim.EventTimeout), ev(5, 1, sim.EventCrash))
	for turn := 6; turn <= 9; turn++ {
		rec.Events = append(rec.Events, ev(turn, 1, sim.EventInvalid))
	}
	if sloppy {
		rec.Events = append(rec.Events, ev(3, 0, sim.EventInvalid))
	}
	return rec
}

func TestMatchTrouble(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		mustIngest(t, db, troubleRecord(t, 1, true))
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(2), turns: 9, winner: 0}))
		got, err := db.Match(ctx, testID(1))
		want := []Trouble{{Seat: 0, Invalid: 1, FirstInvalid: 3}, {Seat: 1, CrashTurn: 5, Timeouts: 1, FirstTimeout: 2, Invalid: 4, FirstInvalid: 6}}
		if err != nil || !reflect.DeepEqual(got.Trouble, want) {
			t.Errorf("Match: got trouble %+v, %v; want %+v", got.Trouble, err, want)
		}
		if got, err := db.Match(ctx, testID(2)); err != nil || got.Trouble != nil {
			t.Errorf("Match of a clean match: got trouble %+v, %v; want none", got.Trouble, err)
		}
	})
}

func TestMatchesFilterTrouble(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		mustIngest(t, db, troubleRecord(t, 1, true))
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(2), turns: 9, winner: 0}))
		timedOut := makeRecord(t, recordSpec{id: testID(3), game: "snake", turns: 9, winner: 1})
		timedOut.Events = append(timedOut.Events, ev(4, 0, sim.EventTimeout), ev(8, 1, sim.EventOversize))
		mustIngest(t, db, timedOut)
		tests := []struct {
			f    MatchFilter
			want []int
		}{
			{MatchFilter{Trouble: TroubleAny}, []int{3, 1}},
			{MatchFilter{Trouble: TroubleCrash}, []int{1}},
			{MatchFilter{Trouble: TroubleTimeout}, []int{3, 1}},
			{MatchFilter{Trouble: TroubleInvalid}, []int{1}},
			{MatchFilter{Trouble: TroubleOversize}, []int{3}},
			{MatchFilter{Trouble: TroubleTimeout, Game: "snake"}, []int{3}},
			{MatchFilter{Trouble: TroubleCrash, Bot: "beta"}, []int{1}},
			{MatchFilter{Trouble: TroubleCrash, Bot: "beta", Version: "2", Game: "worms"}, []int{1}},
			{MatchFilter{Trouble: TroubleCrash, Bot: "beta", Version: "1"}, nil},
			// alpha played match 1, where beta crashed, and crashed nowhere.
			{MatchFilter{Trouble: TroubleCrash, Bot: "alpha"}, nil},
			{MatchFilter{Trouble: TroubleInvalid, Bot: "alpha"}, []int{1}},
			{MatchFilter{Trouble: TroubleTimeout, Bot: "alpha"}, []int{3}},
			{MatchFilter{Trouble: TroubleCrash, Game: "snake"}, nil},
			{MatchFilter{}, []int{3, 2, 1}},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%+v", tt.f), func(t *testing.T) {
				ms, total, err := db.Matches(ctx, tt.f)
				got := testNumbers(ms, 3)
				if err != nil || !reflect.DeepEqual(got, tt.want) || total != len(tt.want) {
					t.Errorf("got %v of %d, %v; want %v", got, total, err, tt.want)
				}
			})
		}
		if _, _, err := db.Matches(ctx, MatchFilter{Trouble: "explosion"}); !errors.Is(err, ErrInvalid) {
			t.Errorf("Matches with trouble %q: got %v, want an invalid-input error", "explosion", err)
		}
	})
}

func TestBotsTrouble(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		mustIngest(t, db, troubleRecord(t, 1, true))
		mustIngest(t, db, troubleRecord(t, 2, false))
		mustIngest(t, db, makeRecord(t, recordSpec{id: testID(3), turns: 9, winner: 0}))
		bots, err := db.Bots(ctx, "worms")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]BotTrouble{
			"alpha": {InvalidSeats: 1, Invalid: 1},
			"beta":  {Crashed: 2, TimedOut: 2, Timeouts: 2, InvalidSeats: 2, Invalid: 8},
		}
		for _, b := range bots {
			if b.Seats != 3 || b.Trouble != want[b.Name] {
				t.Errorf("%s: got %d seats, trouble %+v; want 3 seats, %+v", b.Name, b.Seats, b.Trouble, want[b.Name])
			}
		}
		if _, err := db.write.Exec(`DELETE FROM matches WHERE id = ?`, testID(2)); err != nil {
			t.Fatal(err)
		}
		want["beta"] = BotTrouble{Crashed: 1, TimedOut: 1, Timeouts: 1, InvalidSeats: 1, Invalid: 4}
		bots, err = db.Bots(ctx, "worms")
		for _, b := range bots {
			if err != nil || b.Trouble != want[b.Name] {
				t.Errorf("%s after a delete: got trouble %+v, %v; want %+v", b.Name, b.Trouble, err, want[b.Name])
			}
		}
	})
}

// TestOpenUpgradesVersion11 opens a database of schema version 11 whose
// matches had trouble: the upgrade counts it from their events as ingest
// does (Troubles), seat and bot version alike.
func TestOpenUpgradesVersion11(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v11.db")
	recs := []*Record{troubleRecord(t, 1, true), troubleRecord(t, 2, false), makeRecord(t, recordSpec{id: testID(3), turns: 9, winner: 0})}
	fresh := openTest(t)
	for _, rec := range recs {
		mustIngest(t, fresh, rec)
	}
	// A version 11 database is this one without what upgrades 12 to 17
	// add.
	func() {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, rec := range recs {
			mustIngest(t, db, rec)
		}
		unpackToVersion16(t, db)
	}()
	rawExec(t, path, `
		DROP TRIGGER seat_trouble_count; DROP TRIGGER seat_trouble_uncount; DROP TRIGGER matches_uncount_trouble;
		DROP TRIGGER seat_trouble_fixed; DROP TRIGGER data_version_trouble_deleted;
		DROP TABLE seat_trouble; DROP TABLE bot_trouble;
		DROP INDEX match_players_fingerprints; ALTER TABLE match_players DROP COLUMN fingerprint;
		DROP TABLE match_parents; DROP TABLE critical_forks; DROP TABLE critical_sweeps; DROP TABLE jobs;
		PRAGMA user_version = 11`)
	db := openUpgraded(t, path)
	checkAggregates(t, db)
	for _, rec := range recs {
		got, err1 := db.Match(ctx, rec.ID)
		want, err2 := fresh.Match(ctx, rec.ID)
		if err := errors.Join(err1, err2); err != nil || !reflect.DeepEqual(got.Trouble, want.Trouble) {
			t.Errorf("match %s after the upgrade: got trouble %+v, want %+v as ingested (%v)", rec.ID[:8], got.Trouble, want.Trouble, err)
		}
	}
	got, err1 := db.Bots(ctx, "")
	want, err2 := fresh.Bots(ctx, "")
	if err := errors.Join(err1, err2); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Bots after the upgrade:\n got %+v\nwant %+v as ingested (%v)", got, want, err)
	}
}
