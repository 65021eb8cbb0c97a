package sim

import "encoding/json"

// Sketch gathers a built-in bot's debug drawing (Drawer): the shapes of
// an answer's "debug" in the JSON-lines protocol (docs/bots.md), in the
// game's own coordinates. A color is "" (the seat's), a palette name or
// #rrggbb.
type Sketch struct{ shapes []sketchShape }

type sketchShape struct {
	Mark   []float64 `json:"mark,omitempty"`
	Line   []float64 `json:"line,omitempty"`
	Circle []float64 `json:"circle,omitempty"`
	Text   string    `json:"text,omitempty"`
	At     []float64 `json:"at,omitempty"`
	Color  string    `json:"color,omitempty"`
}

// Reset empties the sketch for the next turn.
func (s *Sketch) Reset() { s.shapes = s.shapes[:0] }

// Mark fills the cell (x, y), or crosses the point.
func (s *Sketch) Mark(x, y float64, color string) {
	s.shapes = append(s.shapes, sketchShape{Mark: []float64{x, y}, Color: color})
}

// Line joins two cells' centres or two points.
func (s *Sketch) Line(x1, y1, x2, y2 float64, color string) {
	s.shapes = append(s.shapes, sketchShape{Line: []float64{x1, y1, x2, y2}, Color: color})
}

// Path joins the points in order, with one line per straight run.
func (s *Sketch) Path(points [][2]float64, color string) {
	if len(points) < 2 {
		return
	}
	from, at := points[0], points[0]
	for _, p := range points[1:] {
		// A turn at at: the run from from ends there.
		if (p[0]-at[0])*(at[1]-from[1]) != (p[1]-at[1])*(at[0]-from[0]) {
			s.Line(from[0], from[1], at[0], at[1], color)
			from = at
		}
		at = p
	}
	if at != from {
		s.Line(from[0], from[1], at[0], at[1], color)
	}
}

// Circle rings a cell's centre or a point at radius r > 0.
func (s *Sketch) Circle(x, y, r float64, color string) {
	s.shapes = append(s.shapes, sketchShape{Circle: []float64{x, y, r}, Color: color})
}

// Text writes text (1 to 64 characters) centred on a cell or a point.
func (s *Sketch) Text(text string, x, y float64, color string) {
	s.shapes = append(s.shapes, sketchShape{Text: text, At: []float64{x, y}, Color: color})
}

// JSON returns the shapes as the protocol's array, nil when there are none.
func (s *Sketch) JSON() json.RawMessage {
	if len(s.shapes) == 0 {
		return nil
	}
	b, err := json.Marshal(s.shapes)
	if err != nil { // no value above fails to encode
		return nil
	}
	return b
}
