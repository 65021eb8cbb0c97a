package web

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/careerfair"
	"github.com/replaylab/replaylab/sim/foodfight"
	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/sim/worms"
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

// TestBrowserTablesFit opens the match page and the inspector of a match
// of each game at 1280 px and on a phone (390 px) and checks that no table is wider than its box
// and that the page does not scroll sideways.
func TestBrowserTablesFit(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	matches := map[string]string{"toad": f.won}
	for _, m := range []struct {
		g       *sim.Game
		ruleset string
		config  string
		bots    []string
	}{
		{worms.Game, "final", `{"rounds":40}`, []string{"tactical", "random"}},
		{snake.Game, "", `{}`, []string{"greedy", "random", "greedy", "random", "greedy"}},
		{foodfight.Game, "", `{"match_type":"TEAM"}`, []string{"thrower", "random", "walls", "hider"}},
		{careerfair.Game, "awap2019", `{"board":"gates6"}`, []string{"greedy", "replace"}},
	} {
		matches[m.g.Name] = ingest(t, f.db, recordBuiltin(t, m.g, m.ruleset, m.config, 7, m.bots, nil))
	}
	b := newBrowserSession(t)
	for _, width := range []int64{1280, phoneWidth} {
		b.do(t, "width", chromedp.EmulateViewport(width, 900))
		for _, game := range slices.Sorted(maps.Keys(matches)) {
			id := matches[game]
			for _, u := range []string{matchURL(id), turnURL(id, 20)} {
				t.Run(fmt.Sprintf("%d px %s %s", width, game, u), func(t *testing.T) {
					b.do(t, "open", chromedp.Navigate(srv.URL+u), chromedp.WaitReady(chromedp.CSS("footer")))
					if u != matchURL(id) {
						b.do(t, "wait for the tables", chromedp.WaitVisible(chromedp.CSS("#stats tbody tr")))
					}
					wide := eval[[]string](t, b, `Array.from(document.querySelectorAll('table')).filter(el => el.offsetParent !== null).flatMap(el => {
					const box = el.parentElement, w = el.getBoundingClientRect().width;
					return w > box.clientWidth + 1 || box.scrollWidth > box.clientWidth + 1 ? [(el.id || el.className) + ': ' + Math.round(w) + ' px in ' + box.clientWidth] : []; })`)
					for _, w := range wide {
						t.Errorf("a table wider than its box: %s", w)
					}
					if got := eval[[]int](t, b, `[document.documentElement.scrollWidth, innerWidth]`); got[0] > got[1] {
						t.Errorf("the page is %d px wide on a %d px screen", got[0], got[1])
					}
				})
			}
		}
	}
	b.checkQuiet(t)
}
