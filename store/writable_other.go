//go:build !unix

package store

// checkWritable leaves the check to SQLite where access(2) is missing: a
// read-only database then fails with SQLite's own message.
func checkWritable(path string, exists bool) error { return nil }
