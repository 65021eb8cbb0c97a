package foodfight

import "github.com/replaylab/replaylab/sim"

func newDummy(sim.Setup, int, uint64) (sim.Bot, error) { return dummyBot{}, nil }

type dummyBot struct{}

func (dummyBot) Act(any) string { return "" }
