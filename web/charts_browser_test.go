package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/sim/worms"
)

// onChart is a script that evaluates expr with the first chart of a match
// page (el), its ECharts instance (chart), its box (r) and its middle in
// the viewport (x, y) at hand.
func onChart(expr string) string {
	return `(() => { const el = document.querySelector('.chart'), chart = echarts.getInstanceByDom(el);
		const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
		return ` + expr + `; })()`
}

// TestBrowserChartScroll checks the scroll trap is gone: a wheel turned
// and a finger swiped (on a phone) over a chart scroll the page, and only
// a wheel turned with Ctrl held zooms the chart's turns.
func TestBrowserChartScroll(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	id := ingest(t, f.db, recordBuiltin(t, worms.Game, "final", `{"rounds":80}`, 7, []string{"tactical", "random"}, nil))
	b := newBrowserSession(t)
	b.do(t, "open the match", chromedp.Navigate(srv.URL+matchURL(id)), chromedp.WaitVisible(chromedp.CSS(".chart canvas")))
	// The first chart in the middle of the screen, the page free to
	// scroll both ways.
	eval[bool](t, b, `document.querySelector('.chart').scrollIntoView({block: 'center'}), true`)
	point := func() (float64, float64) {
		p := eval[[]float64](t, b, onChart(`[x, y]`))
		if !eval[bool](t, b, onChart(`chart.containPixel('grid', [r.width / 2, r.height / 2])`)) {
			t.Fatalf("the middle of the chart, %v, is not in its plot", p)
		}
		return p[0], p[1]
	}
	zoom := func() float64 {
		return eval[float64](t, b, onChart(`chart.getOption().dataZoom[0].end - chart.getOption().dataZoom[0].start`))
	}
	scrollY := func() float64 { return eval[float64](t, b, `window.scrollY`) }
	wheel := func(modifiers int64, deltaY float64) {
		t.Helper()
		x, y := point()
		for range 4 {
			b.do(t, "turn the wheel", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				// DeltaX must be sent, and omitzero drops a 0.
				_, err := cdp.Call(ctx, tg, input.DispatchMouseEvent, input.DispatchMouseEventParams{
					Type: input.DispatchMouseEventTypeMouseWheel, X: x, Y: y, DeltaX: 1e-9, DeltaY: deltaY, Modifiers: modifiers})
				return err
			}))
		}
		time.Sleep(300 * time.Millisecond) // the page scrolls smoothly
	}

	center := func() {
		t.Helper()
		eval[bool](t, b, `document.querySelector('.chart').scrollIntoView({block: 'center'}), true`)
	}

	center()
	before := scrollY()
	wheel(0, 100)
	if got := scrollY(); got <= before {
		t.Errorf("4 wheel turns over a chart: got scrollY %v, want more than %v", got, before)
	}
	wheel(0, -100)
	if got := zoom(); got != 100 {
		t.Errorf("a plain wheel zoomed the chart to %v%% of the turns, want 100%%", got)
	}

	center()
	before = scrollY()
	wheel(2, -100) // Ctrl, towards the screen: zoom in
	if got := zoom(); got >= 100 {
		t.Errorf("Ctrl+wheel over a chart: got %v%% of the turns shown, want fewer", got)
	}
	if got := scrollY(); got != before {
		t.Errorf("Ctrl+wheel over a chart scrolled the page from %v to %v", before, got)
	}

	// A phone: touch events from the start, so ECharts sets itself up
	// for them.
	b.do(t, "emulate a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	defer b.do(t, "reset", chromedp.EmulateReset())
	b.do(t, "open the match", chromedp.Navigate(srv.URL+matchURL(id)), chromedp.WaitVisible(chromedp.CSS(".chart canvas")))
	center()
	before = scrollY()
	x, y := point()
	// A finger put on the chart's middle and moved 200 px up in steps
	// (Input.synthesizeScrollGesture does not scroll in headless
	// chromium).
	touch := func(typ input.DispatchTouchEventType, pts ...*input.TouchPoint) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if pts == nil {
				pts = []*input.TouchPoint{} // required, even when empty
			}
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
			return err
		})
	}
	swipe := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, &input.TouchPoint{X: x, Y: y})}
	for i := 1; i <= 10; i++ {
		swipe = append(swipe, touch(input.DispatchTouchEventTypeTouchMove, &input.TouchPoint{X: x, Y: y - float64(20*i)}))
	}
	b.do(t, "swipe up", append(swipe, touch(input.DispatchTouchEventTypeTouchEnd))...)
	if got := scrollY(); got <= before+100 {
		t.Errorf("a 200 px swipe up over a chart: got scrollY %v, want more than %v", got, before+100)
	}
	b.checkQuiet(t)
}

// TestBrowserSeatColours checks that seat N has one colour: its snake on
// the inspector's board, its line in every chart of the match page, and
// its mark in the players' table.
func TestBrowserSeatColours(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	bots := []string{"greedy", "random", "greedy", "random", "greedy"}
	id := ingest(t, f.db, recordBuiltin(t, snake.Game, "", `{}`, 11, bots, nil))
	b := newBrowserSession(t)
	// withNorm is a script that evaluates expr with norm at hand, which
	// writes a CSS colour as the browser computes it.
	withNorm := func(expr string) string {
		return `(() => { const norm = c => { const s = document.createElement('span'); s.style.color = c; document.body.append(s);
			const v = getComputedStyle(s).color; s.remove(); return v; };
			return ` + expr + `; })()`
	}

	b.do(t, "open the inspector", chromedp.Navigate(srv.URL+turnURL(id, 1)), chromedp.WaitVisible(chromedp.CSS("#board svg.board-snake")))
	board := eval[[]string](t, b, withNorm(`Array.from({length: 5}, (_, seat) => {
		const head = document.querySelector('#board [data-snake="' + seat + '"] circle.head');
		return head ? norm(head.getAttribute('fill')) : '';
	})`))
	commands := eval[[]string](t, b, withNorm(`Array.from(document.querySelectorAll('#commands tbody .swatch'), m => norm(m.style.background))`))

	b.do(t, "open the match", chromedp.Navigate(srv.URL+matchURL(id)), chromedp.WaitVisible(chromedp.CSS(".chart canvas")))
	table := eval[[]string](t, b, withNorm(`Array.from(document.querySelectorAll('table.players .seat-mark'), m => norm(m.style.background))`))
	// charts[i][seat] is the colour of seat's line in chart i.
	charts := eval[[][]string](t, b, withNorm(`Array.from(document.querySelectorAll('.chart'), el => {
		const out = ['', '', '', '', ''];
		echarts.getInstanceByDom(el).getOption().series.forEach(s => {
			const m = /^Seat (\d+) · /.exec(s.name);
			if (m) out[m[1] - 1] = norm(s.lineStyle.color);
		});
		return out;
	})`))
	if len(table) != len(bots) {
		t.Fatalf("got %d seat marks in the players' table, want %d", len(table), len(bots))
	}
	if len(charts) == 0 {
		t.Fatal("got no charts")
	}
	for seat := range bots {
		want := table[seat]
		if board[seat] != "" && board[seat] != want {
			t.Errorf("seat %d: got %s on the board, %s in the table", seat, board[seat], want)
		}
		if seat >= len(commands) || commands[seat] != want {
			t.Errorf("seat %d: got commands' swatches %v, want %s in the table", seat, commands, want)
		}
		for i, c := range charts {
			if c[seat] != want {
				t.Errorf("seat %d: got %s in chart %d, %s in the table", seat, c[seat], i, want)
			}
		}
		for other := range seat {
			if table[other] == want {
				t.Errorf("seats %d and %d share the colour %s", other, seat, want)
			}
		}
	}
	if drawn := fmt.Sprint(board); drawn == "[    ]" {
		t.Errorf("got no snake heads on the board at turn 1")
	}
	b.checkQuiet(t)
}

// TestBrowserChartEventTooltip checks that an event marked on a chart is
// named in the tooltip shown with the pointer on its mark, the bot's name
// escaped.
func TestBrowserChartEventTooltip(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	id := ingest(t, f.db, recordBuiltin(t, worms.Game, "final", `{"rounds":80}`, 7, []string{"tactical", "random"}, []string{xssName}))
	b := newBrowserSession(t)
	b.do(t, "open the match", chromedp.Navigate(srv.URL+matchURL(id)), chromedp.WaitVisible(chromedp.CSS(".chart canvas")))
	// The first mark of the first chart with one: where it is on the
	// screen, and what the tooltip should say of it.
	mark := eval[struct {
		X, Y float64
		Text string
	}](t, b, `(() => {
		for (const el of document.querySelectorAll('.chart')) {
			const c = echarts.getInstanceByDom(el), s = c.getOption().series.find(s => s.markPoint && s.markPoint.data.length);
			if (!s) continue;
			el.scrollIntoView({block: 'center'});
			const m = s.markPoint.data[0], px = c.convertToPixel({gridIndex: 0}, m.coord), r = el.getBoundingClientRect();
			return {X: r.left + px[0], Y: r.top + px[1], Text: s.name + ': ' + m.name};
		}
		return {X: 0, Y: 0, Text: ''};
	})()`)
	if mark.Text == "" {
		t.Fatal("got no event marks on the charts")
	}
	b.do(t, "point at the mark", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, input.DispatchMouseEvent, input.DispatchMouseEventParams{
			Type: input.DispatchMouseEventTypeMouseMoved, X: mark.X, Y: mark.Y})
		return err
	}))
	time.Sleep(500 * time.Millisecond) // the tooltip fades in
	tips := eval[[]string](t, b, `Array.from(document.querySelectorAll('.chart div'), d => d.textContent).filter(s => s.startsWith('turn '))`)
	found := false
	for _, tip := range tips {
		found = found || strings.Contains(tip, mark.Text)
	}
	if !found {
		t.Errorf("got tooltips %q, want one naming %q", tips, mark.Text)
	}
	if n := eval[int](t, b, `document.querySelectorAll('.chart img').length`); n != 0 {
		t.Errorf("got %d img elements in the charts: a bot's name was not escaped", n)
	}
	b.checkQuiet(t)
}
