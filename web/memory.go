package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
)

// DefaultMaxMemory is the bound on the server's memory when
// Config.MaxMemory is zero: enough for the largest upload the replay
// limits allow with inspector cursors beside it.
const DefaultMaxMemory = 512 << 20

// MinMaxMemory is the least Config.MaxMemory: its replay budget must hold
// the decoding of the largest replay (regen.DecodeBytes), reserved before
// any replay is decoded.
const MinMaxMemory = 192 << 20

// ReplayBudget is the part of a server's maxMemory its decoded replays may
// hold (regen.Budget): 9/16, 288 MiB of the default 512, which holds the
// regeneration of an upload of 64 MiB of commands of 4 KiB
// (regen.BuildBytes: 254 MiB). The rest is the server's own: its caches
// (32 MiB of pages, the summaries), the compressor's 20 MiB, the bodies
// being read, and the room the collector needs.
func ReplayBudget(maxMemory int64) int64 { return maxMemory * 9 / 16 }

// GoMemoryLimit is the soft limit of the Go runtime under maxMemory
// (debug.SetMemoryLimit): 7/8 of it, leaving room for what the runtime
// does not count, the program's code and SQLite's page caches. Without it
// the collector lets the heap grow to twice what is live before it runs.
func GoMemoryLimit(maxMemory int64) int64 { return maxMemory - maxMemory/8 }

// memoryWait is how long a request waits for room in the replay budget
// before it is answered 503: the work holding it (a regeneration, a
// download) takes milliseconds for an ordinary match and about a second
// for the largest.
const memoryWait = 3 * time.Second

// errMemoryBusy is the answer when the replay budget stays full for
// memoryWait.
var errMemoryBusy = echo.NewHTTPError(http.StatusServiceUnavailable,
	"the server is holding as many replays in memory as it allows (--max-memory); retry shortly")

// memoryFault turns a failed reservation into the answer, and leaves any
// other error as it is: a busy budget is 503 with Retry-After; a replay
// larger than the whole budget is 413 for an upload, which the client can
// only cure with a smaller replay, and 503 for a stored one, which the
// server cannot serve with its --max-memory (and logs).
func (s *server) memoryFault(c echo.Context, err error) error {
	var tooLarge *regen.TooLargeError
	switch {
	case errors.Is(err, regen.ErrBusy):
		return errMemoryBusy
	case errors.As(err, &tooLarge):
		status := http.StatusServiceUnavailable
		if c.Request().Method == http.MethodPost {
			status = http.StatusRequestEntityTooLarge
		}
		return echo.NewHTTPError(status, fmt.Sprintf("this replay %s; the server's --max-memory sets that budget", tooLarge))
	}
	return err
}

// decodeUpload decodes an uploaded replay within the server's memory
// budget, holding what regenerating and storing it costs
// (regen.BuildBytes), and returns the log with that reservation for the
// caller to release. A replay that does not decode is 400 when it is no
// replay at all, else 422 with its turn and line.
func (s *server) decodeUpload(c echo.Context, data []byte) (*replay.Log, *regen.Reservation, error) {
	logs, mem, err := s.memory.Decode(c.Request().Context(), regen.BuildBytes, data)
	var de *regen.DecodeError
	switch {
	case errors.As(err, &de):
		status := http.StatusUnprocessableEntity
		if errors.Is(err, replay.ErrNotReplay) {
			status = http.StatusBadRequest
		}
		return nil, nil, &replayError{status, de.Err}
	case err != nil:
		return nil, nil, s.memoryFault(c, err)
	}
	return logs[0], mem, nil
}

// decodeStored decodes the stored replays of matches within the server's
// memory budget, holding what the logs hold (regen.LogBytes), and returns
// them with that reservation for the caller to release. A failed
// reservation is for memoryFault to answer.
func (s *server) decodeStored(ctx context.Context, ids ...string) ([]*replay.Log, *regen.Reservation, error) {
	data := make([][]byte, len(ids))
	for i, id := range ids {
		var err error
		if data[i], err = s.db.Replay(ctx, id); err != nil {
			return nil, nil, err
		}
	}
	logs, mem, err := s.memory.Decode(ctx, regen.LogBytes, data...)
	var de *regen.DecodeError
	if errors.As(err, &de) {
		// A stored replay decoded once already; failing now is the
		// server's fault (a game changed under it), hence no replayError.
		return nil, nil, fmt.Errorf("decode stored replay %s: %w", ids[de.Index], de.Err)
	}
	return logs, mem, err
}
