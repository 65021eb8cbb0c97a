package web

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/store"
)

// upload stores the replay of a request: the raw body, or the file field
// "replay" of a multipart form. It regenerates the match before storing
// it, so a replay that does not regenerate is refused with its turn and
// line, and returns the match id and whether it is new.
func (s *server) upload(c echo.Context) (id string, created bool, err error) {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, s.maxUpload+1))
	if err != nil {
		// The body-limit middleware reports an oversized body as a 413
		// *echo.HTTPError from Read; pass it on as it is.
		return "", false, err
	}
	if int64(len(body)) > s.maxUpload {
		return "", false, echo.ErrStatusRequestEntityTooLarge
	}
	data, formToken, err := replayFromBody(c.Request().Header.Get(echo.HeaderContentType), body)
	if err != nil {
		return "", false, err
	}
	if err := s.authorize(c, formToken); err != nil {
		return "", false, err
	}
	l, err := replay.Decode(data)
	if err != nil {
		status := http.StatusUnprocessableEntity
		if errors.Is(err, replay.ErrNotReplay) {
			status = http.StatusBadRequest
		}
		return "", false, &replayError{status, err}
	}
	rec, err := store.Build(l)
	if err != nil {
		var re *replay.Error
		var de *replay.DivergenceError
		if errors.As(err, &re) || errors.As(err, &de) {
			return "", false, &replayError{http.StatusUnprocessableEntity, err}
		}
		return "", false, err
	}
	created, err = s.db.Ingest(c.Request().Context(), rec)
	return rec.ID, created, err
}

// replayFromBody returns the replay bytes of a request body and, for a
// form, its "token" field.
func replayFromBody(contentType string, body []byte) (data []byte, token string, err error) {
	mediaType, params, _ := mime.ParseMediaType(contentType)
	if mediaType != "multipart/form-data" {
		return body, "", nil
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", badInput("malformed multipart form: %v", err)
		}
		// The whole body is in memory and bounded already, so reading a
		// part cannot exceed the limit.
		value, err := io.ReadAll(part)
		if err != nil {
			return nil, "", badInput("malformed multipart form: %v", err)
		}
		switch part.FormName() {
		case "replay":
			data = value
		case "token":
			token = strings.TrimSpace(string(value))
		}
	}
	if data == nil {
		return nil, "", badInput(`the form has no "replay" file field`)
	}
	return data, token, nil
}

// authorize checks the upload token when the server has one: from the
// Authorization header, or else the form field.
func (s *server) authorize(c echo.Context, formToken string) error {
	if s.uploadToken == "" {
		return nil
	}
	got := formToken
	if h := c.Request().Header.Get(echo.HeaderAuthorization); h != "" {
		scheme, token, _ := strings.Cut(h, " ")
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

// uploadAnswer is the API's answer to an accepted upload.
type uploadAnswer struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

func (s *server) apiUpload(c echo.Context) error {
	id, created, err := s.upload(c)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		c.Response().Header().Set(echo.HeaderLocation, matchURL(id))
	}
	return c.JSON(status, uploadAnswer{ID: id, URL: matchURL(id)})
}

// uploadForm is the overview's upload form: on success the browser goes to
// the match page, new or already stored; a refused replay gets the error
// page with its turn and line.
func (s *server) uploadForm(c echo.Context) error {
	id, _, err := s.upload(c)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, matchURL(id))
}
