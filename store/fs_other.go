//go:build !linux && !darwin

package store

import "math"

// unwritable leaves the check to SQLite where access(2) is missing: a
// read-only database then fails with SQLite's own message.
func unwritable(path string, exists bool) (string, error) { return "", nil }

// freeBytes does not know the free space here and reports plenty.
func freeBytes(dir string) (uint64, error) { return math.MaxUint64, nil }
