// Package games is the registry of every implemented game. It is the one
// place that imports all game packages, so adding a game is one line here.
package games

import (
	"fmt"
	"strings"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/careerfair"
	"github.com/replaylab/replaylab/sim/foodfight"
	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/sim/worms"
)

var all = []*sim.Game{
	toad.Game,
	worms.Game,
	snake.Game,
	foodfight.Game,
	careerfair.Game,
}

// All returns the implemented games in display order.
func All() []*sim.Game { return append([]*sim.Game(nil), all...) }

// Lookup returns the game with the given name.
func Lookup(name string) (*sim.Game, error) {
	for _, g := range all {
		if g.Name == name {
			return g, nil
		}
	}
	names := make([]string, len(all))
	for i, g := range all {
		names[i] = g.Name
	}
	return nil, fmt.Errorf("unknown game %q (have %s)", name, strings.Join(names, ", "))
}
