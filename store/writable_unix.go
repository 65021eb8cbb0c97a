//go:build unix

package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"syscall"
)

// checkWritable returns ErrReadOnly unless the database file at path (when
// exists) and its directory, where SQLite creates the -wal and -shm files,
// can be written. It asks access(2), which also answers for a read-only
// file system, instead of trying a write, so nothing changes.
func checkWritable(path string, exists bool) error {
	names := []string{filepath.Dir(path)}
	if exists {
		names = append(names, path)
	}
	for _, name := range names {
		err := syscall.Access(name, 2) // W_OK
		switch {
		case err == nil:
		case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EROFS):
			return fmt.Errorf("open %s: %w: cannot write %s: %v", path, ErrReadOnly, name, err)
		default:
			return fmt.Errorf("open %s: %w", path, err)
		}
	}
	return nil
}
