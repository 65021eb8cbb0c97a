package analytics

import (
	"cmp"
	"slices"

	"github.com/replaylab/replaylab/store"
)

// Standing is one bot version's record in a game under one ruleset, with
// its win rate and the Wilson 95% interval around it.
type Standing struct {
	store.BotSummary
	WinRate float64
	WinCI   Interval
}

// Standings computes the standing of every bot version and ranks them by
// the lower end of the win-rate interval, then by win rate, then by number
// of matches. Ranking by the lower bound puts a bot that won 60 of 100
// above one that won 2 of 2: the evidence, not the luck of a small sample,
// decides. bots must all belong to one game and ruleset: Boards splits
// them.
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

// Board is the leaderboard of one game under one of its rulesets.
type Board struct {
	Game, Ruleset string
	Standings     []Standing
}

// Boards splits bot records into one leaderboard per game and ruleset,
// ordered by game and ruleset, each ranked by Standings. Records under
// different rulesets are never ranked together: the rules differ, and so
// do what a win means and how scores run.
func Boards(bots []store.BotSummary) []Board {
	type key struct{ game, ruleset string }
	byKey := map[key][]store.BotSummary{}
	var keys []key
	for _, b := range bots {
		k := key{b.Game, b.Ruleset}
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], b)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.game, b.game), cmp.Compare(a.ruleset, b.ruleset))
	})
	boards := make([]Board, len(keys))
	for i, k := range keys {
		boards[i] = Board{Game: k.game, Ruleset: k.ruleset, Standings: Standings(byKey[k])}
	}
	return boards
}
