// Package awap plays a career fair seat with a player written for the
// AWAP 2019 codebase, unchanged: its team.py, whose Team class the
// original main.py constructs and steps. A small Python host shipped in
// this package (host/host.py, with a clean-room awap2019 module of the
// classes players meet: Tile, Direction, State) loads the class and
// speaks replaylab's JSON lines, so replay.Process runs it like any
// external bot.
package awap

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/replaylab/replaylab/replay"
)

//go:embed host/host.py host/awap2019/__init__.py
var hostFiles embed.FS

// Python is the interpreter the host runs under, looked up on PATH.
const Python = "python3"

// ErrNoPython is the error of a machine without Python 3.
var ErrNoPython = errors.New("awap2019 players need " + Python + " on PATH")

// Bot is an AWAP 2019 player run by the host, in a private directory
// that Close removes.
type Bot struct {
	*replay.Process
	dir   string
	close sync.Once
	last  replay.Output // Close's
}

// Command returns the command line that runs the host for the team file
// team: the interpreter, the host (in dir) and the team, whose file
// Fingerprint digests as the bot's code.
func Command(dir, team string) []string {
	return []string{Python, "-u", filepath.Join(dir, "host.py"), team}
}

// Start writes the host to a private temporary directory and starts it
// for the team file team (a team.py with a Team class). A missing
// interpreter or team file is an error here, before any turn.
func Start(ctx context.Context, team string, opt replay.ProcessOptions) (*Bot, error) {
	if _, err := exec.LookPath(Python); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoPython, err)
	}
	if st, err := os.Stat(team); err != nil {
		return nil, fmt.Errorf("awap2019 team: %w", err)
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("awap2019 team %s: not a file", team)
	}
	team, err := filepath.Abs(team)
	if err != nil {
		return nil, err
	}
	dir, err := writeHost()
	if err != nil {
		return nil, err
	}
	p, err := replay.StartProcess(ctx, Command(dir, team), opt)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Bot{Process: p, dir: dir}, nil
}

// writeHost copies the host's files into a new private directory.
func writeHost() (string, error) {
	dir, err := os.MkdirTemp("", "replaylab-awap")
	if err != nil {
		return "", fmt.Errorf("awap2019 host: %w", err)
	}
	sub, _ := fs.Sub(hostFiles, "host") // the embedded tree has it
	if err := os.CopyFS(dir, sub); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("awap2019 host: %w", err)
	}
	return dir, nil
}

// Close ends the host as replay.Process.Close does and removes its
// directory. Called again, it returns the same output.
func (b *Bot) Close() replay.Output {
	b.close.Do(func() {
		b.last = b.Process.Close()
		os.RemoveAll(b.dir)
	})
	return b.last
}
