package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var testEngine = Engine{Game: "worms", Ruleset: "base", Revision: 1}

func testJob(n int) NewJob {
	return NewJob{
		Key: fmt.Sprintf("job %d", n), Tournament: "t1", Game: "worms", Ruleset: "base", Revision: 1,
		Config: json.RawMessage("{}"), Seed: uint64(n), Players: json.RawMessage(`[{"name":"a"},{"name":"b"}]`),
		Specs: json.RawMessage(`["builtin:random","builtin:random"]`), Settings: json.RawMessage("{}"),
	}
}

func claim(t *testing.T, db *DB, owner string, lease time.Duration) *Job {
	t.Helper()
	j, err := db.ClaimJob(context.Background(), Claim{Owner: owner, Lease: lease, Engines: []Engine{testEngine}, MaxAttempts: 3})
	if err != nil {
		t.Fatalf("%s: claim: %v", owner, err)
	}
	return j
}

// TestJobLifecycle queues jobs, claims them, loses a lease to another
// worker and finishes each job once: the match is stored by the worker
// holding the lease only, and planning the same matches again queues
// nothing.
func TestJobLifecycle(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		if n, err := db.EnqueueJobs(ctx, slices.Values([]NewJob{testJob(1), testJob(2)})); err != nil || n != 2 {
			t.Fatalf("enqueue: got %d, %v; want 2 queued", n, err)
		}
		if n, err := db.EnqueueJobs(ctx, slices.Values([]NewJob{testJob(1), testJob(2)})); err != nil || n != 0 {
			t.Fatalf("enqueue again: got %d, %v; want none: a planned match is one job", n, err)
		}

		// A's lease runs out at once; B claims the expired job before the
		// queued one, and A can no longer extend or store it.
		a := claim(t, db, "A", -time.Second)
		if a.Key != "job 1" || a.Attempts != 1 || a.State != JobRunning {
			t.Fatalf("A claimed %+v, want job 1 running, attempt 1", a)
		}
		b := claim(t, db, "B", time.Minute)
		if b.ID != a.ID || b.Attempts != 2 {
			t.Fatalf("B claimed %s attempt %d, want A's expired job 1 on attempt 2", b.Key, b.Attempts)
		}
		if err := db.ExtendLease(ctx, a.ID, "A", time.Minute); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("A's heartbeat: got %v, want ErrLeaseLost", err)
		}
		if err := db.FinishJob(ctx, a.ID, "A", makeRecord(t, recordSpec{id: testID(1), turns: 3})); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("A stores: got %v, want ErrLeaseLost", err)
		}
		if n, _ := db.CountMatches(ctx); n != 0 {
			t.Errorf("after A's refused store: %d matches, want 0", n)
		}
		if err := db.FinishJob(ctx, b.ID, "B", makeRecord(t, recordSpec{id: testID(2), turns: 3})); err != nil {
			t.Fatalf("B stores: %v", err)
		}
		if err := db.FinishJob(ctx, b.ID, "B", makeRecord(t, recordSpec{id: testID(3), turns: 3})); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("B stores twice: got %v, want ErrLeaseLost", err)
		}
		if n, _ := db.CountMatches(ctx); n != 1 {
			t.Errorf("got %d matches, want 1", n)
		}

		// The other job fails for good when not retried.
		c := claim(t, db, "C", time.Minute)
		if err := db.FailJob(ctx, c.ID, "C", "Seat 2 (./gone): no such program", false, 3); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ClaimJob(ctx, Claim{Owner: "D", Lease: time.Minute, Engines: []Engine{testEngine}, MaxAttempts: 3}); !errors.Is(err, ErrNoJob) {
			t.Errorf("claim with every job done or failed: got %v, want ErrNoJob", err)
		}
		counts, err := db.JobCounts(ctx, "t1")
		if err != nil || counts[JobDone] != 1 || counts[JobFailed] != 1 {
			t.Errorf("got counts %v, %v; want 1 done, 1 failed", counts, err)
		}
		done, err := db.Jobs(ctx, "t1", JobDone, 10)
		if err != nil || len(done) != 1 || done[0].MatchID != testID(2) {
			t.Errorf("done jobs: got %+v, %v; want job 1 with B's match", done, err)
		}
		failed, err := db.Jobs(ctx, "", JobFailed, 10)
		if err != nil || len(failed) != 1 || !strings.Contains(failed[0].Reason, "no such program") {
			t.Errorf("failed jobs: got %+v, %v; want job 2 with its reason", failed, err)
		}

		// Planning again queues the failed job again, not the stored one.
		if n, err := db.EnqueueJobs(ctx, slices.Values([]NewJob{testJob(2)})); err != nil || n != 1 {
			t.Errorf("enqueue the failed job: got %d, %v; want 1 queued again", n, err)
		}
	})
}

// TestJobAttemptsBounded fails a job whose workers keep dying (leases that
// run out) after MaxAttempts claims, and one whose play fails that often.
func TestJobAttemptsBounded(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		if _, err := db.EnqueueJobs(ctx, slices.Values([]NewJob{testJob(1), testJob(2)})); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			claim(t, db, "dies", -time.Second)
		}
		j := claim(t, db, "fails", time.Minute)
		if j.Key != "job 2" {
			t.Fatalf("claimed %s after 3 lost leases of job 1, want job 2", j.Key)
		}
		for i := range 3 {
			if err := db.FailJob(ctx, j.ID, "fails", "regeneration failed", true, 3); err != nil {
				t.Fatal(err)
			}
			if i < 2 {
				j = claim(t, db, "fails", time.Minute)
			}
		}
		failed, err := db.Jobs(ctx, "t1", JobFailed, 10)
		if err != nil || len(failed) != 2 {
			t.Fatalf("got %d failed jobs (%v), want 2", len(failed), err)
		}
		if !strings.Contains(failed[0].Reason, "its worker stopped") || failed[1].Reason != "regeneration failed" {
			t.Errorf("got reasons %q and %q", failed[0].Reason, failed[1].Reason)
		}
	})
}

// TestJobOtherRevision leaves a job planned under another rules revision
// to the workers that play it, and counts it for the worker to say so.
func TestJobOtherRevision(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		db := open(t)
		j := testJob(1)
		j.Revision = 2
		if _, err := db.EnqueueJobs(ctx, slices.Values([]NewJob{j})); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ClaimJob(ctx, Claim{Owner: "r1", Lease: time.Minute, Engines: []Engine{testEngine}, MaxAttempts: 3}); !errors.Is(err, ErrNoJob) {
			t.Errorf("a revision-1 worker claims a revision-2 job: got %v, want ErrNoJob", err)
		}
		others, err := db.JobsFor(ctx, []Engine{testEngine})
		if want := (Engine{"worms", "base", 2}); err != nil || len(others) != 1 || others[want] != 1 {
			t.Errorf("got jobs of other engines %v, %v; want 1 of %v", others, err, want)
		}
		if _, err := db.ClaimJob(ctx, Claim{Owner: "r2", Lease: time.Minute, Engines: []Engine{{"worms", "base", 2}}, MaxAttempts: 3}); err != nil {
			t.Errorf("a revision-2 worker: %v", err)
		}
	})
}

// TestJobConcurrentClaims claims jobs from eight goroutines at once, first
// queued ones, then the same jobs again once their leases ran out: each
// is claimed once per round while its lease holds, and none is left. On
// PostgreSQL a store holds the write lock all the while: claims and
// heartbeats do not wait for it.
func TestJobConcurrentClaims(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		db := open(t)
		const jobs, claimers = 60, 8
		var queue []NewJob
		for i := range jobs {
			queue = append(queue, testJob(i))
		}
		if _, err := db.EnqueueJobs(ctx, slices.Values(queue)); err != nil {
			t.Fatal(err)
		}
		if db.postgres {
			store, err := db.beginWrite(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer store.Rollback()
		}
		// round claims every job it can from claimers goroutines, each
		// under its own owner, and returns how often each job was claimed.
		round := func(name string, lease time.Duration) map[int64]int {
			claimed := make([][]*Job, claimers)
			errs := make([]error, claimers)
			var wg sync.WaitGroup
			for c := range claimers {
				wg.Go(func() {
					owner := fmt.Sprintf("%s%d", name, c)
					for {
						j, err := db.ClaimJob(ctx, Claim{Owner: owner, Lease: lease, Engines: []Engine{testEngine}, MaxAttempts: 3})
						if errors.Is(err, ErrNoJob) {
							return
						}
						if err != nil {
							errs[c] = err
							return
						}
						if j.LeaseOwner != owner {
							errs[c] = fmt.Errorf("%s claimed %s under %q's lease", owner, j.Key, j.LeaseOwner)
							return
						}
						claimed[c] = append(claimed[c], j)
						if err := db.ExtendLease(ctx, j.ID, owner, lease); err != nil {
							errs[c] = fmt.Errorf("%s's heartbeat of %s: %w", owner, j.Key, err)
							return
						}
					}
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatalf("round %s: %v", name, err)
			}
			times := map[int64]int{}
			for _, js := range claimed {
				for _, j := range js {
					times[j.ID]++
				}
			}
			return times
		}
		check := func(name string, times map[int64]int) {
			t.Helper()
			if len(times) != jobs {
				t.Errorf("round %s: %d of the %d jobs claimed", name, len(times), jobs)
			}
			for id, n := range times {
				if n != 1 {
					t.Errorf("round %s: job %d claimed %d times", name, id, n)
				}
			}
		}
		// Every job once, then again once its lease ran out (set so here,
		// as a worker that died leaves it), and none while the new leases
		// hold.
		check("A", round("A", time.Minute))
		if _, err := db.jobPool().ExecContext(ctx, "UPDATE jobs SET lease_expires = 1"); err != nil {
			t.Fatal(err)
		}
		check("B", round("B", time.Minute))
		if again := round("C", time.Minute); len(again) != 0 {
			t.Errorf("round C claimed %d jobs under B's leases", len(again))
		}
	})
}
