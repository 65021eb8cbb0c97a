package web

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/sim/foodfight"
)

// TestBrowserLongNames opens every kind of page about a bot whose name is
// 200 characters of one unbroken word, on a desktop and a phone screen:
// no page may scroll sideways, and the name is cut short, its element's
// title giving it whole.
func TestBrowserLongNames(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	long := "Long" + strings.Repeat("Name", 49)
	toadID := ingest(t, f.db, recordToad(t, 5, "astar", long, `{"turns":20}`))
	ffBots := make([]string, 3)
	for i := range ffBots {
		ffBots[i] = foodfight.Game.Bots[i%len(foodfight.Game.Bots)].Name
	}
	ffID := ingest(t, f.db, recordBuiltin(t, foodfight.Game, "", `{"match_type":"FREE_FOR_ALL"}`, 3, ffBots, []string{long}))
	pages := []string{
		"/", "/matches", "/matches?bot=" + url.QueryEscape(long), "/bots", botURL("toad", long), botURL("foodfight", long),
		matchURL(toadID), turnURL(toadID, 1), matchURL(ffID), turnURL(ffID, 1),
		h2hURL("foodfight", foodfight.Game.Rulesets[0]), "/compare?game=toad&a=" + url.QueryEscape(long) + "&b=astar",
	}
	b := newBrowserSession(t)
	for _, width := range []int64{1400, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b.do(t, "resize", chromedp.EmulateViewport(width, 900))
			defer b.do(t, "reset", chromedp.EmulateReset())
			for _, u := range pages {
				b.do(t, "open "+u, chromedp.Navigate(srv.URL+u), chromedp.WaitReady(chromedp.CSS("footer")))
				if got := eval[[]int](t, b, `[document.documentElement.scrollWidth, window.innerWidth]`); got[0] > got[1] {
					t.Errorf("%s: the page is %d px wide on a %d px screen", u, got[0], got[1])
				}
				// Every element that shows the name is at most 600 px wide and
				// carries the name whole in its own title or an ancestor's;
				// the inspector's scripts, which draw its board and tables,
				// are left to the page width check.
				bad := eval[[]string](t, b, fmt.Sprintf(`Array.from(document.querySelectorAll('body *')).filter(el =>
					el.children.length === 0 && el.textContent.includes(%q) && !['SCRIPT', 'TITLE', 'OPTION'].includes(el.tagName) && !el.closest('#inspector') &&
					(el.getBoundingClientRect().width > Math.min(600, innerWidth) ||
					 !(el.closest('[title]') && el.closest('[title]').title.includes(%q)))).map(el =>
					el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().width) + 'px')`, long[:40], long))
				if len(bad) > 0 {
					t.Errorf("%s: the name is too wide or has no title in %q", u, bad)
				}
			}
		})
	}
}
