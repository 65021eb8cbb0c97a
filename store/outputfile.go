package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/replaylab/replaylab/sim"
)

// MaxBotOutputFile bounds a bot output file, in bytes: the recorder keeps
// at most 1 MiB per stream and bot, and JSON escaping can make a byte six.
const MaxBotOutputFile = 64 << 20

// outputLine is one line of a bot output file.
type outputLine struct {
	Turn    int     `json:"turn"`
	Seat    int     `json:"seat"`
	Stream  string  `json:"stream"`
	Text    string  `json:"text"`
	TimesUS []int64 `json:"times_us,omitempty"` // stream Times only
	LimitUS int64   `json:"limit_us,omitempty"` // stream Times only
	// Shapes, of stream Debug only, is the turn's debug drawing.
	Shapes json.RawMessage `json:"shapes,omitempty"`
}

// timesLine is the line of a seat's answer times.
type timesLine struct {
	Seat    int     `json:"seat"`
	Stream  string  `json:"stream"`
	LimitUS int64   `json:"limit_us,omitempty"`
	TimesUS []int64 `json:"times_us"`
}

// debugLine is the line of a seat's debug drawing of a turn.
type debugLine struct {
	Turn   int             `json:"turn"`
	Seat   int             `json:"seat"`
	Stream string          `json:"stream"`
	Shapes json.RawMessage `json:"shapes"`
}

// WriteBotOutput writes out as a bot output file, the form 'replaylab
// record' saves beside a replay: one JSON object per line,
// {"turn","seat","stream","text"}, and for a piece of stream Times
// {"seat","stream":"times","limit_us","times_us":[...]}, the turn limit
// (left out when not known) and the times in microseconds, and for a
// piece of stream Debug {"turn","seat","stream":"debug","shapes":[...]}.
func WriteBotOutput(w io.Writer, out []BotOutput) error {
	bw := bufio.NewWriter(w)
	for _, o := range out {
		var v any = outputLine{Turn: o.Turn, Seat: o.Seat, Stream: o.Stream, Text: o.Text}
		if o.Stream == Times {
			us := make([]int64, len(o.Times))
			for i, d := range o.Times {
				us[i] = int64(d / time.Microsecond)
			}
			v = timesLine{o.Seat, o.Stream, o.Limit.Microseconds(), us}
		} else if o.Stream == Debug {
			v = debugLine{o.Turn, o.Seat, o.Stream, json.RawMessage(o.Text)}
		}
		line, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("bot output: %w", err)
		}
		bw.Write(line)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ReadBotOutput reads a bot output file (WriteBotOutput's form) of at
// most MaxBotOutputFile bytes, refusing one with a text over MaxBotOutput
// or two lines for one turn, seat and stream, as a recorder never writes
// them. Ingest checks the pieces against their match.
func ReadBotOutput(r io.Reader) ([]BotOutput, error) {
	var out []BotOutput
	first := map[outputKey]int{} // the line of each key
	sc := bufio.NewScanner(io.LimitReader(r, MaxBotOutputFile+1))
	sc.Buffer(nil, 8*MaxBotOutput) // a text at its bound, escaped
	read := 0
	for n := 1; sc.Scan(); n++ {
		if read += len(sc.Bytes()) + 1; read > MaxBotOutputFile {
			return nil, fmt.Errorf("bot output: over %d MiB", MaxBotOutputFile>>20)
		}
		var l outputLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("bot output: line %d: %w", n, err)
		}
		o := BotOutput{Turn: l.Turn, Seat: l.Seat, Stream: l.Stream, Text: l.Text}
		if l.Stream == Times {
			o.Limit = time.Duration(l.LimitUS) * time.Microsecond
			o.Times = make([]time.Duration, len(l.TimesUS))
			for i, us := range l.TimesUS {
				if us < 0 || us > int64(MaxBotTime/time.Microsecond) {
					return nil, fmt.Errorf("bot output: line %d: %s's answer time at turn %d is %d µs, want 0 to %d", n, sim.SeatName(o.Seat), i+1, us, MaxBotTime/time.Microsecond)
				}
				o.Times[i] = time.Duration(us) * time.Microsecond
			}
		} else if l.TimesUS != nil || l.LimitUS != 0 {
			return nil, fmt.Errorf("bot output: line %d: times_us or limit_us in a %s line, want them in a times line only", n, l.Stream)
		}
		if l.Stream == Debug {
			var b bytes.Buffer
			if err := json.Compact(&b, l.Shapes); err != nil || l.Text != "" {
				return nil, fmt.Errorf("bot output: line %d: a debug line wants shapes, a JSON array, and no text", n)
			}
			o.Text = b.String()
		} else if l.Shapes != nil {
			return nil, fmt.Errorf("bot output: line %d: shapes in a %s line, want them in a debug line only", n, l.Stream)
		}
		if len(o.Text) > MaxBotOutput {
			return nil, fmt.Errorf("bot output: line %d: turn %d, %s: %d bytes of %s, want at most %d", n, o.Turn, sim.SeatName(o.Seat), len(o.Text), o.Stream, MaxBotOutput)
		}
		if at, ok := first[keyOf(o)]; ok {
			return nil, fmt.Errorf("bot output: line %d: turn %d, %s: %s again (first on line %d), want one line each", n, o.Turn, sim.SeatName(o.Seat), o.Stream, at)
		}
		first[keyOf(o)] = n
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bot output: %w", err)
	}
	return out, nil
}
