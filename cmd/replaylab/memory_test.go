package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/replaylab/replaylab/internal/heavy"
	"github.com/replaylab/replaylab/web"
)

// TestServeMemoryBound runs the worst case against a real server
// process at the default limits: fourteen binary replays of about 57 KB,
// each holding 64 MiB of distinct 4 KiB commands, uploaded one, then four
// at a time, and then viewed in the inspector four at a time, with two
// text downloads. The process's peak resident memory (VmHWM) must stay
// under the default --max-memory. The server is this package's own build,
// run with the flags any build has, so the test also shows what a build
// before the bound does (1.8 GB when this test was written).
func TestServeMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads 14 replays of 64 MiB each to a server process")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads the server's memory from /proc")
	}
	const matches, parallel = 14, 4
	bodies := make([][]byte, matches)
	for i := range bodies {
		l, err := heavy.Toad(uint64(i+1), heavy.MaxTurns)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := l.Encode()
		if err != nil {
			t.Fatal(err)
		}
		bodies[i] = enc.Bytes
	}
	base, pid := startServeProcess(t, "--max-regenerations", strconv.Itoa(parallel))

	// Uploads and views retry a 503: a server at its bound answers so,
	// and a server that let them all in would not be bounded.
	ids := make([]string, matches)
	upload := func(i int) error {
		res, err := retry(func() (*http.Response, error) {
			return http.Post(base+"/api/v1/replays", "application/octet-stream", bytes.NewReader(bodies[i]))
		})
		if err != nil {
			return err
		}
		defer res.Body.Close()
		var a struct{ ID string }
		if err := json.NewDecoder(res.Body).Decode(&a); err != nil || res.StatusCode != http.StatusCreated {
			return fmt.Errorf("upload %d: %s, %v", i, res.Status, err)
		}
		ids[i] = a.ID
		return nil
	}
	// The first alone, for the cost of one upload.
	each(t, 1, 1, upload)
	status := memoryStatus(t, pid)
	t.Logf("after 1 upload: peak %d MiB, now %d MiB", status["VmHWM"]>>20, status["VmRSS"]>>20)
	each(t, matches-1, parallel, func(i int) error { return upload(i + 1) })
	status = memoryStatus(t, pid)
	t.Logf("after %d uploads: peak %d MiB, now %d MiB", matches, status["VmHWM"]>>20, status["VmRSS"]>>20)
	each(t, matches+2, parallel, func(i int) error {
		url := base + "/api/v1/matches/" + ids[i%matches]
		if i < matches {
			url += fmt.Sprintf("/turns/%d", heavy.MaxTurns/2)
		} else {
			url += "/replay.rlog"
		}
		res, err := retry(func() (*http.Response, error) { return http.Get(url) })
		if err != nil {
			return err
		}
		defer res.Body.Close()
		n, err := io.Copy(io.Discard, res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %s, %v", url, res.Status, err)
		}
		if i >= matches && n < heavy.MaxTurns*4<<10 {
			return fmt.Errorf("GET %s: %d bytes, want the whole log", url, n)
		}
		return nil
	})
	status = memoryStatus(t, pid)
	t.Logf("after %d views and 2 downloads: peak %d MiB, now %d MiB", matches, status["VmHWM"]>>20, status["VmRSS"]>>20)
	if peak := status["VmHWM"]; peak > web.DefaultMaxMemory {
		t.Errorf("the server's peak resident memory was %d MiB, over the default --max-memory of %d MiB", peak>>20, web.DefaultMaxMemory>>20)
	}
}

// startServeProcess builds the program and runs "replaylab serve" as a
// process of its own, on a fresh database and a free port, with the Go
// runtime's settings left to the program. It returns the server's URL and
// process id; the server is killed when the test ends.
func startServeProcess(t *testing.T, args ...string) (base string, pid int) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "replaylab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "m.db")}, args...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GOGC=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	listening := regexp.MustCompile(`dashboard on (http://\S+)/`)
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if m := listening.FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, stdout) // the rest, so the server never blocks on it
			return m[1], cmd.Process.Pid
		}
	}
	t.Fatalf("serve exited before listening: %s", stderr.String())
	return "", 0
}

// each runs f(0) to f(n-1), parallel at a time, and fails the test with
// their errors.
func each(t *testing.T, n, parallel int, f func(i int) error) {
	t.Helper()
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.FailNow()
	}
}

// retry sends a request until it is answered with anything but 503, for a
// minute at most: a hang guard, not a speed check.
func retry(send func() (*http.Response, error)) (*http.Response, error) {
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		res, err := send()
		if err != nil {
			return nil, err
		}
		if res.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) {
			return res, nil
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}

// memoryStatus reads the Vm lines of a process's status, in bytes.
func memoryStatus(t *testing.T, pid int) map[string]int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	vm := map[string]int64{}
	for line := range strings.Lines(string(b)) {
		name, value, ok := strings.Cut(line, ":")
		if f := strings.Fields(value); ok && strings.HasPrefix(name, "Vm") && len(f) == 2 && f[1] == "kB" {
			kb, _ := strconv.ParseInt(f[0], 10, 64)
			vm[name] = kb << 10
		}
	}
	return vm
}
