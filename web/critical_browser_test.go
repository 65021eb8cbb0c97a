package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

// TestBrowserDecisiveTurns draws a stored sweep's chart in headless
// chromium: a point at each turn swept, a gap elsewhere, and a click on a
// turn's point opens the inspector there.
func TestBrowserDecisiveTurns(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	ctx := context.Background()
	id, _, err := f.db.OpenSweep(ctx, store.Sweep{Match: f.won, Seat: 0, Bot: "builtin:astar"})
	if err != nil {
		t.Fatal(err)
	}
	var forks []store.ForkResult
	for _, turn := range []int{4, 8, 12} {
		forks = append(forks, store.ForkResult{Turn: turn, Command: "A", TurnForks: 1, Result: sim.PlayerResult{Outcome: sim.Loss, Rank: 1}})
	}
	if err := f.db.SaveForks(ctx, id, forks); err != nil {
		t.Fatal(err)
	}
	b := newBrowserSession(t)
	b.do(t, "open match", chromedp.Navigate(srv.URL+matchURL(f.won)), chromedp.ScrollIntoView(chromedp.CSS("#chart-decisive-0")),
		chromedp.WaitVisible(chromedp.CSS("#chart-decisive-0 canvas")))
	// The worse line: 1 at the turns swept, null (a gap) at the others.
	got := eval[[]any](t, b, `echarts.getInstanceByDom(document.getElementById('chart-decisive-0')).getOption().series[1].data.slice(3, 9).map(p => p[1])`)
	want := []any{nil, 1.0, nil, nil, nil, 1.0}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("worse line at turns 3 to 8: got %v, want %v", got, want)
		}
	}
	x := eval[[]float64](t, b, `(() => { const el = document.getElementById('chart-decisive-0'), c = echarts.getInstanceByDom(el);
		const r = el.getBoundingClientRect(), p = c.convertToPixel({gridIndex: 0}, [8, 1]); return [r.left + p[0], r.top + p[1]]; })()`)
	b.do(t, "click", chromedp.MouseClickXY(x[0], x[1]), chromedp.WaitVisible(chromedp.CSS("#board svg")))
	if loc := eval[string](t, b, `location.pathname`); loc != turnURL(f.won, 8) {
		t.Errorf("after the click: at %s, want %s", loc, turnURL(f.won, 8))
	}
	b.checkQuiet(t)
}
