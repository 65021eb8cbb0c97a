package main

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/replaylab/replaylab/store"
	"github.com/replaylab/replaylab/store/pgtest"
)

// jobRow is a job as the database holds it.
type jobRow struct {
	key, state, reason string
	attempts           int
	match              sql.NullInt64
}

func jobRows(t *testing.T, path string) []jobRow {
	t.Helper()
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query("SELECT key, state, reason, attempts, match_seq FROM jobs ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var js []jobRow
	for rows.Next() {
		var j jobRow
		if err := rows.Scan(&j.key, &j.state, &j.reason, &j.attempts, &j.match); err != nil {
			t.Fatal(err)
		}
		js = append(js, j)
	}
	return js
}

// TestTournamentPlanOnlyAndWorker plans a tournament without playing it,
// reads its status, lets a worker play it and reads the status again; the
// same tournament run afterwards finds everything stored.
func TestTournamentPlanOnlyAndWorker(t *testing.T) {
	checkPlanOnlyAndWorker(t, filepath.Join(t.TempDir(), "t.db"))
}

// TestPostgresPlanOnlyAndWorker is TestTournamentPlanOnlyAndWorker on a
// PostgreSQL database.
func TestPostgresPlanOnlyAndWorker(t *testing.T) {
	checkPlanOnlyAndWorker(t, pgtest.Fresh(t))
}

func checkPlanOnlyAndWorker(t *testing.T, db string) {
	t.Helper()
	args := []string{"tournament", "--db", db, "--game", "worms", "--seeds", "2", "--bot", "builtin:random", "--bot", "builtin:tactical"}
	out := mustCLI(t, append(args, "--plan-only")...)
	if !strings.Contains(out, "4 matches, 0 already stored, 4 queued as jobs") || !strings.Contains(out, "replaylab worker --db "+store.DisplayName(db)) {
		t.Errorf("--plan-only: got\n%s\nwant 4 jobs queued and how to play them", out)
	}
	if n := storedMatches(t, db); n != 0 {
		t.Errorf("--plan-only stored %d matches, want none", n)
	}
	out = mustCLI(t, append(args, "--status")...)
	if !strings.Contains(out, "4 jobs: 4 queued, 0 running, 0 done, 0 failed") || !strings.Contains(out, "progress: 0 of 4 matches stored (0%)") {
		t.Errorf("--status before the worker: got\n%s", out)
	}
	out = mustCLI(t, "worker", "--db", db, "--workers", "2")
	if strings.Count(out, ": stored match ") != 4 || !strings.Contains(out, "worker: stored 4 matches") {
		t.Errorf("worker: got\n%s\nwant 4 matches stored", out)
	}
	out = mustCLI(t, append(args, "--status")...)
	if !strings.Contains(out, "4 jobs: 0 queued, 0 running, 4 done, 0 failed") || !strings.Contains(out, "progress: 4 of 4 matches stored (100%)") {
		t.Errorf("--status after the worker: got\n%s", out)
	}
	out = mustCLI(t, args...)
	if !strings.Contains(out, "4 matches, 4 already stored (skipped), 0 to play") {
		t.Errorf("the tournament after the worker: got\n%s\nwant every match stored", out)
	}
	if out := mustCLI(t, "worker", "--db", db, "--once"); !strings.Contains(out, "worker: stored 0 matches") {
		t.Errorf("a worker with no job left: got\n%s", out)
	}
}

// TestWorkerMissingProgram fails, with the reason, the jobs of a bot whose
// program is not on the worker's machine, instead of trying them again.
func TestWorkerMissingProgram(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	bot := filepath.Join(dir, "bot.sh")
	if err := os.WriteFile(bot, []byte("#!/bin/sh\nwhile read -r l; do echo nothing; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"tournament", "--db", db, "--game", "worms", "--seeds", "1", "--bot", "builtin:random", "--bot", bot, "--name", "random", "--name", "mine"}
	mustCLI(t, append(args, "--plan-only")...)
	os.Remove(bot)
	code, out, _ := cli(t, "worker", "--db", db)
	if code != 1 || strings.Count(out, "failed: ") != 2 || !strings.Contains(out, bot) {
		t.Errorf("worker: got exit %d, stdout\n%s\nwant 1 and both jobs failed naming the program", code, out)
	}
	for _, j := range jobRows(t, db) {
		if j.state != "failed" || j.attempts != 1 || !strings.Contains(j.reason, bot) {
			t.Errorf("got job %+v, want failed after 1 attempt, naming %s", j, bot)
		}
	}
	if out := mustCLI(t, "tournament", "--db", db, "--status"); !strings.Contains(out, "2 failed") || !strings.Contains(out, "claims: 1  Seat") {
		t.Errorf("--status: got\n%s\nwant the failures with their reasons", out)
	}
}

// TestWorkerOtherRevision leaves the jobs planned under a rules revision
// this build does not play, and says so.
func TestWorkerOtherRevision(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	mustCLI(t, "tournament", "--db", db, "--game", "worms", "--seeds", "1", "--bot", "builtin:random", "--bot", "builtin:tactical", "--plan-only")
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Exec("UPDATE jobs SET revision = revision + 1")
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := mustCLI(t, "worker", "--db", db)
	if !strings.Contains(out, "leaving 2 jobs of worms/base to other workers") || !strings.Contains(out, "worker: stored 0 matches") {
		t.Errorf("got\n%s\nwant both jobs left to another build", out)
	}
	for _, j := range jobRows(t, db) {
		if j.state != "queued" || j.attempts != 0 {
			t.Errorf("got job %+v, want it queued, never claimed", j)
		}
	}
}

// TestWorkerKilled kills (SIGKILL) a worker process in the middle of a
// match; a second worker claims its job once the lease runs out and plays
// every job: each match is stored once and none is lost.
func TestWorkerKilled(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "replaylab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "t.db")
	pids, gate := filepath.Join(dir, "pids"), filepath.Join(dir, "go") // gate.sh's files in dir
	mustCLI(t, "tournament", "--db", db, "--game", "worms", "--seeds", "1", "--start-timeout", "1m",
		"--bot", "builtin:random", "--bot", botSpec("gate", dir), "--name", "random", "--name", "gate", "--plan-only")

	first := exec.Command(bin, "worker", "--db", db, "--lease", "300ms")
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { first.Wait(); close(exited) }()
	defer func() { first.Process.Kill(); <-exited }()
	botPid := waitForPid(t, pids, exited)
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	if js := jobRows(t, db); js[0].state != "running" || js[0].attempts != 1 {
		t.Fatalf("after the kill: got jobs %+v, want the first running", js)
	}
	// The killed worker's bot reads the end of its input once let go.
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}

	second := exec.Command(bin, "worker", "--db", db, "--lease", "300ms")
	out, err := second.CombinedOutput()
	if err != nil {
		t.Fatalf("second worker: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "worker: stored 2 matches") {
		t.Errorf("second worker: got\n%s\nwant both jobs played", out)
	}
	js := jobRows(t, db)
	if len(js) != 2 || js[0].state != "done" || js[1].state != "done" || js[0].attempts != 2 || js[1].attempts != 1 ||
		!js[0].match.Valid || !js[1].match.Valid || js[0].match == js[1].match {
		t.Errorf("got jobs %+v, want both done with their own match, the killed one on its second attempt", js)
	}
	if n := storedMatches(t, db); n != 2 {
		t.Errorf("got %d matches stored, want 2", n)
	}
	waitGone(t, botPid)
}

// waitForPid waits until a gate bot has written its pid (its match is
// under way) and returns it, failing if the worker exits first.
func waitForPid(t *testing.T, path string, exited <-chan struct{}) int {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(data), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(strings.Split(string(data), "\n")[0]))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		select {
		case <-exited:
			t.Fatal("the worker exited before its bot started")
		default:
		}
	}
	t.Fatal("the bot never started")
	return 0
}

// waitGone waits until the process pid has ended: no process has it, or
// it is a zombie its new parent has not reaped.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		// The state follows the command name in parentheses.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
			return
		}
	}
	t.Errorf("the killed worker's bot (pid %d) still runs", pid)
}
