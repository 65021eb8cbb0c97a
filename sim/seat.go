package sim

import "strconv"

// SeatName names a seat for people: seat 0, the first, is "Seat 1". Seats
// are indexes from 0 in code, JSON and replays, and numbers from 1 in
// everything a person reads (CLI lines, pages, charts, CSV, messages), so
// every such text names a seat through SeatName (or SeatNumber) and a
// bot author never meets two different seats both called "1".
func SeatName(seat int) string {
	return "Seat " + strconv.Itoa(SeatNumber(seat))
}

// SeatNumber is seat's number for people: seat 0 is number 1.
func SeatNumber(seat int) int {
	return seat + 1
}

// UnitNaming is how a game's players call its units, so that every output
// names a unit as the original game does (Worms' worm 21 is the second
// player's first worm) rather than by its index in Stat.Unit.
type UnitNaming struct {
	// Noun is what a unit is ("worm", "bot"); games without one say "unit".
	Noun string
	// First is the number of seat 0's unit 0, PerSeat what each further
	// seat adds to it.
	First, PerSeat int
}

// Number is the number the game gives unit (an index of Stat.Unit) of seat.
func (n UnitNaming) Number(seat, unit int) int {
	return n.First + n.PerSeat*seat + unit
}

// Name names unit of seat for people: "worm 21".
func (n UnitNaming) Name(seat, unit int) string {
	noun := n.Noun
	if noun == "" {
		noun = "unit"
	}
	return noun + " " + strconv.Itoa(n.Number(seat, unit))
}
