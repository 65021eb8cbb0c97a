package web

import (
	"net/http"
	"testing"

	"github.com/replaylab/replaylab/internal/revtest"
	"github.com/replaylab/replaylab/sim/toad"
)

// TestOlderRevision serves River Toad matches recorded at revision 1 of
// toad/classic by a build at revision 2 whose rules differ from turn 3 on:
// an upload of one is refused with 422 and the revision message, not as a
// divergence at a turn, and so is the inspector's frame of a stored one.
// A replay of a revision newer than the build plays is refused too.
func TestOlderRevision(t *testing.T) {
	f := newFixture(t, nil)
	enc, text := f.encodeFresh(t)
	var newer []byte
	t.Run("record at revision 2", func(t *testing.T) {
		revtest.Bump(t, toad.Game, "classic", 2, -1)
		l := recordToad(t, 5, "astar", "astar", `{"turns":10}`)
		newer, _ = l.EncodeText()
	})
	const older = `"error":"recorded with an older engine revision of toad/classic (r1; this build plays r2)`
	t.Run("build at revision 2", func(t *testing.T) {
		revtest.Bump(t, toad.Game, "classic", 2, 3)
		for _, sc := range []scenario{
			{name: "upload binary", method: http.MethodPost, url: "/api/v1/replays", body: enc.Bytes, status: 422,
				want: []string{older, "which this build does not reproduce: turn 10: state hash"}, notWant: []string{`"turn":`}},
			{name: "upload text", method: http.MethodPost, url: "/api/v1/replays", body: text, status: 422, want: []string{older}},
			{name: "stored match's frame", url: "/api/v1/matches/" + f.won + "/turns/5", status: 422,
				want: []string{older}, notWant: []string{`"turn":`, "does not regenerate with this build's engine"}},
			{name: "inspector page", url: "/matches/" + f.won + "/turns/5", status: 422,
				want: []string{"recorded with an older engine revision of toad/classic (r1; this build plays r2)"}},
		} {
			t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
		}
	})
	t.Run("build at revision 1", func(t *testing.T) {
		scenario{name: "upload newer", method: http.MethodPost, url: "/api/v1/replays", body: newer, status: 422,
			want: []string{`"error":"line 1: header: recorded with a newer engine revision of toad/classic (r2; this build plays r1)"`}}.run(t, f.e)
	})
}
