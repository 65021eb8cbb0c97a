package bitbrawl

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/replaytest"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/foodfight"
)

var update = flag.Bool("update", false, "rewrite the golden request in testdata/golden")

// goldenTurn is the first turn whose request the golden may hold: late
// enough for food in hands and on tables, flying food and scores; the
// golden's is the first from there with a collision and food in play.
const goldenTurn = 400

// TestGolden compares the request of Seat 1 before a turn of a fixed
// TEAM match with the golden, and its field's keys with the fields of the
// engine's FieldState and its parts (testdata/keys.txt, one path a line).
func TestGolden(t *testing.T) {
	setup := sim.Setup{Seed: 4, Players: 4, Config: []byte(`{"match_type":"TEAM"}`)}
	m, err := foodfight.Game.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	var bots []replay.Agent
	for s := range 4 {
		b, err := replay.NewBuiltin(foodfight.Game, []string{"thrower", "random", "walls", "thrower"}[s], setup, s)
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	for f := &m.View(0).(*foodfight.View).Field; m.Turn() < goldenTurn-1 || len(f.Collisions) == 0 || len(f.Food) == 0; f = &m.View(0).(*foodfight.View).Field {
		if m.Over() {
			t.Fatal("no turn with collisions and food")
		}
		cmds := make([]string, 4)
		for s, b := range bots {
			cmds[s] = b.Act(t.Context(), m.Turn()+1, m.View(s)).Command
		}
		if err := m.Step(cmds); err != nil {
			t.Fatal(err)
		}
	}
	a := &Agent{}
	got := a.request(nil, m.Turn()+1, m.View(0))
	path := filepath.Join("testdata", "golden", "request.txt")
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the request differs from %s (run with -update if the change is meant)", path)
	}

	// Three JSON values, the field and two one-letter strings.
	dec := json.NewDecoder(bytes.NewReader(got))
	var field any
	var team, player string
	for _, v := range []any{&field, &team, &player} {
		if err := dec.Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	if len(team) != 1 || len(player) != 1 {
		t.Errorf("got team %q and player %q, want one character each", team, player)
	}
	paths := replaytest.KeyPaths(field)
	keys, err := os.ReadFile(filepath.Join("testdata", "keys.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(keys)) {
		if k := strings.TrimSpace(line); k != "" && !strings.HasPrefix(k, "#") {
			if !paths[k] {
				t.Errorf("the field lacks %s", k)
			}
			delete(paths, k)
		}
	}
	for k := range paths {
		if !strings.HasPrefix(k, "teams[].score.") && !strings.HasPrefix(k, "teams[].players[].inventory.") {
			t.Errorf("the field has %s, which FieldState has not", k)
		}
	}
}

func TestAppendDouble(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {100, "100.0"}, {1.5, "1.5"}, {0.001, "0.001"}, {0.0001, "1.0E-4"},
		{1.25e-5, "1.25E-5"}, {1e7, "1.0E7"}, {9999999, "9999999.0"}, {-2.5, "-2.5"},
	} {
		if got := string(appendDouble(nil, tc.f)); got != tc.want {
			t.Errorf("appendDouble(%v) = %s, want %s as Java prints it", tc.f, got, tc.want)
		}
	}
}
