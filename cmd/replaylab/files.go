package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/store"
)

// maxRollsFile bounds what the CLI reads of a file that may be a River Toad
// input file, only to say so.
const maxRollsFile = 1 << 20

// readReplay reads and decodes a replay file of either encoding. replay.Read
// bounds the memory whatever the file holds: a text replay is decoded as it
// is read, a binary one is at most a few tens of MiB.
func readReplay(path string) (*replay.Log, error) {
	l, _, err := readReplayFile(path, false)
	return l, err
}

// readReplayID is readReplay that also returns the match id, computed once
// (replay.ReadID).
func readReplayID(path string) (*replay.Log, string, error) {
	return readReplayFile(path, true)
}

func readReplayFile(path string, withID bool) (l *replay.Log, id string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if withID {
		l, id, err = replay.ReadID(f)
	} else {
		l, err = replay.Read(f)
	}
	if errors.Is(err, replay.ErrNotReplay) {
		if _, serr := f.Seek(0, io.SeekStart); serr == nil {
			if _, rerr := toad.ParseRolls(io.LimitReader(f, maxRollsFile)); rerr == nil {
				return nil, "", fmt.Errorf("this is a River Toad input file (rolls only, no moves): record a match with 'replaylab record --game toad --rolls %s --bot builtin:astar -o m.rpl'", path)
			}
		}
	}
	return l, id, err
}

// outputFileSuffix names the file record saves bots' output to beside
// the replay FILE.
const outputFileSuffix = ".output.jsonl"

// readBotOutput reads the bot output file record saved beside the replay
// at replayPath; none when there is no such file.
func readBotOutput(replayPath string) ([]store.BotOutput, error) {
	path := replayPath + outputFileSuffix
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out, err := store.ReadBotOutput(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// readBounded reads a whole file of at most limit bytes (a multiple of
// 1 MiB); a larger one is refused rather than cut.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, limit>>20)
	}
	return data, nil
}
