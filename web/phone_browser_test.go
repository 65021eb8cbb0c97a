package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/sim/careerfair"
	"github.com/replaylab/replaylab/sim/foodfight"
	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/sim/worms"
)

// The phone TestBrowserPhone emulates: an iPhone 12 to 15's screen in CSS
// pixels, with touch.
const phoneWidth, phoneHeight = 390, 844

// phoneScreenshotsEnv names a directory; when set, TestBrowserPhone saves
// a screenshot of every page it opens there, for a person to look at.
const phoneScreenshotsEnv = "PHONE_SCREENSHOTS"

// colorScheme sets the prefers-color-scheme the page sees.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

// luminanceJS is a JavaScript function giving the relative luminance (0
// black to 1 white) of a computed CSS colour such as "rgb(1, 2, 3)".
const luminanceJS = `(c => { const [r, g, b] = c.match(/[\d.]+/g).map(Number).map(v => v / 255);
	return 0.2126 * r + 0.7152 * g + 0.0722 * b; })`

// touchTargetsJS lists the form fields and buttons shown in the page's
// main part that are less than 44 px high.
const touchTargetsJS = `Array.from(document.querySelectorAll('main :is(input:not([type=range], [type=checkbox], [type=radio], [type=hidden]), select, button, .button)'))
	.filter(el => el.offsetParent !== null && el.getBoundingClientRect().height < 44)
	.map(el => el.tagName + ' ' + (el.name || el.textContent.trim()).slice(0, 30) + ' ' + Math.round(el.getBoundingClientRect().height) + ' px')`

// TestBrowserPhone opens every kind of page on a 390×844 touch screen in
// the light and the dark scheme: no page scrolls sideways; the inspector's
// board of every game fits the width, and its play and next buttons are
// at least 44 px and within the bottom 40 % of the screen, at the top of
// the page and scrolled down; every form field and button is at least
// 44 px high; the scheme sets the colours of the page, its tables and its
// forms.
func TestBrowserPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	inspectors := []string{
		turnURL(f.won, 10),
		turnURL(ingest(t, f.db, recordBuiltin(t, worms.Game, "final", `{"rounds":40}`, 7, []string{"tactical", "random"}, nil)), 20),
		turnURL(ingest(t, f.db, recordBuiltin(t, snake.Game, "", `{}`, 11, []string{"greedy", "random", "greedy", "random"}, nil)), 30),
		turnURL(ingest(t, f.db, recordBuiltin(t, foodfight.Game, "", `{"match_type":"FREE_FOR_ALL"}`, 3, []string{"thrower", "hider", "walls"}, nil)), 30),
		turnURL(ingest(t, f.db, recordBuiltin(t, careerfair.Game, "awap2019", `{"board":"gates6"}`, 7, []string{"greedy", "replace"}, nil)), 30),
	}
	pages := append([]string{
		"/", "/matches", matchURL(f.won), "/bots", botURL("toad", "astar"),
		"/compare?game=toad&a=astar&b=random", h2hURL("snake", snake.Game.Rulesets[0]),
	}, inspectors...)
	// Pages answered with 404, which the browser logs as an error.
	missing := []string{"/matches/0000000000", "/bots/nogame/nobody", turnURL(f.won, 9999)}
	pages = append(pages, missing...)
	shots := os.Getenv(phoneScreenshotsEnv)

	b := newBrowserSession(t)
	b.do(t, "phone", chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile, chromedp.EmulateTouch))
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			b.do(t, "scheme", colorScheme(scheme))
			for _, u := range pages {
				b.do(t, "open "+u, chromedp.Navigate(srv.URL+u), chromedp.WaitReady(chromedp.CSS("footer")))
				if got := eval[[]int](t, b, `[document.documentElement.scrollWidth, innerWidth]`); got[0] > got[1] || got[1] != phoneWidth {
					t.Errorf("%s: the page is %d px wide on a %d px screen, want at most %d on %d", u, got[0], got[1], got[1], phoneWidth)
				}
				if slices.Contains(missing, u) {
					for _, e := range b.takeErrors() {
						if !strings.Contains(e, "404 (Not Found) "+srv.URL+u) {
							t.Errorf("%s: error in the console: %s", u, e)
						}
					}
				}
				checkScheme(t, b, u, scheme)
				if small := eval[[]string](t, b, touchTargetsJS); len(small) > 0 {
					t.Errorf("%s: touch targets under 44 px high: %q", u, small)
				}
				if shots != "" {
					saveScreenshots(t, b, filepath.Join(shots, scheme+strings.NewReplacer("/", "_", "?", "_", "&", "_", "=", "_").Replace(u)))
				}
			}
			for _, u := range inspectors {
				b.do(t, "open "+u, chromedp.Navigate(srv.URL+u), chromedp.WaitVisible(chromedp.CSS("#board svg")))
				checkPhoneInspector(t, b, u)
			}
		})
	}
	b.checkQuiet(t)
}

// checkScheme checks that the page at u is drawn in the scheme: a dark
// background with light text in "dark", the reverse in "light", for the
// page, a table's header and a form's fields.
func checkScheme(t *testing.T, b *browserSession, u, scheme string) {
	t.Helper()
	// Each pair: the luminance of an element's background and its text.
	got := eval[map[string][]float64](t, b, `(() => { const lum = `+luminanceJS+`, out = {};
		const pair = (name, el) => { if (!el) return; const s = getComputedStyle(el); out[name] = [lum(s.backgroundColor), lum(s.color)]; };
		pair('body', document.body); pair('th', document.querySelector('th'));
		pair('field', document.querySelector('input:not([type=range]):not([type=file]), select'));
		return out; })()`)
	for name, p := range got {
		bg, fg := p[0], p[1]
		if dark := scheme == "dark"; dark && (bg > 0.2 || fg < 0.6) || !dark && (bg < 0.8 || fg > 0.3) {
			t.Errorf("%s in %s: %s background luminance %.2f, text %.2f", u, scheme, name, bg, fg)
		}
	}
	if _, ok := got["body"]; !ok {
		t.Errorf("%s: no body", u)
	}
	// charts.js draws its charts in the scheme's colours, on the page's
	// own card, and marks them with the scheme; a chart in ECharts' own
	// light colours (the compare page's) needs a light card.
	for _, c := range eval[[][]any](t, b, `Array.from(document.querySelectorAll('.chart'), el => [el.dataset.scheme || '', `+luminanceJS+`(getComputedStyle(el.closest('.chart-box')).backgroundColor), !el.closest('.compare-charts')])`) {
		drawn, _ := c[0].(string)
		bg, _ := c[1].(float64)
		if ours, _ := c[2].(bool); (ours || drawn != "") && drawn != scheme {
			t.Errorf("%s in %s: a chart drawn in the %q scheme", u, scheme, drawn)
		}
		if dark := drawn == "dark"; dark && bg > 0.2 || !dark && bg < 0.8 {
			t.Errorf("%s in %s: a chart drawn in the %q scheme on a card of luminance %.2f", u, scheme, drawn, bg)
		}
	}
}

// checkPhoneInspector checks the inspector at u on the phone: the board
// fits the screen's width, and the play and next buttons are at least
// 44 px, within the bottom 40 % of the screen and not covered, at the top
// of the page and after scrolling down.
func checkPhoneInspector(t *testing.T, b *browserSession, u string) {
	t.Helper()
	if got := eval[[]float64](t, b, `(() => { const r = document.querySelector('#board svg').getBoundingClientRect(); return [r.left, r.right, r.width]; })()`); got[0] < 0 || got[1] > phoneWidth || got[2] < phoneWidth/2 {
		t.Errorf("%s: the board spans %.0f to %.0f px on a %d px screen, want inside and at least half", u, got[0], got[1], phoneWidth)
	}
	for _, scroll := range []int{0, 600} {
		bad := eval[[]string](t, b, fmt.Sprintf(`(() => { scrollTo(0, %d); const bad = [];
			for (const action of ['play', 'next']) {
				const el = document.querySelector('#inspector [data-action=' + action + ']'), r = el.getBoundingClientRect();
				if (r.width < 44 || r.height < 44) bad.push(action + ' is ' + Math.round(r.width) + '×' + Math.round(r.height) + ' px');
				if (r.top < 0.6 * innerHeight || r.bottom > innerHeight) bad.push(action + ' spans ' + Math.round(r.top) + ' to ' + Math.round(r.bottom) + ' px of ' + innerHeight);
				const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
				if (!top || !el.contains(top)) bad.push(action + ' is covered by ' + (top ? top.tagName + '.' + top.className : 'nothing'));
			}
			scrollTo(0, 0); return bad; })()`, scroll))
		for _, m := range bad {
			t.Errorf("%s scrolled %d px: %s", u, scroll, m)
		}
	}
}

// saveScreenshots writes what the screen shows to base+".png" and the
// whole page to base+"-full.png" (where a bar stuck to the bottom of the
// screen shows in its place in the page).
func saveScreenshots(t *testing.T, b *browserSession, base string) {
	t.Helper()
	for _, s := range []struct {
		suffix string
		shot   chromedp.Action[[]byte]
	}{{".png", chromedp.CaptureScreenshot()}, {"-full.png", chromedp.FullScreenshot(100)}} {
		png, err := chromedp.Run(b.ctx, s.shot)
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if err := os.WriteFile(base+s.suffix, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
