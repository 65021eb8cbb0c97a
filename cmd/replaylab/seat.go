package main

import "strconv"

// seatName names a seat for people, counting from 1 as the dashboard
// does: seat 0 is "Seat 1". JSON and the replay format keep the 0-based
// index.
func seatName(seat int) string {
	return "Seat " + strconv.Itoa(seat+1)
}
