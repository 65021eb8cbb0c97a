package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// Trouble is what went wrong for the bot in one seat of a match: what the
// recorder noted (its process exiting, late answers, over-long answers)
// and the commands the game rejected. Turns count from 1, as events do; a
// first turn of 0 means it never happened. The command line and the
// dashboard both say a match's trouble from this, so they say the same.
type Trouble struct {
	Seat int
	// CrashTurn is the turn the bot's process exited; it was silent from
	// then on.
	CrashTurn int
	// Timeouts counts the turns it answered too late (no command played).
	Timeouts, FirstTimeout int
	// Invalid counts the turns in which the game rejected its command:
	// a game may report several invalid events for one command (one per
	// unit), and a command is what a bot author counts.
	Invalid, FirstInvalid int
	// Oversize counts the answers cut to the longest command allowed.
	Oversize, FirstOversize int
}

// Any reports whether anything went wrong.
func (t Trouble) Any() bool {
	return t.CrashTurn > 0 || t.Timeouts > 0 || t.Invalid > 0 || t.Oversize > 0
}

// Troubles returns the trouble of every seat of a match of seats seats that
// had any, in seat order, from its events in turn order (Record.Events,
// or every event the store holds for the match). Upgrade 12 in
// upgrades.go counts the same in SQL.
func Troubles(seats int, events []TurnEvent) []Trouble {
	ts := make([]Trouble, seats)
	lastInvalid := make([]int, seats)
	for _, e := range events {
		if e.Seat < 0 || e.Seat >= seats {
			continue
		}
		t := &ts[e.Seat]
		switch e.Kind {
		case sim.EventCrash:
			if t.CrashTurn == 0 || e.Turn < t.CrashTurn {
				t.CrashTurn = e.Turn
			}
		case sim.EventTimeout:
			count(&t.Timeouts, &t.FirstTimeout, e.Turn)
		case sim.EventOversize:
			count(&t.Oversize, &t.FirstOversize, e.Turn)
		case sim.EventInvalid:
			if lastInvalid[e.Seat] != e.Turn {
				lastInvalid[e.Seat] = e.Turn
				count(&t.Invalid, &t.FirstInvalid, e.Turn)
			}
		}
	}
	var out []Trouble
	for seat, t := range ts {
		if t.Any() {
			t.Seat = seat
			out = append(out, t)
		}
	}
	return out
}

// count adds one happening at turn to n, keeping the turn of the first.
func count(n, first *int, turn int) {
	if *n == 0 || turn < *first {
		*first = turn
	}
	*n++
}

// TroubleFact is one fact of a seat's trouble, in words, and the turn it
// happened at (of the first, when it happened several times).
type TroubleFact struct {
	Text string
	Turn int
}

// Facts says what went wrong, without the seat: "crashed at turn 20",
// "19 invalid commands (first at turn 21)"... The dashboard links each
// to its turn; String joins them for the command line.
func (t Trouble) Facts() []TroubleFact {
	var facts []TroubleFact
	if t.CrashTurn > 0 {
		facts = append(facts, TroubleFact{fmt.Sprintf("crashed at turn %d", t.CrashTurn), t.CrashTurn})
	}
	for _, f := range []struct {
		n, first  int
		one, many string
	}{
		{t.Timeouts, t.FirstTimeout, "time-out", "time-outs"},
		{t.Invalid, t.FirstInvalid, "invalid command", "invalid commands"},
		{t.Oversize, t.FirstOversize, "over-long answer", "over-long answers"},
	} {
		switch {
		case f.n == 1:
			facts = append(facts, TroubleFact{fmt.Sprintf("1 %s at turn %d", f.one, f.first), f.first})
		case f.n > 1:
			facts = append(facts, TroubleFact{fmt.Sprintf("%d %s (first at turn %d)", f.n, f.many, f.first), f.first})
		}
	}
	return facts
}

// String joins the Facts: "crashed at turn 20, 19 invalid commands (first
// at turn 21)".
func (t Trouble) String() string {
	var texts []string
	for _, f := range t.Facts() {
		texts = append(texts, f.Text)
	}
	return strings.Join(texts, ", ")
}

// TroubleKind selects matches by what went wrong in them (MatchFilter).
type TroubleKind string

// The kinds of trouble a match list can select.
const (
	TroubleAny      TroubleKind = "any"
	TroubleCrash    TroubleKind = "crash"
	TroubleTimeout  TroubleKind = "timeout"
	TroubleInvalid  TroubleKind = "invalid"
	TroubleOversize TroubleKind = "oversize"
)

// TroubleKinds are the values of MatchFilter.Trouble, for forms.
var TroubleKinds = []TroubleKind{TroubleAny, TroubleCrash, TroubleTimeout, TroubleInvalid, TroubleOversize}

// troubleConds is the condition on seat_trouble s of each kind.
var troubleConds = map[TroubleKind]string{
	TroubleAny:      "TRUE",
	TroubleCrash:    "s.crash_turn > 0",
	TroubleTimeout:  "s.timeouts > 0",
	TroubleInvalid:  "s.invalid > 0",
	TroubleOversize: "s.oversize > 0",
}

// troubleMatches returns a query of the seqs of the matches with the
// filter's trouble, and its arguments: trouble of any seat, or with a bot
// in the filter, of that bot's own seats (of its version, when given), so
// a bot page's link lists the matches in which that bot crashed.
// seat_trouble holds a row only for a seat with trouble, so the query
// reads those rows alone, however many matches went well.
func (f MatchFilter) troubleMatches() (string, []any, error) {
	cond, ok := troubleConds[f.Trouble]
	if !ok {
		return "", nil, invalidf("trouble %q: want one of %s", f.Trouble, joinKinds())
	}
	if f.Bot == "" {
		return "SELECT s.match_seq FROM seat_trouble s WHERE " + cond, nil, nil
	}
	sub := "SELECT s.match_seq FROM seat_trouble s JOIN bots b ON b.id = s.bot_id WHERE " + cond + " AND b.name = ?"
	args := []any{f.Bot}
	for _, c := range []struct{ cond, value string }{{" AND b.game = ?", f.Game}, {" AND b.version = ?", f.Version}} {
		if c.value != "" {
			sub += c.cond
			args = append(args, c.value)
		}
	}
	return sub, args, nil
}

func joinKinds() string {
	s := make([]string, len(TroubleKinds))
	for i, k := range TroubleKinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// BotTrouble is how often a bot version's seats went wrong under one
// ruleset (bot_trouble): in how many of them it crashed, timed out,
// sent an invalid command or an over-long answer at least once, and
// how many time-outs, invalid commands and over-long answers in all.
type BotTrouble struct {
	Crashed, TimedOut, InvalidSeats, Oversized int
	Timeouts, Invalid, Oversize                int
}

// insertTrouble writes the seat_trouble rows of a match whose seats are
// stored; their triggers count them into bot_trouble.
func (st *ingestStmts) insertTrouble(ctx context.Context, tx *sql.Tx, rec *Record, seq int64) error {
	ts := Troubles(len(rec.Players), rec.Events)
	if len(ts) == 0 {
		return nil
	}
	return inTx(ctx, tx, st.trouble, func(s *sql.Stmt) error {
		for _, t := range ts {
			if _, err := s.ExecContext(ctx, seq, t.Seat, t.CrashTurn, t.Timeouts, t.FirstTimeout,
				t.Invalid, t.FirstInvalid, t.Oversize, t.FirstOversize); err != nil {
				return fmt.Errorf("trouble of seat %d: %w", t.Seat, err)
			}
		}
		return nil
	})
}

// findTroubles fills in the trouble of ms, whose indexes by id and ids
// as query arguments findPlayers made.
func findTroubles(ctx context.Context, tx *sql.Tx, ms []MatchSummary, index map[string]int, ids []any) error {
	// One placeholder per match: the count varies, the text stays constant.
	rows, err := tx.QueryContext(ctx, `
		SELECT m.id, s.seat, s.crash_turn, s.timeouts, s.first_timeout, s.invalid, s.first_invalid,
			s.oversize, s.first_oversize
		FROM matches m JOIN seat_trouble s ON s.match_seq = m.seq
		WHERE m.id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)
		ORDER BY m.seq, s.seat`, ids...)
	if err != nil {
		return fmt.Errorf("trouble: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id string
			t  Trouble
		)
		if err := rows.Scan(&id, &t.Seat, &t.CrashTurn, &t.Timeouts, &t.FirstTimeout, &t.Invalid, &t.FirstInvalid,
			&t.Oversize, &t.FirstOversize); err != nil {
			return fmt.Errorf("trouble: %w", err)
		}
		m := &ms[index[id]]
		m.Trouble = append(m.Trouble, t)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("trouble: %w", err)
	}
	return nil
}
