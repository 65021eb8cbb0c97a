package main

import (
	"bufio"
	"encoding/json"
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l, err := replay.Read(f)
	if errors.Is(err, replay.ErrNotReplay) {
		if _, serr := f.Seek(0, io.SeekStart); serr == nil {
			if _, rerr := toad.ParseRolls(io.LimitReader(f, maxRollsFile)); rerr == nil {
				return nil, fmt.Errorf("this is a River Toad input file (rolls only, no moves): record a match with 'replaylab record --game toad --rolls %s --bot builtin:astar -o m.rpl'", path)
			}
		}
	}
	return l, err
}

// maxOutputFile bounds the bot output file read beside a replay: the
// recorder keeps at most 1 MiB per stream and bot, and JSON escaping can
// make a byte six.
const maxOutputFile = 64 << 20

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
	var out []store.BotOutput
	sc := bufio.NewScanner(io.LimitReader(f, maxOutputFile+1))
	sc.Buffer(nil, 8*store.MaxBotOutput) // a text at its bound, escaped
	read := 0
	for n := 1; sc.Scan(); n++ {
		if read += len(sc.Bytes()) + 1; read > maxOutputFile {
			return nil, fmt.Errorf("%s: over %d MiB", path, maxOutputFile>>20)
		}
		var l outputLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, store.BotOutput{Turn: l.Turn, Seat: l.Seat, Stream: l.Stream, Text: l.Text})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
