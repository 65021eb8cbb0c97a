package regen_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/replaylab/replaylab/internal/golden"
	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
)

// A pairing is a match-up of built-in bots in one ruleset of a game, as
// `replaylab record --bot builtin:X` plays it: one bot name per seat.
type pairing struct {
	game    *sim.Game
	ruleset string
	bots    []string
}

func (p pairing) String() string {
	return p.game.Name + "/" + p.ruleset + "/" + strings.Join(p.bots, "-")
}

// pairings lists, for every ruleset of every registered game at its default
// player count, each built-in bot in every seat, then its bots taken in
// turn seat after seat until each has played, so each bot meets others.
func pairings() []pairing {
	var ps []pairing
	for _, g := range games.All() {
		for _, rs := range g.Rulesets {
			for _, b := range g.Bots {
				ps = append(ps, pairing{g, rs, seatsOf(g, func(int) string { return b.Name })})
			}
			for first := 0; len(g.Bots) > 1 && g.DefaultPlayers > 1 && first < len(g.Bots); first += g.DefaultPlayers {
				ps = append(ps, pairing{g, rs, seatsOf(g, func(s int) string { return g.Bots[(first+s)%len(g.Bots)].Name })})
			}
		}
	}
	return ps
}

func seatsOf(g *sim.Game, name func(seat int) string) []string {
	bots := make([]string, g.DefaultPlayers)
	for s := range bots {
		bots[s] = name(s)
	}
	return bots
}

// recordPairing records one match of p with the recorder the record
// command uses, hashing every 100 turns like its default.
func recordPairing(tb testing.TB, p pairing, seed uint64) *replay.Log {
	tb.Helper()
	return recordWith(tb, p, seed, func(a replay.Agent) replay.Agent { return a })
}

// recordWith is recordPairing with every agent wrapped by wrap.
func recordWith(tb testing.TB, p pairing, seed uint64, wrap func(replay.Agent) replay.Agent) *replay.Log {
	tb.Helper()
	h := replay.NewHeader(p.game, p.ruleset, seed, nil)
	for _, b := range p.bots {
		h.Players = append(h.Players, replay.Player{Name: b, Version: "builtin"})
	}
	agents := make([]replay.Agent, len(p.bots))
	for s, b := range p.bots {
		a, err := replay.NewBuiltin(p.game, b, h.Setup(), s)
		if err != nil {
			tb.Fatal(err)
		}
		agents[s] = wrap(a)
	}
	rec := replay.Recorder{Header: h, Agents: agents, HashEvery: 100}
	l, err := rec.Record(context.Background())
	if err != nil {
		tb.Fatalf("record %v seed %d: %v", p, seed, err)
	}
	return l
}

// TestBuiltinBotsGolden locks what every built-in bot plays: the match id
// (a digest of every command) and the final state of fixed seeds of every
// pairing. A speed-up that keeps the bot's play must not change a single
// command; a change of play (Snake greedy and Worms tactical keeping their
// plans across turns) regenerates the file with -update, its reason and
// the bot's strength before and after in the commit.
func TestBuiltinBotsGolden(t *testing.T) {
	var b bytes.Buffer
	for _, p := range pairings() {
		for seed := uint64(1); seed <= 3; seed++ {
			l := recordPairing(t, p, seed)
			id, err := l.ID()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%v seed=%d turns=%d end=%016x id=%s\n", p, seed, len(l.Turns), l.End.Sum, id)
		}
	}
	golden.Check(t, "testdata/bots.txt", b.Bytes())
}

// TestViewJSONGolden locks the views external bots receive: a digest of
// the JSON of every seat's view at every turn of a match of every pairing.
// Views may change shape in memory for the built-in bots, never on the
// wire.
func TestViewJSONGolden(t *testing.T) {
	var b bytes.Buffer
	for _, p := range pairings() {
		sum := sha256.New()
		_, err := replay.Run(context.Background(), recordPairing(t, p, 1), func(tv *replay.TurnView) error {
			for s := range p.bots {
				data, err := json.Marshal(tv.Match.View(s))
				if err != nil {
					return fmt.Errorf("turn %d seat %d: %w", tv.Turn, s, err)
				}
				sum.Write(data)
				sum.Write([]byte{'\n'})
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		fmt.Fprintf(&b, "%v seed=1 views=%x\n", p, sum.Sum(nil))
	}
	golden.Check(t, "testdata/views.txt", b.Bytes())
}

// jsonAgent hands its built-in bot each view as the JSON an external bot
// receives.
type jsonAgent struct{ replay.Agent }

func (a jsonAgent) Act(ctx context.Context, turn int, view any) replay.Answer {
	data, err := json.Marshal(view)
	if err != nil {
		panic(err) // a view the game built always encodes
	}
	return a.Agent.Act(ctx, turn, json.RawMessage(data))
}

// TestBuiltinBotsReadJSON: every built-in bot plays the same match from
// its views' JSON as from the views in memory, so a copy of it run as an
// external bot would too.
func TestBuiltinBotsReadJSON(t *testing.T) {
	for _, p := range pairings() {
		t.Run(p.String(), func(t *testing.T) {
			want, err := recordPairing(t, p, 1).ID()
			if err != nil {
				t.Fatal(err)
			}
			got, err := recordWith(t, p, 1, func(a replay.Agent) replay.Agent { return jsonAgent{a} }).ID()
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("got match %.12s from JSON views, want %.12s as from views in memory", got, want)
			}
		})
	}
}

// benchSeeds are the seeds each benchmark op plays, the same for recording
// and regenerating.
var benchSeeds = []uint64{11, 12}

// BenchmarkRecord measures recording a match with built-in bots
// (replay.Recorder, as `replaylab record` and `replaylab tournament` do);
// BenchmarkRegen regenerating the same matches into store records
// (regen.Build, as ingesting them does) and BenchmarkRun replaying them
// (replay.Run, the check `replaylab record` makes). Read the ratios of
// each pairing's cpu-ns/match from one run, one core per match as in a
// tournament:
//
//	go test ./regen -run '^$' -bench 'Record|Regen|Run' -benchtime 3x -count 3 -cpu 1
func BenchmarkRecord(b *testing.B) {
	for _, p := range pairings() {
		b.Run(p.String(), func(b *testing.B) {
			perMatch(b, func() {
				for _, seed := range benchSeeds {
					recordPairing(b, p, seed)
				}
			})
		})
	}
}

func BenchmarkRegen(b *testing.B) {
	benchLogs(b, func(l *replay.Log) error {
		_, err := regen.Build(context.Background(), l)
		return err
	})
}

func BenchmarkRun(b *testing.B) {
	benchLogs(b, func(l *replay.Log) error {
		_, err := replay.Run(context.Background(), l, nil)
		return err
	})
}

// benchLogs records the benchmark matches of every pairing once, then
// times f over them.
func benchLogs(b *testing.B, f func(*replay.Log) error) {
	for _, p := range pairings() {
		b.Run(p.String(), func(b *testing.B) {
			var logs []*replay.Log
			for _, seed := range benchSeeds {
				logs = append(logs, recordPairing(b, p, seed))
			}
			perMatch(b, func() {
				for _, l := range logs {
					if err := f(l); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// perMatch runs play, which plays every benchmark seed once, in the
// benchmark loop and reports the wall time and the CPU time per match. The
// CPU time counts every thread, the garbage collector's too; on a machine
// other work shares, it is the steadier of the two.
func perMatch(b *testing.B, play func()) {
	b.Helper()
	cpu := cpuTime(b)
	for b.Loop() {
		play()
	}
	cpu = cpuTime(b) - cpu
	matches := float64(b.N * len(benchSeeds))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/matches, "ns/match")
	b.ReportMetric(float64(cpu.Nanoseconds())/matches, "cpu-ns/match")
}

// cpuTime is the CPU time the process has used so far.
func cpuTime(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
