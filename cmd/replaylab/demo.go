package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// demoMatchesPerGame is enough matches for leaderboard intervals to
// separate the bots and for the charts to have company.
const demoMatchesPerGame = 60

// demoConfigs vary each game's setup across the demo matches, so the
// demo shows short and long matches, easy and hard ones. A game with no
// entry plays its default setup (with a different seed each match).
var demoConfigs = map[string][]string{
	"toad": {
		`{"turns":30}`,
		`{"turns":50}`,
		`{"turns":80}`,
		`{"turns":50,"start_hp":10}`,
		`{"turns":80,"start_hp":30}`,
		`{"turns":50,"strict_hp":true}`,
	},
}

// demoMatch is one match of the demo to record.
type demoMatch struct {
	game *sim.Game
	seed uint64
	// config is the game's setup for this match.
	config string
	bots   []string // one built-in bot per seat
}

// demoPlan lists the demo's matches: for every game, rounds in which its
// built-in bots take turns in the seats on one seed and setup, so every
// bot meets every setup and the bots can be compared seed by seed.
func demoPlan() []demoMatch {
	var plan []demoMatch
	for _, g := range games.All() {
		if len(g.Bots) == 0 {
			continue
		}
		configs := demoConfigs[g.Name]
		if len(configs) == 0 {
			configs = []string{"{}"}
		}
		for i := range demoMatchesPerGame {
			round := i / len(g.Bots)
			m := demoMatch{game: g, seed: uint64(1000 + round), config: configs[round%len(configs)]}
			for seat := range g.DefaultPlayers {
				m.bots = append(m.bots, g.Bots[(i+seat)%len(g.Bots)].Name)
			}
			plan = append(plan, m)
		}
	}
	return plan
}

// record plays one demo match and regenerates it into a store record.
func (m demoMatch) record(ctx context.Context) (*store.Record, error) {
	h := replay.Header{Format: replay.Format, Game: m.game.Name, Seed: m.seed, Config: json.RawMessage(m.config)}
	for _, b := range m.bots {
		h.Players = append(h.Players, replay.Player{Name: b, Version: "builtin"})
	}
	if _, err := h.Check(); err != nil {
		return nil, err
	}
	agents := make([]replay.Agent, len(m.bots))
	for seat, b := range m.bots {
		a, err := replay.NewBuiltin(m.game, b, h.Setup(), seat)
		if err != nil {
			return nil, err
		}
		agents[seat] = a
	}
	rec := replay.Recorder{Header: h, Agents: agents, HashEvery: 100}
	l, err := rec.Record(ctx)
	if err != nil {
		return nil, err
	}
	return store.Build(l)
}

// fillDemo records the demo matches into an empty database, building them
// in parallel and writing them through the one writer. A match that fails
// is reported and skipped. A database that has matches is left alone: the
// demo never mixes with real data.
func fillDemo(ctx context.Context, db *store.DB, stdout, stderr io.Writer) error {
	n, err := db.CountMatches(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		fmt.Fprintf(stdout, "demo: the database already has %d matches; left unchanged\n", n)
		return nil
	}
	plan := demoPlan()
	start := time.Now()
	type result struct {
		rec *store.Record
		err error
	}
	jobs := make(chan demoMatch)
	results := make(chan result)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for m := range jobs {
				rec, err := m.record(ctx)
				if err != nil {
					err = fmt.Errorf("demo %s seed %d: %w", m.game.Name, m.seed, err)
				}
				results <- result{rec, err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for _, m := range plan {
			select {
			case jobs <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	fmt.Fprintf(stdout, "demo: recording %d matches between built-in bots\n", len(plan))
	bar := newProgress(stderr, len(plan))
	stored, failed := 0, 0
	for r := range results {
		if r.err == nil {
			_, r.err = db.Ingest(ctx, r.rec)
		}
		if r.err != nil {
			// A game whose bots fail should not keep the others' demo
			// matches, and the dashboard, from the user.
			failed++
			bar.println(r.err.Error())
		} else {
			stored++
		}
		bar.step()
	}
	bar.done()
	if err := ctx.Err(); err != nil {
		return err
	}
	if stored == 0 && failed > 0 {
		return fmt.Errorf("demo: all %d matches failed", failed)
	}
	fmt.Fprintf(stdout, "demo: stored %d matches (%d failed) in %v\n", stored, failed, time.Since(start).Round(time.Millisecond))
	return nil
}
