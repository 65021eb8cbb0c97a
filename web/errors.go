package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"syscall"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/store"
)

// inputError is a request the handler cannot serve as asked: a malformed
// parameter. It is the client's fault and its message is for the client.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func badInput(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

// notFoundError is something the request names that the server does not
// have beyond what storage reports: a metric the game does not declare, a
// turn past the end of a match, a bot that never played a game.
type notFoundError struct{ msg string }

func (e *notFoundError) Error() string { return e.msg }

func notFound(format string, args ...any) error {
	return &notFoundError{msg: fmt.Sprintf(format, args...)}
}

// replayError is an uploaded replay that was refused: 400 when it cannot
// be read at all, 422 when it reads but does not regenerate (an unknown
// game, a diverging hash, a log that stops before the match ends, a rules
// revision this build does not play or reproduce).
type replayError struct {
	status int
	err    error
}

func (e *replayError) Error() string { return e.err.Error() }
func (e *replayError) Unwrap() error { return e.err }

// abortError is a request whose client went away: its body stopped short.
type abortError struct{ err error }

func (e *abortError) Error() string { return e.err.Error() }
func (e *abortError) Unwrap() error { return e.err }

// statusClientClosed is the status logged for a request whose client went
// away before its answer, as nginx logs it; the client never sees it.
const statusClientClosed = 499

// aborted reports whether a request failed because its client went away:
// the request's context is cancelled (Go cancels it when the connection
// closes), the body stopped short, or writing the answer failed with a
// broken pipe or a reset connection. None of these is the server's fault.
func aborted(c echo.Context, err error) bool {
	// A body cut off for arriving too slowly also cancels the request's
	// context, but its client is there to read why.
	var he *echo.HTTPError
	if errors.As(err, &he) && he.Code == http.StatusRequestTimeout {
		return false
	}
	var ae *abortError
	return errors.As(err, &ae) || errors.Is(err, context.Canceled) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(c.Request().Context().Err(), context.Canceled)
}

// busyRetryAfter is the Retry-After of a 503 for a database whose write
// lock another program holds, in seconds: such a program (a backup, a
// second replaylab importing) holds it for seconds, not milliseconds.
const busyRetryAfter = "5"

// retryAfterOf returns the Retry-After of an answer that asks the client
// to come back: the server at one of its limits (regeneration slots, the
// memory budget) or the database's write lock held by another program;
// "" for any other error.
func retryAfterOf(err error) string {
	var he *echo.HTTPError
	switch {
	case errors.Is(err, store.ErrBusy):
		return busyRetryAfter
	case errors.As(err, &he) && (he == errBusy || he == errMemoryBusy || he == errBodiesBusy):
		return retryAfter
	}
	return ""
}

// errorBody is every error answer of the API.
type errorBody struct {
	Error string `json:"error"`
	// Turn and Line locate a bad replay's problem, when known.
	Turn int `json:"turn,omitempty"`
	Line int `json:"line,omitempty"`
}

// classify maps an error to the status and the body the client sees. Only
// errors that are the client's fault keep their message; anything else is
// a 500 with a generic text, and internal reports whether it needs logging.
func classify(err error) (status int, body errorBody, internal bool) {
	var (
		he  *echo.HTTPError
		ie  *inputError
		ne  *notFoundError
		re  *replayError
		div *replay.DivergenceError
		fte *forkTimeError
	)
	switch {
	case errors.As(err, &fte):
		// The server at its time limit, working as told: no Retry-After,
		// as the same fork takes as long again.
		return http.StatusServiceUnavailable, errorBody{Error: fte.Error(), Turn: fte.turn}, false
	case errors.As(err, &he):
		msg, ok := he.Message.(string)
		if !ok {
			msg = http.StatusText(he.Code)
		}
		// A server at one of its limits is working as told, not failing.
		return he.Code, errorBody{Error: msg}, he.Code >= 500 && retryAfterOf(err) == ""
	case errors.As(err, &re):
		body := errorBody{Error: re.err.Error()}
		var rpl *replay.Error
		if errors.As(err, &rpl) {
			body.Turn, body.Line = rpl.Turn, rpl.Line
		} else if errors.As(err, &div) {
			body.Turn = div.Turn
		}
		return re.status, body, false
	case errors.Is(err, replay.ErrOldRevision):
		// A stored match recorded under an older rules revision that a
		// rule change since has altered: the message names both
		// revisions. It is no divergence (the replay is sound) and no
		// server fault; re-recording the match is the only cure.
		return http.StatusUnprocessableEntity, errorBody{Error: replayMessage(err)}, false
	case errors.As(err, &div):
		// A stored match whose replay no longer regenerates: this build's
		// engine plays it differently from the one that stored it. The
		// server works; the stored match is stale, and the user should
		// know which turn and why.
		return http.StatusConflict, errorBody{Error: "the stored replay does not regenerate with this build's engine: " + div.Error(), Turn: div.Turn}, false
	case errors.As(err, &ie):
		return http.StatusBadRequest, errorBody{Error: ie.msg}, false
	case errors.As(err, &ne):
		return http.StatusNotFound, errorBody{Error: ne.msg}, false
	// The store's error kinds are the caller's fault; their messages are
	// meant for users.
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, errorBody{Error: err.Error()}, false
	case errors.Is(err, store.ErrAmbiguous), errors.Is(err, store.ErrInvalid):
		return http.StatusBadRequest, errorBody{Error: err.Error()}, false
	case errors.Is(err, store.ErrBusy):
		// Another program holds the write lock: the server works, and
		// the same request may succeed in a moment (see busyRetryAfter).
		return http.StatusServiceUnavailable, errorBody{Error: err.Error()}, false
	}
	return http.StatusInternalServerError, errorBody{Error: "internal error: the server could not answer; the problem has been logged"}, true
}

// replayMessage is the message of the *replay.Error err wraps, without
// the context callers added in front of it, or else err's own.
func replayMessage(err error) string {
	var rpl *replay.Error
	if errors.As(err, &rpl) {
		return rpl.Error()
	}
	return err.Error()
}

// handleError is the one error handler of the server: API requests get
// JSON, pages an HTML page, and server faults are logged with the request
// id the client also sees in X-Request-Id. A request whose client went
// away is logged at debug level only, with status 499.
func (s *server) handleError(err error, c echo.Context) {
	if aborted(c, err) {
		if c.Response().Status == statusClientClosed {
			return // handled already: the request logger calls this first
		}
		s.logFailure(c, slog.LevelDebug, "request aborted by the client", err)
		if c.Response().Committed {
			// Only for the access line: the answer has started already.
			c.Response().Status = statusClientClosed
			return
		}
		_ = c.NoContent(statusClientClosed) // nobody reads it; the access line does
		return
	}
	if c.Response().Committed {
		return
	}
	status, body, internal := classify(err)
	if internal {
		s.logFailure(c, slog.LevelError, "request failed", err)
	}
	if status == http.StatusUnauthorized {
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="replaylab uploads"`)
	}
	if ra := retryAfterOf(err); ra != "" {
		c.Response().Header().Set("Retry-After", ra)
	}
	var werr error
	switch {
	case c.Request().Method == http.MethodHead:
		werr = c.NoContent(status)
	case isAPI(c):
		werr = c.JSON(status, body)
	default:
		werr = s.render(c, status, "error", errorPage{page: page{Title: http.StatusText(status)}, Status: status, Body: body})
	}
	if werr != nil && !aborted(c, werr) {
		s.log.WarnContext(c.Request().Context(), "write error response", slog.Any("error", werr))
	}
}

// logFailure logs the error of a request with the request id the client
// sees in X-Request-Id.
func (s *server) logFailure(c echo.Context, level slog.Level, msg string, err error) {
	s.log.LogAttrs(c.Request().Context(), level, msg,
		slog.String("method", c.Request().Method), slog.String("uri", c.Request().RequestURI),
		slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)),
		slog.Any("error", err))
}

// isAPI reports whether a request is for the JSON API (or the health
// check, which tools read), as opposed to a page.
func isAPI(c echo.Context) bool {
	p := c.Request().URL.Path
	return strings.HasPrefix(p, "/api/") || p == "/healthz"
}

// errorPage is the data of the error template.
type errorPage struct {
	page
	Status int
	Body   errorBody
}
