package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A bot's debug drawing: in the JSON form of an answer a bot may add
// "debug", an array of shapes in the game's own coordinates that the
// dashboard draws over the board. It is kept beside the bot output, never
// played and never part of the replay, so a match is the same with or
// without it. ParseDebug checks and bounds it.
const (
	// MaxDebugShapes and MaxDebugBytes bound a seat's debug drawing of one
	// turn: shapes, and bytes of its normalised JSON.
	MaxDebugShapes = 64
	MaxDebugBytes  = 4 << 10
	// MaxDebugText bounds a text shape's text, in characters.
	MaxDebugText = 64
	// MaxMatchDebugBytes bounds a seat's debug drawings over a match:
	// past it the recorder drops them, noting it once.
	MaxMatchDebugBytes = 1 << 20
	// maxDebugCoord bounds each coordinate and radius, far over any board.
	maxDebugCoord = 1e6
)

// DebugColors are the colour names a shape may give, besides #rrggbb.
var DebugColors = []string{"red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "gray", "black", "white"}

var hexColor = regexp.MustCompile(`^#[0-9a-f]{6}$`)

// Shape is one shape of a debug drawing, in its normalised form: exactly
// one of Mark, Line, Circle and Text is set (At with Text), and Color is
// "" (the seat's colour), a name of DebugColors or #rrggbb in lower case.
type Shape struct {
	Mark   []float64 `json:"mark,omitempty"`   // [x, y]
	Line   []float64 `json:"line,omitempty"`   // [x1, y1, x2, y2]
	Circle []float64 `json:"circle,omitempty"` // [x, y, r], r > 0
	Text   *string   `json:"text,omitempty"`
	At     []float64 `json:"at,omitempty"` // [x, y], of Text
	Color  string    `json:"color,omitempty"`
}

// ParseDebug checks raw, the "debug" value of an answer, and returns its
// shapes as compact normalised JSON ("" for none) and a note for the
// bot's output when it dropped some: a malformed shape is dropped, and
// so is every shape past MaxDebugShapes or MaxDebugBytes. It never fails:
// a debug value that is not an array is dropped whole, with a note.
func ParseDebug(raw json.RawMessage) (shapes, note string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", ""
	}
	var items []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return "", "[debug: want an array of shapes; dropped]"
	}
	var (
		buf             = []byte{'['}
		kept, malformed int
		first           string // the first malformed shape's reason
		over            bool
	)
	for i, item := range items {
		s, err := parseShape(item)
		if err != nil {
			if malformed++; first == "" {
				first = fmt.Sprintf("shape %d: %v", i+1, err)
			}
			continue
		}
		b, _ := json.Marshal(s) // numbers are finite, strings UTF-8
		if kept == MaxDebugShapes || len(buf)+len(b)+1 > MaxDebugBytes {
			over = true
			break
		}
		if kept > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, b...)
		kept++
	}
	var notes []string
	if malformed > 0 {
		notes = append(notes, fmt.Sprintf("%d malformed shape(s) dropped, the first %s", malformed, first))
	}
	if over {
		notes = append(notes, fmt.Sprintf("kept the first %d of %d shapes: at most %d shapes and %d bytes a turn", kept, len(items), MaxDebugShapes, MaxDebugBytes))
	}
	if len(notes) > 0 {
		note = "[debug: " + strings.Join(notes, "; ") + "]"
	}
	if kept == 0 {
		return "", note
	}
	return string(append(buf, ']')), note
}

// parseShape reads one shape and returns it normalised.
func parseShape(raw json.RawMessage) (Shape, error) {
	var s Shape
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&s); err != nil {
		return Shape{}, fmt.Errorf("want an object with mark, line, circle or text (and color): %v", shortJSONError(err))
	}
	kinds := 0
	for _, set := range []bool{s.Mark != nil, s.Line != nil, s.Circle != nil, s.Text != nil} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return Shape{}, fmt.Errorf("want exactly one of mark, line, circle and text, got %d", kinds)
	}
	var err error
	switch {
	case s.Mark != nil:
		err = coords("mark", s.Mark, 2)
	case s.Line != nil:
		err = coords("line", s.Line, 4)
	case s.Circle != nil:
		if err = coords("circle", s.Circle, 3); err == nil && s.Circle[2] <= 0 {
			err = fmt.Errorf("circle's radius is %g, want above 0", s.Circle[2])
		}
	default:
		err = checkText(*s.Text)
		if err == nil {
			err = coords("text's at", s.At, 2)
		}
	}
	if err == nil && s.At != nil && s.Text == nil {
		err = fmt.Errorf("at is for a text")
	}
	if err != nil {
		return Shape{}, err
	}
	if s.Color, err = normColor(s.Color); err != nil {
		return Shape{}, err
	}
	return s, nil
}

// coords checks that v holds n coordinates within ±maxDebugCoord and
// rounds them to hundredths, which any board draws alike.
func coords(what string, v []float64, n int) error {
	if len(v) != n {
		return fmt.Errorf("%s has %d numbers, want %d", what, len(v), n)
	}
	for i, x := range v {
		if math.Abs(x) > maxDebugCoord {
			return fmt.Errorf("%s's number %g is out of ±%g", what, x, float64(maxDebugCoord))
		}
		v[i] = math.Round(x*100) / 100
	}
	return nil
}

func checkText(t string) error {
	switch n := utf8.RuneCountInString(t); {
	case n == 0:
		return fmt.Errorf("text is empty")
	case n > MaxDebugText:
		return fmt.Errorf("text has %d characters, want at most %d", n, MaxDebugText)
	case strings.ContainsFunc(t, unicode.IsControl):
		return fmt.Errorf("text holds a control character")
	}
	return nil
}

// normColor returns c as a shape keeps it, or why it is no colour.
func normColor(c string) (string, error) {
	lc := strings.ToLower(c)
	for _, name := range DebugColors {
		if lc == name {
			return lc, nil
		}
	}
	if c == "" || hexColor.MatchString(lc) {
		return lc, nil
	}
	if len(c) > 16 {
		c = c[:16] + "…"
	}
	return "", fmt.Errorf("color %q, want #rrggbb or one of %s", strings.ToValidUTF8(c, "\uFFFD"), strings.Join(DebugColors, ", "))
}

// shortJSONError cuts a decoding error to its first line, at most 80
// bytes, as a note quotes it.
func shortJSONError(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return cutUTF8(s, 80)
}
