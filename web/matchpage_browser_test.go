package web

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/sim/foodfight"
)

// maxInteractiveMs is how long a FoodFight TEAM match page may take, from
// navigation to its document loaded and its key charts drawn, in headless
// Chromium (issue 26): the best of interactiveLoads loads, so one slowed
// by the machine's other work does not fail it.
const (
	maxInteractiveMs = 1500
	interactiveLoads = 3
)

// TestBrowserMatchPageInteractive loads the page of a FoodFight TEAM match
// of 2000 turns and measures, with the page's own clock, when its
// document is loaded and its key charts drawn.
func TestBrowserMatchPageInteractive(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	id := ingest(t, f.db, recordBuiltin(t, foodfight.Game, "", `{"match_type":"TEAM"}`, 11, []string{"thrower", "random", "walls", "hider"}, nil))
	b := newBrowserSession(t)
	b.do(t, "width", chromedp.EmulateViewport(1280, 900))
	best := -1.0
	for range interactiveLoads {
		b.do(t, "open match", chromedp.Navigate(srv.URL+matchURL(id)), chromedp.WaitVisible(chromedp.CSS(".chart[data-drawn] canvas")))
		b.do(t, "wait for the load", chromedp.Poll[chromedp.Void](`document.readyState === 'complete' && performance.getEntriesByName('replaylab-charts-drawn').length > 0`))
		ms := eval[float64](t, b, `Math.max(performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd, performance.getEntriesByName('replaylab-charts-drawn')[0].startTime)`)
		t.Logf("interactive after %.0f ms", ms)
		if best < 0 || ms < best {
			best = ms
		}
	}
	if best > maxInteractiveMs {
		t.Errorf("the FoodFight TEAM match page was interactive after %.0f ms at best of %d loads, want at most %d", best, interactiveLoads, maxInteractiveMs)
	}
	b.checkQuiet(t)
}
