package web

import (
	"context"
	"strings"
	"sync"

	"github.com/replaylab/replaylab/store"
)

// summaryCacheSize bounds the match summaries kept in memory (about a
// kilobyte each).
const summaryCacheSize = 4096

// summaryCache keeps the summaries of recently requested matches, because
// every match route starts by finding its match and that lookup is most of
// the cost of the small ones (a summary, a turn). A stored match never
// changes: its id is the hash of its replay and nothing updates a stored
// match, so an entry cannot go stale.
//
// Entries are keyed by the id as requested. Only ids of shortIDLen digits
// or more are kept: the short ids pages link to, and full ids. A shorter
// prefix can become ambiguous when a new match shares it, so it is always
// resolved by the store; a 16-digit prefix would need two ids to share 64
// bits.
type summaryCache struct {
	mu sync.Mutex
	m  map[string]store.MatchSummary
}

// match returns the summary of the match id names, from memory or from
// the store. Callers must not modify the returned summary's slices.
func (c *summaryCache) match(ctx context.Context, db *store.DB, id string) (store.MatchSummary, error) {
	key := strings.ToLower(id)
	cacheable := len(key) >= shortIDLen
	if cacheable {
		c.mu.Lock()
		m, ok := c.m[key]
		c.mu.Unlock()
		if ok {
			return m, nil
		}
	}
	m, err := db.Match(ctx, id)
	if err != nil || !cacheable {
		return m, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]store.MatchSummary)
	}
	if len(c.m) >= summaryCacheSize {
		for k := range c.m { // evict an arbitrary entry: map order is random
			delete(c.m, k)
			break
		}
	}
	c.m[key] = m
	return m, nil
}
