package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/store"
)

// deleteAnswer is the API's answer to a delete: the match that is gone.
type deleteAnswer struct {
	ID      string `json:"id"`
	Game    string `json:"game"`
	Ruleset string `json:"ruleset"`
	Deleted bool   `json:"deleted"`
}

// apiDelete deletes the match the URL's :id names, in full or by a unique
// prefix, with everything derived from it (store.DB.DeleteMatches). It
// takes what an upload takes: the upload token in the Authorization
// header when the server has one, and the host and origin checks every
// write passes. What the server keeps of the match goes too: its summary
// and inspector cursor; the kept pages follow the data version the delete
// moved, and the refitter is told to refit the match's ruleset.
func (s *server) apiDelete(c echo.Context) error {
	if err := s.authorizeDelete(c.Request().Header.Get(echo.HeaderAuthorization)); err != nil {
		return err
	}
	deleted, err := s.db.DeleteMatches(c.Request().Context(), []string{c.Param("id")})
	if err != nil {
		return err
	}
	d := deleted[0]
	s.matchDeleted(d)
	return c.JSON(http.StatusOK, deleteAnswer{ID: d.ID, Game: d.Game, Ruleset: d.Ruleset, Deleted: true})
}

// authorizeDelete checks the upload token of a delete, which only the
// Authorization header can carry: a delete has no form.
func (s *server) authorizeDelete(header string) error {
	if s.uploadToken != "" && header == "" {
		return echo.NewHTTPError(http.StatusUnauthorized,
			"deleting a match needs the server's upload token: send Authorization: Bearer TOKEN")
	}
	return s.authorize(header, "")
}

// matchDeleted drops what the server keeps of the deleted match d and
// has its ruleset refitted.
func (s *server) matchDeleted(d store.DeletedMatch) {
	s.summaries.forget(d.ID)
	s.frames.Forget(d.ID)
	if s.refit != nil {
		s.refit.Changed(d.Game, d.Ruleset)
	}
}
