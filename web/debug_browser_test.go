package web

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/careerfair"
	"github.com/replaylab/replaylab/sim/foodfight"
	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/sim/worms"
	"github.com/replaylab/replaylab/store"
)

// debugScreenshotsEnv, when set, names a directory where
// TestBrowserDebugDrawing saves a screenshot of each game's board with a
// seat's drawing on, per width and colour scheme.
const debugScreenshotsEnv = "DEBUG_SCREENSHOTS"

// ingestDrawn stores l with shapes drawn by seat 0 at turns 1 to 3, one
// more (a blue mark at more) at turn 3, as import stores a recording's
// debug lines.
func ingestDrawn(t *testing.T, db *store.DB, l *replay.Log, shapes, more string) string {
	t.Helper()
	var out []store.BotOutput
	for turn := 1; turn <= 3; turn++ {
		raw := shapes
		if turn == 3 {
			raw = shapes[:len(shapes)-1] + `,{"mark":` + more + `,"color":"blue"}]`
		}
		norm, note := replay.ParseDebug([]byte(raw))
		if note != "" {
			t.Fatalf("shapes %s: %s", raw, note)
		}
		out = append(out, store.BotOutput{Turn: turn, Seat: 0, Stream: store.Debug, Text: norm})
	}
	return buildWith(t, db, l, out).ID
}

// TestBrowserDebugDrawing: on every game's board, the inspector offers a
// toggle per seat that drew, draws nothing until one is on, then the
// seat's shapes over the board, within it, its text as text; stepping
// draws the next turn's, and turning the seat off takes them away. At
// 1280 and 390 px, light and dark.
func TestBrowserDebugDrawing(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	const cells = `[{"mark":[1,1]},{"line":[0,0,3,2]},{"circle":[2,2,1.5]},{"text":"<b>x</b>","at":[1,2],"color":"#00ffff"}]`
	games := []struct {
		game, id string
	}{
		{"toad", ingestDrawn(t, f.db, recordBuiltin(t, toad.Game, "", `{"turns":10}`, 3, []string{"astar"}, nil), cells, "[3,4]")},
		{"snake", ingestDrawn(t, f.db, recordBuiltin(t, snake.Game, "", `{}`, 11, []string{"greedy", "random"}, nil), cells, "[5,5]")},
		{"worms", ingestDrawn(t, f.db, recordBuiltin(t, worms.Game, "final", `{"rounds":20}`, 7, []string{"tactical", "random"}, nil), cells, "[16,16]")},
		{"careerfair", ingestDrawn(t, f.db, recordBuiltin(t, careerfair.Game, "awap2019", `{"board":"gates6"}`, 7, []string{"greedy", "idle"}, nil), cells, "[4,8]")},
		{"foodfight", ingestDrawn(t, f.db, recordBuiltin(t, foodfight.Game, "bitbrawl2018", `{}`, 1, []string{"thrower", "random"}, nil),
			`[{"mark":[720,540]},{"line":[100,100,700,500]},{"circle":[720,540,120]},{"text":"<b>x</b>","at":[300,800],"color":"#00ffff"}]`, "[1000,200]")},
	}
	dir := os.Getenv(debugScreenshotsEnv)
	b := newBrowserSession(t)
	for _, view := range []struct {
		width, height int
		scheme        string
	}{{1280, 900, "light"}, {390, 844, "dark"}, {1280, 900, "dark"}, {390, 844, "light"}} {
		// A phone's width comes with a phone's touch and scale.
		opts := []chromedp.EmulateViewportOption{}
		if view.width < 500 {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		b.do(t, "viewport", chromedp.EmulateViewport(int64(view.width), int64(view.height), opts...), colorScheme(view.scheme))
		for _, g := range games {
			t.Run(fmt.Sprintf("%s/%d/%s", g.game, view.width, view.scheme), func(t *testing.T) {
				b.takeErrors()
				shapes := func() int {
					return eval[int](t, b, `+document.getElementById('board').getAttribute('data-debug-shapes')`)
				}
				drawn := func() int {
					return eval[int](t, b, `document.querySelectorAll('#board g.debug-layer > [data-seat="0"]').length`)
				}
				b.do(t, "open turn 2", chromedp.Navigate(srv.URL+turnURL(g.id, 2)), chromedp.WaitVisible(chromedp.CSS("#board svg[role=img]")),
					chromedp.WaitVisible(chromedp.CSS("#debug-toggles input[data-debug-seat='0']")))
				if n := eval[int](t, b, `document.querySelectorAll('#debug-toggles input').length`); n != 1 {
					t.Errorf("got %d toggles, want one, for the seat that drew", n)
				}
				if n, d := shapes(), drawn(); n != 0 || d != 0 {
					t.Errorf("toggle off: got %d shapes (%d elements), want none", n, d)
				}
				b.do(t, "toggle seat 1 on", chromedp.Click(chromedp.CSS("#debug-toggles input[data-debug-seat='0']")))
				if n, d := shapes(), drawn(); n != 4 || d != 4 {
					t.Errorf("seat 1 on at turn 2: got %d shapes (%d elements), want 4", n, d)
				}
				text := eval[[]string](t, b, `[...document.querySelectorAll('#board g.debug-layer text')].map(e => e.textContent + ' ' + e.children.length + ' ' + e.getAttribute('fill'))`)
				if len(text) != 1 || text[0] != "<b>x</b> 0 #00ffff" {
					t.Errorf("text shapes: got %q, want <b>x</b> as text, in its colour", text)
				}
				// Every shape lies on the board, in screen pixels within
				// the SVG's box (a text's middle: a text may run over).
				out := eval[[]string](t, b, `(() => { const svg = document.querySelector('#board svg[role=img]'), r = svg.getBoundingClientRect();
					return [...svg.querySelectorAll('g.debug-layer > *')].map(e => [e, e.getBoundingClientRect()])
						.map(([e, b]) => [e, e.tagName !== 'text' ? b : new DOMRect((b.left + b.right) / 2, (b.top + b.bottom) / 2, 1, 1)])
						.filter(([e, b]) => b.left < r.left - 1 || b.top < r.top - 1 || b.right > r.right + 1 || b.bottom > r.bottom + 1 || b.width + b.height < 2)
						.map(([e, b]) => e.tagName + ' ' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(',')); })()`)
				if len(out) > 0 {
					t.Errorf("shapes off the board or empty: %v", out)
				}
				// Readable at any width: a stroke at least 2 screen pixels
				// wide, a text at least 12 high (FoodFight's wide field on
				// a phone once drew 1 px lines and 8 px text).
				small := eval[[]string](t, b, `(() => { const svg = document.querySelector('#board svg[role=img]'), px = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
					return [...svg.querySelectorAll('g.debug-layer > *')]
						.map(e => [e, e.tagName === 'text' ? +e.getAttribute('font-size') * px : +e.getAttribute('stroke-width') * px, e.tagName === 'text' ? 12 : 2])
						.filter(([e, size, least]) => size < least - 0.01)
						.map(([e, size, least]) => e.tagName + ' ' + size.toFixed(2) + ' px, want ' + least); })()`)
				if len(small) > 0 {
					t.Errorf("shapes too thin or small on screen: %v", small)
				}
				if dir != "" {
					saveScreenshots(t, b, filepath.Join(dir, fmt.Sprintf("debug-%s-%d-%s", g.game, view.width, view.scheme)))
				}
				b.do(t, "next turn", chromedp.Click(chromedp.CSS("[data-action=next]")), chromedp.WaitVisible(chromedp.CSS(`#inspector[data-shown="3"]`)))
				if n := shapes(); n != 5 {
					t.Errorf("seat 1 on at turn 3: got %d shapes, want 5", n)
				}
				b.do(t, "toggle seat 1 off", chromedp.Click(chromedp.CSS("#debug-toggles input[data-debug-seat='0']")))
				if n, d := shapes(), drawn(); n != 0 || d != 0 {
					t.Errorf("seat 1 off again: got %d shapes (%d elements), want none", n, d)
				}
				b.checkQuiet(t)
			})
		}
	}
}
