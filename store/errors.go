package store

import (
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"
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
	// ErrBusy means a write waited for the database's write lock longer
	// than the busy timeout (busyTimeout): another program, or another
	// replaylab on the same file, held it. Nothing was written; the same
	// write may succeed later.
	ErrBusy = errors.New("database is busy")
)

// Error is an error of one of the kinds above with a message for the user.
type Error struct {
	Kind error // ErrNotFound, ErrAmbiguous, ErrInvalid or ErrBusy
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

// busyIf turns SQLite's "database is locked" (SQLITE_BUSY: the busy
// timeout ran out; SQLITE_LOCKED: a lock within this process) into an
// ErrBusy error, as it does PostgreSQL's lock time-out, deadlock and
// serialization failure (postgresBusy), and returns any other error
// unchanged.
func busyIf(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked) || postgresBusy(err) {
		return &Error{Kind: ErrBusy, Msg: fmt.Sprintf(
			"the database is busy: another program held its write lock for over %d s, and nothing was written; retry shortly", busyTimeout/time.Second)}
	}
	return err
}
