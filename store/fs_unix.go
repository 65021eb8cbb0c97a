//go:build linux || darwin

package store

import (
	"errors"
	"path/filepath"
	"syscall"
)

// unwritable returns the first of the database file at path (when exists)
// and its directory, where SQLite creates the -wal and -shm files, that
// cannot be written, with the reason; "" and nil when both can. It asks
// access(2), which also answers for a read-only file system, instead of
// trying a write, so nothing changes. An error that is not about
// permission (the directory is missing) comes back as err with name "".
func unwritable(path string, exists bool) (name string, err error) {
	names := []string{filepath.Dir(path)}
	if exists {
		names = append(names, path)
	}
	for _, name := range names {
		err := syscall.Access(name, 2) // W_OK
		switch {
		case err == nil:
		case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EROFS):
			return name, err
		default:
			return "", err
		}
	}
	return "", nil
}

// freeBytes returns the bytes an unprivileged user may still write to the
// file system holding dir.
func freeBytes(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}
