package replay_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/games"
)

var update = flag.Bool("update", false, "re-record the golden replays in ../testdata/golden")

// goldenDir holds one text replay per case with the state hash after every
// turn. They are the determinism proof: .ci/run runs this test natively,
// with GOAMD64=v3 and as an arm64 binary under qemu, and all must reproduce
// every hash. Re-record (go test ./replay -run Golden -update) only for new
// cases or a ruleset's new rules revision (sim.Game.Revisions, bumped with a
// changelog entry in docs/replay-format.md and the reason in the commit message), never to
// make a changed engine pass. A file re-recorded at a new revision has a
// new id (see goldenIDs).
const goldenDir = "../testdata/golden"

type goldenCase struct {
	name    string
	game    string
	ruleset string // "" = the game's default
	seed    uint64
	config  string
	bots    []string
}

var goldenCases = []goldenCase{
	{"toad-example", "toad", "", 0, `{"rolls":[21,21,10,14,27]}`, []string{"astar"}},
	{"toad-astar-50", "toad", "", 1, `{}`, []string{"astar"}},
	{"toad-astar-300", "toad", "", 20261122, `{"turns":300}`, []string{"astar"}},
	{"toad-random-1", "toad", "", 2, `{}`, []string{"random"}},
	{"toad-random-2", "toad", "", 3, `{"start_hp":40,"strict_hp":true}`, []string{"random"}},
	{"toad-published-plan", "toad", "", 0, `{"rolls":[21,21,10,14,27]}`, []string{"plan:G,A,G,A,F"}},
	{"worms-base-tactical-random", "worms", "", 11, `{}`, []string{"tactical", "random"}},
	{"worms-final-tactical-tactical", "worms", "final", 12, `{}`, []string{"tactical", "tactical"}},
	{"worms-final-random-tactical", "worms", "final", 4294967289, `{}`, []string{"random", "tactical"}},
	{"snake-greedy-random", "snake", "", 21, `{}`, []string{"greedy", "random", "random", "random", "random"}},
	{"snake-codenjoy-greedy", "snake", "codenjoy", 22, `{}`, []string{"greedy", "greedy", "random"}},
	{"toad-invalid-commands", "toad", "", 4, `{"rolls":[0,32,33,1,2,16,8,17,0,0,31]}`, []string{"plan:A,A,hop,G,G,l2,,  f ,R2,STAY,\\t"}},
}

// plan is a test agent that plays fixed commands, then nothing.
type plan []string

func (p *plan) Act(context.Context, int, any) replay.Answer {
	if len(*p) == 0 {
		return replay.Answer{}
	}
	c := (*p)[0]
	*p = (*p)[1:]
	return replay.Answer{Command: c}
}

func (p *plan) Close() replay.Output { return replay.Output{} }

func TestGoldenReplays(t *testing.T) {
	if *update {
		for _, c := range goldenCases {
			recordGolden(t, c)
		}
	}
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.rlog"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < len(goldenCases) {
		t.Fatalf("found %d golden replays in %s, want at least %d", len(files), goldenDir, len(goldenCases))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			l, err := replay.DecodeText(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Hashes) != len(l.Turns)+1 {
				t.Fatalf("%d hashes for %d turns: goldens hash every turn", len(l.Hashes), len(l.Turns))
			}
			if _, err := replay.Run(context.Background(), l, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func recordGolden(t *testing.T, c goldenCase) {
	t.Helper()
	g, err := games.Lookup(c.game)
	if err != nil {
		t.Fatal(err)
	}
	h := replay.NewHeader(g, c.ruleset, c.seed, []byte(c.config))
	var agents []replay.Agent
	for s, b := range c.bots {
		if cmds, ok := strings.CutPrefix(b, "plan:"); ok {
			p := plan(strings.Split(cmds, ","))
			h.Players = append(h.Players, replay.Player{Name: "plan"})
			agents = append(agents, &p)
			continue
		}
		h.Players = append(h.Players, replay.Player{Name: b, Version: "builtin"})
		a, err := replay.NewBuiltin(g, b, h.Setup(), s)
		if err != nil {
			t.Fatal(err)
		}
		agents = append(agents, a)
	}
	r := replay.Recorder{Header: h, Agents: agents, HashEvery: 1}
	l, err := r.Record(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	text, err := l.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(goldenDir, c.name+".rlog")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("wrote %s (%d turns)\n", path, len(l.Turns))
}
