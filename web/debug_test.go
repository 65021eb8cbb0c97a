package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/replaylab/replaylab/store"
)

// TestDebugDrawings uploads a replay with an output file holding a seat's
// debug drawing and reads it back: in a turn only when asked for, and in
// the inspector's page with the seats that drew.
func TestDebugDrawings(t *testing.T) {
	f := newFixture(t, nil)
	enc, _ := f.encodeFresh(t)
	var file bytes.Buffer
	const shapes = `[{"mark":[1,6]},{"text":"\u003cscript\u003e","at":[2,3],"color":"red"}]`
	if err := store.WriteBotOutput(&file, []store.BotOutput{{Turn: 1, Seat: 0, Stream: store.Debug, Text: shapes}}); err != nil {
		t.Fatal(err)
	}
	uploadWithOutput(t, file.Bytes(), enc.Bytes, 201).run(t, f.e)

	var turn struct {
		Debug []debugJSON `json:"debug"`
	}
	getJSON(t, f.e, "/api/v1/matches/"+enc.ID+"/turns/1?debug=1", http.StatusOK, &turn)
	if len(turn.Debug) != 1 || turn.Debug[0].Seat != 0 || string(turn.Debug[0].Shapes) != shapes {
		t.Errorf("turn 1 with debug=1: got %+v, want seat 0's %s", turn.Debug, shapes)
	}
	turn.Debug = nil
	getJSON(t, f.e, "/api/v1/matches/"+enc.ID+"/turns/2?debug=1", http.StatusOK, &turn)
	if len(turn.Debug) != 0 {
		t.Errorf("turn 2 with debug=1: got %+v, want none", turn.Debug)
	}
	var raw map[string]json.RawMessage
	getJSON(t, f.e, "/api/v1/matches/"+enc.ID+"/turns/1", http.StatusOK, &raw)
	if _, ok := raw["debug"]; ok {
		t.Errorf("turn 1 without debug=1: got debug %s, want none", raw["debug"])
	}
	for _, sc := range []scenario{
		{name: "inspector", url: matchURL(enc.ID) + "/turns/1", status: 200, want: []string{`"debug_seats":[0]`, `"debug":[{"seat":0,"shapes":[{"mark":[1,6]}`}},
		{name: "bad debug", url: "/api/v1/matches/" + enc.ID + "/turns/1?debug=yes", status: 400, want: []string{`debug \"yes\": want 1`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
	bad := uploadWithOutput(t, []byte(`{"turn":1,"seat":0,"stream":"debug","shapes":[{"mark":[1]}]}`+"\n"), enc.Bytes, 400)
	bad.want = []string{"mark has 1 numbers"}
	t.Run("bad shapes", func(t *testing.T) { bad.run(t, f.e) })
}
