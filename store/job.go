package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"sync"
	"time"
)

// JobState is where a tournament job is: queued, running (claimed under a
// lease), done (its match stored) or failed (with a reason).
type JobState string

// The states of a job.
const (
	JobQueued  JobState = "queued"
	JobRunning JobState = "running"
	JobDone    JobState = "done"
	JobFailed  JobState = "failed"
)

// JobStates lists the states in the order people read them.
var JobStates = []JobState{JobQueued, JobRunning, JobDone, JobFailed}

var (
	// ErrNoJob means no job can be claimed now.
	ErrNoJob = errors.New("no job to claim")
	// ErrLeaseLost means a job's lease is no longer the worker's: it ran
	// out and another worker claimed the job, or the job was requeued. The
	// worker must drop what it played.
	ErrLeaseLost = errors.New("the job's lease is lost")
)

// NewJob is a planned match to queue (EnqueueJobs). Players, Specs and
// Settings are JSON the store keeps as given; Key names the match, so the
// same match planned twice is one job.
type NewJob struct {
	Key, Tournament string
	Game, Ruleset   string
	Revision        int
	Config          json.RawMessage
	Seed            uint64
	Players         json.RawMessage
	Specs           json.RawMessage
	Settings        json.RawMessage
}

// Job is a queued, running or finished job.
type Job struct {
	NewJob
	ID           int64
	State        JobState
	LeaseOwner   string
	LeaseExpires time.Time
	Attempts     int
	Reason       string
	MatchID      string // the stored match, once done
}

// Engine is a game, ruleset and rules revision a worker's build plays.
type Engine struct {
	Game, Ruleset string
	Revision      int
}

// Claim says which job a worker may take and for how long.
type Claim struct {
	Owner string
	Lease time.Duration
	// Engines are the revisions the worker plays; it claims no other job.
	Engines []Engine
	// Tournament, when set, limits the claim to one tournament's jobs.
	Tournament string
	// MaxAttempts bounds the claims of a job: one whose lease ran out
	// after MaxAttempts claims fails instead of being claimed again.
	MaxAttempts int
}

// EnqueueJobs queues the jobs in one transaction and returns how many
// it queued. A job whose match is already a job is taken over by the new
// plan and queued again when it failed or when it is done but its match
// is gone (deleted); a queued, running or stored one is left as it is.
// The caller queues only the matches it has not found stored.
func (db *DB) EnqueueJobs(ctx context.Context, jobs iter.Seq[NewJob]) (queued int, err error) {
	defer func() { err = busyIf(err) }()
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return 0, fmt.Errorf("queue jobs: %w", err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `
		INSERT INTO jobs (key, tournament, game, ruleset, revision, config, seed, players, specs, settings,
		    state, lease_owner, lease_expires, attempts, reason)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', '', 0, 0, '')
		ON CONFLICT (key) DO UPDATE SET tournament = excluded.tournament, revision = excluded.revision,
		    specs = excluded.specs, settings = excluded.settings, players = excluded.players,
		    state = 'queued', lease_owner = '', lease_expires = 0, attempts = 0, reason = '', match_seq = NULL
		WHERE jobs.state = 'failed' OR jobs.state = 'done' AND jobs.match_seq IS NULL OR
		    jobs.state = 'queued' AND jobs.tournament <> excluded.tournament`)
	if err != nil {
		return 0, fmt.Errorf("queue jobs: %w", err)
	}
	defer st.Close()
	for j := range jobs {
		res, err := st.ExecContext(ctx, j.Key, j.Tournament, j.Game, j.Ruleset, j.Revision, string(j.Config), int64(j.Seed),
			string(j.Players), string(j.Specs), string(j.Settings))
		if err != nil {
			return 0, fmt.Errorf("queue job %s: %w", j.Key, err)
		}
		n, _ := res.RowsAffected()
		queued += int(n)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("queue jobs: %w", err)
	}
	return queued, nil
}

const jobColumns = `j.id, j.key, j.tournament, j.game, j.ruleset, j.revision, j.config, j.seed, j.players, j.specs, j.settings,
	j.state, j.lease_owner, j.lease_expires, j.attempts, j.reason, coalesce(m.id, '')`

const jobFrom = ` FROM jobs j LEFT JOIN matches m ON m.seq = j.match_seq`

func scanJob(row interface{ Scan(...any) error }) (*Job, error) {
	var j Job
	var config, players, specs, settings string
	var seed, expires int64
	err := row.Scan(&j.ID, &j.Key, &j.Tournament, &j.Game, &j.Ruleset, &j.Revision, &config, &seed, &players, &specs, &settings,
		&j.State, &j.LeaseOwner, &expires, &j.Attempts, &j.Reason, &j.MatchID)
	if err != nil {
		return nil, err
	}
	j.Config, j.Players, j.Specs, j.Settings = json.RawMessage(config), json.RawMessage(players), json.RawMessage(specs), json.RawMessage(settings)
	j.Seed, j.LeaseExpires = uint64(seed), time.UnixMilli(expires)
	return &j, nil
}

// ClaimJob takes a job for c.Owner until the lease runs out: a running
// job whose lease ran out (its worker died or lost the database), else the
// oldest queued one, among the jobs of c's engines (and tournament). It
// fails the jobs whose lease ran out MaxAttempts times. ErrNoJob means
// there is none.
//
// The claim is one short transaction (beginJob). On SQLite it holds the
// file's write lock, so two workers never pick the same job. On
// PostgreSQL it does not wait for the write lock of the stores: it locks
// the job it picks (FOR UPDATE SKIP LOCKED), so concurrent claims skip
// each other's row, and the claim's UPDATE checks the pick's conditions
// again on the locked row.
func (db *DB) ClaimJob(ctx context.Context, c Claim) (job *Job, err error) {
	defer func() { err = busyIf(err) }()
	if len(c.Engines) == 0 {
		return nil, ErrNoJob
	}
	where, args := c.filter()
	lock := ""
	if db.postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	// Prepared before the transaction takes the writer's one connection.
	var st [5]*sql.Stmt
	for i, q := range [...]string{
		`UPDATE jobs SET state = 'failed', lease_owner = '', lease_expires = 0,
		    reason = 'its worker stopped (killed, or cut off from the database) on each of ' || attempts || ' attempts'
		WHERE id IN (SELECT id FROM jobs WHERE state = 'running' AND lease_expires < ? AND attempts >= ?` + lock + `)`,
		// pickJob's
		"SELECT id FROM jobs WHERE state = 'running' AND lease_expires < ?" + where + " ORDER BY lease_expires, id LIMIT 1" + lock,
		"SELECT id FROM jobs WHERE state = 'queued' AND lease_expires = 0" + where + " ORDER BY lease_expires, id LIMIT 1" + lock,
		`UPDATE jobs SET state = 'running', lease_owner = ?, lease_expires = ?, attempts = attempts + 1
		WHERE id = ? AND (state = 'queued' OR state = 'running' AND lease_expires < ?)`,
		"SELECT " + jobColumns + jobFrom + " WHERE j.id = ?",
	} {
		if st[i], err = db.jobStmts.get(ctx, db.jobPool(), q); err != nil {
			return nil, fmt.Errorf("claim a job: %w", err)
		}
	}
	tx, err := db.beginJob(ctx)
	if err != nil {
		return nil, fmt.Errorf("claim a job: %w", err)
	}
	defer tx.Rollback()
	now := time.Now().UnixMilli()
	if _, err := tx.StmtContext(ctx, st[0]).ExecContext(ctx, now, c.MaxAttempts); err != nil {
		return nil, fmt.Errorf("claim a job: %w", err)
	}
	id, err := pickJob(ctx, tx.StmtContext(ctx, st[1]), tx.StmtContext(ctx, st[2]), now, args)
	if err != nil {
		return nil, err
	}
	// The pick's conditions again: the write lock (SQLite) or the row's
	// lock (PostgreSQL) makes them hold, and where they did not, the job
	// would be lost to a concurrent claim, not claimed twice.
	res, err := tx.StmtContext(ctx, st[3]).ExecContext(ctx, c.Owner, now+c.Lease.Milliseconds(), id, now)
	if err != nil {
		return nil, fmt.Errorf("claim job %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, ErrNoJob
	}
	if job, err = scanJob(tx.StmtContext(ctx, st[4]).QueryRowContext(ctx, id)); err != nil {
		return nil, fmt.Errorf("claim job %d: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("claim job %d: %w", id, err)
	}
	return job, nil
}

// jobPool is the pool of the jobs' own short transactions (beginJob):
// SQLite's writer, or on PostgreSQL the read pool, whose connections do
// not queue behind the one writer connection storing a match.
func (db *DB) jobPool() *sql.DB {
	if db.postgres {
		return db.read
	}
	return db.write
}

// beginJob starts a claim's transaction. On SQLite it is a write
// transaction (beginWrite). On PostgreSQL it takes no advisory lock, only
// the locks of the job rows it picks, skipping the ones others hold: the
// write lock keeps the aggregates of stored matches exact, and a job row
// is none of them.
func (db *DB) beginJob(ctx context.Context) (*sql.Tx, error) {
	if !db.postgres {
		return db.beginWrite(ctx)
	}
	return db.read.BeginTx(ctx, nil)
}

// pickJob returns the id of the job ClaimJob takes, inside its
// transaction: one whose lease ran out before now (expired) first, then
// the oldest queued one (queued), args being the claim's filter's.
func pickJob(ctx context.Context, expired, queued *sql.Stmt, now int64, args []any) (int64, error) {
	var id int64
	err := expired.QueryRowContext(ctx, append([]any{now}, args...)...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = queued.QueryRowContext(ctx, args...).Scan(&id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNoJob
	}
	if err != nil {
		return 0, fmt.Errorf("claim a job: %w", err)
	}
	return id, nil
}

// stmtCache keeps statements prepared on the writer by their SQL: a claim
// runs five, and preparing them every time was half of its cost.
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// get returns query prepared on w; w's connection must not be held by a
// transaction of the caller's.
func (c *stmtCache) get(ctx context.Context, w *sql.DB, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.m[query]; ok {
		return s, nil
	}
	s, err := w.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = s
	return s, nil
}

func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, s := range c.m {
		errs = append(errs, s.Close())
	}
	c.m = nil
	return errors.Join(errs...)
}

// filter is the condition, after "WHERE ...", that limits jobs to the
// claim's engines and tournament, and its arguments.
func (c Claim) filter() (string, []any) {
	var where strings.Builder
	var args []any
	where.WriteString(" AND (")
	for i, e := range c.Engines {
		if i > 0 {
			where.WriteString(" OR ")
		}
		where.WriteString("game = ? AND ruleset = ? AND revision = ?")
		args = append(args, e.Game, e.Ruleset, e.Revision)
	}
	where.WriteString(")")
	if c.Tournament != "" {
		where.WriteString(" AND tournament = ?")
		args = append(args, c.Tournament)
	}
	return where.String(), args
}

// RunningJobs counts the running jobs c could claim once their lease
// runs out: a worker that found no job waits for them before it stops,
// in case their worker died.
func (db *DB) RunningJobs(ctx context.Context, c Claim) (int, error) {
	if len(c.Engines) == 0 {
		return 0, nil
	}
	where, args := c.filter()
	var n int
	if err := db.read.QueryRowContext(ctx, "SELECT count(*) FROM jobs WHERE state = 'running'"+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count running jobs: %w", err)
	}
	return n, nil
}

// ExtendLease pushes the lease of owner's running job lease from now:
// the heartbeat of a worker playing it. ErrLeaseLost means the job is no
// longer owner's.
func (db *DB) ExtendLease(ctx context.Context, id int64, owner string, lease time.Duration) error {
	return db.updateOwnJob(ctx, id, owner, "lease_expires = ?", time.Now().Add(lease).UnixMilli())
}

// FailJob ends owner's claim of a job that could not be played: failed
// with reason when retry is false or the job was claimed maxAttempts times,
// else queued again for any worker.
func (db *DB) FailJob(ctx context.Context, id int64, owner, reason string, retry bool, maxAttempts int) error {
	if !retry {
		maxAttempts = 0
	}
	return db.updateOwnJob(ctx, id, owner,
		"state = CASE WHEN attempts >= ? THEN 'failed' ELSE 'queued' END, reason = ?, lease_owner = '', lease_expires = 0",
		maxAttempts, reason)
}

// ReleaseJob gives owner's job back to the queue, not counting the claim:
// its worker was stopped before the match ended.
func (db *DB) ReleaseJob(ctx context.Context, id int64, owner string) error {
	return db.updateOwnJob(ctx, id, owner, "state = 'queued', lease_owner = '', lease_expires = 0, attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END")
}

// updateOwnJob sets what set says on job id if it is running under
// owner's lease, or returns ErrLeaseLost. On PostgreSQL it does not use
// the writer's connection (execJob), so a heartbeat waits for no store
// but the one of its own job.
func (db *DB) updateOwnJob(ctx context.Context, id int64, owner, set string, args ...any) (err error) {
	defer func() { err = busyIf(err) }()
	query, args := "UPDATE jobs SET "+set+" WHERE id = ? AND lease_owner = ? AND state = 'running'", append(args, id, owner)
	var res sql.Result
	if db.postgres {
		res, err = db.execJob(ctx, query, args...)
	} else {
		res, err = db.write.ExecContext(ctx, query, args...)
	}
	if err != nil {
		return fmt.Errorf("job %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("job %d: %w", id, ErrLeaseLost)
	}
	return nil
}

// execJob runs query on PostgreSQL in a transaction of its own on the
// read pool, which waits up to busyTimeout for a job row another holds
// (FinishJob storing the job's match).
func (db *DB) execJob(ctx context.Context, query string, args ...any) (sql.Result, error) {
	tx, err := db.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT set_config('lock_timeout', ?, true)`, strconv.FormatInt(busyTimeout.Milliseconds(), 10)); err != nil {
		return nil, err
	}
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return res, tx.Commit()
}

// FinishJob stores a job's match as Ingest does and marks the job done
// with it, in one transaction: if owner's lease is lost, nothing is
// stored and the error is ErrLeaseLost, so a job is stored once.
func (db *DB) FinishJob(ctx context.Context, id int64, owner string, rec *Record) (err error) {
	defer func() { err = busyIf(err) }()
	if err := rec.check(); err != nil {
		return err
	}
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return fmt.Errorf("store job %d: %w", id, err)
	}
	defer tx.Rollback()
	if _, err := db.ingest.ingest(ctx, tx, rec, time.Now()); err != nil {
		return fmt.Errorf("store job %d, match %s: %w", id, rec.ID, err)
	}
	res, err := tx.ExecContext(ctx, `
		UPDATE jobs SET state = 'done', lease_owner = '', lease_expires = 0, reason = '',
		    match_seq = (SELECT seq FROM matches WHERE id = ?)
		WHERE id = ? AND lease_owner = ? AND state = 'running'`, rec.ID, id, owner)
	if err != nil {
		return fmt.Errorf("store job %d, match %s: %w", id, rec.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("job %d: %w; its match is not stored", id, ErrLeaseLost)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store job %d: %w", id, err)
	}
	return nil
}

// JobCounts counts a tournament's jobs by state ("": every job).
func (db *DB) JobCounts(ctx context.Context, tournament string) (map[JobState]int, error) {
	rows, err := db.read.QueryContext(ctx, "SELECT state, count(*) FROM jobs WHERE ? IN ('', tournament) GROUP BY state", tournament)
	if err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	defer rows.Close()
	counts := map[JobState]int{}
	for rows.Next() {
		var s JobState
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			return nil, fmt.Errorf("count jobs: %w", err)
		}
		counts[s] = n
	}
	return counts, rows.Err()
}

// Jobs lists up to limit jobs of a tournament ("": of all) in one state,
// oldest first.
func (db *DB) Jobs(ctx context.Context, tournament string, state JobState, limit int) ([]*Job, error) {
	rows, err := db.read.QueryContext(ctx, "SELECT "+jobColumns+jobFrom+" WHERE ? IN ('', j.tournament) AND j.state = ? ORDER BY j.id LIMIT ?",
		tournament, state, limit)
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	defer rows.Close()
	var jobs []*Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, fmt.Errorf("list jobs: %w", err)
		}
		jobs = append(jobs, j)
	}
	return jobs, rows.Err()
}

// JobsFor counts the queued and running jobs of engines other than the
// ones given: the jobs a worker of this build leaves to others.
func (db *DB) JobsFor(ctx context.Context, engines []Engine) (others map[Engine]int, err error) {
	rows, err := db.read.QueryContext(ctx, "SELECT game, ruleset, revision, count(*) FROM jobs WHERE state IN ('queued', 'running') GROUP BY game, ruleset, revision")
	if err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	defer rows.Close()
	others = map[Engine]int{}
	for rows.Next() {
		var e Engine
		var n int
		if err := rows.Scan(&e.Game, &e.Ruleset, &e.Revision, &n); err != nil {
			return nil, fmt.Errorf("count jobs: %w", err)
		}
		others[e] = n
	}
	for _, e := range engines {
		delete(others, e)
	}
	return others, rows.Err()
}
