package store

import (
	"errors"
	"fmt"
)

// The kinds of error the store reports to its callers. Test for them with
// errors.Is; the messages of the errors that carry them are meant for users.
var (
	// ErrNotFound means the match, replay or turn asked for does not exist.
	ErrNotFound = errors.New("not found")
	// ErrAmbiguous means a short match id matches more than one match.
	ErrAmbiguous = errors.New("ambiguous")
	// ErrInvalid means the request itself is wrong: a malformed id, no
	// metric asked for, a filter that makes no sense, a Record that is not
	// internally consistent.
	ErrInvalid = errors.New("invalid")
	// ErrSchemaTooNew means the database was written by a newer replaylab
	// with a schema this build does not know, so it is left untouched.
	ErrSchemaTooNew = errors.New("database schema is newer than this program")
	// ErrNotReplaylab means the file is not a replaylab database: not an
	// SQLite file, or one with another program's tables. It is left
	// untouched.
	ErrNotReplaylab = errors.New("not a replaylab database")
	// ErrReadOnly means the database file, or the directory that holds it
	// and SQLite's -wal and -shm files, cannot be written.
	ErrReadOnly = errors.New("database is read-only")
)

// Error is an error of one of the kinds above with a message for the user.
type Error struct {
	Kind error // ErrNotFound, ErrAmbiguous or ErrInvalid
	Msg  string
}

// Error returns the message alone: the kind is for programs, not users.
func (e *Error) Error() string { return e.Msg }

// Unwrap lets errors.Is find the kind.
func (e *Error) Unwrap() error { return e.Kind }

func notFoundf(format string, args ...any) error {
	return &Error{Kind: ErrNotFound, Msg: fmt.Sprintf(format, args...)}
}

func invalidf(format string, args ...any) error {
	return &Error{Kind: ErrInvalid, Msg: fmt.Sprintf(format, args...)}
}
