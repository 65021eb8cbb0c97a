//go:build !linux && !darwin

package web

import "time"

// processCPU returns 0: this system's CPU time is not read.
func processCPU() time.Duration { return 0 }
