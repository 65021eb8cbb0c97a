package web

import "strconv"

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

// seatNumber numbers a seat for people, counting from 1 as every table
// and chart does: seat 0 is number 1.
func seatNumber(seat int) int {
	return seat + 1
}

// seatName names a seat for people: seat 0 is "Seat 1".
func seatName(seat int) string {
	return "Seat " + strconv.Itoa(seatNumber(seat))
}

// unitNaming is how a game's board names its units: a noun and the
// number of unit 0.
type unitNaming struct {
	Noun  string `json:"noun"`
	First int    `json:"first"`
}

// unitNamings says how the games whose metrics are reported per unit
// name their units on their boards (a Worms worm's unit is its id − 1; a
// Career Fair team bot's is its position, 0 the main bot); others say
// "unit 0".
var unitNamings = map[string]unitNaming{
	"worms":      {"worm", 1},
	"careerfair": {"bot", 0},
}

// unitNamingOf returns how game names its units.
func unitNamingOf(game string) unitNaming {
	if n, ok := unitNamings[game]; ok {
		return n
	}
	return unitNaming{"unit", 0}
}

// unitName names a unit as its game's board does.
func unitName(game string, unit int) string {
	n := unitNamingOf(game)
	return n.Noun + " " + strconv.Itoa(n.First+unit)
}
