package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/awap"
	"github.com/replaylab/replaylab/replay/bitbrawl"
	"github.com/replaylab/replaylab/replay/codenjoy"
	"github.com/replaylab/replaylab/replay/entelect"
	"github.com/replaylab/replaylab/replay/toadsolver"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/careerfair"
	"github.com/replaylab/replaylab/sim/foodfight"
	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/sim/worms"
)

// The bot specs of the original games' protocols (docs/bots.md "Original bot
// protocols"): a bot written for the original runner plays unchanged.
const (
	// codenjoyPrefix starts the command line of a CodeBattle Snake bot,
	// in which {url} stands for its board URL.
	codenjoyPrefix = "codenjoy:"
	// codenjoyListen waits for a CodeBattle bot started by hand.
	codenjoyListen = "codenjoy-listen"
	// awapPrefix starts the path of an AWAP 2019 player's team.py.
	awapPrefix = "awap2019:"
	// entelectPrefix starts the directory of an Entelect 2019 Worms bot,
	// which holds its bot.json.
	entelectPrefix = "entelect:"
	// toadSolverPrefix starts the command line of a River Toad solver.
	toadSolverPrefix = "toad-solver:"
	// foodfightRunnerPrefix starts the command line of BitBrawl's
	// FoodFight runner with a bot jar.
	foodfightRunnerPrefix = "foodfight-runner:"
)

// protocol is an original bot protocol a spec names.
type protocol struct {
	name string    // as fingerprints and messages name it
	game *sim.Game // the only game it plays
	argv []string  // the command line after the prefix
	team string    // awap2019: the team file
	dir  string    // entelect: the bot directory
}

// protocolOf returns the original protocol spec names, if it names one.
func protocolOf(spec string) (protocol, bool) {
	switch {
	case spec == codenjoyListen:
		return protocol{name: "codenjoy", game: snake.Game}, true
	case strings.HasPrefix(spec, codenjoyPrefix):
		return protocol{name: "codenjoy", game: snake.Game, argv: strings.Fields(strings.TrimPrefix(spec, codenjoyPrefix))}, true
	case strings.HasPrefix(spec, awapPrefix):
		team := strings.TrimSpace(strings.TrimPrefix(spec, awapPrefix))
		p := protocol{name: "awap2019", game: careerfair.Game, team: team}
		if team != "" {
			p.argv = []string{awap.Python, team}
		}
		return p, true
	case strings.HasPrefix(spec, entelectPrefix):
		return protocol{name: "entelect", game: worms.Game, dir: strings.TrimSpace(strings.TrimPrefix(spec, entelectPrefix))}, true
	case strings.HasPrefix(spec, toadSolverPrefix):
		return protocol{name: "toad-solver", game: toad.Game, argv: strings.Fields(strings.TrimPrefix(spec, toadSolverPrefix))}, true
	case strings.HasPrefix(spec, foodfightRunnerPrefix):
		return protocol{name: "foodfight-runner", game: foodfight.Game, argv: strings.Fields(strings.TrimPrefix(spec, foodfightRunnerPrefix))}, true
	}
	return protocol{}, false
}

// check refuses a protocol seated in another game than its own, and a
// prefix with no command after it.
func (p protocol) check(g *sim.Game, spec string) error {
	if g != p.game {
		return fmt.Errorf("%s bots play %s only, not %s", p.name, p.game.Name, g.Name)
	}
	if spec != codenjoyListen && len(p.argv) == 0 && p.dir == "" {
		return fmt.Errorf("%q: no bot command after the prefix", spec)
	}
	return nil
}

// checkProtocol refuses a spec of an original protocol that game g
// cannot seat; any other spec passes.
func checkProtocol(g *sim.Game, spec string) error {
	if p, ok := protocolOf(spec); ok {
		return p.check(g, spec)
	}
	return nil
}

// newProtocolAgent starts the agent of a spec of an original protocol;
// ok is false for any other spec.
func newProtocolAgent(ctx context.Context, g *sim.Game, spec string, setup sim.Setup, seat int, f *recordFlags) (a replay.Agent, ok bool, err error) {
	p, ok := protocolOf(spec)
	if !ok {
		return nil, false, nil
	}
	if err := p.check(g, spec); err != nil {
		return nil, true, err
	}
	opt := replay.ProcessOptions{Seat: seat, TurnLimit: f.turnLimit, StartLimit: f.startLimit}
	switch p.name {
	case "awap2019":
		b, err := awap.Start(ctx, p.team, opt)
		if err != nil {
			return nil, true, err
		}
		return b, true, nil
	case "entelect":
		b, err := entelect.Start(ctx, p.dir, setup.Ruleset, opt)
		if err != nil {
			return nil, true, err
		}
		return b, true, nil
	case "toad-solver":
		// The whole solve is the first turn's thinking.
		b, err := toadsolver.New(p.argv, max(f.startLimit, f.turnLimit))
		if err != nil {
			return nil, true, err
		}
		return b, true, nil
	case "foodfight-runner":
		b, err := bitbrawl.Start(ctx, p.argv, bitbrawl.Bank, opt)
		if err != nil {
			return nil, true, err
		}
		return b, true, nil
	}
	b, err := codenjoy.Start(ctx, codenjoy.Options{
		Seat: seat, TurnLimit: f.turnLimit, StartLimit: f.startLimit,
		Argv: p.argv, Announce: os.Stderr,
	})
	if err != nil {
		return nil, true, err
	}
	return b, true, nil
}

// protocolFingerprint is the fingerprint of a spec of an original
// protocol (replay.FingerprintProtocol): "" for a bot started by hand,
// whose code the recorder never sees. ok is false for any other spec.
func protocolFingerprint(spec string) (fp string, ok bool, err error) {
	p, ok := protocolOf(spec)
	if p.dir != "" {
		b, err := entelect.Load(p.dir)
		if err != nil {
			return "", true, err
		}
		fp, err = b.Fingerprint()
		return fp, true, err
	}
	if !ok || len(p.argv) == 0 {
		return "", ok, nil
	}
	fp, err = replay.FingerprintProtocol(p.name, p.argv)
	return fp, true, err
}

// protocolBotName is the player name a spec of an original protocol
// gives by default: the last argument of its command line that is not
// the URL placeholder, or the spec of a bot started by hand; for an AWAP
// player, whose file is always team.py, the directory that holds it.
func protocolBotName(spec string) (string, bool) {
	p, ok := protocolOf(spec)
	if !ok {
		return "", false
	}
	if p.team != "" {
		if base := filepath.Base(p.team); base != "team.py" {
			return base, true
		}
		return filepath.Base(filepath.Dir(p.team)), true
	}
	if p.dir != "" {
		return filepath.Base(p.dir), true
	}
	for i := len(p.argv) - 1; i >= 0; i-- {
		if arg := p.argv[i]; !strings.Contains(arg, codenjoy.Placeholder) && arg != toadsolver.InputArg && arg != toadsolver.OutputArg {
			return filepath.Base(p.argv[i]), true
		}
	}
	return spec, true
}
