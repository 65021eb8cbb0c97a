package web

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/sim/snake"
)

// TestBrowserCurves opens the inspector of a Snake match: curves of the
// game's key metrics are drawn under the board with a cursor at the turn
// shown; a click on a curve shows the turn under it, the cursor follows
// the board, and a metric's button draws or removes its curve.
func TestBrowserCurves(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	id := ingest(t, f.db, recordBuiltin(t, snake.Game, "", "", 3, []string{"greedy", "random"}, nil))
	b := newBrowserSession(t)
	b.do(t, "open", chromedp.Navigate(srv.URL+turnURL(id, 5)),
		chromedp.WaitVisible(chromedp.CSS("#curves .curve canvas")),
		chromedp.Poll[chromedp.Void](`(() => { const c = echarts.getInstanceByDom(document.querySelector('#curves .curve'));
			return c && c.getOption().series.length > 0; })()`))
	const cursor = `echarts.getInstanceByDom(document.querySelector('#curves .curve')).getOption().series[0].markLine.data[0].xAxis`
	if got := eval[float64](t, b, cursor); got != 5 {
		t.Errorf("cursor at %v, want the turn shown, 5", got)
	}
	xy := eval[[]float64](t, b, `(() => { const el = document.querySelector('#curves .curve'); el.scrollIntoView({block: 'center'});
		const p = echarts.getInstanceByDom(el).convertToPixel({gridIndex: 0}, [12, 0]); const r = el.getBoundingClientRect();
		return [r.left + p[0], r.top + r.height / 2]; })()`)
	b.do(t, "click turn 12", chromedp.MouseClickXY(xy[0], xy[1]),
		chromedp.Poll[chromedp.Void](`document.getElementById('turn-number').textContent === '12'`))
	b.do(t, "step", chromedp.Click(chromedp.CSS(`[data-action=next]`)),
		chromedp.Poll[chromedp.Void](cursor+` === 13`))
	drawn := `document.querySelectorAll('#curves .curve').length`
	before := eval[int](t, b, drawn)
	b.do(t, "draw another metric", chromedp.Click(chromedp.CSS(`#curves .curve-picks button[aria-pressed=false]`)))
	if got := eval[int](t, b, drawn); got != before+1 {
		t.Errorf("after pressing a metric: %d curves, want %d", got, before+1)
	}
	if got := eval[string](t, b, `location.pathname`); got != turnURL(id, 13) {
		t.Errorf("address %s, want the turn shown, %s", got, turnURL(id, 13))
	}
	b.checkQuiet(t)
}
