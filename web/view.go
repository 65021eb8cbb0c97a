package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// The JSON shapes of the API. Pages embed the same shapes as JSON blocks,
// so the scripts read one format whether data came with the page or from
// a fetch.

type gameJSON struct {
	Name       string       `json:"name"`
	Title      string       `json:"title"`
	Rulesets   []string     `json:"rulesets"`
	MinPlayers int          `json:"min_players"`
	MaxPlayers int          `json:"max_players"`
	Metrics    []metricJSON `json:"metrics"`
	Bots       []botDefJSON `json:"bots"`
	Matches    int          `json:"matches"`
}

type metricJSON struct {
	Name    string `json:"name"`
	Label   string `json:"label"`
	Unit    string `json:"unit"`
	PerUnit bool   `json:"per_unit"`
	Kind    string `json:"kind"` // "gauge" or "counter"
	Integer bool   `json:"integer"`
	// Resolution is the step the stored values are rounded to; 0: exact.
	Resolution float64 `json:"resolution"`
	// Short is the label of a table column (Label when the game gives
	// none); Key marks the metrics a match page draws first.
	Short string `json:"short"`
	Key   bool   `json:"key"`
}

func newMetricJSON(m sim.MetricDef) metricJSON {
	return metricJSON{m.Name, m.Label, m.Unit, m.PerUnit, m.Kind.String(), m.Integer, m.Resolution, m.ShortLabel(), m.Key}
}

type botDefJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

func newGameJSON(g *sim.Game, matches int) gameJSON {
	j := gameJSON{Name: g.Name, Title: g.Title, Rulesets: g.Rulesets, MinPlayers: g.MinPlayers, MaxPlayers: g.MaxPlayers,
		Metrics: metricsJSON(g), Bots: []botDefJSON{}, Matches: matches}
	for _, b := range g.Bots {
		j.Bots = append(j.Bots, botDefJSON{b.Name, b.Description})
	}
	return j
}

// metricsJSON lists a game's metrics; none for a game this build does not
// know (a match stored by another build).
func metricsJSON(g *sim.Game) []metricJSON {
	ms := []metricJSON{}
	if g != nil {
		for _, m := range g.Metrics {
			ms = append(ms, newMetricJSON(m))
		}
	}
	return ms
}

type matchJSON struct {
	ID            string          `json:"id"`
	URL           string          `json:"url"`
	Game          string          `json:"game"`
	Ruleset       string          `json:"ruleset"`
	Seed          uint64          `json:"seed"`
	Config        json.RawMessage `json:"config"`
	Turns         int             `json:"turns"`
	Winner        int             `json:"winner"` // seat, or -1
	Reason        string          `json:"reason"`
	EngineVersion string          `json:"engine_version"`
	RegenMS       float64         `json:"regen_ms"`
	CreatedAt     time.Time       `json:"created_at"`
	Players       []playerJSON    `json:"players"`
	// Trouble is what went wrong for each seat that had trouble; empty
	// when nothing did.
	Trouble []troubleJSON `json:"trouble"`
}

// troubleJSON is store.Trouble: turns count from 1, and 0 means never.
type troubleJSON struct {
	SeatIndex         int `json:"seat_index"` // 0-based
	CrashTurn         int `json:"crash_turn"`
	Timeouts          int `json:"timeouts"`
	FirstTimeoutTurn  int `json:"first_timeout_turn"`
	InvalidCommands   int `json:"invalid_commands"`
	FirstInvalidTurn  int `json:"first_invalid_turn"`
	OversizeAnswers   int `json:"oversize_answers"`
	FirstOversizeTurn int `json:"first_oversize_turn"`
}

type playerJSON struct {
	Seat    int     `json:"seat"`
	Name    string  `json:"name"`
	Version string  `json:"version"`
	Score   float64 `json:"score"`
	Rank    int     `json:"rank"`
	Outcome string  `json:"outcome"`
	Color   string  `json:"color"` // the seat's colour, from seatColors
	// Team names the seat's team by the 0-based index of its lowest seat:
	// seats with the same one played together; a seat alone has its own.
	Team int `json:"team_seat_index"`
}

func newMatchJSON(m store.MatchSummary) matchJSON {
	j := matchJSON{ID: m.ID, URL: matchURL(m.ID), Game: m.Game, Ruleset: m.Ruleset, Seed: m.Seed, Config: m.Config,
		Turns: m.Turns, Winner: m.Winner, Reason: m.Reason, EngineVersion: m.EngineVersion,
		RegenMS: float64(m.RegenTime.Microseconds()) / 1000, CreatedAt: m.CreatedAt, Players: []playerJSON{}, Trouble: []troubleJSON{}}
	for _, p := range m.Players {
		j.Players = append(j.Players, playerJSON{p.Seat, p.Name, p.Version, p.Score, p.Rank, string(p.Outcome), seatColor(p.Seat), p.Team})
	}
	for _, t := range m.Trouble {
		j.Trouble = append(j.Trouble, troubleJSON{t.Seat, t.CrashTurn, t.Timeouts, t.FirstTimeout, t.Invalid, t.FirstInvalid, t.Oversize, t.FirstOversize})
	}
	return j
}

func matchesJSON(ms []store.MatchSummary) []matchJSON {
	out := make([]matchJSON, len(ms))
	for i, m := range ms {
		out[i] = newMatchJSON(m)
	}
	return out
}

// turnJSON is one turn for the inspector.
type turnJSON struct {
	Turn     int `json:"turn"`
	LastTurn int `json:"last_turn"`
	// Frame is the regenerated frame, a regen.Frame: {"turn", "commands",
	// "state"}.
	Frame  json.RawMessage `json:"frame"`
	Stats  []statJSON      `json:"stats"`
	Events []eventJSON     `json:"events"`
	// Output is what the bots wrote besides their answers this turn, when
	// the recorder kept it (store.BotOutput).
	Output []outputJSON `json:"output"`
	// Times holds each timed seat's answer time this turn, when the
	// recorder kept it (store.BotTimes).
	Times []turnTimeJSON `json:"times"`
	// Debug holds what each seat's bot drew over the board this turn
	// (store.BotDebugAt), only when asked for (debug=1) and drawn.
	Debug []debugJSON `json:"debug,omitempty"`
}

// debugJSON is a seat's debug drawing of a turn: shapes as
// replay.ParseDebug normalised them.
type debugJSON struct {
	Seat   int             `json:"seat"`
	Shapes json.RawMessage `json:"shapes"`
}

// framePlaceholder stands for the frame while the rest of a turn is
// encoded; the fields before it are numbers, so its first occurrence is
// the frame's.
var framePlaceholder = []byte(`"frame":0,`)

// encode writes t as json.Encoder does (c.JSON), newline included, but
// puts the frame in as it is: encoding/json would check and compact the
// frame, most of a turn's bytes, again, when it is json.Marshal's output
// already (and so compact, its HTML escaped): a tenth of a career fair
// turn's time.
func (t turnJSON) encode() ([]byte, error) {
	frame := t.Frame
	if len(frame) == 0 {
		frame = json.RawMessage("null")
	}
	t.Frame = json.RawMessage("0")
	rest, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("turn %d: encode: %w", t.Turn, err)
	}
	i := bytes.Index(rest, framePlaceholder) + len(framePlaceholder) - 2
	b := make([]byte, 0, len(rest)+len(frame)+1)
	b = append(append(append(b, rest[:i]...), frame...), rest[i+1:]...)
	return append(b, '\n'), nil
}

type outputJSON struct {
	Seat   int    `json:"seat"`
	Stream string `json:"stream"`
	Text   string `json:"text"`
}

func outputsJSON(os []store.BotOutput) []outputJSON {
	out := make([]outputJSON, len(os))
	for i, o := range os {
		out[i] = outputJSON{o.Seat, o.Stream, o.Text}
	}
	return out
}

// statJSON is one player's or unit's numbers; Values follow the order of
// the game's metrics.
type statJSON struct {
	Seat   int       `json:"seat"`
	Unit   int       `json:"unit"`
	Alive  bool      `json:"alive"`
	Values []float64 `json:"values"`
}

func statsJSON(g *sim.Game, ss []store.TurnStat) []statJSON {
	out := make([]statJSON, len(ss))
	for i, s := range ss {
		j := statJSON{Seat: s.Seat, Unit: s.Unit, Alive: s.Alive, Values: []float64{}}
		if g != nil {
			// One value per metric the game declares, 0 for any that
			// was not stored (does not apply to a unit).
			j.Values = make([]float64, len(g.Metrics))
			copy(j.Values, s.Values)
		}
		out[i] = j
	}
	return out
}

type eventJSON struct {
	Turn   int     `json:"turn"`
	Seat   int     `json:"seat"`
	Unit   int     `json:"unit"`
	Kind   string  `json:"kind"`
	Target int     `json:"target"`
	Amount float64 `json:"amount"`
	X      int     `json:"x"`
	Y      int     `json:"y"`
	Detail string  `json:"detail"`
}

func eventsJSON(es []store.TurnEvent) []eventJSON {
	out := make([]eventJSON, len(es))
	for i, e := range es {
		out[i] = eventJSON{e.Turn, e.Seat, e.Unit, e.Kind, e.Target, e.Amount, e.X, e.Y, e.Detail}
	}
	return out
}

// seriesJSON is one metric of a match, one line per player or unit.
type seriesJSON struct {
	Metric metricJSON `json:"metric"`
	Turns  int        `json:"turns"`
	// Points is the most values a line holds; a longer line is
	// downsampled (analytics.Downsample).
	Points int        `json:"points"`
	Lines  []lineJSON `json:"lines"`
}

type lineJSON struct {
	Seat   int    `json:"seat"`
	Unit   int    `json:"unit"`
	Name   string `json:"name"`
	Values values `json:"values"`
	// Turns is there when the line was downsampled: values[i] is the
	// value after turns[i]. Without it values[t] is the value after turn t.
	Turns []int `json:"turns,omitempty"`
}

// values encodes a line's numbers as a JSON array, NaN (no row at that
// turn) as null, which both JSON and ECharts (a gap) understand.
type values []float64

func (vs values) MarshalJSON() ([]byte, error) {
	return appendValues(make([]byte, 0, 2+4*len(vs)), vs), nil
}

// appendValues appends vs as a JSON array.
func appendValues(b []byte, vs []float64) []byte {
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNumber(b, v)
	}
	return append(b, ']')
}

// appendNumber appends v as JSON, NaN and infinities as null. It formats
// the numbers itself: a long match has tens of thousands of them, and
// integers, which most metrics are, format several times faster than
// floats.
func appendNumber(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return append(b, "null"...)
	case v == math.Trunc(v) && math.Abs(v) < 1<<53:
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// standingJSON is one bot version's line of a leaderboard.
type standingJSON struct {
	Game      string     `json:"game"`
	Ruleset   string     `json:"ruleset"`
	Name      string     `json:"name"`
	Version   string     `json:"version"`
	URL       string     `json:"url"`
	Matches   int        `json:"matches"` // once per match, however many seats
	Seats     int        `json:"seats"`   // the seats held in those matches
	Wins      int        `json:"wins"`
	Draws     int        `json:"draws"`
	Losses    int        `json:"losses"`
	WinRate   float64    `json:"win_rate"`
	WinCI     [2]float64 `json:"win_rate_ci95"`
	MeanScore float64    `json:"mean_score"`
	// Rating and RatingCI are null until the version is rated.
	Rating   *float64    `json:"rating"`
	RatingCI *[2]float64 `json:"rating_ci95"`
	// Of its seats, how many crashed, timed out at least once and sent at
	// least one invalid command, and those shares of Seats (0 to 1); how
	// many time-outs and invalid commands in all (store.BotTrouble).
	CrashedSeats    int     `json:"crashed_seats"`
	TimedOutSeats   int     `json:"timed_out_seats"`
	InvalidSeats    int     `json:"invalid_seats"`
	CrashRate       float64 `json:"crash_rate"`
	TimeoutRate     float64 `json:"timeout_rate"`
	InvalidRate     float64 `json:"invalid_rate"`
	Timeouts        int     `json:"timeouts"`
	InvalidCommands int     `json:"invalid_commands"`
}

// HasTrouble reports whether some seat of the version went wrong.
func (s standingJSON) HasTrouble() bool {
	return s.CrashedSeats+s.TimedOutSeats+s.InvalidSeats > 0
}

// share is n of seats as a fraction, 0 without seats.
func share(n, seats int) float64 {
	if seats == 0 {
		return 0
	}
	return float64(n) / float64(seats)
}

// boardView is a leaderboard as pages show it: its standings in their
// JSON shape, flat. html/template looks every field up by name on every
// row, and a name promoted from an embedded struct (analytics.Standing
// embeds store.BotSummary) costs a search of the struct each time: a third
// of the time the Bots page took to render.
type boardView struct {
	Game, Ruleset string
	Standings     []standingJSON
	Fit           *store.RatingBoard // nil before the first fit
}

// boardViews converts leaderboards for pages and the API.
func boardViews(bs []analytics.Board) []boardView {
	out := make([]boardView, len(bs))
	for i, b := range bs {
		out[i] = boardView{b.Game, b.Ruleset, standingsJSON(b.Standings), b.Fit}
	}
	return out
}

func standingsJSON(ss []analytics.Standing) []standingJSON {
	out := make([]standingJSON, len(ss))
	for i, s := range ss {
		t := s.Trouble
		out[i] = standingJSON{Game: s.Game, Ruleset: s.Ruleset, Name: s.Name, Version: s.Version, URL: botURL(s.Game, s.Name),
			Matches: s.Matches, Seats: s.Seats, Wins: s.Wins, Draws: s.Draws, Losses: s.Losses,
			WinRate: s.WinRate, WinCI: [2]float64{s.WinCI.Low, s.WinCI.High}, MeanScore: s.MeanScore,
			CrashedSeats: t.Crashed, TimedOutSeats: t.TimedOut, InvalidSeats: t.InvalidSeats,
			CrashRate: share(t.Crashed, s.Seats), TimeoutRate: share(t.TimedOut, s.Seats), InvalidRate: share(t.InvalidSeats, s.Seats),
			Timeouts: t.Timeouts, InvalidCommands: t.Invalid}
		if s.Rated {
			out[i].Rating, out[i].RatingCI = &s.Rating, &[2]float64{s.RatingCI.Low, s.RatingCI.High}
		}
	}
	return out
}

// playerName labels a seat in charts and tables: "Seat 1 · name version".
func playerName(p store.PlayerSummary) string {
	s := sim.SeatName(p.Seat) + " · " + p.Name
	if p.Version != "" {
		s += " " + p.Version
	}
	return s
}
