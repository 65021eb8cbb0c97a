package web

import (
	"github.com/replaylab/replaylab/store"
)

// parentJSON is the match a fork was played from: its full id and the
// last turn taken from it, as the fork's replay header names them. URL is
// empty when that match is not stored.
type parentJSON struct {
	Match string `json:"match"`
	Turn  int    `json:"turn"`
	URL   string `json:"url,omitempty"`
}

// forkJSON is a stored match forked from another at turn Turn.
type forkJSON struct {
	Turn  int       `json:"turn"`
	Match matchJSON `json:"match"`
}

// lineageJSON turns a store.Lineage into the match API's parent (nil for
// a match played from its start) and forks.
func lineageJSON(l store.Lineage) (*parentJSON, []forkJSON) {
	var parent *parentJSON
	if p := l.Parent; p != nil {
		parent = &parentJSON{Match: p.ID, Turn: p.Turn}
		if p.Stored {
			parent.URL = matchURL(p.ID)
		}
	}
	forks := make([]forkJSON, len(l.Forks))
	for i, f := range l.Forks {
		forks[i] = forkJSON{Turn: f.Turn, Match: newMatchJSON(f.MatchSummary)}
	}
	return parent, forks
}

// forkOutcome says how a fork ended, for its line on its parent's page:
// "Seat 2 · name 1 won (reason)" or the reason alone without a winner.
func forkOutcome(m store.MatchSummary) string {
	if m.Winner >= 0 && m.Winner < len(m.Players) {
		return playerName(m.Players[m.Winner]) + " won (" + m.Reason + ")"
	}
	return m.Reason
}
