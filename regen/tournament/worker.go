package tournament

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/store"
)

// Play plays a match between the bots of specs, one per seat, and returns
// its replay and what external bots wrote besides their answers. An error
// that a bot cannot run on this machine is a *SpecError.
type Play func(ctx context.Context, h replay.Header, specs []string, s Settings) (*replay.Log, []store.BotOutput, error)

// SpecError is a bot spec this machine cannot run: a program that is not
// there, or one whose code is not the code the tournament planned. Playing
// the job again here would fail again, so the job fails with it.
type SpecError struct {
	Seat int
	Err  error
}

func (e *SpecError) Error() string { return e.Err.Error() }
func (e *SpecError) Unwrap() error { return e.Err }

// maxBusyClaims bounds the claims in a row a worker tries when the
// database stays busy (each one waited for its busy timeout) before it
// gives up with the error.
const maxBusyClaims = 3

// runningPoll is how often a worker without a job looks again while
// another's job it could play is running: a count on an index and a
// claim, cheap enough to notice the end of the run soon.
const runningPoll = 250 * time.Millisecond

// Defaults of a Worker.
const (
	DefaultLease       = 30 * time.Second
	DefaultPoll        = 2 * time.Second
	DefaultMaxAttempts = 3
)

// Worker claims jobs from the database, plays them and stores their
// matches, one at a time.
type Worker struct {
	DB   *store.DB
	Play Play
	// Owner names the worker in leases (default: host, process and a
	// number).
	Owner string
	// Lease is how long a claim lasts without a heartbeat; the worker
	// extends it every third of it while it plays.
	Lease time.Duration
	// Tournament, when set, limits the worker to one tournament's jobs.
	Tournament string
	// Wait keeps the worker polling for new jobs every Poll when none is
	// left, until ctx ends.
	Wait bool
	Poll time.Duration
	// Once stops the worker after one job.
	Once bool
	// MaxAttempts bounds how often a job is claimed before it fails.
	MaxAttempts int
	// Report, when set, is told how every job this worker claimed ended:
	// the stored match, or why not: a *RetryError when the job was queued
	// again, store.ErrLeaseLost when another worker has it. Workers of one
	// Run call it one at a time.
	Report func(j *Job, rec *store.Record, err error)

	// ended wakes the waiting workers of one Run when one ends a job.
	ended *broadcast
}

// broadcast wakes everyone waiting on it at once.
type broadcast struct {
	mu sync.Mutex
	ch chan struct{}
}

// wait returns a channel that is closed at the next fire.
func (b *broadcast) wait() <-chan struct{} {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

func (b *broadcast) fire() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
}

var ownerSeq struct {
	sync.Mutex
	n int
}

func (w *Worker) defaults() {
	if w.Owner == "" {
		host, _ := os.Hostname()
		ownerSeq.Lock()
		ownerSeq.n++
		w.Owner = fmt.Sprintf("%s:%d:%d", host, os.Getpid(), ownerSeq.n)
		ownerSeq.Unlock()
	}
	if w.Lease <= 0 {
		w.Lease = DefaultLease
	}
	if w.Poll <= 0 {
		w.Poll = DefaultPoll
	}
	if w.MaxAttempts <= 0 {
		w.MaxAttempts = DefaultMaxAttempts
	}
}

// Run runs n copies of w (each its own Owner) until no job is left for
// them (or, with Wait, until ctx ends) and returns the errors that
// stopped them, joined: a database error or ctx's. A job that fails is
// reported and recorded as failed; it stops no worker.
func Run(ctx context.Context, n int, w Worker) error {
	var mu sync.Mutex
	report := w.Report
	w.Report = func(j *Job, rec *store.Record, err error) {
		if report != nil {
			mu.Lock()
			defer mu.Unlock()
			report(j, rec, err)
		}
	}
	w.ended = &broadcast{}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		c := w
		if n > 1 && c.Owner != "" {
			c.Owner = fmt.Sprintf("%s/%d", w.Owner, i+1)
		}
		wg.Go(func() { errs[i] = c.Run(ctx) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Run claims and plays jobs until none is left (see Worker).
func (w *Worker) Run(ctx context.Context) error {
	w.defaults()
	claim := store.Claim{Owner: w.Owner, Lease: w.Lease, Engines: Engines(), Tournament: w.Tournament, MaxAttempts: w.MaxAttempts}
	busy := 0 // claims in a row that found the database busy
	for {
		sj, err := w.DB.ClaimJob(ctx, claim)
		if errors.Is(err, store.ErrBusy) && busy < maxBusyClaims && ctx.Err() == nil {
			// Other workers hold the write lock: look again shortly.
			busy++
			select {
			case <-ctx.Done():
				return context.Cause(ctx)
			case <-time.After(w.Poll):
			}
			continue
		}
		busy = 0
		if errors.Is(err, store.ErrNoJob) {
			ended := w.ended.wait() // before counting, so no end is missed
			running, err := w.running(ctx, claim)
			if err != nil || running == 0 && !w.Wait {
				return err
			}
			// Others' jobs mostly end soon (or their lease runs out):
			// look again sooner than for new work.
			poll := w.Poll
			if running > 0 {
				poll = min(poll, runningPoll)
			}
			select {
			case <-ctx.Done():
				return context.Cause(ctx)
			case <-ended:
			case <-time.After(poll):
			}
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return err
		}
		err = w.do(ctx, sj)
		w.ended.fire()
		if err != nil {
			return err
		}
		if w.Once {
			return nil
		}
	}
}

// running counts the jobs a worker that found none to claim waits for:
// the ones it could play that are running elsewhere (their worker may
// die, and their lease run out). A worker with Once waits for none.
func (w *Worker) running(ctx context.Context, c store.Claim) (int, error) {
	if w.Once {
		return 0, nil
	}
	return w.DB.RunningJobs(ctx, c)
}

// do plays a claimed job and stores it, or records why not. It returns
// only what must stop the worker: ctx's end (the job goes back to the
// queue) or a database error.
func (w *Worker) do(ctx context.Context, sj *store.Job) error {
	j, err := decode(sj)
	if err != nil {
		j = &Job{Job: sj}
		err = fmt.Errorf("job %d: %w", sj.ID, err)
		w.report(j, nil, err)
		return w.DB.FailJob(context.WithoutCancel(ctx), sj.ID, w.Owner, err.Error(), false, w.MaxAttempts)
	}
	rec, err := w.play(ctx, j)
	if err == nil {
		err = w.DB.FinishJob(ctx, sj.ID, w.Owner, rec)
	}
	switch {
	case err == nil:
		w.report(j, rec, nil)
		return nil
	case ctx.Err() != nil:
		// Stopped, not failed: the next worker plays it from the start.
		if rerr := w.DB.ReleaseJob(context.WithoutCancel(ctx), sj.ID, w.Owner); rerr != nil && !errors.Is(rerr, store.ErrLeaseLost) {
			return errors.Join(context.Cause(ctx), rerr)
		}
		return context.Cause(ctx)
	case errors.Is(err, store.ErrLeaseLost):
		w.report(j, nil, err) // another worker has it
		return nil
	}
	var se *SpecError
	retry := !errors.As(err, &se)
	ferr := w.DB.FailJob(ctx, sj.ID, w.Owner, err.Error(), retry, w.MaxAttempts)
	if errors.Is(ferr, store.ErrLeaseLost) {
		w.report(j, nil, ferr)
		return nil
	}
	if retry && sj.Attempts < w.MaxAttempts {
		err = &RetryError{Attempt: sj.Attempts, Of: w.MaxAttempts, Err: err}
	}
	w.report(j, nil, err)
	return ferr
}

// RetryError is a job's failure that queued the job again, for another
// attempt.
type RetryError struct {
	Attempt, Of int
	Err         error
}

func (e *RetryError) Error() string {
	return fmt.Sprintf("%v (attempt %d of %d; queued again)", e.Err, e.Attempt, e.Of)
}
func (e *RetryError) Unwrap() error { return e.Err }

func (w *Worker) report(j *Job, rec *store.Record, err error) {
	if w.Report != nil {
		w.Report(j, rec, err)
	}
}

// play plays a job's match and regenerates it, extending the job's lease
// while it plays; a lost lease stops the match.
func (w *Worker) play(ctx context.Context, j *Job) (*store.Record, error) {
	pctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	beat := make(chan struct{})
	go func() {
		defer close(beat)
		t := time.NewTicker(w.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-pctx.Done():
				return
			case <-t.C:
				if err := w.DB.ExtendLease(pctx, j.ID, w.Owner, w.Lease); errors.Is(err, store.ErrLeaseLost) {
					stop(err)
					return
				}
				// Another error (a busy database) is tried again at the next beat.
			}
		}
	}()
	l, output, err := w.Play(pctx, j.Header, j.Specs, j.Settings)
	if err == nil {
		var rec *store.Record
		if rec, err = regen.Build(pctx, l); err == nil {
			rec.Output = output
			stop(nil)
			<-beat
			return rec, nil
		}
		err = fmt.Errorf("the recorded match does not regenerate (a simulator bug): %w", err)
	}
	stop(nil)
	<-beat
	if cause := context.Cause(pctx); errors.Is(cause, store.ErrLeaseLost) && ctx.Err() == nil {
		return nil, cause
	}
	return nil, err
}
