package store

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
)

// TestLineage stores a match, two forks of it, a fork of a fork and a fork
// whose parent is not stored, and reads each one's parent and forks.
func TestLineage(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := context.Background()
		fork := func(n int, parent string, turn int) *Record {
			rec := makeRecord(t, recordSpec{id: testID(n), turns: 20, winner: n % 2})
			if parent != "" {
				rec.Parent = &Parent{ID: parent, Turn: turn}
			}
			mustIngest(t, db, rec)
			return rec
		}
		root := fork(1, "", 0)
		late := fork(2, root.ID, 9)
		early := fork(3, root.ID, 4)
		grand := fork(4, late.ID, 12)
		orphan := fork(5, testID(99), 2)

		forkIDs := func(l Lineage) []string {
			var ids []string
			for _, f := range l.Forks {
				ids = append(ids, fmt.Sprintf("%s@%d", f.ID[:8], f.Turn))
			}
			return ids
		}
		tests := []struct {
			name   string
			id     string
			parent *ParentMatch
			forks  []string
		}{
			{"root lists its forks by turn", root.ID[:10], nil, []string{early.ID[:8] + "@4", late.ID[:8] + "@9"}},
			{"fork with a fork", late.ID, &ParentMatch{Parent{root.ID, 9}, true}, []string{grand.ID[:8] + "@12"}},
			{"fork of a fork", grand.ID, &ParentMatch{Parent{late.ID, 12}, true}, nil},
			{"parent not stored", orphan.ID, &ParentMatch{Parent{testID(99), 2}, false}, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				l, err := db.Lineage(ctx, tt.id)
				if err != nil {
					t.Fatalf("Lineage: %v", err)
				}
				if !reflect.DeepEqual(l.Parent, tt.parent) {
					t.Errorf("parent: got %+v, want %+v", l.Parent, tt.parent)
				}
				if got := forkIDs(l); !reflect.DeepEqual(got, tt.forks) {
					t.Errorf("forks: got %v, want %v", got, tt.forks)
				}
			})
		}

		l, err := db.Lineage(ctx, root.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Forks) == 0 {
			t.Fatal("no forks of the root")
		}
		if got := l.Forks[0].Players; len(got) != 2 || got[0].Outcome == "" {
			t.Errorf("fork players: got %+v, want both seats with their outcome", got)
		}
		if _, err := db.DeleteMatches(ctx, []string{root.ID}); err != nil {
			t.Fatal(err)
		}
		l, err = db.Lineage(ctx, late.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := (&ParentMatch{Parent{root.ID, 9}, false}); !reflect.DeepEqual(l.Parent, want) {
			t.Errorf("after deleting the parent: got %+v, want %+v (its id kept)", l.Parent, want)
		}
		if _, err := db.Lineage(ctx, testID(99)); err == nil {
			t.Error("Lineage of a match not stored: got no error")
		}
	})
}

// TestOpenUpgradesVersion13 opens a database of schema version 13 with a
// match: the upgrade adds the parents' table, and the match has no parent
// and no forks.
func TestOpenUpgradesVersion13(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v13.db")
	makeV1DB(t, path)
	stmts := append([]string{}, upgrades[:12]...)
	stmts = append(stmts, "PRAGMA user_version = 13", fmt.Sprintf("PRAGMA application_id = %d", applicationID), `
		INSERT INTO replays VALUES ('`+testID(1)+`', 'toad', 'classic', 1, '{}', x'00', 0);
		INSERT INTO matches VALUES (1, '`+testID(1)+`', 'toad', 'classic', 1, 0, 'won', 'old', 1, 0);`)
	rawExec(t, path, stmts...)
	db := openUpgraded(t, path)
	l, err := db.Lineage(context.Background(), testID(1))
	if err != nil {
		t.Fatalf("Lineage: %v", err)
	}
	if l.Parent != nil || len(l.Forks) != 0 {
		t.Errorf("Lineage after the upgrade: got %+v, want no parent and no forks", l)
	}
}
