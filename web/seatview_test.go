package web

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/sim/snake"
)

// TestSeatView asks what each seat of a Snake match received before a
// turn: the request as a bot read it, and the codenjoy board in the seat's
// own glyphs, so two seats' boards differ where their snakes are.
func TestSeatView(t *testing.T) {
	f := newFixture(t, nil)
	id := ingest(t, f.db, recordBuiltin(t, snake.Game, "", "", 3, []string{"greedy", "random"}, nil))
	base := "/api/v1/matches/" + id + "/turns/"
	var views [2]seatViewJSON
	for seat := range views {
		rec := getOK(t, f.e, fmt.Sprintf("%s5/view?seat=%d", base, seat))
		if err := json.Unmarshal(rec.Body.Bytes(), &views[seat]); err != nil {
			t.Fatal(err)
		}
		v := views[seat]
		var req struct {
			Turn   int `json:"turn"`
			Player int `json:"player"`
			View   struct {
				Board string `json:"board"`
			} `json:"view"`
		}
		if err := json.Unmarshal(v.Request, &req); err != nil {
			t.Fatalf("seat %d: request %s: %v", seat, v.Request, err)
		}
		if req.Turn != 5 || req.Player != seat || v.SeatNumber != seat+1 || v.Text != "board="+req.View.Board ||
			strings.Join(v.Rows, "") != req.View.Board || len(v.Rows) < 2 {
			t.Errorf("seat %d: got %+v, want turn 5's request, its board as the codenjoy message, cut into rows", seat, v)
		}
	}
	if views[0].Text == views[1].Text {
		t.Error("both seats got the same board: each must see its own snake in own glyphs")
	}
	for _, sc := range []scenario{
		{name: "turn 0", url: base + "0/view?seat=0", status: 400, want: []string{"the first view is the one before turn 1"}},
		{name: "no seat", url: base + "5/view", status: 400, want: []string{"want a seat index from 0 to 1"}},
		{name: "seat past the last", url: base + "5/view?seat=2", status: 404, want: []string{"seat indexes 0 to 1"}},
		{name: "turn past the end", url: base + "99999/view?seat=0", status: 404, want: []string{"past the end"}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}

// TestBrowserSeatView opens the panel under the inspector's board: it
// draws the board Seat 2 received, follows the turn shown, and fits a
// phone's screen.
func TestBrowserSeatView(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	id := ingest(t, f.db, recordBuiltin(t, snake.Game, "", "", 3, []string{"greedy", "random"}, nil))
	b := newBrowserSession(t)
	for _, width := range []int64{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b.do(t, "resize", chromedp.EmulateViewport(width, 900))
			defer b.do(t, "reset", chromedp.EmulateReset())
			b.do(t, "open", chromedp.Navigate(srv.URL+turnURL(id, 5)), chromedp.WaitReady(chromedp.CSS("footer")),
				chromedp.Click(chromedp.CSS("#seat-view summary")))
			eval[bool](t, b, `(s => { s.value = '1'; return s.dispatchEvent(new Event('change')); })(document.getElementById('seat-view-seat'))`)
			b.do(t, "show Seat 2's view", chromedp.Poll[chromedp.Void](`(document.querySelector('#seat-view-body .hint') || {}).textContent === 'What Seat 2 (random) received before turn 5: the state after turn 4.'`))
			var want seatViewJSON
			resp, err := srv.Client().Get(srv.URL + "/api/v1/matches/" + id + "/turns/5/view?seat=1")
			if err != nil {
				t.Fatal(err)
			}
			err = json.NewDecoder(resp.Body).Decode(&want)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if got := eval[string](t, b, `document.querySelector('#seat-view-body pre.seat-board').textContent`); got != strings.Join(want.Rows, "\n") {
				t.Errorf("got board\n%s\nwant\n%s", got, strings.Join(want.Rows, "\n"))
			}
			b.do(t, "next turn", chromedp.Click(chromedp.CSS(`[data-action=next]`)),
				chromedp.Poll[chromedp.Void](`document.querySelector('#seat-view-body .hint').textContent.includes('before turn 6') &&
					document.getElementById('state-note').textContent.startsWith('The board after turn 6;')`))
			if got := eval[[]int](t, b, `[document.documentElement.scrollWidth, window.innerWidth]`); got[0] > got[1] {
				t.Errorf("the page is %d px wide on a %d px screen", got[0], got[1])
			}
			b.checkQuiet(t)
		})
	}
}

// TestBrowserBoardBefore presses "Board before the turn": the board drawn
// is then the state after the turn before, the one the turn's commands
// were chosen from, and the note says so; b turns it back.
func TestBrowserBoardBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	id := ingest(t, f.db, recordBuiltin(t, snake.Game, "", "", 3, []string{"greedy", "random"}, nil))
	b := newBrowserSession(t)
	board := `document.getElementById('board').innerHTML`
	b.do(t, "open turn 9", chromedp.Navigate(srv.URL+turnURL(id, 9)), chromedp.WaitVisible(chromedp.CSS("#board svg")))
	after9 := eval[string](t, b, board)
	b.do(t, "open turn 8", chromedp.Navigate(srv.URL+turnURL(id, 8)), chromedp.WaitVisible(chromedp.CSS("#board svg")))
	after8 := eval[string](t, b, board)
	if after8 == after9 {
		t.Fatal("turns 8 and 9 draw the same board: pick turns that differ")
	}
	b.do(t, "step to 9 and press before", chromedp.Click(chromedp.CSS(`[data-action=next]`)),
		chromedp.Poll[chromedp.Void](`document.getElementById('state-note').textContent.startsWith('The board after turn 9;')`),
		chromedp.Click(chromedp.CSS(`[data-action=before]`)),
		chromedp.Poll[chromedp.Void](`document.getElementById('state-note').textContent === 'The board after turn 8, which the commands of turn 9 below were chosen from.'`))
	b.do(t, "the board of turn 8", chromedp.Poll[chromedp.Void](board+` === `+jsString(after8)))
	if got := eval[string](t, b, `document.querySelector('[data-action=before]').getAttribute('aria-pressed')`); got != "true" {
		t.Errorf("the button is pressed %q, want true", got)
	}
	b.do(t, "b: back to after", chromedp.KeyEvent("b"),
		chromedp.Poll[chromedp.Void](board+` === `+jsString(after9)))
	b.checkQuiet(t)
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}
