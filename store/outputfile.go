package store

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/replaylab/replaylab/sim"
)

// MaxBotOutputFile bounds a bot output file, in bytes: the recorder keeps
// at most 1 MiB per stream and bot, and JSON escaping can make a byte six.
const MaxBotOutputFile = 64 << 20

// outputLine is one line of a bot output file.
type outputLine struct {
	Turn   int    `json:"turn"`
	Seat   int    `json:"seat"`
	Stream string `json:"stream"`
	Text   string `json:"text"`
}

// WriteBotOutput writes out as a bot output file, the form 'replaylab
// record' saves beside a replay: one JSON object per line,
// {"turn","seat","stream","text"}.
func WriteBotOutput(w io.Writer, out []BotOutput) error {
	bw := bufio.NewWriter(w)
	for _, o := range out {
		line, err := json.Marshal(outputLine{o.Turn, o.Seat, o.Stream, o.Text})
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
