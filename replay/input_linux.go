package replay

import (
	"syscall"
	"unsafe"
)

// unread returns how many bytes written to the pipe of conn (either end)
// are not read yet, or 0 if it cannot tell.
func unread(conn syscall.RawConn) int {
	var n int32 // the C int FIONREAD fills
	conn.Control(func(fd uintptr) {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
			n = 0
		}
	})
	return int(n)
}

// yieldCPU lets another process run, such as the bot waitRead waits for:
// on a busy machine the bot may be waiting for the very CPU it spins on.
func yieldCPU() {
	syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
}
