package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/toad"
)

// maxReplayFile bounds what the CLI reads as one replay.
const maxReplayFile = 256 << 20

// readReplay reads and decodes a replay file of either encoding.
func readReplay(path string) (*replay.Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxReplayFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxReplayFile {
		return nil, fmt.Errorf("larger than %d MiB", maxReplayFile>>20)
	}
	l, err := replay.Decode(data)
	if errors.Is(err, replay.ErrNotReplay) {
		if _, rerr := toad.ParseRolls(bytes.NewReader(data)); rerr == nil {
			return nil, fmt.Errorf("this is a River Toad input file (rolls only, no moves): record a match with 'replaylab record --game toad --rolls %s --bot builtin:astar -o m.rpl'", path)
		}
	}
	return l, err
}
