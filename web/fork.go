package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// maxForkRequest bounds a fork request's body: a turn, a few seats' bots
// and a command of at most replay.MaxCommandBytes.
const maxForkRequest = replay.MaxCommandBytes + 16<<10

// forkRequest is the body of POST /api/v1/matches/ID/forks: the last turn
// played as recorded, built-in bots for seats that change bot, and a
// command forced at the first live turn. Token is the upload token, for a
// client that cannot send an Authorization header (the inspector's form).
type forkRequest struct {
	Turn     int        `json:"turn"`
	Bots     []forkSeat `json:"bots"`
	Commands []forkSeat `json:"commands"`
	Token    string     `json:"token"`
}

// forkSeat is a seat's bot (a built-in bot's name) or forced command.
type forkSeat struct {
	SeatIndex int    `json:"seat_index"` // 0-based
	Bot       string `json:"bot,omitempty"`
	Command   string `json:"command,omitempty"`
}

// forkAnswer is the answer to a fork: the new match, whether it was
// stored already (the same fork played before: built-in bots play the
// same way every time), its parent, and how far each seat's bot repeated
// the parent's commands before the fork.
type forkAnswer struct {
	uploadAnswer
	Parent     parentJSON      `json:"parent"`
	Agreements []agreementJSON `json:"agreements"`
}

// agreementJSON is replay.Agreement: Turn is the first turn the bot's
// answer differed from the recorded command, 0 when it repeated them all.
type agreementJSON struct {
	SeatIndex int    `json:"seat_index"`
	Turn      int    `json:"turn"`
	Text      string `json:"text"`
}

// apiFork plays a stored match on from one of its turns on the server and
// stores the fork. Only matches whose seats can all be played by built-in
// bots fork here; for one with external bots the error gives the
// 'replaylab fork' command line to run where the bots are. It is bounded
// as uploads are: authorized by the upload token, one of the server's
// regeneration slots (503 when none is free) and the replay budget for
// the parent and the fork; and in time, by the server's fork time limit
// (503 naming the turn reached, nothing stored).
func (s *server) apiFork(c echo.Context) error {
	r := c.Request()
	header := r.Header.Get(echo.HeaderAuthorization)
	if header != "" {
		if err := s.authorize(header, ""); err != nil {
			return err
		}
	}
	req, err := readForkRequest(c)
	if err != nil {
		return err
	}
	if header == "" {
		if err := s.authorize("", req.Token); err != nil {
			return err
		}
	}
	m, g, err := s.matchParam(c)
	if err != nil {
		return err
	}
	if g == nil {
		return badInput("this build does not have game %s, so it cannot play its match on", m.Game)
	}
	bots, force, err := forkSeats(g, m, req)
	if err != nil {
		return err
	}
	release, err := s.regenerations.take()
	if err != nil {
		return err
	}
	defer release()
	// The slot is held for as long as the fork plays: bound that, so one
	// long match cannot keep it. Storing is not bounded (one transaction).
	ctx, cancel := context.WithTimeoutCause(r.Context(), s.forkTimeLimit, errForkTimeLimit)
	defer cancel()
	rec, agreements, err := s.playFork(ctx, c, m, g, req.Turn, bots, force)
	var te *forkTimeError
	if err != nil && !errors.As(err, &te) && errors.Is(context.Cause(ctx), errForkTimeLimit) {
		// The limit passed before any turn was played: while the parent
		// was read or decoded.
		err = &forkTimeError{limit: s.forkTimeLimit, at: req.Turn}
	}
	if err != nil {
		return err
	}
	created, err := s.db.Ingest(r.Context(), rec)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		s.matchesStored()
		status = http.StatusCreated
		c.Response().Header().Set(echo.HeaderLocation, matchURL(rec.ID))
	}
	a := forkAnswer{
		uploadAnswer: uploadAnswer{ID: rec.ID, URL: matchURL(rec.ID), Duplicate: !created, Output: outputWord(store.NoOutput)},
		Parent:       parentJSON{Match: m.ID, Turn: req.Turn, URL: matchURL(m.ID)},
		Agreements:   []agreementJSON{},
	}
	for _, ag := range agreements {
		a.Agreements = append(a.Agreements, agreementJSON{SeatIndex: ag.Seat, Turn: ag.Turn, Text: ag.String()})
	}
	return c.JSON(status, a)
}

// readForkRequest decodes a fork request's JSON body, refusing unknown
// fields so a misspelt one is not silently ignored.
func readForkRequest(c echo.Context) (forkRequest, error) {
	var req forkRequest
	body := http.MaxBytesReader(c.Response().Writer, c.Request().Body, maxForkRequest)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return req, echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("a fork request is at most %d bytes", maxForkRequest))
		}
		if errors.Is(err, io.EOF) {
			return req, badInput(`want a JSON body: {"turn": N, "bots": [{"seat_index": S, "bot": NAME}], "commands": [{"seat_index": S, "command": TEXT}]}`)
		}
		return req, badInput("fork request: %s", quoteShort(err.Error()))
	}
	return req, nil
}

// forkSeats checks a fork request against its match and returns the
// built-in bot of every seat and the forced commands by seat. Every seat
// must end up with a built-in bot: the server cannot start a program only
// its author has, so a match with external bots is refused with the
// command line that forks it where they are.
func forkSeats(g *sim.Game, m store.MatchSummary, req forkRequest) ([]string, map[int]string, error) {
	if req.Turn < 1 || req.Turn >= m.Turns {
		return nil, nil, badInput("turn %d: a fork of this match plays turns 1 to N as recorded and goes on live, so N is from 1 to %d (the match has %d turns)", req.Turn, m.Turns-1, m.Turns)
	}
	seat := func(what string, s int) error {
		if s < 0 || s >= len(m.Players) {
			return badInput("%s for seat_index %d: the match has seat_index 0 to %d (%s to %s)", what, s, len(m.Players)-1, sim.SeatName(0), sim.SeatName(len(m.Players)-1))
		}
		return nil
	}
	bots := make([]string, len(m.Players))
	for _, b := range req.Bots {
		if err := seat("a bot", b.SeatIndex); err != nil {
			return nil, nil, err
		}
		if bots[b.SeatIndex] != "" {
			return nil, nil, badInput("%s is given two bots", sim.SeatName(b.SeatIndex))
		}
		if err := replay.CheckBuiltin(g, b.Bot); err != nil {
			return nil, nil, badInput("%s: %v", sim.SeatName(b.SeatIndex), err)
		}
		bots[b.SeatIndex] = b.Bot
	}
	var external []string
	for s, p := range m.Players {
		if bots[s] != "" {
			continue
		}
		if !replay.IsBuiltin(g, replay.Player{Name: p.Name, Version: p.Version}) {
			external = append(external, seatLabel(s, p))
			continue
		}
		bots[s] = p.Name
	}
	if len(external) > 0 {
		return nil, nil, badInput("not a built-in bot, so the server cannot play it on: %s; give each a built-in bot, or fork the match where its bots are: %s",
			strings.Join(external, ", "), forkCommand(g, m, req.Turn))
	}
	var force map[int]string
	for _, fc := range req.Commands {
		if err := seat("a command", fc.SeatIndex); err != nil {
			return nil, nil, err
		}
		if len(fc.Command) > replay.MaxCommandBytes {
			return nil, nil, badInput("%s: a command of %d bytes, at most %d", sim.SeatName(fc.SeatIndex), len(fc.Command), replay.MaxCommandBytes)
		}
		if force == nil {
			force = map[int]string{}
		}
		if _, dup := force[fc.SeatIndex]; dup {
			return nil, nil, badInput("%s is given two commands", sim.SeatName(fc.SeatIndex))
		}
		force[fc.SeatIndex] = fc.Command
	}
	return bots, force, nil
}

// seatLabel names a seat and its bot for a message: "Seat 2 (name version)".
func seatLabel(seat int, p store.PlayerSummary) string {
	return fmt.Sprintf("%s (%s %s)", sim.SeatName(seat), p.Name, p.Version)
}

// forkCommand is the 'replaylab fork' command line that forks match m at
// turn, with a placeholder bot for each seat whose bot is not built-in.
func forkCommand(g *sim.Game, m store.MatchSummary, turn int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "replaylab fork %s.rpl --at %d", shortID(m.ID), turn)
	for s, p := range m.Players {
		if g == nil || !replay.IsBuiltin(g, replay.Player{Name: p.Name, Version: p.Version}) {
			fmt.Fprintf(&b, " --bot %d=\"COMMAND OF %s\"", sim.SeatNumber(s), strings.ToUpper(p.Name))
		}
	}
	b.WriteString(" -o fork.rpl")
	return b.String()
}

// playFork decodes the stored replay of m, plays it on from turn with the
// built-in bots of bots and the forced commands, and regenerates the fork
// for storing. The budget holds the parent's log and the fork's build,
// estimated at the parent's size.
func (s *server) playFork(ctx context.Context, c echo.Context, m store.MatchSummary, g *sim.Game, turn int, bots []string, force map[int]string) (*store.Record, []replay.Agreement, error) {
	data, err := s.db.Replay(ctx, m.ID)
	if err != nil {
		return nil, nil, err
	}
	logs, mem, err := s.memory.Decode(ctx, func(l *replay.Log) int64 { return regen.LogBytes(l) + regen.BuildBytes(l) }, data)
	if err != nil {
		var de *regen.DecodeError
		if errors.As(err, &de) {
			return nil, nil, fmt.Errorf("decode stored replay %s: %w", m.ID, de.Err)
		}
		return nil, nil, s.memoryFault(c, err)
	}
	defer mem.Release()
	parent := logs[0]
	h, err := replay.Fork(parent, turn)
	if err != nil {
		return nil, nil, badInput("%s", err)
	}
	agents := make([]replay.Agent, len(bots))
	for seat, name := range bots {
		if agents[seat], err = replay.NewBuiltin(g, name, h.Setup(), seat); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", sim.SeatName(seat), err)
		}
		if h.Players[seat].Name != name || h.Players[seat].Version != replay.BuiltinVersion {
			h.Players[seat] = replay.Player{Name: name, Version: replay.BuiltinVersion}
		}
	}
	reached := 0 // the last turn played, for a fork stopped by the time limit
	rec := &replay.Recorder{Header: h, Agents: agents, HashEvery: forkHashEvery, From: parent, At: turn, Force: force,
		OnTurn: func(n int) {
			reached = n
			if s.onForkTurn != nil {
				s.onForkTurn(ctx, n)
			}
		}}
	l, err := rec.Record(ctx)
	if errors.Is(context.Cause(ctx), errForkTimeLimit) {
		return nil, nil, &forkTimeError{limit: s.forkTimeLimit, turn: reached, at: turn}
	}
	if err != nil {
		// A stored match that does not replay with this build (an older
		// rules revision it does not reproduce) cannot be played on.
		return nil, nil, &replayError{http.StatusUnprocessableEntity, fmt.Errorf("the match cannot be played on from turn %d: %w", turn, err)}
	}
	out, err := regen.Build(ctx, l)
	if errors.Is(context.Cause(ctx), errForkTimeLimit) {
		return nil, nil, &forkTimeError{limit: s.forkTimeLimit, turn: reached, at: turn, played: true}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("regenerate the fork: %w", err)
	}
	return out, rec.Agreements, nil
}

// DefaultForkTimeLimit is Config.ForkTimeLimit when it is zero: built-in
// bots play an ordinary match on in well under a second, so only a very
// long match, or a server far too busy, comes near it.
const DefaultForkTimeLimit = 30 * time.Second

// errForkTimeLimit is the cause of a fork's context cancelled by the time
// limit, telling it from a client that went away.
var errForkTimeLimit = errors.New("fork time limit reached")

// forkTimeError is a fork stopped by the server's time limit: the turn it
// had reached (after turn at, the last as recorded) and whether it had
// been played to its end and was being regenerated.
type forkTimeError struct {
	limit    time.Duration
	turn, at int
	played   bool
}

func (e *forkTimeError) Error() string {
	stage := fmt.Sprintf("stopped after turn %d (the fork is live from turn %d)", e.turn, e.at+1)
	if e.turn == 0 {
		stage = "stopped before turn 1"
	}
	if e.played {
		stage = fmt.Sprintf("played to its end at turn %d but not regenerated in time", e.turn)
	}
	return fmt.Sprintf("the fork did not finish within the server's --fork-time-limit of %v: %s; nothing was stored. 'replaylab fork' plays it on your machine without this limit",
		e.limit, stage)
}

// forkHashEvery is how often a fork played on the server records its
// state hash, as 'replaylab record' does by default.
const forkHashEvery = 100

// forkView is the inspector's "Fork here" form: for a match whose seats
// are all built-in bots, a bot per seat (its own by default) and a
// command to force; for one with external bots, the command line that
// forks it where they are.
type forkView struct {
	Builtin   bool
	Seats     []forkSeatView
	Bots      []string // the game's built-in bots
	Command   string   // the 'replaylab fork' line, for external bots
	NeedToken bool
}

// forkSeatView is a seat of the fork form, with its recorded bot.
type forkSeatView struct {
	Seat  int
	Label string
	Bot   string
}

// forkView builds the inspector's fork form for match m shown at turn.
func (s *server) forkView(g *sim.Game, m store.MatchSummary, turn int) forkView {
	v := forkView{Builtin: g != nil, NeedToken: s.uploadToken != ""}
	for _, p := range m.Players {
		if g == nil || !replay.IsBuiltin(g, replay.Player{Name: p.Name, Version: p.Version}) {
			v.Builtin = false
		}
		v.Seats = append(v.Seats, forkSeatView{Seat: p.Seat, Label: sim.SeatName(p.Seat), Bot: p.Name})
	}
	if !v.Builtin {
		v.Command = forkCommand(g, m, max(1, min(turn, m.Turns-1)))
		return v
	}
	for _, b := range g.Bots {
		v.Bots = append(v.Bots, b.Name)
	}
	return v
}
