package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/sim/worms"
	"github.com/replaylab/replaylab/store"
	"github.com/replaylab/replaylab/store/pgtest"
)

// playBuiltin plays a match between built-in bots ("builtin:NAME" specs).
func playBuiltin(ctx context.Context, h replay.Header, specs []string, s Settings) (*replay.Log, []store.BotOutput, error) {
	g, err := games.Lookup(h.Game)
	if err != nil {
		return nil, nil, err
	}
	rec := &replay.Recorder{Header: h, HashEvery: s.HashEvery}
	for seat, spec := range specs {
		name, ok := strings.CutPrefix(spec, "builtin:")
		if !ok {
			return nil, nil, &SpecError{Seat: seat, Err: fmt.Errorf("%s: not a built-in bot", spec)}
		}
		a, err := replay.NewBuiltin(g, name, h.Setup(), seat)
		if err != nil {
			return nil, nil, err
		}
		rec.Agents = append(rec.Agents, a)
	}
	l, err := rec.Record(ctx)
	return l, nil, err
}

// wormsPlan plans a round robin of worms' two built-in bots on seeds
// short matches.
func wormsPlan(t testing.TB, seeds int) *Plan {
	t.Helper()
	p, err := New(Spec{
		Game: worms.Game, Config: json.RawMessage(`{"rounds":20}`), Format: RoundRobin, Seeds: seeds, SeedFrom: 1,
		Entrants: []Entrant{
			{Spec: "builtin:random", Player: replay.Player{Name: "random", Version: replay.BuiltinVersion}},
			{Spec: "builtin:tactical", Player: replay.Player{Name: "tactical", Version: replay.BuiltinVersion}},
		},
		Settings: Settings{HashEvery: 100},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func queued(t testing.TB, p *Plan) *store.DB {
	t.Helper()
	return queuedAt(t, p, filepath.Join(t.TempDir(), "t.db"))
}

// queuedAt is queued on the database at path: an SQLite file or a
// PostgreSQL URL.
func queuedAt(t testing.TB, p *Plan, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, _, err := p.Queue(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestRunStoresEveryJobOnce plays a tournament's jobs on four workers:
// every job is reported once, stored once and done.
func TestRunStoresEveryJobOnce(t *testing.T) {
	ctx := context.Background()
	p := wormsPlan(t, 3)
	db := queued(t, p)
	seen := map[string]int{}
	err := Run(ctx, 4, Worker{DB: db, Play: playBuiltin, Tournament: p.ID(), Report: func(j *Job, rec *store.Record, err error) {
		if err != nil {
			t.Errorf("job %d: %v", j.ID, err)
			return
		}
		if j.Tournament != p.ID() {
			t.Errorf("job %d is of tournament %s, want %s", j.ID, j.Tournament, p.ID())
		}
		seen[rec.ID]++
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(p.Fixtures) {
		t.Errorf("got %d matches reported, want %d", len(seen), len(p.Fixtures))
	}
	counts, err := db.JobCounts(ctx, p.ID())
	if err != nil || counts[store.JobDone] != len(p.Fixtures) || len(counts) != 1 {
		t.Errorf("got job counts %v (%v), want all %d done", counts, err, len(p.Fixtures))
	}
	stored, err := p.Stored(ctx, db)
	if err != nil || len(stored) != len(p.Fixtures) {
		t.Errorf("got %d fixtures stored (%v), want %d", len(stored), err, len(p.Fixtures))
	}
}

// TestRunFailures tries a job whose play fails MaxAttempts times before it
// fails, and fails a job whose bot cannot run here at once.
func TestRunFailures(t *testing.T) {
	tests := []struct {
		name         string
		err          error
		wantAttempts int
		wantRetries  int // reports of a job queued again, per job
	}{
		{"play fails", errors.New("the bot's pipe broke"), 3, 2},
		{"bot cannot run", &SpecError{Seat: 1, Err: errors.New("Seat 2 (./gone): no such file")}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			p := wormsPlan(t, 1)
			db := queued(t, p)
			retries, failures := 0, 0
			fail := func(context.Context, replay.Header, []string, Settings) (*replay.Log, []store.BotOutput, error) {
				return nil, nil, tt.err
			}
			err := Run(ctx, 2, Worker{DB: db, Play: fail, Report: func(j *Job, rec *store.Record, err error) {
				if errors.As(err, new(*RetryError)) {
					retries++
				} else if errors.Is(err, tt.err) {
					failures++
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.wantRetries * len(p.Fixtures); retries != want || failures != len(p.Fixtures) {
				t.Errorf("got %d retries and %d failures reported, want %d and %d", retries, failures, want, len(p.Fixtures))
			}
			jobs, err := db.Jobs(ctx, p.ID(), store.JobFailed, 10)
			if err != nil || len(jobs) != len(p.Fixtures) {
				t.Fatalf("got %d failed jobs (%v), want %d", len(jobs), err, len(p.Fixtures))
			}
			for _, j := range jobs {
				if j.Attempts != tt.wantAttempts || j.Reason != tt.err.Error() {
					t.Errorf("job %d: got %d attempts, reason %q; want %d, %q", j.ID, j.Attempts, j.Reason, tt.wantAttempts, tt.err)
				}
			}
		})
	}
}

// TestRunLeaseLost drops a match whose lease another worker took while it
// was played: the other worker's match is the one stored.
func TestRunLeaseLost(t *testing.T) {
	ctx := context.Background()
	p := wormsPlan(t, 1)
	p.Fixtures = p.Fixtures[:1]
	db := queued(t, p)
	var reported []error
	steal := func(ctx context.Context, h replay.Header, specs []string, s Settings) (*replay.Log, []store.BotOutput, error) {
		// The job goes back to the queue under the slow worker (as a
		// lease that ran out would), and another worker claims it and
		// stores its match first.
		running, err := db.Jobs(ctx, p.ID(), store.JobRunning, 1)
		if err != nil || len(running) != 1 {
			return nil, nil, fmt.Errorf("running jobs: %v, %v", running, err)
		}
		if err := db.ReleaseJob(ctx, running[0].ID, "slow"); err != nil {
			return nil, nil, err
		}
		other := Worker{DB: db, Play: playBuiltin, Owner: "other", Lease: time.Minute, Once: true}
		if err := other.Run(ctx); err != nil {
			return nil, nil, err
		}
		return playBuiltin(ctx, h, specs, s)
	}
	w := Worker{DB: db, Play: steal, Owner: "slow", Once: true,
		Report: func(j *Job, rec *store.Record, err error) { reported = append(reported, err) }}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if len(reported) != 1 || !errors.Is(reported[0], store.ErrLeaseLost) {
		t.Errorf("the slow worker reported %v, want its lease lost", reported)
	}
	if n, err := db.CountMatches(ctx); err != nil || n != 1 {
		t.Errorf("got %d matches (%v), want the other worker's one", n, err)
	}
}

// BenchmarkWorkers plays a tournament of short Worms matches (20 rounds,
// built-in bots) on 1, 2 and 4 workers sharing one SQLite file, and
// reports matches/s; with pgtest.Env set, again on a fresh PostgreSQL
// schema each run (postgres/workers=N).
func BenchmarkWorkers(b *testing.B) {
	type backend struct {
		prefix string
		fresh  func(b *testing.B) string
	}
	backends := []backend{{"", func(b *testing.B) string { return filepath.Join(b.TempDir(), "t.db") }}}
	if os.Getenv(pgtest.Env) != "" {
		backends = append(backends, backend{"postgres/", func(b *testing.B) string { return pgtest.Fresh(b) }})
	}
	for _, be := range backends {
		for _, n := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%sworkers=%d", be.prefix, n), func(b *testing.B) {
				p := wormsPlan(b, 50)
				matches := 0
				var played time.Duration
				for b.Loop() {
					b.StopTimer()
					db := queuedAt(b, p, be.fresh(b))
					b.StartTimer()
					start := time.Now()
					if err := Run(context.Background(), n, Worker{DB: db, Play: playBuiltin, Tournament: p.ID()}); err != nil {
						b.Fatal(err)
					}
					played += time.Since(start)
					matches += len(p.Fixtures)
				}
				b.ReportMetric(float64(matches)/played.Seconds(), "matches/s")
			})
		}
	}
}

// TestRunHeartbeat plays a match that lasts until its worker has extended
// its lease: the lease a worker holds moves on while it plays.
func TestRunHeartbeat(t *testing.T) {
	ctx := context.Background()
	p := wormsPlan(t, 1)
	db := queued(t, p)
	var first, later time.Time
	slow := func(ctx context.Context, h replay.Header, specs []string, s Settings) (*replay.Log, []store.BotOutput, error) {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			running, err := db.Jobs(ctx, p.ID(), store.JobRunning, 1)
			if err != nil || len(running) != 1 {
				return nil, nil, fmt.Errorf("running jobs: %v, %v", running, err)
			}
			if first.IsZero() {
				first = running[0].LeaseExpires
			} else if running[0].LeaseExpires.After(first) {
				later = running[0].LeaseExpires
				return playBuiltin(ctx, h, specs, s)
			}
		}
		return nil, nil, errors.New("the lease was never extended")
	}
	var reported []error
	w := Worker{DB: db, Play: slow, Lease: 150 * time.Millisecond, Once: true,
		Report: func(j *Job, rec *store.Record, err error) { reported = append(reported, err) }}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if len(reported) != 1 || reported[0] != nil {
		t.Fatalf("got reports %v, want the match stored", reported)
	}
	t.Logf("lease extended from %v to %v", first.Format(time.StampMilli), later.Format(time.StampMilli))
}
