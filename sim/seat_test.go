package sim_test

import (
	"fmt"

	"github.com/replaylab/replaylab/sim"
)

func ExampleSeatName() {
	fmt.Println(sim.SeatName(0), "and", sim.SeatName(1))
	// Output: Seat 1 and Seat 2
}

func ExampleUnitNaming_Name() {
	worms := sim.UnitNaming{Noun: "worm", First: 11, PerSeat: 10}
	fmt.Println(worms.Name(0, 0), worms.Name(0, 2), worms.Name(1, 0))
	fmt.Println(sim.UnitNaming{}.Name(1, 2))
	// Output:
	// worm 11 worm 13 worm 21
	// unit 2
}
