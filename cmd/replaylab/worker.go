package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/regen/tournament"
	"github.com/replaylab/replaylab/store"
)

type workerFlags struct {
	db         string
	workers    int
	wait, once bool
	lease      time.Duration
}

func newWorkerCmd() *cobra.Command {
	var f workerFlags
	cmd := &cobra.Command{
		Use:   "worker --db FILE [--wait] [--once] [--workers N]",
		Short: "Play the queued matches of tournaments",
		Long: `Play the queued matches of tournaments ('replaylab tournament --plan-only').

A worker claims a job under a lease, extends the lease while it plays,
and stores the match and marks the job done in one transaction; then it
claims the next, until no job is left (with --wait it keeps looking every
2 s until stopped; with --once it plays one job). Any number of workers
may share a database. A job whose worker died is claimed again once its
lease runs out; one whose bot this machine cannot run (a missing program,
other code than the tournament was planned with) fails with the reason;
other failures are tried again, 3 claims in all. A worker claims only the
jobs of the rules revisions its build plays, and says which it leaves to
other workers.

Exit status 1 when a job this worker played failed.`,
		Example: `  replaylab tournament --db lab.db --game worms --bot builtin:random --bot builtin:tactical --plan-only
  replaylab worker --db lab.db --workers 2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runWorker(cmd.Context(), &f, cmd.OutOrStdout())
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "database holding the jobs, where the matches are stored")
	fl.IntVar(&f.workers, "workers", 1, "jobs played at once")
	fl.BoolVar(&f.wait, "wait", false, "keep looking for jobs when none is left, until stopped")
	fl.BoolVar(&f.once, "once", false, "play one job, then stop")
	addLeaseFlag(cmd, &f.lease)
	cmd.MarkFlagsMutuallyExclusive("wait", "once")
	return cmd
}

// addLeaseFlag adds the hidden --lease: how long a claimed job stays the
// worker's without a heartbeat. Tests shorten it to see a killed worker's
// job claimed again.
func addLeaseFlag(cmd *cobra.Command, lease *time.Duration) {
	cmd.Flags().DurationVar(lease, "lease", tournament.DefaultLease, "how long a claimed job stays a worker's without its heartbeat")
	cmd.Flags().MarkHidden("lease")
}

func runWorker(ctx context.Context, f *workerFlags, stdout io.Writer) error {
	switch {
	case f.db == "":
		return usagef("--db is required")
	case f.workers < 1:
		return usagef("--workers %d: want 1 or more", f.workers)
	case f.lease < 100*time.Millisecond:
		return usagef("--lease %v: want at least 100ms", f.lease)
	}
	db, err := store.OpenExisting(ctx, f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := sayLeftJobs(ctx, db, stdout); err != nil {
		return err
	}
	start := time.Now()
	stored, failed := 0, 0
	err = tournament.Run(ctx, f.workers, tournament.Worker{
		DB: db, Play: playJob, Lease: f.lease, Wait: f.wait, Once: f.once,
		Report: func(j *tournament.Job, rec *store.Record, err error) {
			what := fmt.Sprintf("job %d (%s %s seed %d, %s)", j.ID, j.Game, j.Ruleset, j.Seed, describeJob(j))
			switch {
			case err == nil:
				stored++
				fmt.Fprintf(stdout, "%s: stored match %s, %s\n", what, rec.ID[:12], describeResult(rec.Result, j.Header.Players))
			case errors.Is(err, store.ErrLeaseLost):
				fmt.Fprintf(stdout, "%s: dropped, its lease ran out and another worker has it\n", what)
			case errors.As(err, new(*tournament.RetryError)):
				fmt.Fprintf(stdout, "%s: %v\n", what, err)
			default:
				failed++
				fmt.Fprintf(stdout, "%s: failed: %v\n", what, err)
			}
		},
	})
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "worker: stored %d matches in %v (%.1f matches/s), %d failed\n",
		stored, elapsed.Round(time.Millisecond), float64(stored)/max(elapsed.Seconds(), 1e-9), failed)
	if ctx.Err() != nil {
		return fmt.Errorf("stopped; the job being played went back to the queue: %w", context.Cause(ctx))
	}
	if err != nil {
		return err
	}
	if err := sayLeftJobs(ctx, db, stdout); err != nil {
		return err
	}
	if failed > 0 {
		return exitError{1}
	}
	return nil
}

// sayLeftJobs says which queued or running jobs this build leaves to
// other workers: those planned under a rules revision it does not play.
func sayLeftJobs(ctx context.Context, db *store.DB, w io.Writer) error {
	others, err := db.JobsFor(ctx, tournament.Engines())
	if err != nil {
		return err
	}
	for e, n := range others {
		fmt.Fprintf(w, "worker: leaving %d jobs of %s/%s to other workers: they were planned under rules revision %d, which this build does not play (%s)\n",
			n, e.Game, e.Ruleset, e.Revision, playsRevision(e))
	}
	return nil
}

func playsRevision(e store.Engine) string {
	for _, mine := range tournament.Engines() {
		if mine.Game == e.Game && mine.Ruleset == e.Ruleset {
			return fmt.Sprintf("it plays revision %d", mine.Revision)
		}
	}
	return "it has no such game or ruleset"
}

// tournamentProgress is what a tournament's status adds to its jobs: how
// many matches it plans and how many of them are stored.
type tournamentProgress struct{ planned, stored int }

// maxFailuresShown bounds the failed jobs a status lists.
const maxFailuresShown = 20

// printJobStatus prints the jobs of a tournament (every job when
// tournament is ""): their counts by state, who plays the running ones,
// and why the failed ones failed.
func printJobStatus(ctx context.Context, path, id string, p *tournamentProgress, w io.Writer) error {
	if path == "" {
		return usagef("--db is required")
	}
	db, err := store.OpenExisting(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	counts, err := db.JobCounts(ctx, id)
	if err != nil {
		return err
	}
	name := "all tournaments"
	if id != "" {
		name = "tournament " + id
	}
	var parts []string
	total := 0
	for _, s := range store.JobStates {
		parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		total += counts[s]
	}
	fmt.Fprintf(w, "%s: %d jobs: %s\n", name, total, strings.Join(parts, ", "))
	if p != nil {
		fmt.Fprintf(w, "progress: %d of %d matches stored (%.0f%%)\n", p.stored, p.planned, 100*float64(p.stored)/float64(max(p.planned, 1)))
	}
	for _, s := range []store.JobState{store.JobRunning, store.JobFailed} {
		jobs, err := db.Jobs(ctx, id, s, maxFailuresShown)
		if err != nil {
			return err
		}
		if len(jobs) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s:\n", s)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, j := range jobs {
			if s == store.JobRunning {
				fmt.Fprintf(tw, "  job %d\t%s %s seed %d\tby %s, lease ends in %v\n", j.ID, j.Game, j.Ruleset, j.Seed, j.LeaseOwner, time.Until(j.LeaseExpires).Round(time.Second))
			} else {
				fmt.Fprintf(tw, "  job %d\t%s %s seed %d\tclaims: %d\t%s\n", j.ID, j.Game, j.Ruleset, j.Seed, j.Attempts, j.Reason)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if counts[s] > len(jobs) {
			fmt.Fprintf(w, "  and %d more\n", counts[s]-len(jobs))
		}
	}
	return nil
}
