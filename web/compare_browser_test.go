package web

import (
	"net/http/httptest"
	"os"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/sim/worms"
)

// TestBrowserCompare draws the compare page in headless chromium: a
// canvas in every chart box, the box plots with a box per side, the mean
// curves with each side's band stacked on its low bound, and no errors in
// the console.
func TestBrowserCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	b := newBrowserSession(t)
	f := newCompareFixture(t)
	srv := httptest.NewUnstartedServer(nil)
	e, err := New(Config{DB: f.db, Addr: srv.Listener.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = e
	srv.Start()
	t.Cleanup(srv.Close)

	b.do(t, "open compare", chromedp.Navigate(srv.URL+"/compare?game=worms&a=tactical&b=random"),
		chromedp.WaitVisible(chromedp.CSS("#curve-score canvas")))
	if n := eval[int](t, b, `document.querySelectorAll('.compare-charts .chart').length`); n != 2*len(worms.Game.Metrics) {
		t.Errorf("got %d charts, want %d: a box plot and a curve for each of Worms' metrics", n, 2*len(worms.Game.Metrics))
	}
	if n := eval[int](t, b, `[...document.querySelectorAll('.compare-charts .chart')].filter(el => !el.querySelector('canvas')).length`); n != 0 {
		t.Errorf("got %d charts without a canvas, want 0", n)
	}
	boxes := eval[int](t, b, `echarts.getInstanceByDom(document.getElementById('final-score')).getOption().series[0].data.length`)
	if boxes != 2 {
		t.Errorf("got %d boxes of final scores, want 2", boxes)
	}
	// Each side's band is its width stacked on its low bound.
	stacks := eval[[]string](t, b, `echarts.getInstanceByDom(document.getElementById('curve-score')).getOption().series.map(s => s.stack || '')`)
	if want := []string{"", "band-a", "band-a", "", "band-b", "band-b"}; !slices.Equal(stacks, want) {
		t.Errorf("got stacks %q, want %q", stacks, want)
	}
	// In the dark scheme the charts are drawn dark too, on the page's
	// dark cards.
	b.do(t, "go dark", colorScheme("dark"), chromedp.Navigate(srv.URL+"/compare?game=worms&a=tactical&b=random"),
		chromedp.WaitVisible(chromedp.CSS("#curve-score canvas")))
	dark := eval[[]string](t, b, `[...document.querySelectorAll('.compare-charts .chart')].map(el =>
		el.dataset.scheme + ' ' + (`+luminanceJS+`(getComputedStyle(el.closest('.chart-box')).backgroundColor) <= 0.2))`)
	for i, d := range dark {
		if d != "dark true" {
			t.Errorf("chart %d in the dark scheme: got scheme and dark box %q, want \"dark true\"", i, d)
		}
	}
	b.do(t, "back to light", colorScheme("light"))
	if os.Getenv("COMPARE_SCREENSHOT") != "" {
		for _, sel := range []string{"main", "#curve-score", "#final-score"} {
			png, err := chromedp.Run(b.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(os.Getenv("COMPARE_SCREENSHOT")+sel[1:]+".png", png, 0o644)
		}
	}
	b.checkQuiet(t)
}
