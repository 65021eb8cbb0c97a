package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/awap"
	"github.com/replaylab/replaylab/replay/codenjoy"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/careerfair"
	"github.com/replaylab/replaylab/sim/snake"
)

// The bot specs of the original games' protocols (README "Original bot
// protocols"): a bot written for the original runner plays unchanged.
const (
	// codenjoyPrefix starts the command line of a CodeBattle Snake bot,
	// in which {url} stands for its board URL.
	codenjoyPrefix = "codenjoy:"
	// codenjoyListen waits for a CodeBattle bot started by hand.
	codenjoyListen = "codenjoy-listen"
	// awapPrefix starts the path of an AWAP 2019 player's team.py.
	awapPrefix = "awap2019:"
)

// protocol is an original bot protocol a spec names.
type protocol struct {
	name string    // as fingerprints and messages name it
	game *sim.Game // the only game it plays
	argv []string  // the command line after the prefix
	team string    // awap2019: the team file
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
	}
	return protocol{}, false
}

// check refuses a protocol seated in another game than its own, and a
// prefix with no command after it.
func (p protocol) check(g *sim.Game, spec string) error {
	if g != p.game {
		return fmt.Errorf("%s bots play %s only, not %s", p.name, p.game.Name, g.Name)
	}
	if spec != codenjoyListen && len(p.argv) == 0 {
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
func newProtocolAgent(ctx context.Context, g *sim.Game, spec string, seat int, f *recordFlags) (a replay.Agent, ok bool, err error) {
	p, ok := protocolOf(spec)
	if !ok {
		return nil, false, nil
	}
	if err := p.check(g, spec); err != nil {
		return nil, true, err
	}
	if p.team != "" {
		b, err := awap.Start(ctx, p.team, replay.ProcessOptions{Seat: seat, TurnLimit: f.turnLimit, StartLimit: f.startLimit})
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
	for i := len(p.argv) - 1; i >= 0; i-- {
		if !strings.Contains(p.argv[i], codenjoy.Placeholder) {
			return filepath.Base(p.argv[i]), true
		}
	}
	return spec, true
}
