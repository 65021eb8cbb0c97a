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
	// Rated says whether the board's last rating fit rated this version;
	// Rating and RatingCI (95%) are that rating then (see WithRatings).
	Rated    bool
	Rating   float64
	RatingCI Interval
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
	// Fit is the board's last stored rating fit (WithRatings), nil before
	// the first one.
	Fit *store.RatingBoard
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

// WithRatings attaches the stored rating fits to the boards of the same
// game and ruleset, and ranks each rated board by rating: the rated
// versions best first, then any version the last fit did not cover yet
// (its matches arrived since), in the order Standings gave. fits is
// store.DB.Ratings' answer; a board without a fit keeps its order.
func WithRatings(boards []Board, fits []store.RatingBoard) {
	type key struct{ game, ruleset string }
	byKey := make(map[key]*store.RatingBoard, len(fits))
	for i := range fits {
		byKey[key{fits[i].Game, fits[i].Ruleset}] = &fits[i]
	}
	type version struct{ name, version string }
	for i := range boards {
		b := &boards[i]
		b.Fit = byKey[key{b.Game, b.Ruleset}]
		if b.Fit == nil || len(b.Fit.Ratings) == 0 {
			continue
		}
		rated := make(map[version]store.BotRating, len(b.Fit.Ratings))
		for _, r := range b.Fit.Ratings {
			rated[version{r.Name, r.Version}] = r
		}
		for j := range b.Standings {
			s := &b.Standings[j]
			if r, ok := rated[version{s.Name, s.Version}]; ok {
				s.Rated, s.Rating, s.RatingCI = true, r.Rating, Interval{r.Low, r.High}
			}
		}
		slices.SortStableFunc(b.Standings, func(x, y Standing) int {
			if x.Rated != y.Rated {
				if x.Rated {
					return -1
				}
				return 1
			}
			if !x.Rated {
				return 0
			}
			return cmp.Compare(y.Rating, x.Rating)
		})
	}
}
