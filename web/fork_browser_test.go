package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserForkHere forks a match of a built-in bot from the inspector
// in headless chromium: the button posts the turn shown, the browser
// lands on the fork's page, which names its parent, and the parent lists
// the fork. A match with external bots shows the command line instead,
// its --at following the turn shown.
func TestBrowserForkHere(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	parent := ingest(t, f.db, recordBuiltinToad(t, 7, "astar"))
	b := newBrowserSession(t)

	b.do(t, "open inspector", chromedp.Navigate(srv.URL+turnURL(parent, 11)), chromedp.WaitVisible(chromedp.CSS("#board svg")))
	b.do(t, "step to turn 12", chromedp.KeyEvent(kb.ArrowRight),
		chromedp.Poll[chromedp.Void](`document.getElementById('turn-number').textContent === '12'`))
	b.do(t, "choose a bot and fork",
		chromedp.SetValue(chromedp.CSS(`#fork-form select[name=bot]`), "random"),
		chromedp.Click(chromedp.CSS("#fork-button")),
		chromedp.WaitVisible(chromedp.CSS("section.lineage")))
	if got := eval[string](t, b, `document.querySelector('section.lineage .parent').textContent`); !strings.Contains(got, "Forked from match "+shortID(parent)) || !strings.Contains(got, "at turn 12") {
		t.Errorf("fork page: got %q, want its parent at turn 12", got)
	}
	lin, err := f.db.Lineage(context.Background(), parent)
	if err != nil || len(lin.Forks) != 1 || lin.Forks[0].Turn != 12 || lin.Forks[0].Players[0].Name != "random" {
		t.Fatalf("stored forks: got %+v, %v; want one at turn 12 played by random", lin.Forks, err)
	}
	if got := eval[string](t, b, `location.pathname`); got != matchURL(lin.Forks[0].ID) {
		t.Errorf("after the fork: at %s, want the fork's page %s", got, matchURL(lin.Forks[0].ID))
	}

	b.do(t, "open an external match", chromedp.Navigate(srv.URL+turnURL(f.won, 4)), chromedp.WaitVisible(chromedp.CSS("#fork-command")),
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.Poll[chromedp.Void](`document.getElementById('turn-number').textContent === '5'`))
	if got := eval[string](t, b, `document.getElementById('fork-command').textContent`); !strings.Contains(got, "--at 5 ") {
		t.Errorf("command line: got %q, want --at 5, the turn shown", got)
	}
	// The form and the command line fit a phone.
	checkPhoneWidth(t, b, srv.URL, turnURL(parent, 3), turnURL(f.won, 3))
	b.checkQuiet(t)
}
