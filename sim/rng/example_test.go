package rng_test

import (
	"fmt"

	"github.com/replaylab/replaylab/sim/rng"
)

func ExampleNew() {
	r := rng.New(42)
	fmt.Printf("%#x\n", r.Uint64())
	fmt.Printf("%.6f\n", r.Float64())
	// Output:
	// 0x15780b2e0c2ec716
	// 0.378980
}

func ExampleRand_IntN() {
	// A seat's bot rolls dice from its own sub-stream of the match seed.
	r := rng.New(rng.SubSeed(42, 1))
	var rolls []int
	for range 5 {
		rolls = append(rolls, r.IntN(6)+1)
	}
	fmt.Println(rolls)
	// Output: [2 3 5 6 4]
}

func ExampleRand_Perm() {
	r := rng.New(7)
	fmt.Println(r.Perm(5))
	// Output: [0 4 2 1 3]
}

func ExampleSin() {
	// The same bits on every platform, unlike math.Sin.
	fmt.Printf("%.17g\n", rng.Sin(1e22))
	// Output: -0.85220084976718879
}
