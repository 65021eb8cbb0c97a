package sim

import "testing"

// TestSketchPath: a path is drawn as one line per straight run, and a
// sketch with no shapes is no drawing.
func TestSketchPath(t *testing.T) {
	var s Sketch
	if s.JSON() != nil {
		t.Errorf("an empty sketch: got %s, want nil", s.JSON())
	}
	s.Path([][2]float64{{0, 0}, {1, 0}, {2, 0}, {2, 0}, {2, 1}, {2, 2}, {3, 3}, {4, 4}}, "")
	s.Path([][2]float64{{5, 5}}, "red") // one point: nothing
	s.Text("x", 1, 2, "blue")
	want := `[{"line":[0,0,2,0]},{"line":[2,0,2,2]},{"line":[2,2,4,4]},{"text":"x","at":[1,2],"color":"blue"}]`
	if got := string(s.JSON()); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	s.Reset()
	if s.JSON() != nil {
		t.Errorf("after Reset: got %s, want nil", s.JSON())
	}
}
