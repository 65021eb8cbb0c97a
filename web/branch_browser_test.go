package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserBranch opens the branch view of a fork in headless chromium:
// both boards start at the fork turn, one key steps both, the first
// difference's button shows that turn on both, the fork, ended first,
// keeps its last turn and says so, every chart draws the
// parent's line and the fork's, and the page fits 1280 px in the dark
// scheme without a word in the console.
func TestBrowserBranch(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	parentLog := recordBuiltinToad(t, 7, "astar")
	ingest(t, f.db, parentLog)
	fork := ingest(t, f.db, forkToad(t, parentLog, 12, otherToadCommand(parentLog.Turns[12][0])))
	b := newBrowserSession(t)
	b.do(t, "dark", colorScheme("dark"))

	turns := `Array.from(document.querySelectorAll('.board-turn'), el => el.textContent).join(' ')`
	b.do(t, "open the branch view", chromedp.Navigate(srv.URL+branchURL(fork)),
		chromedp.WaitVisible(chromedp.CSS("#parent-board svg")), chromedp.WaitVisible(chromedp.CSS("#fork-board svg")))
	if got := eval[string](t, b, turns); got != "12 12" {
		t.Errorf("opened: boards at turns %q, want both at the fork turn 12", got)
	}
	b.do(t, "step once", chromedp.KeyEvent(kb.ArrowRight),
		chromedp.Poll[chromedp.Void](`document.getElementById('branch').dataset.shown === '13'`))
	if got := eval[string](t, b, turns); got != "13 13" {
		t.Errorf("after a step: boards at turns %q, want both at 13", got)
	}
	if got := eval[int](t, b, `document.querySelectorAll('.board-commands li.differs').length`); got != 2 {
		t.Errorf("turn 13: %d commands marked as differing, want Seat 1's on both boards", got)
	}
	b.do(t, "first turn, then the first difference", chromedp.KeyEvent(kb.Home),
		chromedp.Poll[chromedp.Void](`document.getElementById('branch').dataset.shown === '0'`),
		chromedp.Click(chromedp.CSS(`#branch [data-action=difference]`)),
		chromedp.Poll[chromedp.Void](`document.getElementById('branch').dataset.shown === '13'`))
	if got := eval[string](t, b, turns); got != "13 13" {
		t.Errorf("first difference: boards at turns %q, want both at 13", got)
	}
	b.do(t, "last turn", chromedp.KeyEvent(kb.End),
		chromedp.Poll[chromedp.Void](`document.getElementById('branch').dataset.shown === '30'`))
	if got := eval[string](t, b, turns); got != "30 13" {
		t.Errorf("last turn: boards at turns %q, want the parent at 30 and the fork at its last, 13", got)
	}
	if got := eval[string](t, b, `document.querySelector('[data-side=fork] .board-ended').textContent`); !strings.Contains(got, "ended at turn 13") {
		t.Errorf("last turn: the fork's board says %q, want that it ended at turn 13", got)
	}
	series := eval[[]int](t, b, `Array.from(document.querySelectorAll('.charts .chart'), el => echarts.getInstanceByDom(el).getOption().series.length)`)
	if len(series) == 0 {
		t.Error("no chart drawn")
	}
	for i, n := range series {
		if n != 2 {
			t.Errorf("chart %d: %d series, want the parent's and the fork's", i+1, n)
		}
	}
	if eval[bool](t, b, `document.documentElement.scrollWidth > document.documentElement.clientWidth`) {
		t.Error("the page scrolls sideways at 1280 px")
	}
	checkScheme(t, b, branchURL(fork), "dark")
	if dir := os.Getenv(phoneScreenshotsEnv); dir != "" {
		saveScreenshots(t, b, filepath.Join(dir, "branch"))
	}
	b.checkQuiet(t)
}
