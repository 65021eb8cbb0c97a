package web

import (
	"cmp"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

// seatColors is the one palette of the dashboard's seats: the match
// charts colour a seat's lines with it, the players' tables mark a seat
// with it, and the inspector's board renderers read it from the players
// of the page's meta (playerJSON.Color), so seat N has one colour
// everywhere. Fifteen colours cover the largest game (Snake's 15 seats).
// Each keeps at least 3:1 contrast (WCAG's bar for graphics) with the
// charts' light background (white) and their dark one (#1a212c), so
// relative luminance 0.15 to 0.30: the mid tones of their hues.
var seatColors = []string{
	"#3b78d8", "#d3770e", "#3ea14c", "#e0474c", "#9467bd", "#1a9cad", "#ad8a00", "#de5eb7",
	"#9b6443", "#7482ff", "#88961e", "#ff5019", "#299f88", "#b0508f", "#5f7f99",
}

// seatColor is seat's colour in seatColors.
func seatColor(seat int) string {
	return seatColors[max(seat, 0)%len(seatColors)]
}

// unitNaming is how a game names its units (sim.Game.Units), as the
// inspector's script reads it from the page's meta: unit u of seat s is
// noun + " " + (first + per_seat·s + u), "worm 21" for Worms' seat 1
// unit 0.
type unitNaming struct {
	Noun    string `json:"noun"`
	First   int    `json:"first"`
	PerSeat int    `json:"per_seat"`
}

// unitsOf returns how game names its units: as "unit 0" up when this
// build does not know the game.
func unitsOf(game string) sim.UnitNaming {
	if g, err := games.Lookup(game); err == nil {
		return g.Units
	}
	return sim.UnitNaming{}
}

// unitNamingOf returns how game names its units, for the page's meta.
func unitNamingOf(game string) unitNaming {
	n := unitsOf(game)
	return unitNaming{cmp.Or(n.Noun, "unit"), n.First, n.PerSeat}
}

// unitName names a unit as its game does: "worm 21".
func unitName(game string, seat, unit int) string {
	return unitsOf(game).Name(seat, unit)
}
