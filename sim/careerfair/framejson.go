package careerfair

import (
	"encoding/json"
	"strconv"
)

// AppendJSON appends f as encoding/json encodes it (sim.JSONAppender). A
// frame is mostly a few hundred bots' rows of small integers; their
// reflective encoding was a sixth of an inspector jump's CPU.
func (f *Frame) AppendJSON(b []byte) ([]byte, error) {
	b = strconv.AppendInt(append(b, `{"turn":`...), int64(f.Turn), 10)
	ph, err := json.Marshal(f.Phase)
	if err != nil {
		return nil, err
	}
	b = append(append(b, `,"phase":`...), ph...)
	b = strconv.AppendBool(append(b, `,"over":`...), f.Over)
	b = strconv.AppendInt(append(b, `,"rows":`...), int64(f.Rows), 10)
	b = strconv.AppendInt(append(b, `,"cols":`...), int64(f.Cols), 10)
	b = strconv.AppendInt(append(b, `,"vision":`...), int64(f.Vision), 10)
	b = appendPair(append(b, `,"start":`...), f.Start)
	b = appendInts(append(b, `,"population":`...), f.Population)
	b = appendInts(append(b, `,"threshold":`...), f.Threshold)
	b = append(b, `,"booths":`...)
	if f.Booths == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range f.Booths {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = f.Booths[i].appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	cols, err := json.Marshal(f.BotColumns)
	if err != nil {
		return nil, err
	}
	b = append(append(b, `,"bot_columns":`...), cols...)
	b = append(b, `,"bots":`...)
	if f.Bots == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, row := range f.Bots {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInts(b, row)
		}
		b = append(b, ']')
	}
	teams, err := json.Marshal(f.Teams)
	if err != nil {
		return nil, err
	}
	b = append(append(b, `,"teams":`...), teams...)
	events, err := json.Marshal(f.Events)
	if err != nil {
		return nil, err
	}
	return append(append(append(b, `,"events":`...), events...), '}'), nil
}

// appendJSON appends fb as encoding/json encodes it.
func (fb *FrameBooth) appendJSON(b []byte) ([]byte, error) {
	for _, s := range [...]struct{ key, val string }{{`{"company":`, fb.Company}, {`,"size":`, fb.Size}} {
		q, err := json.Marshal(s.val)
		if err != nil {
			return nil, err
		}
		b = append(append(b, s.key...), q...)
	}
	b = strconv.AppendInt(append(b, `,"value":`...), int64(fb.Value), 10)
	b = appendPairs(append(b, `,"tiles":`...), fb.Tiles)
	b = appendPairs(append(b, `,"line":`...), fb.Line)
	b = appendPair(append(b, `,"end":`...), fb.End)
	b = appendInts(append(b, `,"queue":`...), fb.Queue)
	b = strconv.AppendInt(append(b, `,"talker":`...), int64(fb.Talker), 10)
	b = strconv.AppendInt(append(b, `,"progress":`...), int64(fb.Progress), 10)
	return append(b, '}'), nil
}

// appendInts appends a JSON array of vs, or null for a nil slice.
func appendInts[T int | int32](b []byte, vs []T) []byte {
	if vs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

func appendPair(b []byte, p [2]int) []byte {
	b = strconv.AppendInt(append(b, '['), int64(p[0]), 10)
	return append(strconv.AppendInt(append(b, ','), int64(p[1]), 10), ']')
}

// appendPairs appends a JSON array of pairs, or null for a nil slice.
func appendPairs(b []byte, ps [][2]int) []byte {
	if ps == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPair(b, p)
	}
	return append(b, ']')
}
