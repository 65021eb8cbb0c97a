package careerfair

import "github.com/replaylab/replaylab/sim"

func newIdle(sim.Setup, int, uint64) (sim.Bot, error) { return idleBot{}, nil }

// idleBot plays NONE with every team bot.
type idleBot struct{}

func (idleBot) Act(any) string { return "" }
