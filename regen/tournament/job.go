package tournament

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/store"
)

// Settings are how a job's match is played: they travel with the job, so
// every worker plays a tournament's matches alike.
type Settings struct {
	HashEvery    int           `json:"hash_every"`
	TurnTimeout  time.Duration `json:"turn_timeout_ns"`
	StartTimeout time.Duration `json:"start_timeout_ns"`
}

// Job is a claimed job, decoded: the header of its match (this build's
// engine revision, which the claim ensured) and each seat's bot spec.
type Job struct {
	*store.Job
	Header   replay.Header
	Specs    []string
	Settings Settings
}

// jobKey names a planned match whatever plan it is in: its game, ruleset,
// config, seed and the name and version in each seat.
func (p *Plan) jobKey(fx Fixture) string {
	k := p.keyOf(fx)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%s", p.Game.Name, p.Base.Ruleset, p.Base.Config, k.seed, k.lineup)
	return hex.EncodeToString(h.Sum(nil))
}

// newJob is the job of a fixture. Its JSON holds strings, numbers and
// durations only, which always marshal.
func (p *Plan) newJob(fx Fixture) store.NewJob {
	h, specs := p.Header(fx)
	players, _ := json.Marshal(h.Players)
	specsJSON, _ := json.Marshal(specs)
	settings, _ := json.Marshal(p.Settings)
	return store.NewJob{
		Key: p.jobKey(fx), Tournament: p.ID(), Game: h.Game, Ruleset: h.Ruleset, Revision: h.RulesRevision(),
		Config: h.Config, Seed: fx.Seed, Players: players, Specs: specsJSON, Settings: settings,
	}
}

// Queue writes the tournament's matches that are not stored as jobs, in
// one transaction, and returns how many it plans to play and the stored
// matches. A match that is a job already stays one job. The jobs are
// made as they are written, so a plan of a million matches is never held
// as a million jobs.
func (p *Plan) Queue(ctx context.Context, db *store.DB) (todo int, stored map[Fixture]store.MatchSummary, err error) {
	if stored, err = p.Stored(ctx, db); err != nil {
		return 0, nil, err
	}
	jobs := func(yield func(store.NewJob) bool) {
		for _, fx := range p.Fixtures {
			if _, ok := stored[fx]; ok {
				continue
			}
			todo++
			if !yield(p.newJob(fx)) {
				return
			}
		}
	}
	if _, err := db.EnqueueJobs(ctx, jobs); err != nil {
		return 0, nil, err
	}
	return todo, stored, nil
}

// decode reads a claimed job's header, specs and settings. The claim
// chose a job of this build's revision, so the header is this build's.
func decode(sj *store.Job) (*Job, error) {
	g, err := games.Lookup(sj.Game)
	if err != nil {
		return nil, err
	}
	j := &Job{Job: sj}
	if err := json.Unmarshal(sj.Players, &j.Header.Players); err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	if err := json.Unmarshal(sj.Specs, &j.Specs); err != nil {
		return nil, fmt.Errorf("bot specs: %w", err)
	}
	if err := json.Unmarshal(sj.Settings, &j.Settings); err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	players := j.Header.Players
	j.Header = replay.NewHeader(g, sj.Ruleset, sj.Seed, sj.Config)
	j.Header.Players = players
	if j.Header.RulesRevision() != sj.Revision {
		return nil, fmt.Errorf("planned for rules revision %d of %s/%s; this build plays revision %d", sj.Revision, sj.Game, sj.Ruleset, j.Header.RulesRevision())
	}
	if len(j.Specs) != len(players) {
		return nil, fmt.Errorf("%d bot specs for %d seats", len(j.Specs), len(players))
	}
	if _, err := j.Header.Check(); err != nil {
		return nil, err
	}
	return j, nil
}

// Engines lists the game, ruleset and rules revision of every ruleset this
// build plays: the jobs its workers may claim.
func Engines() []store.Engine {
	var es []store.Engine
	for _, g := range games.All() {
		for _, r := range g.Rulesets {
			es = append(es, store.Engine{Game: g.Name, Ruleset: r, Revision: g.Revision(r)})
		}
	}
	return es
}
