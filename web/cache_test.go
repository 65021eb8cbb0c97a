package web

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/store"
)

func TestSummaryCache(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	first := syntheticRecord(t, 3, 1)
	first.ID = "abcdef01" + strings.Repeat("1", 56)
	if _, err := db.Ingest(ctx, first); err != nil {
		t.Fatal(err)
	}
	var c summaryCache
	for _, id := range []string{first.ID[:8], first.ID[:16], strings.ToUpper(first.ID[:16]), first.ID} {
		m, err := c.match(ctx, db, id)
		if err != nil || m.ID != first.ID {
			t.Fatalf("match(%s): got %s, %v; want %s", id, m.ID, err, first.ID)
		}
	}
	if len(c.m) != 2 {
		t.Errorf("cached %d entries, want 2 (the 16-digit prefix and the full id)", len(c.m))
	}

	// A second match sharing the 8-digit prefix makes it ambiguous: short
	// prefixes are never answered from memory.
	second := syntheticRecord(t, 3, 1)
	second.ID = "abcdef01" + strings.Repeat("2", 56)
	if _, err := db.Ingest(ctx, second); err != nil {
		t.Fatal(err)
	}
	if _, err := c.match(ctx, db, first.ID[:8]); !errors.Is(err, store.ErrAmbiguous) {
		t.Errorf("8-digit prefix after a second match: got %v, want ErrAmbiguous", err)
	}
	if _, err := c.match(ctx, db, "0000000000000000"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id: got %v, want ErrNotFound", err)
	}
	if len(c.m) != 2 {
		t.Errorf("a failed lookup was cached: %d entries", len(c.m))
	}
}
