//go:build !linux

package replay

import (
	"runtime"
	"syscall"
)

// unread cannot tell outside Linux: a bot's input counts as read as soon
// as it is written, so only what a bot printed before its request went
// out is sure to be output.
func unread(syscall.RawConn) int { return 0 }

func yieldCPU() { runtime.Gosched() }
