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

// withNorm is a script that evaluates expr with norm at hand, which
// writes a CSS colour as the browser computes it.
func withNorm(expr string) string {
	return `(() => { const norm = c => { const s = document.createElement('span'); s.style.color = c; document.body.append(s);
		const v = getComputedStyle(s).color; s.remove(); return v; };
		return ` + expr + `; })()`
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

// chartViewsJS defines, for a script, rectOf(chart, type): the box
// [left, top, right, bottom] in the chart's pixels that ECharts drew the
// first component of type in (a legend, a toolbox, an axis), and textsOf(chart,
// type): the texts drawn in it with their fill colours.
const chartViewsJS = `const drawn = (chart, type) => { const out = [];
		const m = chart.getModel().getComponent(type), v = m && chart.getViewOfComponentModel(m);
		if (v) v.group.traverse(e => { if (!e.isGroup && !e.ignore && !e.invisible) out.push(e); });
		return out; };
	const rectOf = (chart, type) => drawn(chart, type).reduce((box, e) => {
		const r = e.getBoundingRect().clone(); r.applyTransform(e.getComputedTransform());
		return box ? [Math.min(box[0], r.x), Math.min(box[1], r.y), Math.max(box[2], r.x + r.width), Math.max(box[3], r.y + r.height)]
			: [r.x, r.y, r.x + r.width, r.y + r.height]; }, null);
	const textsOf = (chart, type) => drawn(chart, type).filter(e => e.type === 'text' && e.style.text !== '').map(e => [e.style.text, e.style.fill]);`

// contrastJS is a JavaScript function giving the WCAG contrast ratio of
// two computed CSS colours such as "rgb(1, 2, 3)".
const contrastJS = `((a, b) => { const lum = c => { const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map(v => v / 255)
		.map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4); return 0.2126 * r + 0.7152 * g + 0.0722 * bl; };
	const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); })`

// TestBrowserChartScheme checks that the charts follow the system's
// colour scheme: drawn in the light or the dark --chart-* colours of the
// stylesheet (their axis labels in --chart-text), their box a card of the
// page's scheme and not a light card in the dark, their element marked
// with the scheme, redrawn when the scheme changes, and every seat's
// colour at least 3:1 against the chart's background in both schemes.
func TestBrowserChartScheme(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	bots := make([]string, len(seatColors))
	for i := range bots {
		bots[i] = []string{"greedy", "random"}[i%2]
	}
	id := ingest(t, f.db, recordBuiltin(t, snake.Game, "", `{}`, 11, bots, nil))
	b := newBrowserSession(t)
	type chartScheme struct {
		Scheme   string   // the element's data-scheme
		Want     string   // the --chart-scheme of the page
		Labels   []string // the fills of the y axis' labels
		Text     string   // --chart-text
		Box      float64  // the luminance of the chart's box
		Contrast []float64
	}
	check := func(t *testing.T, scheme string) {
		t.Helper()
		got := eval[[]chartScheme](t, b, withNorm(`(() => { `+chartViewsJS+`
			const css = getComputedStyle(document.documentElement), v = n => css.getPropertyValue(n).trim();
			return Array.from(document.querySelectorAll('.chart'), el => {
				const chart = echarts.getInstanceByDom(el), bg = getComputedStyle(el.closest('.chart-box')).backgroundColor;
				return {Scheme: el.dataset.scheme || '', Want: v('--chart-scheme'), Text: norm(v('--chart-text')),
					Labels: textsOf(chart, 'yAxis').map(l => norm(l[1])),
					Box: `+luminanceJS+`(bg),
					Contrast: chart.getOption().series.map(s => `+contrastJS+`(norm(s.lineStyle.color), bg))};
			}); })()`))
		if len(got) == 0 {
			t.Fatal("got no charts")
		}
		for i, c := range got {
			if c.Want != scheme || c.Scheme != scheme {
				t.Errorf("chart %d: got data-scheme %q (page %q), want %q", i, c.Scheme, c.Want, scheme)
			}
			if len(c.Labels) == 0 {
				t.Errorf("chart %d: got no y axis labels drawn", i)
			}
			for _, l := range c.Labels {
				if l != c.Text {
					t.Errorf("chart %d: got an axis label in %s, want --chart-text %s", i, l, c.Text)
					break
				}
			}
			if dark := scheme == "dark"; dark && c.Box > 0.2 || !dark && c.Box < 0.8 {
				t.Errorf("chart %d in %s: got a box of luminance %.2f", i, scheme, c.Box)
			}
			for seat, r := range c.Contrast {
				if r < 3 {
					t.Errorf("chart %d in %s: line %d contrasts %.2f:1 with the background, want at least 3:1", i, scheme, seat, r)
				}
			}
		}
	}
	open := func() {
		b.do(t, "open the match", chromedp.Navigate(srv.URL+matchURL(id)), chromedp.WaitVisible(chromedp.CSS(".chart canvas")))
	}
	b.do(t, "light", colorScheme("light"))
	open()
	t.Run("light", func(t *testing.T) { check(t, "light") })
	// A change of scheme reaches the page's listeners at its next frame.
	switchTo := func(scheme string) {
		b.do(t, scheme, colorScheme(scheme))
		waitUntil(t, "the charts redrawn in "+scheme, func() bool {
			return eval[bool](t, b, `Array.from(document.querySelectorAll('.chart')).every(el => el.dataset.scheme === '`+scheme+`')`)
		})
	}
	switchTo("dark")
	t.Run("switched to dark", func(t *testing.T) { check(t, "dark") })
	open()
	t.Run("dark", func(t *testing.T) { check(t, "dark") })
	switchTo("light")
	t.Run("switched to light", func(t *testing.T) { check(t, "light") })
	b.checkQuiet(t)
}

// TestBrowserLegendClearOfToolbox checks that a legend of five long
// names, wrapped onto several rows, and a long title (Snake's collisions)
// are drawn clear of the toolbox's icons and of each other on a desktop
// and a phone screen.
func TestBrowserLegendClearOfToolbox(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	bots := []string{"greedy", "random", "greedy", "random", "greedy"}
	names := make([]string, len(bots))
	for i := range names {
		names[i] = fmt.Sprintf("LongName%d", i) + strings.Repeat("x", 30)
	}
	id := ingest(t, f.db, recordBuiltin(t, snake.Game, "", `{}`, 11, bots, names))
	b := newBrowserSession(t)
	for _, width := range []int64{1400, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b.do(t, "resize", chromedp.EmulateViewport(width, 900))
			defer b.do(t, "reset", chromedp.EmulateReset())
			b.do(t, "open the match", chromedp.Navigate(srv.URL+matchURL(id)), chromedp.WaitVisible(chromedp.CSS(".chart canvas")))
			time.Sleep(300 * time.Millisecond) // the legends are fitted once the boxes are sized
			got := eval[[][][]float64](t, b, `(() => { `+chartViewsJS+`
				return Array.from(document.querySelectorAll('.chart'), el => { const c = echarts.getInstanceByDom(el);
					return [rectOf(c, 'legend'), rectOf(c, 'toolbox'), rectOf(c, 'title')]; }); })()`)
			if len(got) == 0 {
				t.Fatal("got no charts")
			}
			for i, r := range got {
				legend, tools, title := r[0], r[1], r[2]
				if len(legend) != 4 || len(tools) != 4 || len(title) != 4 {
					t.Fatalf("chart %d: got legend %v, toolbox %v, title %v, want all drawn", i, legend, tools, title)
				}
				for _, pair := range []struct {
					what    string
					r, with []float64
				}{{"the legend and the toolbox", legend, tools}, {"the title and the toolbox", title, tools}, {"the legend and the title", legend, title}} {
					if r, w := pair.r, pair.with; r[0] < w[2] && w[0] < r[2] && r[1] < w[3] && w[1] < r[3] {
						t.Errorf("chart %d: %s overlap: %v and %v", i, pair.what, r, w)
					}
				}
			}
		})
	}
	b.checkQuiet(t)
}
