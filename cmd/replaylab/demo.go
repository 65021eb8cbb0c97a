package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
	"github.com/replaylab/replaylab/web"
)

// demoMatchesPerGame is enough matches for leaderboard intervals to
// separate the bots and for the charts to have company.
const demoMatchesPerGame = 60

// demoSetup is a game's setup for some of its demo matches: the config
// and the number of seats, when it is not the game's DefaultPlayers.
type demoSetup struct {
	config  string
	players int
}

// demoSetups vary each game's setup across the demo matches, so the demo
// shows short and long matches, easy and hard ones, every FoodFight match
// type with its seat count and three career fair boards (three, so that
// each board meets both of the game's rulesets). Every game also cycles
// through all its rulesets (worms base and final, snake codebattle2020 and
// codenjoy), each with a different seed per match.
var demoSetups = map[string][]demoSetup{
	"toad": {
		{config: `{"turns":30}`},
		{config: `{"turns":50}`},
		{config: `{"turns":80}`},
		{config: `{"turns":50,"start_hp":10}`},
		{config: `{"turns":80,"start_hp":30}`},
		{config: `{"turns":50,"strict_hp":true}`},
	},
	"foodfight": {
		{config: `{"match_type":"DUEL"}`, players: 2},
		{config: `{"match_type":"FREE_FOR_ALL"}`, players: 3},
		{config: `{"match_type":"TEAM"}`, players: 4},
	},
	"careerfair": {
		{config: `{"board":"gates6"}`},
		{config: `{"board":"sample"}`},
		{config: `{"board":"gates4"}`},
	},
}

// demoMatch is one match of the demo to record.
type demoMatch struct {
	game    *sim.Game
	ruleset string
	seed    uint64
	// config is the game's setup for this match.
	config string
	bots   []string // one built-in bot per seat
	// draw keeps the drawings of the bots that draw (sim.Drawer), as
	// record --builtin-debug does: the first round of each game's
	// matches, so that every game shows them.
	draw bool
	// recorded, when not nil, is a match already recorded with an
	// external bot (a binary replay), stored with its bot output file
	// instead of being played.
	recorded *recordedDemo
}

// recordedDemo is a demo match recorded with an external bot.
type recordedDemo struct {
	replay, output []byte
}

// The README's starter bot (docs/examples/first_bot.py) against
// builtin:tactical on Worms seed 3, recorded with `record`: the demo's
// one match of an external bot, so that its debug drawings, its stderr
// and its answer times show in the inspector without installing Python.
//
//go:embed demodata/first-bot.rpl
var firstBotReplay []byte

//go:embed demodata/first-bot.rpl.output.jsonl
var firstBotOutput []byte

// demoPlan lists the demo's matches: for every game, rounds in which its
// built-in bots take turns in the seats on one seed and setup, so every
// bot meets every setup and the bots can be compared seed by seed.
func demoPlan() []demoMatch {
	var plan []demoMatch
	for _, g := range games.All() {
		if len(g.Bots) == 0 {
			continue
		}
		setups := demoSetups[g.Name]
		if len(setups) == 0 {
			setups = []demoSetup{{config: "{}"}}
		}
		for i := range demoMatchesPerGame {
			round := i / len(g.Bots)
			setup := setups[round%len(setups)]
			m := demoMatch{game: g, ruleset: g.Rulesets[round%len(g.Rulesets)], seed: uint64(1000 + round), config: setup.config, draw: round == 0}
			players := setup.players
			if players == 0 {
				players = g.DefaultPlayers
			}
			for seat := range players {
				m.bots = append(m.bots, g.Bots[(i+seat)%len(g.Bots)].Name)
			}
			plan = append(plan, m)
		}
	}
	if m, err := recordedDemoMatch(firstBotReplay, firstBotOutput); err == nil {
		plan = append(plan, m)
	}
	return plan
}

// recordedDemoMatch describes a recorded demo match by its replay's
// header.
func recordedDemoMatch(rpl, output []byte) (demoMatch, error) {
	l, err := replay.DecodeBinary(rpl)
	if err != nil {
		return demoMatch{}, err
	}
	g, err := l.Check()
	if err != nil {
		return demoMatch{}, err
	}
	m := demoMatch{game: g, ruleset: l.Header.Ruleset, seed: l.Header.Seed, config: string(l.Header.Config), recorded: &recordedDemo{rpl, output}}
	for _, p := range l.Header.Players {
		m.bots = append(m.bots, p.Name)
	}
	return m, nil
}

// header is the match's replay header, its players named after their bots.
func (m demoMatch) header() replay.Header {
	h := replay.NewHeader(m.game, m.ruleset, m.seed, json.RawMessage(m.config))
	for _, b := range m.bots {
		h.Players = append(h.Players, replay.Player{Name: b, Version: replay.BuiltinVersion})
	}
	return h
}

// recordDemo plays one demo match and regenerates it into a store record;
// a recorded one is regenerated from its replay, with its bot output.
func recordDemo(ctx context.Context, m demoMatch) (*store.Record, error) {
	if m.recorded != nil {
		l, err := replay.DecodeBinary(m.recorded.replay)
		if err != nil {
			return nil, err
		}
		rec, err := regen.Build(ctx, l)
		if err != nil {
			return nil, err
		}
		if rec.Output, err = store.ReadBotOutput(bytes.NewReader(m.recorded.output)); err != nil {
			return nil, err
		}
		return rec, nil
	}
	h := m.header()
	if _, err := h.Check(); err != nil {
		return nil, err
	}
	specs := make([]string, len(m.bots))
	for seat, b := range m.bots {
		specs[seat] = "builtin:" + b
	}
	f := &recordFlags{hashEvery: 100, builtinDebug: m.draw}
	var botOut *outputLog
	if m.draw {
		botOut = &outputLog{} // kept for the store, saved nowhere
	}
	l, err := recordMatch(ctx, m.game, &replay.Recorder{Header: h}, specs, f, botOut)
	if err != nil {
		return nil, err
	}
	rec, err := regen.Build(ctx, l)
	if err != nil {
		return nil, err
	}
	if botOut != nil {
		rec.Output = botOut.lines
	}
	return rec, nil
}

// demoToRecord returns the demo's plan for an empty database, and none
// for a database that has matches: the demo never mixes with real data.
func demoToRecord(ctx context.Context, db *store.DB, stdout io.Writer) ([]demoMatch, error) {
	n, err := db.CountMatches(ctx)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		fmt.Fprintf(stdout, "demo: the database already has %d matches; left unchanged\n", n)
		return nil, nil
	}
	return demoPlan(), nil
}

// fillDemo records the plan's matches, building them in parallel and
// writing them through the one writer, and counts them in fill, which the
// caller has started, as they are stored; it finishes fill when done. A
// match that fails is reported and skipped. It runs beside the server, so
// it reports to stdout and stderr instead of returning an error, and
// returns whether it stored matches.
func fillDemo(ctx context.Context, db *store.DB, plan []demoMatch, fill *web.Fill, stdout, stderr io.Writer) bool {
	defer fill.Finish()
	start := time.Now()
	fmt.Fprintf(stdout, "demo: recording %d matches between built-in bots, and the starter bot's\n", len(plan))
	bar := newProgress(stderr, len(plan), "demo", "matches")
	stored, failed := 0, 0
	buildAll(ctx, runtime.GOMAXPROCS(0), plan, recordDemo, func(m demoMatch, rec *store.Record, err error) {
		if err == nil {
			_, err = db.Ingest(ctx, rec)
		}
		switch {
		case err == nil:
			stored++
		case ctx.Err() != nil:
			return // when stopping, the failures are the stop's
		default:
			// A game whose bots fail should not keep the others' demo
			// matches, and the dashboard, from the user.
			failed++
			bar.println(fmt.Sprintf("demo %s/%s seed %d: %v", m.game.Name, m.ruleset, m.seed, err))
		}
		fill.Step(err)
		bar.step()
	})
	bar.done()
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(stdout, "demo: stopped after storing %d of %d matches\n", stored, len(plan))
	case stored == 0 && failed > 0:
		fmt.Fprintf(stderr, "demo: all %d matches failed\n", failed)
	default:
		fmt.Fprintf(stdout, "demo: stored %d matches (%d failed) in %v\n", stored, failed, time.Since(start).Round(time.Millisecond))
	}
	return stored > 0
}
