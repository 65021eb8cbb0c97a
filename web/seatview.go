package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/replay/codenjoy"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/store"
)

// seatViewJSON is what one seat's bot received before a turn.
type seatViewJSON struct {
	Turn       int `json:"turn"`
	SeatIndex  int `json:"seat_index"`
	SeatNumber int `json:"seat_number"`
	// Request is the line an external bot read before the turn, byte for
	// byte: {"turn","player","view"}.
	Request json.RawMessage `json:"request"`
	// Text is the same view in the original game's own message, when the
	// game has one (Snake: the codenjoy server's "board=" message, in the
	// seat's own glyphs); TextForm names it and Rows cuts its board into
	// rows for drawing.
	Text     string   `json:"text,omitempty"`
	TextForm string   `json:"text_form,omitempty"`
	Rows     []string `json:"rows,omitempty"`
}

// originalText writes a game's view in its original message, when this
// build knows it, with the name of that form.
func originalText(g *sim.Game) (func(view any) string, string) {
	if g == snake.Game {
		return func(view any) string {
			if v, ok := sim.ReadView[snake.View](view); ok {
				return codenjoy.Frame(v)
			}
			return ""
		}, "the codenjoy server's message: \"board=\" and the board, row by row from the top, in the seat's own glyphs"
	}
	return nil, ""
}

// boardRows cuts a square board of glyphs into its rows; a board that is
// not square is left whole.
func boardRows(board string) []string {
	n := utf8.RuneCountInString(board)
	size := 0
	for size*size < n {
		size++
	}
	if size == 0 || size*size != n {
		return []string{board}
	}
	runes := []rune(board)
	rows := make([]string, size)
	for i := range rows {
		rows[i] = string(runes[i*size : (i+1)*size])
	}
	return rows
}

// apiSeatView answers GET /api/v1/matches/ID/turns/N/view?seat=K: the view
// the bot of seat index K (from 0, as everywhere in JSON) received before
// turn N, the state after turn N−1 that its command of turn N was chosen
// from.
func (s *server) apiSeatView(c echo.Context) error {
	m, g, err := s.matchParam(c)
	if err != nil {
		return err
	}
	n, err := turnParam(c, m.Turns)
	if err != nil {
		return err
	}
	if n == 0 {
		return badInput("turn 0 is the setup, before any command: the first view is the one before turn 1")
	}
	seat, err := strconv.Atoi(c.QueryParam("seat"))
	if err != nil || seat < 0 {
		return badInput("seat %q: want a seat index from 0 to %d (seat numbers count from 1, indexes from 0)", c.QueryParam("seat"), len(m.Players)-1)
	}
	if seat >= len(m.Players) {
		return notFound("seat index %d: the match has seat indexes 0 to %d", seat, len(m.Players)-1)
	}
	if g == nil {
		return notFound("this build has no game %q to regenerate the match with", m.Game)
	}
	text, form := originalText(g)
	v, err := s.frames.ViewAt(c.Request().Context(), m.ID, n, seat, text)
	if errors.Is(err, store.ErrNotFound) {
		return notFound("match %s has no view of seat index %d before turn %d", shortID(m.ID), seat, n)
	}
	if err != nil {
		return s.memoryFault(c, err)
	}
	out := seatViewJSON{Turn: n, SeatIndex: seat, SeatNumber: sim.SeatNumber(seat), Request: v.Request, Text: v.Text}
	if v.Text != "" {
		out.TextForm = form
		if g == snake.Game {
			out.Rows = boardRows(v.Text[len("board="):])
		}
	}
	return c.JSON(http.StatusOK, out)
}
