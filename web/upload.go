package web

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/store"
)

// maxTokenField bounds the form's token field; a real token is far shorter.
const maxTokenField = 1 << 10

// upload stores the replay of a request: the raw body, or the file field
// "replay" of a multipart form, with the bots' output when the form's
// "output" file field follows it. It regenerates the match before storing
// it, so a replay that does not regenerate is refused with its turn and
// line, and returns the match id, whether it is new and what became of
// the output: a stored match without output gets it attached.
//
// Nothing is buffered before the upload is authorized (see openReplay).
// The body is read through a cap of the server's MaxUpload and at a pace
// (see bodyReader), and a replay over the format's own limit for its
// encoding is refused as soon as it passes it (see readReplay). Only a
// replay in hand takes one of the server's regeneration slots, for its
// decoding, regeneration and storing: a client sending slowly holds none,
// and when none is free the upload is refused with 503. Decoding holds
// the replay's share of the server's memory budget (decodeUpload).
func (s *server) upload(c echo.Context) (id string, created bool, fate store.OutputFate, err error) {
	r := c.Request()
	if r.ContentLength > s.maxUpload {
		return "", false, store.NoOutput, s.tooLarge()
	}
	// The ResponseWriter lets MaxBytesReader close the connection after
	// the answer to an oversized body, instead of reading it all.
	body := newBodyReader(http.MaxBytesReader(c.Response().Writer, r.Body, s.maxUpload), c.Response(), s.pace)
	src, form, err := s.openReplay(r, body)
	if err != nil {
		return "", false, store.NoOutput, s.bodyFault(body, err)
	}
	part := &bodyReader{r: src}
	data, held, err := s.readReplay(part)
	if err != nil {
		return "", false, store.NoOutput, s.bodyFault(body, replayFault(part, err))
	}
	defer held.release()
	output, err := readOutputPart(form)
	if err != nil {
		return "", false, store.NoOutput, s.bodyFault(body, err)
	}
	if err := r.Context().Err(); err != nil {
		return "", false, store.NoOutput, err // the client is gone: do not regenerate for nobody
	}
	release, err := s.regenerations.take()
	if err != nil {
		return "", false, store.NoOutput, err
	}
	defer release()
	l, mem, err := s.decodeUpload(c, data)
	if err != nil {
		return "", false, store.NoOutput, err
	}
	defer mem.Release()
	held.release() // the log holds what the bytes said
	rec, err := regen.Build(c.Request().Context(), l)
	if err != nil {
		var re *replay.Error
		var de *replay.DivergenceError
		if errors.As(err, &re) || errors.As(err, &de) {
			return "", false, store.NoOutput, &replayError{http.StatusUnprocessableEntity, err}
		}
		return "", false, store.NoOutput, err
	}
	rec.Output = output
	created, fate, err = s.db.Upload(r.Context(), rec)
	if created {
		s.matchesStored()
	}
	return rec.ID, created, fate, err
}

// replayFault is the error of a replay that could not be read from part,
// the reader of the replay in the body: a form's replay part that stopped
// short of its closing boundary is a malformed form; anything else is as
// readReplay says.
func replayFault(part *bodyReader, err error) error {
	if part.err != nil {
		return badInput("malformed multipart form: the replay part ends without its closing boundary (%s)", quoteShort(part.err.Error()))
	}
	return err
}

// readReplay reads the replay r holds, whole, and returns its bytes with
// their hold on the server's memory budget, for the caller to release. It
// refuses with 413 a replay past the format's limit for its encoding
// (replay.MaxEncodedBytes) as soon as it passes it, whatever the server's
// MaxUpload, and with errBodiesBusy one the budget has no room for.
func (s *server) readReplay(r io.Reader) ([]byte, *bodyHold, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(len("RPL\x02"))
	limit := replay.MaxEncodedBytes(head)
	hold := &bodyHold{b: s.memory}
	buf := make([]byte, 0, bytes.MinRead)
	if !hold.grow(int64(cap(buf))) {
		return nil, nil, errBodiesBusy
	}
	for {
		if len(buf) == cap(buf) {
			// Double it, as bytes.Buffer does, but not past the limit.
			bigger := slices.Grow(buf, int(min(int64(len(buf)), limit+1-int64(len(buf)))))
			if !hold.grow(int64(cap(bigger) - cap(buf))) {
				hold.release()
				return nil, nil, errBodiesBusy
			}
			buf = bigger
		}
		n, err := br.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			hold.release()
			return nil, nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge,
				fmt.Sprintf("this replay is too large: the format limits replays of its encoding to %d MiB", limit>>20))
		}
		switch {
		case err == io.EOF:
			return buf, hold, nil
		case err != nil:
			hold.release()
			return nil, nil, err
		}
	}
}

// openReplay checks the upload token and returns the reader of the replay
// in the body and, for a form, the form's reader, for the parts after the
// replay. The token of the Authorization header is checked before any
// byte of the body is read. A form without that header must carry its
// token field before its replay file (the dashboard's form does): the
// parts are read in order and the replay is refused, unread, when the
// token has not come yet. Other form fields are skipped as they stream by.
func (s *server) openReplay(r *http.Request, body io.Reader) (io.Reader, *multipart.Reader, error) {
	header := r.Header.Get(echo.HeaderAuthorization)
	mediaType, params, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if mediaType != "multipart/form-data" || header != "" {
		if err := s.authorize(header, ""); err != nil {
			return nil, nil, err
		}
		if mediaType != "multipart/form-data" {
			return body, nil, nil
		}
	}
	authorized := s.uploadToken == "" || header != ""
	mr := multipart.NewReader(body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, nil, badInput(`the form has no "replay" file field`)
		}
		if err != nil {
			return nil, nil, badInput("malformed multipart form: %s", quoteShort(err.Error()))
		}
		switch part.FormName() {
		case "replay":
			if !authorized {
				return nil, nil, echo.NewHTTPError(http.StatusUnauthorized,
					"uploads need a token: send Authorization: Bearer TOKEN, or the form field token before the replay file")
			}
			return part, mr, nil
		case "token":
			if authorized {
				continue
			}
			value, err := io.ReadAll(io.LimitReader(part, maxTokenField))
			if err != nil {
				return nil, nil, badInput("malformed multipart form: %s", quoteShort(err.Error()))
			}
			if err := s.authorize("", strings.TrimSpace(string(value))); err != nil {
				return nil, nil, err
			}
			authorized = true
		}
	}
}

// readOutputPart reads the form's parts after the replay: an "output"
// part is a bot output file (store.ReadBotOutput), the one 'replaylab
// record' saves beside the replay; other parts are skipped. None for a
// body that is the replay alone.
func readOutputPart(form *multipart.Reader) ([]store.BotOutput, error) {
	var out []store.BotOutput
	for form != nil {
		part, err := form.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, badInput("malformed multipart form: %s", quoteShort(err.Error()))
		}
		if part.FormName() != "output" {
			continue
		}
		if out != nil {
			return nil, badInput(`the form has more than one "output" file field`)
		}
		r := &bodyReader{r: part}
		if out, err = store.ReadBotOutput(r); err != nil {
			if r.err != nil {
				return nil, badInput("malformed multipart form: the output part ends without its closing boundary (%s)", quoteShort(r.err.Error()))
			}
			return nil, badInput("%s", err)
		}
		if out == nil {
			out = []store.BotOutput{}
		}
	}
	return out, nil
}

// authorize checks the upload token when the server has one: from the
// Authorization header, or else the form field.
func (s *server) authorize(header, formToken string) error {
	if s.uploadToken == "" {
		return nil
	}
	got := formToken
	if header != "" {
		scheme, token, _ := strings.Cut(header, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return echo.NewHTTPError(http.StatusUnauthorized, "the Authorization header must be: Bearer TOKEN")
		}
		got = strings.TrimSpace(token)
	}
	if got == "" {
		return echo.NewHTTPError(http.StatusUnauthorized, "uploads need a token: send Authorization: Bearer TOKEN or the form field token")
	}
	// Constant time, so the answer's timing does not reveal how much of a
	// guess was right.
	if subtle.ConstantTimeCompare([]byte(got), []byte(s.uploadToken)) != 1 {
		return echo.NewHTTPError(http.StatusUnauthorized, "wrong upload token")
	}
	return nil
}

// pace is how fast an upload's body must arrive: after grace, at least
// rate bytes a second on average since the body began. A client that
// sends slower is cut off with 408, so it cannot hold a connection and
// its buffers for the server's whole read timeout; a real link, however
// slow, is far faster.
type pace struct {
	grace time.Duration
	rate  int64 // bytes a second
}

// defaultPace is the pace of uploads when Config sets none.
var defaultPace = pace{grace: 10 * time.Second, rate: 32 << 10}

// bodyReader remembers the first error reading a request body, so that a
// failure downstream (a multipart parse, a short read) is reported as what
// it is: a body over the limit, one arriving too slowly, or a client that
// went away. With a ResponseController it holds the body to its pace, by
// moving the connection's read deadline on as bytes arrive.
type bodyReader struct {
	r   io.Reader
	err error

	rc    *http.ResponseController // nil: no pace
	pace  pace
	start time.Time
	n     int64 // bytes read
}

// newBodyReader returns a bodyReader of body held to p through the
// connection under w.
func newBodyReader(body io.Reader, w http.ResponseWriter, p pace) *bodyReader {
	return &bodyReader{r: body, rc: http.NewResponseController(w), pace: p, start: time.Now()}
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.rc != nil {
		// A writer without a connection (a test's recorder) has no
		// deadline to set: the error says so and is of no consequence.
		_ = b.rc.SetReadDeadline(b.start.Add(b.pace.grace + time.Duration(b.n)*(time.Second/time.Duration(b.pace.rate))))
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return n, err
}

// bodyFault returns err, or what went wrong reading the body if anything
// did: 413 for a body over the limit, 408 for one arriving slower than
// its pace, an abort for a client that stopped sending.
func (s *server) bodyFault(body *bodyReader, err error) error {
	var tooBig *http.MaxBytesError
	switch {
	case body.err == nil:
		return err
	case errors.As(body.err, &tooBig):
		return s.tooLarge()
	case errors.Is(body.err, os.ErrDeadlineExceeded):
		return echo.NewHTTPError(http.StatusRequestTimeout, fmt.Sprintf(
			"the upload arrived too slowly: %d bytes in %s; after the first %s a body must keep up at least %s a second",
			body.n, time.Since(body.start).Round(time.Second), body.pace.grace, formatSize(body.pace.rate)))
	default:
		return &abortError{fmt.Errorf("read body: %w", body.err)}
	}
}

// tooLarge is the answer to a body over the limit, which it states.
func (s *server) tooLarge() error {
	return echo.NewHTTPError(http.StatusRequestEntityTooLarge,
		fmt.Sprintf("replays are limited to %s (the server's --max-upload); this upload is larger", formatSize(s.maxUpload)))
}

// formatSize writes n bytes in the largest binary unit that divides it.
func formatSize(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// retryAfter is the Retry-After of a 503, in seconds: a regeneration
// takes milliseconds for an ordinary match.
const retryAfter = "1"

// slots bounds how many uploads regenerate at once. Taking one never
// waits: a busy server says so at once rather than queueing without end.
type slots chan struct{}

// errBusy is the answer when every regeneration slot is taken.
var errBusy = echo.NewHTTPError(http.StatusServiceUnavailable,
	"the server is regenerating as many uploads as it allows (--max-regenerations); retry shortly")

// take returns the release of a free slot, or errBusy.
func (s slots) take() (release func(), err error) {
	select {
	case s <- struct{}{}:
		return func() { <-s }, nil
	default:
		return nil, errBusy
	}
}

// uploadAnswer is the API's answer to an accepted upload. Duplicate says
// the replay was stored already, as the match at URL; Output what became
// of the bot output that came with it (outputWord).
type uploadAnswer struct {
	ID        string `json:"id"`
	URL       string `json:"url"`
	Duplicate bool   `json:"duplicate"`
	Output    string `json:"output"`
}

// outputWord names what became of an upload's bot output in its answer:
// "attached" (stored, with a new match or added to a stored one that had
// none), "unchanged" (the stored match has output already, which it
// keeps) or "none" (the upload carried none).
func outputWord(f store.OutputFate) string {
	switch f {
	case store.OutputStored:
		return "attached"
	case store.OutputKept:
		return "unchanged"
	}
	return "none"
}

func (s *server) apiUpload(c echo.Context) error {
	id, created, output, err := s.upload(c)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		c.Response().Header().Set(echo.HeaderLocation, matchURL(id))
	}
	return c.JSON(status, uploadAnswer{ID: id, URL: matchURL(id), Duplicate: !created, Output: outputWord(output)})
}

// duplicateData is the page answering the upload of a stored replay, and
// what became of the bot output that came with it (outputWord).
type duplicateData struct {
	page
	ID     string
	Output string
}

// uploadForm is the overview's upload form: a new match sends the browser
// to its page, a replay stored already to a page that says so and links
// to the match (both by a redirect, so a reload reads the result again
// rather than posting the file again), and a refused replay gets the
// error page with its turn and line.
func (s *server) uploadForm(c echo.Context) error {
	id, created, output, err := s.upload(c)
	if err != nil {
		return err
	}
	if !created {
		return c.Redirect(http.StatusSeeOther, duplicateURL(id, outputWord(output)))
	}
	return c.Redirect(http.StatusSeeOther, matchURL(id))
}

// duplicateURL is the page saying a form's replay was stored already, and
// what became of its bot output (outputWord).
func duplicateURL(id, output string) string {
	return matchURL(id) + "/duplicate?output=" + url.QueryEscape(output)
}

// duplicatePage answers the redirect of an upload form whose replay was
// stored already.
func (s *server) duplicatePage(c echo.Context) error {
	m, _, err := s.matchParam(c)
	if err != nil {
		return err
	}
	output := c.QueryParam("output")
	switch output {
	case "attached", "unchanged", "none":
	default:
		return badInput("output %q: want attached, unchanged or none", output)
	}
	return s.render(c, http.StatusOK, "duplicate", duplicateData{page: page{Title: "Already stored"}, ID: m.ID, Output: output})
}
