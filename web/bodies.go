package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/regen"
)

// bodyHold is the share of the server's memory budget the bytes of an
// upload's body hold while it is read whole: it grows with the buffer as
// bytes arrive, never waiting (regen.Budget.TryReserve), so a client
// sending slowly holds only what it has sent, and bodies read at once
// are bounded by their bytes, not their number.
type bodyHold struct {
	b *regen.Budget
	r *regen.Reservation // nil until the first grow
}

// grow adds n bytes to the hold, and reports whether they fit.
func (h *bodyHold) grow(n int64) bool {
	if h.r == nil {
		var ok bool
		h.r, ok = h.b.TryReserve(n)
		return ok
	}
	return h.r.TryGrow(n)
}

// release gives the hold's bytes back; releasing twice is harmless.
func (h *bodyHold) release() {
	if h.r != nil {
		h.r.Release()
	}
}

// errBodiesBusy is the answer to an upload whose body finds the memory
// budget full.
var errBodiesBusy = echo.NewHTTPError(http.StatusServiceUnavailable,
	"the server is holding as many replays and upload bodies in memory as it allows (--max-memory); retry shortly")
