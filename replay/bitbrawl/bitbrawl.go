// Package bitbrawl plays a FoodFight bot through BitBrawl's own runner,
// unchanged: the command is the original engine's
//
//	java -Xmx32m -jar foodfight-runner-1.0.0-jar-with-dependencies.jar BOT.jar MAIN
//
// and the adapter speaks to that runner as the engine's JarController
// does. Each turn it writes the field state as JSON, then the seat's team
// symbol and player symbol as JSON strings; the runner answers with one
// JSON value, the action's name as a string or null, followed by a
// space. The runner holds the bot to a 60-second bank for the whole
// match and answers null once it is spent; the adapter keeps the same
// bank, so a runner that hangs cannot stall the match.
package bitbrawl

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/foodfight"
)

const (
	// Bank is the thinking time of a whole match, as the original's
	// Clock.TIME_LIMIT_NANOS.
	Bank = 60 * time.Second
	// grace is how long past its bank the runner may take to say null,
	// as its ControllerWrapper waits for a controller.
	grace = 2 * time.Second
)

// Agent is a FoodFight runner process.
type Agent struct {
	proc    *replay.Process
	bank    time.Duration // left of the match's thinking time
	started bool          // the first turn, start-up included, is over
	// sent counts the requests written and got the answers read, so a
	// late answer is known as such: the runner answers every request in
	// order, without naming the turn.
	sent, got atomic.Int64
}

// Start starts the runner that argv runs (no shell) with the bank of
// thinking time for the match. opt's limits are raised to what the bank
// allows; its StartLimit, for the JVM's start-up, is not taken from the
// bank.
func Start(ctx context.Context, argv []string, bank time.Duration, opt replay.ProcessOptions) (*Agent, error) {
	a := &Agent{bank: bank}
	opt.TurnLimit = bank + grace
	opt.StartLimit += bank + grace
	// The request's last JSON value is complete only with its closing
	// quote, held back with the newline until the runner has read the rest.
	opt.Framing = &replay.Framing{Request: a.request, Answer: a.answer, Hold: 2, Ends: " \t\r\n"}
	p, err := replay.StartProcess(ctx, argv, opt)
	if err != nil {
		return nil, err
	}
	a.proc = p
	return a, nil
}

// Act sends the turn's state and waits for the action within what is left
// of the bank (and its grace). An answer that comes after the bank is
// spent is null, as the runner would have said; so is every turn after.
func (a *Agent) Act(ctx context.Context, turn int, view any) replay.Answer {
	if !a.started {
		a.started = true
		return a.proc.Act(ctx, turn, view)
	}
	left := max(a.bank, 0)
	ctx, cancel := context.WithTimeout(ctx, left+grace)
	defer cancel()
	start := time.Now()
	ans := a.proc.Act(ctx, turn, view)
	a.bank -= time.Since(start)
	if a.bank < 0 && ans.Note == "" {
		ans.Command, ans.Note = "", sim.EventTimeout
	}
	return ans
}

// Close ends the runner's process group.
func (a *Agent) Close() replay.Output { return a.proc.Close() }

// request writes the state, the team symbol and the player symbol, and a
// newline the runner skips as it skips any space between JSON values.
func (a *Agent) request(b []byte, _ int, view any) []byte {
	v, ok := view.(*foodfight.View)
	if !ok {
		// The recorder hands a FoodFight match's own views; anything else
		// is a bug.
		panic(fmt.Sprintf("bitbrawl: view %T is not a FoodFight view", view))
	}
	a.sent.Add(1)
	b = appendField(b, &v.Field)
	b = appendString(b, v.Team)
	b = appendString(b, v.Player)
	return append(b, '\n')
}

// answer takes a JSON string or null as the runner's answer to its
// latest request; an earlier one's late answer, or anything else it
// prints, is output.
func (a *Agent) answer(token string, turn int) (string, bool) {
	var cmd *string
	if err := json.Unmarshal([]byte(token), &cmd); err != nil {
		if !strings.HasPrefix(token, `"`) {
			return "", false
		}
		// A string cut at the length a line may have, or broken: the
		// answer all the same, which the game finds invalid.
		s := strings.TrimPrefix(token, `"`)
		cmd = &s
	}
	got := a.got.Add(1)
	if sent := a.sent.Load(); got > sent {
		a.got.Store(sent) // a value it was not asked for
		return "", false
	} else if got < sent || turn == 0 {
		return "", false
	}
	if cmd == nil {
		return "null", true
	}
	return *cmd, true
}

// appendField writes the field as the engine's Gson wrote a FieldState:
// fields in declaration order, doubles as Java prints them, and a team's
// score as its event counts only.
func appendField(b []byte, f *foodfight.FieldView) []byte {
	b = append(b, `{"turnNumber":`...)
	b = strconv.AppendInt(b, int64(f.TurnNumber), 10)
	b = append(b, `,"type":`...)
	b = appendString(b, f.Type)
	b = append(b, `,"teams":[`...)
	for i := range f.Teams {
		t := &f.Teams[i]
		b = comma(b, i)
		b = append(b, `{"symbol":`...)
		b = appendString(b, t.Symbol)
		b = append(b, `,"players":[`...)
		for j := range t.Players {
			p := &t.Players[j]
			b = comma(b, j)
			b = append(b, `{"symbol":`...)
			b = appendString(b, p.Symbol)
			b = append(b, `,"location":`...)
			b = appendVector(b, p.Location)
			b = append(b, `,"height":`...)
			b = appendDouble(b, p.Height)
			b = append(b, `,"heading":`...)
			b = appendDouble(b, p.Heading)
			b = append(b, `,"inventory":{`...)
			n := 0
			for _, hand := range [2][2]string{{"left", p.Inventory.Left}, {"right", p.Inventory.Right}} {
				if hand[1] != "" {
					b = comma(b, n)
					b = appendString(b, hand[0])
					b = append(b, ':')
					b = appendString(b, hand[1])
					n++
				}
			}
			b = append(b, `},"energy":`...)
			b = appendDouble(b, p.Energy)
			b = append(b, '}')
		}
		b = append(b, `],"table":{"location":`...)
		b = appendVector(b, t.Table.Location)
		b = append(b, `,"food":[`...)
		for j, food := range t.Table.Food {
			b = comma(b, j)
			b = appendString(b, food)
		}
		b = append(b, `]},"score":`...)
		score, _ := json.Marshal(t.Score) // event counts, zero ones left out
		b = append(b, score...)
		b = append(b, '}')
	}
	b = append(b, `],"food":[`...)
	for i := range f.Food {
		food := &f.Food[i]
		b = comma(b, i)
		b = append(b, `{"type":`...)
		b = appendString(b, food.Type)
		b = append(b, `,"location":`...)
		b = appendVector(b, food.Location)
		b = append(b, `,"height":`...)
		b = appendDouble(b, food.Height)
		b = append(b, `,"heading":`...)
		b = appendDouble(b, food.Heading)
		b = append(b, '}')
	}
	b = append(b, `],"collisions":[`...)
	for i := range f.Collisions {
		c := &f.Collisions[i]
		b = comma(b, i)
		b = append(b, `{"location":`...)
		b = appendVector(b, c.Location)
		b = append(b, `,"damage":`...)
		b = appendDouble(b, c.Damage)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func comma(b []byte, i int) []byte {
	if i > 0 {
		return append(b, ',')
	}
	return b
}

func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// appendVector writes a Vector as its serializer did: [x, y].
func appendVector(b []byte, v [2]float64) []byte {
	b = append(b, '[')
	b = appendDouble(b, v[0])
	b = append(b, ',')
	b = appendDouble(b, v[1])
	return append(b, ']')
}

// appendDouble writes f as Java's Double.toString, which Gson uses: at
// least one digit after the point, and scientific notation ("1.0E-4")
// below 10⁻³ and from 10⁷ on.
func appendDouble(b []byte, f float64) []byte {
	switch a := math.Abs(f); {
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	case math.IsNaN(f) || math.IsInf(f, 0):
		return append(b, "null"...) // the field never holds one
	case a >= 1e-3 && a < 1e7:
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return append(b, s...)
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	b = append(b, mant...)
	b = append(b, 'E')
	return strconv.AppendInt(b, int64(e), 10)
}
