// Package revtest lets tests play a registered game as if this build had
// moved one of its rulesets to a later rules revision, with or without a
// rule change that alters the match, so the handling of replays recorded
// under an older revision is tested before any real rule change.
package revtest

import (
	"maps"
	"testing"

	"github.com/replaylab/replaylab/sim"
)

// Bump makes g play ruleset at revision rev until the test ends. When
// changeAt is 0 or more, the revised rules differ from the old ones from
// turn changeAt on: every state hash of the ruleset's matches from that
// turn is different. It changes the shared game, so a test that calls it
// must not run in parallel with others that play g.
func Bump(t testing.TB, g *sim.Game, ruleset string, rev, changeAt int) {
	t.Helper()
	revisions, start := g.Revisions, g.Start
	t.Cleanup(func() { g.Revisions, g.Start = revisions, start })
	g.Revisions = maps.Clone(revisions)
	if g.Revisions == nil {
		g.Revisions = map[string]int{}
	}
	g.Revisions[ruleset] = rev
	if changeAt < 0 {
		return
	}
	g.Start = func(s sim.Setup) (sim.Match, error) {
		m, err := start(s)
		if err != nil || s.Ruleset != ruleset {
			return m, err
		}
		return &changed{Match: m, from: changeAt}, nil
	}
}

// changed is a match under revised rules: its state differs from the
// original's from turn from on, which its hash shows.
type changed struct {
	sim.Match
	from int
}

func (c *changed) Hash() uint64 {
	h := c.Match.Hash()
	if c.Turn() >= c.from {
		h ^= 0x9e3779b97f4a7c15
	}
	return h
}
