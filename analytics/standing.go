package analytics

import (
	"cmp"
	"slices"

	"github.com/replaylab/replaylab/store"
)

// Standing is one bot version's record in a game with its win rate and the
// Wilson 95% interval around it.
type Standing struct {
	store.BotSummary
	WinRate float64
	WinCI   Interval
}

// Standings computes the standing of every bot version and ranks them by
// the lower end of the win-rate interval, then by win rate, then by number
// of matches. Ranking by the lower bound puts a bot that won 60 of 100
// above one that won 2 of 2: the evidence, not the luck of a small sample,
// decides. bots must all belong to one game.
func Standings(bots []store.BotSummary) []Standing {
	ss := make([]Standing, len(bots))
	for i, b := range bots {
		ss[i] = Standing{BotSummary: b, WinCI: Wilson(b.Wins, b.Matches)}
		if b.Matches > 0 {
			ss[i].WinRate = float64(b.Wins) / float64(b.Matches)
		}
	}
	slices.SortStableFunc(ss, func(a, b Standing) int {
		return cmp.Or(
			cmp.Compare(b.WinCI.Low, a.WinCI.Low),
			cmp.Compare(b.WinRate, a.WinRate),
			cmp.Compare(b.Matches, a.Matches),
			cmp.Compare(a.Name, b.Name),
			cmp.Compare(a.Version, b.Version),
		)
	})
	return ss
}
