// Package replaytest holds helpers for the tests of external bots, shared
// by replay and its protocol adapters.
package replaytest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// CheckDead fails t unless the process whose pid is in file has ended (a
// zombie not yet reaped by its new parent has).
func CheckDead(t testing.TB, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return // gone meanwhile
	}
	// The state follows the command name in parentheses.
	if fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); fields[0] != "Z" {
		t.Errorf("process %d still runs after Close (state %s)", pid, fields[0])
	}
}
