package replay_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

// recordBuiltins records r's match with one built-in bot per seat, a
// state hash every 10 turns.
func recordBuiltins(t testing.TB, r replay.Recorder, bots ...string) (*replay.Log, []replay.Agreement) {
	t.Helper()
	h := r.Header
	g, err := games.Lookup(h.Game)
	if err != nil {
		t.Fatal(err)
	}
	agents := make([]replay.Agent, len(bots))
	for s, name := range bots {
		if agents[s], err = replay.NewBuiltin(g, name, h.Setup(), s); err != nil {
			t.Fatal(err)
		}
	}
	r.Agents, r.HashEvery = agents, 10
	l, err := r.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return l, r.Agreements
}

// snakeMatch records a 3-seat Snake match of greedy bots.
func snakeMatch(t testing.TB) *replay.Log {
	t.Helper()
	g, _ := games.Lookup("snake")
	h := replay.NewHeader(g, "", 3, nil)
	h.Players = []replay.Player{{Name: "greedy"}, {Name: "greedy"}, {Name: "greedy"}}
	l, _ := recordBuiltins(t, replay.Recorder{Header: h}, "greedy", "greedy", "greedy")
	return l
}

func forkOf(t testing.TB, from *replay.Log, at int) replay.Header {
	t.Helper()
	h, err := replay.Fork(from, at)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestFork(t *testing.T) {
	parent := snakeMatch(t)
	id, _ := parent.ID()
	at := len(parent.Turns) / 2
	tests := []struct {
		name  string
		bots  []string
		force map[int]string
		// differs says which seats' bots answer otherwise than recorded
		// before the fork turn.
		differs []bool
		same    bool // the fork plays the parent's match to its end
	}{
		{name: "same bots", bots: []string{"greedy", "greedy", "greedy"}, differs: []bool{false, false, false}, same: true},
		{name: "seat 2 replaced", bots: []string{"greedy", "random", "greedy"}, differs: []bool{false, true, false}},
		{name: "forced", bots: []string{"greedy", "greedy", "greedy"}, force: map[int]string{2: "LEFT,ACT"}, differs: []bool{false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, agree := recordBuiltins(t, replay.Recorder{Header: forkOf(t, parent, at), From: parent, At: at, Force: tt.force}, tt.bots...)
			if p := l.Header.Parent; p == nil || p.Match != id || p.Turn != at {
				t.Errorf("got parent %+v, want match %s turn %d", p, id, at)
			}
			for turn := range at {
				if !slices.Equal(l.Turns[turn], parent.Turns[turn]) {
					t.Fatalf("turn %d: got %q, want the recorded %q", turn+1, l.Turns[turn], parent.Turns[turn])
				}
			}
			for s, a := range agree {
				if a.Turn != 0 != tt.differs[s] || a.Turn > at {
					t.Errorf("%s: got %q (turn %d), want a difference before turn %d %v", sim.SeatName(s), a, a.Turn, at+1, tt.differs[s])
				}
			}
			if got := slices.EqualFunc(l.Turns, parent.Turns, slices.Equal); got != tt.same {
				t.Errorf("got the fork playing the parent's commands %v, want %v", got, tt.same)
			}
			for s, c := range tt.force {
				if got := l.Turns[at][s]; got != c {
					t.Errorf("%s at turn %d: got %q, want the forced %q", sim.SeatName(s), at+1, got, c)
				}
			}
			if _, err := replay.Run(context.Background(), roundTrip(t, l), nil); err != nil {
				t.Errorf("the fork does not verify: %v", err)
			}
		})
	}
}

// roundTrip encodes a log in binary and decodes it again.
func roundTrip(t *testing.T, l *replay.Log) *replay.Log {
	t.Helper()
	enc, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := replay.DecodeBinary(enc.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	text, err := l.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.DecodeText(strings.NewReader(string(text))); err != nil {
		t.Fatalf("text: %v", err)
	}
	return back
}

// TestForkLineage forks a fork of a fork: each names its direct parent.
func TestForkLineage(t *testing.T) {
	l := snakeMatch(t)
	for gen, at := range []int{20, 40, 60} {
		id, _ := l.ID()
		child, _ := recordBuiltins(t, replay.Recorder{Header: forkOf(t, l, at), From: l, At: at}, "greedy", "random", "greedy")
		if p := roundTrip(t, child).Header.Parent; p == nil || p.Match != id || p.Turn != at {
			t.Fatalf("generation %d: got parent %+v, want %s at %d", gen+1, p, id, at)
		}
		l = child
	}
}

func TestForkRefuses(t *testing.T) {
	parent := snakeMatch(t)
	tampered := *parent
	tampered.Hashes = slices.Clone(parent.Hashes)
	tampered.Hashes[2].Sum++ // turn 20
	bad := tampered.Hashes[2].Turn
	h := forkOf(t, parent, 30)
	g, _ := games.Lookup("snake")
	agents := func() []replay.Agent {
		a := make([]replay.Agent, 3)
		for s := range a {
			a[s], _ = replay.NewBuiltin(g, "greedy", h.Setup(), s)
		}
		return a
	}
	tests := []struct {
		name string
		r    replay.Recorder
		want string
	}{
		{"parent does not reproduce", replay.Recorder{Header: h, From: &tampered, At: 30}, "turn " + strconv.Itoa(bad) + ": state hash"},
		{"turn past the end", replay.Recorder{Header: h, From: parent, At: len(parent.Turns)}, "a fork takes turns"},
		{"header of another turn", replay.Recorder{Header: h, From: parent, At: 31}, "names its parent and turn"},
		{"forced seat it lacks", replay.Recorder{Header: h, From: parent, At: 30, Force: map[int]string{3: "UP"}}, "Seat 4 of a match of 3 seats"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.r.Agents = agents()
			_, err := tt.r.Record(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
	if _, err := replay.Fork(parent, 0); err == nil {
		t.Error("Fork at turn 0: got no error")
	}
	var de *replay.DivergenceError
	r := replay.Recorder{Header: h, From: &tampered, At: 30, Agents: agents()}
	if _, err := r.Record(context.Background()); !errors.As(err, &de) || de.Turn != bad {
		t.Errorf("got %v, want a divergence at turn %d", err, bad)
	}
}

func TestHeaderParentStrict(t *testing.T) {
	base := `{"format":"replaylab/1","game":"toad","seed":1,"players":[{"name":"a"}],"parent":`
	id := strings.Repeat("ab", 32)
	tests := []struct{ parent, want string }{
		{`{"match":"` + id + `","turn":3,"extra":1}`, "extra"},
		{`{"match":"` + id + `"}`, `missing field "turn"`},
		{`{"match":"ABC","turn":3}`, "not a match id"},
		{`{"match":"` + id + `","turn":0}`, "turn 0"},
	}
	for _, tt := range tests {
		_, err := replay.DecodeText(strings.NewReader(base + tt.parent + "}\n"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parent %s: got %v, want an error with %q", tt.parent, err, tt.want)
		}
	}
}

// TestForkCatchUpTimeout: an external bot that answers a turn of the
// catch-up late is reported as differing there, not refused, and plays on
// live.
func TestForkCatchUpTimeout(t *testing.T) {
	bot := buildBot(t)
	stay := func() replay.Agent {
		p, err := replay.StartProcess(context.Background(), []string{bot, "plain"}, replay.ProcessOptions{TurnLimit: 200 * time.Millisecond, StartLimit: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	parent, _ := recordMatch(t, recordHeader(), stay())
	slow, err := replay.StartProcess(context.Background(), []string{bot, "slow"}, replay.ProcessOptions{TurnLimit: 200 * time.Millisecond, StartLimit: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	r := replay.Recorder{Header: forkOf(t, parent, 5), Agents: []replay.Agent{slow}, From: parent, At: 5}
	l, err := r.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a := r.Agreements[0]; a.Turn != 3 || a.Note != sim.EventTimeout {
		t.Errorf("got %q, want a time-out at turn 3", a)
	}
	if len(l.Turns) != len(parent.Turns) || len(l.Notes) != 0 {
		t.Errorf("got %d turns and notes %v, want %d turns and the parent's notes (none)", len(l.Turns), l.Notes, len(parent.Turns))
	}
}

// TestForkResult checks that Record gives the result of the match it
// played, the one its log regenerates, for critical to compare outcomes
// without regenerating every fork.
func TestForkResult(t *testing.T) {
	parent := snakeMatch(t)
	g, _ := games.Lookup("snake")
	at := len(parent.Turns) / 2
	agents := make([]replay.Agent, len(parent.Header.Players))
	for s := range agents {
		agents[s], _ = replay.NewBuiltin(g, "greedy", parent.Header.Setup(), s)
	}
	r := replay.Recorder{Header: forkOf(t, parent, at), Agents: agents, From: parent, At: at, Force: map[int]string{0: "ACT"}}
	l, err := r.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	m, err := replay.Run(context.Background(), l, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Result, m.Result(); !reflect.DeepEqual(got, want) {
		t.Errorf("got result %+v, want the regenerated %+v", got, want)
	}
}
