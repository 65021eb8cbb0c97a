package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/careerfair"
	"github.com/replaylab/replaylab/sim/foodfight"
	"github.com/replaylab/replaylab/sim/snake"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/sim/worms"
)

// browserEnv, set to 1 (as .ci/run does), turns a missing browser into a
// failure instead of a skip.
const browserEnv = "REPLAYLAB_BROWSER_TESTS"

// findBrowser returns Debian's chromium (or another Chrome) or skips.
func findBrowser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv(browserEnv) == "1" {
		t.Fatalf("%s=1 but no chromium found: apt-get install -y chromium", browserEnv)
	}
	t.Skipf("no chromium installed (apt-get install -y chromium); set %s=1 to make this a failure", browserEnv)
	return ""
}

// browserSession is a headless chromium tab that records every request it
// makes, every JavaScript dialog that opens and every error the page
// reports (uncaught exceptions, console.error, browser log errors such as
// CSP violations).
type browserSession struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
	dialogs  []string
	errors   []string
}

// takeErrors returns the errors reported since the last call.
func (b *browserSession) takeErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	errs := b.errors
	b.errors = nil
	return errs
}

func newBrowserSession(t *testing.T) *browserSession {
	t.Helper()
	path := findBrowser(t)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browserSession{ctx: ctx}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.mu.Lock()
			b.requests = append(b.requests, ev.Request.URL)
			b.mu.Unlock()
		case *runtime.EventExceptionThrown:
			b.mu.Lock()
			text := ev.ExceptionDetails.Text
			if e := ev.ExceptionDetails.Exception; e != nil {
				text += " " + e.Description
			}
			b.errors = append(b.errors, fmt.Sprintf("exception at %s:%d: %s", ev.ExceptionDetails.URL, ev.ExceptionDetails.LineNumber, text))
			b.mu.Unlock()
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				b.mu.Lock()
				b.errors = append(b.errors, "console.error: "+strings.Join(parts, " "))
				b.mu.Unlock()
			}
		case *cdplog.EventEntryAdded:
			// A request refused is one the page of an earlier subtest made
			// late (its favicon) to a test server closed since: the page
			// being tested is served by a server that is running.
			if ev.Entry.Level == cdplog.EntryLevelError && !strings.Contains(ev.Entry.Text, "net::ERR_CONNECTION_REFUSED") {
				b.mu.Lock()
				b.errors = append(b.errors, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
				b.mu.Unlock()
			}
		case *cdppage.EventJavascriptDialogOpening:
			b.mu.Lock()
			b.dialogs = append(b.dialogs, ev.Message)
			b.mu.Unlock()
			// Close it from another goroutine: a listener must not run
			// commands, and an open dialog would stall the page.
			go chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: false})
				return err
			}))
		}
	}); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return b
}

// checkQuiet fails t for the errors the page reported since the last
// takeErrors and for any JavaScript dialog the session has seen.
func (b *browserSession) checkQuiet(t *testing.T) {
	t.Helper()
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("errors in the console: %q", errs)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.dialogs) > 0 {
		t.Errorf("JavaScript dialogs opened: %q", b.dialogs)
	}
}

// do runs steps with a time limit, failing the test on error.
func (b *browserSession) do(t *testing.T, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](t *testing.T, b *browserSession, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	return evalWithin[T](t, b, 30*time.Second, expr, opts...)
}

// evalWithin is eval with its own time limit, for scripts that walk a
// whole match.
func evalWithin[T any](t *testing.T, b *browserSession, limit time.Duration, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, limit)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// newLiveFixture is the fixture served on a real loopback listener whose
// port the server's Host checks know, as "replaylab serve" does.
func newLiveFixture(t *testing.T) (*fixture, *httptest.Server) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	f := newFixture(t, func(c *Config) { c.Addr = srv.Listener.Addr().String() })
	srv.Config.Handler = f.e
	srv.Start()
	t.Cleanup(srv.Close)
	return f, srv
}

// TestBrowser drives the dashboard in headless chromium against a real
// server on 127.0.0.1 over a real SQLite file.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	wide := syntheticRecord(t, 120, 4)
	if _, err := f.db.Ingest(context.Background(), wide); err != nil {
		t.Fatal(err)
	}
	b := newBrowserSession(t)

	t.Run("overview", func(t *testing.T) {
		b.do(t, "open", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("form.upload")))
		if got := eval[string](t, b, `document.querySelector('h2').textContent`); !strings.Contains(got, "River Toad") {
			t.Errorf("first game heading: got %q", got)
		}
		if n := eval[int](t, b, `document.querySelectorAll('table.matches tbody tr').length`); n != 4 {
			t.Errorf("recent matches: got %d rows, want 4", n)
		}
	})

	// Each chart has one series per player: 1 for River Toad, 4 for the
	// synthetic match. The key charts are drawn at once, the others when
	// opened, and every metric is drawn or named as not drawn.
	for _, tt := range []struct {
		id     string
		series int
	}{{f.won, 1}, {wide.ID, 4}} {
		t.Run(fmt.Sprintf("charts with %d series", tt.series), func(t *testing.T) {
			b.do(t, "open match", chromedp.Navigate(srv.URL+matchURL(tt.id)), chromedp.WaitVisible(chromedp.CSS("#chart-hp canvas")))
			later := eval[int](t, b, `document.querySelectorAll('details.more-chart[data-src]').forEach(d => d.open = true), document.querySelectorAll('details.more-chart[data-src]').length`)
			b.do(t, "open the other charts", chromedp.Poll[chromedp.Void](`Array.from(document.querySelectorAll('details.more-chart[data-src]')).every(d => d.getAttribute('data-state') === 'drawn')`))
			notDrawn := eval[int](t, b, `(document.querySelector('.not-drawn') || {textContent: ''}).textContent.split('), ').filter(s => s).length`)
			got := eval[[]int](t, b, `Array.from(document.querySelectorAll('.chart')).map(el => echarts.getInstanceByDom(el).getOption().series.length)`)
			if len(got)+notDrawn != len(toad.Game.Metrics) || later == 0 {
				t.Fatalf("got %d charts (%d drawn when opened) and %d not drawn, want one per metric (%d), some opened later", len(got), later, notDrawn, len(toad.Game.Metrics))
			}
			for i, n := range got {
				if n != tt.series {
					t.Errorf("chart %d: got %d series, want %d", i, n, tt.series)
				}
			}
			points := eval[int](t, b, `echarts.getInstanceByDom(document.getElementById('chart-hp')).getOption().series[0].data.length`)
			if want := 31; tt.id == f.won && points != want {
				t.Errorf("hp series: got %d points, want %d (turns 0..30)", points, want)
			}
		})
	}

	t.Run("chart click opens the inspector", func(t *testing.T) {
		b.do(t, "open match", chromedp.Navigate(srv.URL+matchURL(f.won)), chromedp.WaitVisible(chromedp.CSS("#chart-hp canvas")))
		// Click where turn 10 is drawn.
		x := eval[[]float64](t, b, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-hp'));
			const r = document.getElementById('chart-hp').getBoundingClientRect();
			const p = c.convertToPixel({gridIndex: 0}, [10, 10]); return [r.left + p[0], r.top + p[1]]; })()`)
		b.do(t, "click", chromedp.MouseClickXY(x[0], x[1]), chromedp.WaitVisible(chromedp.CSS("#board svg")))
		if loc := eval[string](t, b, `location.pathname`); loc != turnURL(f.won, 10) {
			t.Errorf("after the click: at %s, want %s", loc, turnURL(f.won, 10))
		}
	})

	// A long match's charts are downsampled: the points sit at their real
	// turns, so a click still opens the turn under the pointer (to within
	// the turns one pixel spans).
	t.Run("chart click on a downsampled chart", func(t *testing.T) {
		long := ingest(t, f.db, longToad(t, 12_000))
		b.do(t, "open match", chromedp.Navigate(srv.URL+matchURL(long)), chromedp.WaitVisible(chromedp.CSS("#chart-hp canvas")))
		if n := eval[int](t, b, `echarts.getInstanceByDom(document.getElementById('chart-hp')).getOption().series[0].data.length`); n > maxLinePoints {
			t.Errorf("hp series: got %d points, want at most %d", n, maxLinePoints)
		}
		x := eval[[]float64](t, b, fmt.Sprintf(`(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-hp'));
			document.getElementById('chart-hp').scrollIntoView(); // the summary of a long config is tall
			const r = document.getElementById('chart-hp').getBoundingClientRect();
			const d = c.getOption().series[0].data.find(p => p[0] >= %d);
			const p = c.convertToPixel({gridIndex: 0}, [d[0], d[1]]); const q = c.convertToPixel({gridIndex: 0}, [d[0] + 1000, d[1]]);
			return [r.left + p[0], r.top + p[1], Math.abs(q[0] - p[0]), d[0]]; })()`, 7000))
		at := int(x[3]) // the first point at or after turn 7000
		perPixel := int(1000/x[2]) + 1
		b.do(t, "click", chromedp.MouseClickXY(x[0], x[1]), chromedp.WaitVisible(chromedp.CSS("#board svg")))
		loc := eval[string](t, b, `location.pathname`)
		var turn int
		if _, err := fmt.Sscanf(loc[strings.LastIndex(loc, "/")+1:], "%d", &turn); err != nil || turn < at-perPixel || turn > at+perPixel {
			t.Errorf("after the click: at %s, want turn %d ± %d", loc, at, perPixel)
		}
	})

	t.Run("inspector keyboard", func(t *testing.T) {
		b.do(t, "open inspector", chromedp.Navigate(srv.URL+turnURL(f.won, 0)), chromedp.WaitVisible(chromedp.CSS("#board svg")))
		boardAt := func() string {
			return eval[string](t, b, `document.querySelector('#board svg').getAttribute('data-board')`)
		}
		start := boardAt()
		for range 3 {
			b.do(t, "press →", chromedp.KeyEvent(kb.ArrowRight))
		}
		want := turnURL(f.won, 3)
		b.do(t, "wait for turn 3", chromedp.Poll[chromedp.Void](fmt.Sprintf(`location.pathname === %q && document.querySelector('#board svg').getAttribute('aria-label').endsWith('turn 3')`, want)))
		if got := boardAt(); got == start {
			t.Errorf("board unchanged after three turns: %q", got)
		}
		if got := eval[string](t, b, `document.getElementById('turn-slider').value`); got != "3" {
			t.Errorf("slider: got %s, want 3", got)
		}
		b.do(t, "End", chromedp.KeyEvent(kb.End))
		b.do(t, "wait for the last turn", chromedp.Poll[chromedp.Void](fmt.Sprintf(`location.pathname === %q`, turnURL(f.won, 30))))
		// The URL names the turn: opening it again shows the same view.
		b.do(t, "reopen", chromedp.Navigate(srv.URL+turnURL(f.won, 3)), chromedp.WaitVisible(chromedp.CSS("#board svg")))
		if got := boardAt(); got == start {
			t.Errorf("reopened turn 3 shows turn 0's board")
		}
	})

	t.Run("inspector plays", func(t *testing.T) {
		b.do(t, "open inspector", chromedp.Navigate(srv.URL+turnURL(f.won, 0)), chromedp.WaitVisible(chromedp.CSS("#board svg")),
			chromedp.SetValue(chromedp.CSS("#speed"), "20"), chromedp.KeyEvent(" "))
		b.do(t, "wait for turn 5", chromedp.Poll[chromedp.Void](`Number(document.getElementById('turn-slider').value) >= 5`))
		b.do(t, "pause", chromedp.KeyEvent(" "))
	})

	t.Run("upload through the form", func(t *testing.T) {
		enc, err := f.fresh.Encode()
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "fresh.rpl")
		if err := os.WriteFile(file, enc.Bytes, 0o644); err != nil {
			t.Fatal(err)
		}
		b.do(t, "upload", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("form.upload")),
			chromedp.SetUploadFiles(chromedp.CSS(`input[name=replay]`), []string{file}),
			chromedp.Click(chromedp.CSS(`form.upload button[type=submit]`)),
			chromedp.WaitVisible(chromedp.CSS("#chart-hp canvas")))
		if loc := eval[string](t, b, `location.pathname`); loc != matchURL(enc.ID) {
			t.Errorf("after upload: at %s, want %s", loc, matchURL(enc.ID))
		}
	})

	t.Run("hostile bot name stays text", func(t *testing.T) {
		for _, u := range []string{matchURL(f.hostile), turnURL(f.hostile, 1), "/", "/bots", "/bots/toad/" + url.PathEscape(xssName)} {
			b.do(t, "open "+u, chromedp.Navigate(srv.URL+u), chromedp.WaitReady(chromedp.CSS("footer")))
			if strings.HasPrefix(u, "/matches/") && !strings.Contains(u, "/turns/") {
				// Show the tooltip and the legend, where ECharts puts series
				// names into HTML.
				b.do(t, "wait for charts", chromedp.WaitVisible(chromedp.CSS("#chart-hp canvas")))
				eval[bool](t, b, `(() => { const c = echarts.getInstanceByDom(document.getElementById('chart-hp'));
					c.dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: 3}); return true; })()`)
				b.do(t, "let the tooltip render", chromedp.Sleep(300*time.Millisecond))
				if !eval[bool](t, b, `document.getElementById('chart-hp').innerText.includes('onerror=alert(1)')`) {
					t.Errorf("%s: the tooltip does not show the bot name as text", u)
				}
			}
			if n := eval[int](t, b, `document.querySelectorAll('img').length`); n != 0 {
				t.Errorf("%s: %d <img> elements: a bot name became markup", u, n)
			}
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.dialogs) > 0 {
			t.Errorf("JavaScript dialogs opened: %q", b.dialogs)
		}
	})

	t.Run("no request leaves the server", func(t *testing.T) {
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.requests) == 0 {
			t.Fatal("recorded no requests")
		}
		for _, r := range b.requests {
			if !strings.HasPrefix(r, srv.URL+"/") && !strings.HasPrefix(r, "data:") && !strings.HasPrefix(r, "blob:") {
				t.Errorf("request to another host: %s", r)
			}
		}
	})
}

// checkPhoneWidth opens each page (a path under base) on a 375 px wide
// screen and checks that its board fits: between 250 and 375 px wide, with
// no sideways scrolling.
func checkPhoneWidth(t *testing.T, b *browserSession, base string, paths ...string) {
	t.Helper()
	b.do(t, "narrow", chromedp.EmulateViewport(375, 740))
	defer b.do(t, "reset", chromedp.EmulateReset())
	for _, u := range paths {
		b.do(t, "open "+u, chromedp.Navigate(base+u), chromedp.WaitVisible(chromedp.CSS("#board svg")))
		if w := eval[float64](t, b, `document.querySelector('#board svg').getBoundingClientRect().width`); w < 250 || w > 375 {
			t.Errorf("%s: the board is %.0f px wide on a 375 px screen", u, w)
		}
		if eval[bool](t, b, `document.documentElement.scrollWidth > document.documentElement.clientWidth`) {
			t.Errorf("%s: the page scrolls sideways on a phone", u)
		}
	}
}

// recordBuiltin plays a match between built-in bots, one per seat; a
// non-empty names[i] replaces seat i's player name.
func recordBuiltin(t testing.TB, g *sim.Game, ruleset, config string, seed uint64, bots, names []string) *replay.Log {
	t.Helper()
	return recordAgents(t, g, ruleset, config, seed, bots, names, func(h replay.Header, seat int) replay.Agent {
		a, err := replay.NewBuiltin(g, bots[seat], h.Setup(), seat)
		if err != nil {
			t.Fatal(err)
		}
		return a
	})
}

// recordAgents plays a match between the agents newAgent makes, one per
// seat, named like recordBuiltin's.
func recordAgents(t testing.TB, g *sim.Game, ruleset, config string, seed uint64, bots, names []string, newAgent func(h replay.Header, seat int) replay.Agent) *replay.Log {
	t.Helper()
	h := replay.NewHeader(g, ruleset, seed, json.RawMessage(config))
	for i, bot := range bots {
		name := bot
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		h.Players = append(h.Players, replay.Player{Name: name, Version: "v1"})
	}
	if _, err := h.Check(); err != nil {
		t.Fatalf("header: %v", err)
	}
	agents := make([]replay.Agent, len(bots))
	for seat := range bots {
		agents[seat] = newAgent(h, seat)
	}
	rec := replay.Recorder{Header: h, Agents: agents, HashEvery: 100}
	l, err := rec.Record(context.Background())
	if err != nil {
		t.Fatalf("record %s: %v", g.Name, err)
	}
	return l
}

// TestBrowserBoards checks the Worms and Snake Battle board renderers in
// headless chromium: an SVG board rather than the JSON fallback, one
// element per worm or snake, stepping with →, the glyph toggle, a phone's
// width, hostile player names and no errors in the console.
func TestBrowserBoards(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	// Final rules with a short match: professions, bananas, snowballs and
	// lava early on.
	wormsID := ingest(t, f.db, recordBuiltin(t, worms.Game, "final", `{"rounds":80}`, 7,
		[]string{"tactical", "random"}, []string{xssName}))
	snakeID := ingest(t, f.db, recordBuiltin(t, snake.Game, "", `{}`, 11,
		[]string{"greedy", "random", "greedy", "random", "greedy"}, []string{"", xssName}))
	b := newBrowserSession(t)

	for _, tt := range []struct {
		game, id, svg, unit string
		atStart             int    // units drawn at turn 0
		units               string // JS: the units the initial frame should draw
		from                int    // the turn to step from
	}{
		{"worms", wormsID, "svg.board-worms", "[data-worm]", 6,
			`JSON.parse(document.getElementById('inspector-turn').textContent).frame.state.worms.filter(w => w.on_map).length`, 20},
		{"snake", snakeID, "svg.board-snake", "[data-snake]", 5,
			`JSON.parse(document.getElementById('inspector-turn').textContent).frame.state.snakes.filter(s => s.body.length > 0).length`, 40},
	} {
		t.Run(tt.game, func(t *testing.T) {
			b.takeErrors()
			board := "#board " + tt.svg
			count := func() int {
				return eval[int](t, b, fmt.Sprintf(`document.querySelectorAll('#board %s').length`, tt.unit))
			}
			b.do(t, "open turn 0", chromedp.Navigate(srv.URL+turnURL(tt.id, 0)), chromedp.WaitVisible(chromedp.CSS(board)))
			if n := count(); n != tt.atStart {
				t.Errorf("turn 0: %d %s elements, want %d", n, tt.unit, tt.atStart)
			}

			b.do(t, "open turn", chromedp.Navigate(srv.URL+turnURL(tt.id, tt.from)), chromedp.WaitVisible(chromedp.CSS(board)))
			if n := eval[int](t, b, `document.querySelectorAll('#board > pre').length`); n != 0 {
				t.Errorf("the board fell back to the frame's JSON")
			}
			if got, want := count(), eval[int](t, b, tt.units); got != want || want == 0 {
				t.Errorf("turn %d: %d %s elements, want %d", tt.from, got, tt.unit, want)
			}
			drawing := func() string { return eval[string](t, b, `document.querySelector('#board svg').outerHTML`) }
			start := drawing()
			for range 3 {
				b.do(t, "press →", chromedp.KeyEvent(kb.ArrowRight))
			}
			want := turnURL(tt.id, tt.from+3)
			b.do(t, "wait for the third turn after", chromedp.Poll[chromedp.Void](fmt.Sprintf(
				`location.pathname === %q && document.querySelector(%q).getAttribute('aria-label').endsWith('turn %d')`, want, board, tt.from+3)))
			if drawing() == start {
				t.Errorf("the board did not change in three turns")
			}
			if n := count(); n == 0 {
				t.Errorf("turn %d: no %s elements", tt.from+3, tt.unit)
			}
			if n := eval[int](t, b, `document.querySelectorAll('img').length`); n != 0 {
				t.Errorf("%d <img> elements: a bot name became markup", n)
			}
			if !eval[bool](t, b, fmt.Sprintf(`document.getElementById('board').textContent.includes(%q)`, xssName)) {
				t.Errorf("the board does not show the hostile bot name as text")
			}
			if tt.game == "worms" {
				// The tables name worms as the board and the engine do, under
				// their seat: 11 to 13 for Seat 1's, 21 to 23 for Seat 2's.
				heads := eval[[]string](t, b, `Array.from(document.querySelectorAll('#stats tbody th')).map(e => e.textContent)`)
				want := eval[[]string](t, b, `(() => { const ps = JSON.parse(document.getElementById('inspector-meta').textContent).players;
					return ps.flatMap((p, s) => ['Seat ' + (s + 1) + ' · ' + p.name + ' ' + p.version].concat([1, 2, 3].map(w => 'worm ' + (s + 1) + w))); })()`)
				if strings.Join(heads, "|") != strings.Join(want, "|") {
					t.Errorf("players and units rows: got %q, want %q", heads, want)
				}
				// Pointing at a cell names it.
				got := eval[string](t, b, `(() => { const s = document.querySelector('#board svg'), r = s.getBoundingClientRect();
					s.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
					return document.querySelector('#board .board-readout').textContent; })()`)
				if !strings.HasPrefix(got, "(16, 16) ") {
					t.Errorf("readout at the board's centre: %q", got)
				}
			}
			if errs := b.takeErrors(); len(errs) > 0 {
				t.Errorf("errors in the console: %q", errs)
			}
		})
	}

	t.Run("snake glyph rows", func(t *testing.T) {
		b.do(t, "open", chromedp.Navigate(srv.URL+turnURL(snakeID, 40)), chromedp.WaitVisible(chromedp.CSS("#board svg.board-snake")))
		b.do(t, "open the rows", chromedp.Click(chromedp.CSS("#board details.glyphs summary")),
			chromedp.WaitVisible(chromedp.CSS("#board details.glyphs pre")))
		rows := eval[string](t, b, `document.querySelector('#board details.glyphs pre').textContent`)
		want := eval[string](t, b, `JSON.parse(document.getElementById('inspector-turn').textContent).frame.state.board.join('\n')`)
		if rows != want || !strings.Contains(rows, "☼") {
			t.Errorf("glyph rows:\n%s\nwant:\n%s", rows, want)
		}
		// The rows stay open while stepping.
		b.do(t, "press →", chromedp.KeyEvent(kb.ArrowRight))
		b.do(t, "wait for turn 41", chromedp.Poll[chromedp.Void](`document.querySelector('#board svg').getAttribute('aria-label').endsWith('turn 41')`))
		if !eval[bool](t, b, `document.querySelector('#board details.glyphs').open`) {
			t.Errorf("the glyph rows closed on the next turn")
		}
	})

	t.Run("phone width", func(t *testing.T) {
		checkPhoneWidth(t, b, srv.URL, turnURL(wormsID, 20), turnURL(snakeID, 40))
	})
	b.checkQuiet(t)
}

// ffThrower is a test agent that makes a FoodFight match eventful: it
// walks to the nearest food on the ground with its left arm pointed at it,
// picks it up and throws it, from an even seat at its own table, from an
// odd one at the nearest opponent; with empty hands it ducks while food
// flies. It notes the first turn after which food flies while a collision
// happens.
type ffThrower struct {
	busy *ffBusyTurn // shared by the match's agents
	seat int
}

// ffBusyTurn is the first frame with food in flight and a collision, and
// what it holds.
type ffBusyTurn struct {
	mu                    sync.Mutex // the recorder asks the agents at once
	turn, air, collisions int
	labels                []string // the players' labels, in seat order
}

// ffAngle wraps a - b into [-π, π).
func ffAngle(a, b float64) float64 {
	return math.Mod(math.Mod(a-b+math.Pi, 2*math.Pi)+2*math.Pi, 2*math.Pi) - math.Pi
}

func (a ffThrower) Act(_ context.Context, _ int, view any) replay.Answer {
	v := view.(*foodfight.View)
	f := v.Field
	air := 0
	for _, fd := range f.Food {
		if fd.Height > 0 {
			air++
		}
	}
	var me foodfight.PlayerView
	var foes []foodfight.PlayerView
	var table [2]float64
	var labels []string
	for _, tm := range f.Teams {
		for _, p := range tm.Players {
			labels = append(labels, tm.Symbol+p.Symbol)
			switch {
			case tm.Symbol == v.Team && p.Symbol == v.Player:
				me, table = p, tm.Table.Location
			case tm.Symbol != v.Team:
				foes = append(foes, p)
			}
		}
	}
	a.busy.mu.Lock()
	// The view before turn k shows the frame of turn k-1.
	if a.busy.turn == 0 && air > 0 && len(f.Collisions) > 0 {
		a.busy.turn, a.busy.air, a.busy.collisions = f.TurnNumber-1, air, len(f.Collisions)
	}
	a.busy.labels = labels
	a.busy.mu.Unlock()
	// aim turns the left arm (at +π/6) toward a point and says how far off
	// it is.
	aim := func(at [2]float64) (string, float64, float64) {
		dx, dy := at[0]-me.Location[0], at[1]-me.Location[1]
		off := ffAngle(math.Atan2(dy, dx), me.Heading+math.Pi/6)
		turn := "turnRight"
		if off > 0 {
			turn = "turnLeft"
		}
		return turn, off, math.Hypot(dx, dy)
	}
	nearest := func(points [][2]float64) ([2]float64, bool) {
		best, found := [2]float64{}, false
		for _, p := range points {
			if !found || math.Hypot(p[0]-me.Location[0], p[1]-me.Location[1]) < math.Hypot(best[0]-me.Location[0], best[1]-me.Location[1]) {
				best, found = p, true
			}
		}
		return best, found
	}
	if me.Inventory.Left != "" {
		var at [][2]float64
		for _, p := range foes {
			at = append(at, p.Location)
		}
		target, ok := nearest(at)
		if a.seat%2 == 0 || !ok {
			target = table
		}
		turn, off, _ := aim(target)
		if math.Abs(off) < 0.06 {
			return replay.Answer{Command: "throwLeft"}
		}
		return replay.Answer{Command: turn}
	}
	var ground [][2]float64
	for _, fd := range f.Food {
		if fd.Height == 0 {
			ground = append(ground, fd.Location)
		}
	}
	target, ok := nearest(ground)
	if !ok || air > 0 && me.Inventory.Right == "" {
		return replay.Answer{Command: "duck"}
	}
	turn, off, dist := aim(target)
	switch {
	case dist < 95 && math.Abs(off) < math.Pi/6-0.05:
		return replay.Answer{Command: "pickupLeft"}
	case math.Abs(off) > 0.1:
		return replay.Answer{Command: turn}
	}
	return replay.Answer{Command: "moveForward"}
}

func (ffThrower) Close() replay.Output { return replay.Output{} }

// TestBrowserFoodFight checks the FoodFight board in headless chromium: the
// field with its tables, players and labels, the side cards, a turn with
// food in flight and a collision reached with →, a hostile bot name kept
// as text, the time to draw 200 consecutive frames, and no errors in the
// console.
func TestBrowserFoodFight(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	busy := &ffBusyTurn{}
	bots := []string{"thrower", "thrower", "thrower", "thrower"}
	id := ingest(t, f.db, recordAgents(t, foodfight.Game, "bitbrawl2018", `{"match_type":"TEAM"}`, 5, bots, []string{xssName},
		func(_ replay.Header, seat int) replay.Agent { return ffThrower{busy, seat} }))
	if busy.turn == 0 {
		t.Fatal("the test match has no turn with food in flight and a collision: pick another seed")
	}
	t.Logf("turn %d: %d food in flight, %d collisions", busy.turn, busy.air, busy.collisions)
	b := newBrowserSession(t)
	const board = "#board svg.board-foodfight"
	count := func(sel string) int {
		t.Helper()
		return eval[int](t, b, fmt.Sprintf(`document.querySelectorAll(%q).length`, "#board "+sel))
	}

	t.Run("field at turn 0", func(t *testing.T) {
		b.do(t, "open turn 0", chromedp.Navigate(srv.URL+turnURL(id, 0)), chromedp.WaitVisible(chromedp.CSS(board)))
		if n := count("> pre"); n != 0 {
			t.Fatalf("the board fell back to the frame's JSON")
		}
		for _, tt := range []struct {
			sel  string
			want int
		}{{"[data-table]", 2}, {"[data-player]", 4}, {"[data-card]", 4}, {"[data-food]", 4}, {"[data-air]", 0}, {"[data-collision]", 0}} {
			if got := count(tt.sel); got != tt.want {
				t.Errorf("%s: got %d elements, want %d", tt.sel, got, tt.want)
			}
		}
		got := eval[[]string](t, b, `Array.from(document.querySelectorAll('#board [data-player]')).map(e => e.querySelector('text').textContent)`)
		if strings.Join(got, " ") != strings.Join(busy.labels, " ") {
			t.Errorf("player labels: got %q, want %q", got, busy.labels)
		}
		if !eval[bool](t, b, fmt.Sprintf(`document.getElementById('board').textContent.includes(%q)`, xssName)) {
			t.Errorf("the cards do not show the hostile bot name as text")
		}
		// Each card names its seat as every page does, counting from 1.
		cards := eval[[]string](t, b, `Array.from(document.querySelectorAll('#board [data-card] .ff-bot')).map(e => e.textContent).sort()`)
		seats := eval[[]string](t, b, `JSON.parse(document.getElementById('inspector-meta').textContent).players.map((p, s) => 'Seat ' + (s + 1) + ' · ' + p.name).sort()`)
		if strings.Join(cards, "|") != strings.Join(seats, "|") || len(cards) != 4 {
			t.Errorf("cards name %q, want the seats %q", cards, seats)
		}
		if n := eval[int](t, b, `document.querySelectorAll('img').length`); n != 0 {
			t.Errorf("%d <img> elements: a bot name became markup", n)
		}
	})

	t.Run("food in flight and a collision", func(t *testing.T) {
		from := busy.turn - 3
		b.do(t, "open", chromedp.Navigate(srv.URL+turnURL(id, from)), chromedp.WaitVisible(chromedp.CSS(board)))
		for range 3 {
			b.do(t, "press →", chromedp.KeyEvent(kb.ArrowRight))
		}
		b.do(t, "wait for the busy turn", chromedp.Poll[chromedp.Void](fmt.Sprintf(
			`location.pathname === %q && document.querySelector(%q).getAttribute('aria-label').endsWith('turn %d')`, turnURL(id, busy.turn), board, busy.turn)))
		if got := count(`[data-air="true"]`); got != busy.air {
			t.Errorf("food in flight: got %d drawn, want %d", got, busy.air)
		}
		if got := count(`[data-air="true"] .shadow`); got != busy.air {
			t.Errorf("shadows: got %d, want one per food in flight (%d)", got, busy.air)
		}
		if got := count("[data-collision]"); got != busy.collisions {
			t.Errorf("collisions: got %d drawn, want %d", got, busy.collisions)
		}
	})

	t.Run("every turn", func(t *testing.T) {
		// Draw every turn of the match and count what each frame says
		// should be marked.
		type tally struct {
			Mismatches []string
			Totals     map[string]int
		}
		// Turns are fetched in order, so the server steps its cursor one
		// turn at a time instead of replaying from turn 0; the walk takes
		// seconds on a quiet machine and gets two minutes on a busy one.
		got := evalWithin[tally](t, b, 2*time.Minute, fmt.Sprintf(`(async () => {
			const meta = JSON.parse(document.getElementById('inspector-meta').textContent);
			const board = document.getElementById('board'), draw = ReplayLab.renderer('foodfight');
			const checks = {
				'.player.invalid .invalid-mark': s => s.players.filter(p => !p.valid).length,
				'.ff-action.invalid': s => s.players.filter(p => !p.valid).length,
				'.player.ducking': s => s.turn > 0 ? s.players.filter(p => p.height < 200).length : 0,
				'[data-held]': s => s.players.reduce((n, p) => n + !!p.left + !!p.right, 0),
				'[data-air="true"]': s => s.food.filter(f => f.air).length,
				'[data-food]': s => s.food.length,
				'[data-table-food]': s => s.teams.reduce((n, t) => n + t.table.food.length, 0),
				'[data-collision="player"]': s => s.collisions.filter(c => c.kind === 'player').length,
				'[data-collision="food"]': s => s.collisions.filter(c => c.kind === 'food').length,
			};
			const out = {Mismatches: [], Totals: {}};
			for (let turn = 0; turn <= meta.turns; turn++) {
				const t = await fetch('/api/v1/matches/%s/turns/' + turn, {headers: {Accept: 'application/json'}}).then(r => r.json());
				draw(board, t.frame.state, t, meta);
				for (const [sel, want] of Object.entries(checks)) {
					const n = want(t.frame.state), got = board.querySelectorAll(sel).length;
					out.Totals[sel] = (out.Totals[sel] || 0) + n;
					if (got !== n && out.Mismatches.length < 10) out.Mismatches.push('turn ' + t.turn + ' ' + sel + ': got ' + got + ', want ' + n);
				}
			}
			return out; })()`, id), chromedp.EvalAwaitPromise)
		for _, m := range got.Mismatches {
			t.Error(m)
		}
		t.Logf("marks over the match: %v", got.Totals)
		for sel, n := range got.Totals {
			if n == 0 {
				t.Errorf("no frame of the test match has %s to draw: pick another seed", sel)
			}
		}
	})

	t.Run("phone width", func(t *testing.T) { checkPhoneWidth(t, b, srv.URL, turnURL(id, busy.turn)) })

	t.Run("draw 200 frames", func(t *testing.T) {
		// Fetch first, then time the drawing alone, forcing layout after
		// each frame as playback's paint would: once as playback draws,
		// once with a new match id every frame, which rebuilds the drawing.
		ms := eval[[]float64](t, b, fmt.Sprintf(`(async () => {
			const meta = JSON.parse(document.getElementById('inspector-meta').textContent);
			const turns = await Promise.all(Array.from({length: 200}, (_, i) =>
				fetch('/api/v1/matches/%s/turns/' + (%d + i), {headers: {Accept: 'application/json'}}).then(r => r.json())));
			const board = document.getElementById('board'), draw = ReplayLab.renderer('foodfight');
			const time = rebuild => {
				const start = performance.now();
				turns.forEach((t, i) => { draw(board, t.frame.state, t, rebuild ? {...meta, id: meta.id + i} : meta); board.getBoundingClientRect(); });
				return (performance.now() - start) / turns.length;
			};
			return [time(false), time(true)]; })()`, id, max(0, busy.turn-100)), chromedp.EvalAwaitPromise)
		t.Logf("drawing a frame took %.2f ms on average over 200 consecutive turns (%.2f ms rebuilding the drawing every frame)", ms[0], ms[1])
	})
	b.checkQuiet(t)
}

// cfQueuer is a test agent that puts a career fair team in lines: every
// bot not in line walks toward the end-of-line tiles it sees (bot i toward
// the i-th nearest, so a team spreads over booths) and enters the line
// standing on one.
type cfQueuer struct{}

// cfMoves are the moves in the engine's search order, with their (row,
// column) steps.
var cfMoves = [...]struct {
	name   string
	dr, dc int
}{{"LEFT", 0, -1}, {"UP", -1, 0}, {"RIGHT", 0, 1}, {"DOWN", 1, 0}}

func (cfQueuer) Act(_ context.Context, _ int, view any) replay.Answer {
	v := view.(*careerfair.View)
	acts := make([]string, len(v.States))
	for i, st := range v.States {
		acts[i] = cfQueue(v, st)
	}
	return replay.Answer{Command: strings.Join(acts, ",")}
}

func (cfQueuer) Close() replay.Output { return replay.Output{} }

// cfQueue is one bot's action: ENTER on an end-of-line tile, else the
// first step of a shortest walk around the booths to its end-of-line tile.
func cfQueue(v *careerfair.View, st careerfair.State) string {
	if st.State == "inline" {
		return "NONE"
	}
	if v.Board[st.X][st.Y].EndOfLine {
		return "ENTER"
	}
	start := [2]int{st.X, st.Y}
	first := map[[2]int]string{start: ""} // tile -> the first step toward it
	var ends []string                     // the first step toward each end-of-line tile, nearest first
	for queue := [][2]int{start}; len(queue) > 0; queue = queue[1:] {
		p := queue[0]
		for _, d := range cfMoves {
			q := [2]int{p[0] + d.dr, p[1] + d.dc}
			if q[0] < 0 || q[1] < 0 || q[0] >= v.Rows || q[1] >= v.Cols || v.Board[q[0]][q[1]].Booth != "" {
				continue
			}
			if _, seen := first[q]; seen {
				continue
			}
			step := first[p]
			if step == "" {
				step = d.name
			}
			first[q] = step
			queue = append(queue, q)
			if v.Board[q[0]][q[1]].EndOfLine {
				ends = append(ends, step)
			}
		}
	}
	if len(ends) == 0 {
		return "NONE"
	}
	return ends[st.ID%len(ends)]
}

// cfCheck is a JavaScript function of a frame that lists where the career
// fair board in #board does not draw it: a tile's threshold and shade, a
// booth's company, a team bot off its tile, the crowd's free and queued
// counts, a tail's overflow count, a talker's ring.
const cfCheck = `(state => {
	const board = document.getElementById('board'), out = [], col = {};
	state.bot_columns.forEach((n, i) => col[n] = i);
	const tiles = board.querySelectorAll('.floor rect[data-threshold]');
	if (tiles.length !== state.rows * state.cols) return ['got ' + tiles.length + ' tiles, want ' + state.rows * state.cols];
	const C = Number(tiles[0].getAttribute('width')), fills = {};
	tiles.forEach((r, i) => {
		if (Number(r.getAttribute('data-threshold')) !== state.threshold[i]) out.push('tile ' + i + ': threshold ' + r.getAttribute('data-threshold') + ', want ' + state.threshold[i]);
		(fills[state.threshold[i]] ??= new Set()).add(r.getAttribute('fill'));
	});
	const shades = Object.values(fills);
	if (shades.some(s => s.size !== 1) || new Set(shades.map(s => [...s][0])).size !== shades.length) out.push('shades by threshold: ' + JSON.stringify(Object.entries(fills).map(([k, s]) => k + ':' + [...s])));
	const names = Array.from(board.querySelectorAll('[data-booth] .company'), e => e.textContent).join('|');
	if (names !== state.booths.map(b => b.company).join('|')) out.push('booth names: ' + names);
	const bots = board.querySelectorAll('[data-team-bot]');
	if (bots.length !== state.teams.length * 4) out.push('got ' + bots.length + ' team bots');
	bots.forEach(e => {
		const [ti, id] = e.getAttribute('data-team-bot').split(':').map(Number), b = state.bots[ti * 4 + id];
		const m = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(e.getAttribute('transform') || '');
		const at = m ? [Math.floor(m[2] / C), Math.floor(m[1] / C)] : null;
		if (!at || at[0] !== b[col.row] || at[1] !== b[col.col] || e.getAttribute('visibility') !== 'visible') out.push('team ' + ti + ' bot ' + id + ' drawn at ' + at + ', want ' + [b[col.row], b[col.col]]);
	});
	const crowd = state.bots.filter(b => b[col.team] < 0), free = crowd.filter(b => b[col.line] < 0).length;
	const drawn = sel => Number(board.querySelector(sel).getAttribute('data-bots'));
	if (drawn('.crowd-free') !== free) out.push('free crowd: ' + drawn('.crowd-free') + ', want ' + free);
	if (drawn('.crowd-queued') !== crowd.length - free) out.push('queued crowd: ' + drawn('.crowd-queued') + ', want ' + (crowd.length - free));
	state.booths.forEach((b, k) => {
		const more = b.queue.slice(3 * b.line.length).filter(r => state.bots[r][col.team] < 0).length;
		const text = board.querySelectorAll('[data-more]')[k].textContent;
		if (text !== (more ? '+' + more : '')) out.push(b.company + ': overflow ' + JSON.stringify(text) + ', want ' + more);
		const ring = board.querySelectorAll('[data-talker]')[k].getAttribute('visibility') === 'visible';
		if (ring !== (b.talker >= 0 && b.queue[0] === b.talker)) out.push(b.company + ': talker ring ' + ring);
	});
	return out;
})`

// TestBrowserCareerFair checks the career fair board in headless chromium
// on gates6 with its 600 crowd bots: the booths with their companies, the
// threshold shading, team bots on their tiles, the crowd's counts and
// queues, the vision toggle, stepping with →, the team cards and rewards,
// a hostile bot name kept as text, every step of the match drawn and
// checked, the time to draw a frame, and no errors in the console.
func TestBrowserCareerFair(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	id := ingest(t, f.db, recordAgents(t, careerfair.Game, "awap2019", `{"board":"gates6"}`, 7, []string{"queuer", "queuer"}, []string{xssName},
		func(replay.Header, int) replay.Agent { return cfQueuer{} }))
	b := newBrowserSession(t)
	const board = "#board svg.board-careerfair"
	const at = 60
	check := func(t *testing.T) {
		t.Helper()
		for _, m := range eval[[]string](t, b, cfCheck+`(JSON.parse(document.getElementById('inspector-turn').textContent).frame.state)`) {
			t.Error(m)
		}
	}

	t.Run("board", func(t *testing.T) {
		b.do(t, "open", chromedp.Navigate(srv.URL+turnURL(id, at)), chromedp.WaitVisible(chromedp.CSS(board)))
		if n := eval[int](t, b, `document.querySelectorAll('#board > pre').length`); n != 0 {
			t.Fatalf("the board fell back to the frame's JSON")
		}
		check(t)
		if n := eval[int](t, b, `new Set(JSON.parse(document.getElementById('inspector-turn').textContent).frame.state.threshold).size`); n < 3 {
			t.Errorf("turn %d has %d thresholds: the shading check needs a busier turn", at, n)
		}
		if n := eval[int](t, b, `document.querySelectorAll('#board [data-booth]').length`); n != 20 {
			t.Errorf("booths: got %d, want gates6's 20", n)
		}
		// Pointing at a booth's tile names its company.
		got := eval[[]string](t, b, `(() => { const s = document.querySelector('#board svg'), m = s.getScreenCTM();
			const state = JSON.parse(document.getElementById('inspector-turn').textContent).frame.state, b = state.booths[0];
			const C = Number(s.querySelector('.floor rect').getAttribute('width'));
			const p = new DOMPoint((b.tiles[0][1] + 0.5) * C, (b.tiles[0][0] + 0.5) * C).matrixTransform(m);
			s.dispatchEvent(new MouseEvent('mousemove', {clientX: p.x, clientY: p.y}));
			return [document.querySelector('#board .board-readout').textContent, '(' + b.tiles[0].join(', ') + ') booth of ' + b.company]; })()`)
		if !strings.HasPrefix(got[0], got[1]) {
			t.Errorf("readout over the first booth: got %q, want it to start with %q", got[0], got[1])
		}
		if n := eval[int](t, b, `document.querySelectorAll('#board table.cf-rewards tbody tr').length`); n != 20 {
			t.Errorf("rewards table: got %d rows, want 20", n)
		}
		if !eval[bool](t, b, fmt.Sprintf(`document.getElementById('board').textContent.includes(%q)`, xssName)) {
			t.Errorf("the board does not show the hostile bot name as text")
		}
		if n := eval[int](t, b, `document.querySelectorAll('img').length`); n != 0 {
			t.Errorf("%d <img> elements: a bot name became markup", n)
		}
	})

	t.Run("vision toggle", func(t *testing.T) {
		hidden := func() string {
			return eval[string](t, b, `(() => { const v = document.querySelector('#board .vision');
				return v.getAttribute('visibility') + ' ' + v.getAttribute('data-vision') + ' ' + v.querySelector('path').getAttribute('data-tiles'); })()`)
		}
		want := func(team int) string {
			return eval[string](t, b, fmt.Sprintf(`'visible %d ' + JSON.parse(document.getElementById('inspector-turn').textContent).frame.state.teams[%d].visible.split('').filter(v => v === '0').length`, team, team))
		}
		if got := hidden(); !strings.HasPrefix(got, "hidden") {
			t.Errorf("vision before a choice: %q, want hidden", got)
		}
		// The buttons and cards name seats as every page does.
		named := eval[string](t, b, `Array.from(document.querySelectorAll('#board .cf-vision button, #board .cf-card .cf-head strong')).map(e => e.textContent).join('|')`)
		wantNamed := eval[string](t, b, `(() => { const ps = JSON.parse(document.getElementById('inspector-meta').textContent).players;
			return ['none'].concat(ps.map((p, s) => 'Seat ' + (s + 1) + ' · ' + p.name), ps.map((p, s) => 'Seat ' + (s + 1))).join('|'); })()`)
		if named != wantNamed {
			t.Errorf("vision buttons and cards: got %q, want %q", named, wantNamed)
		}
		for _, team := range []int{0, 1} {
			b.do(t, "choose a team", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .cf-vision button[data-vision="%d"]`, team))))
			if got, want := hidden(), want(team); got != want {
				t.Errorf("vision of team %d: got %q, want %q", team, got, want)
			}
			if got := eval[string](t, b, `document.querySelector('#board .cf-vision [aria-pressed=true]').getAttribute('data-vision')`); got != fmt.Sprint(team) {
				t.Errorf("pressed vision button: got %s, want %d", got, team)
			}
		}
		// The choice stays while stepping.
		b.do(t, "press →", chromedp.KeyEvent(kb.ArrowRight))
		b.do(t, "wait for the next turn", chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).getAttribute('aria-label').endsWith('turn %d')`, board, at+1)))
		if got, want := hidden(), eval[string](t, b, fmt.Sprintf(`(async () => { const r = await fetch('/api/v1/matches/%s/turns/%d', {headers: {Accept: 'application/json'}});
			const s = (await r.json()).frame.state; return 'visible 1 ' + s.teams[1].visible.split('').filter(v => v === '0').length; })()`, id, at+1), chromedp.EvalAwaitPromise); got != want {
			t.Errorf("vision of team 1 after a step: got %q, want %q", got, want)
		}
		b.do(t, "choose none", chromedp.Click(chromedp.CSS(`#board .cf-vision button[data-vision="-1"]`)))
		if got := hidden(); !strings.HasPrefix(got, "hidden") {
			t.Errorf("vision after choosing none: %q, want hidden", got)
		}
	})

	t.Run("steps", func(t *testing.T) {
		b.do(t, "open", chromedp.Navigate(srv.URL+turnURL(id, at)), chromedp.WaitVisible(chromedp.CSS(board)))
		drawing := func() string { return eval[string](t, b, `document.querySelector('#board svg').outerHTML`) }
		start := drawing()
		for range 3 {
			b.do(t, "press →", chromedp.KeyEvent(kb.ArrowRight))
		}
		b.do(t, "wait for the third turn after", chromedp.Poll[chromedp.Void](fmt.Sprintf(
			`location.pathname === %q && document.querySelector(%q).getAttribute('aria-label').endsWith('turn %d')`, turnURL(id, at+3), board, at+3)))
		if drawing() == start {
			t.Errorf("the board did not change in three steps")
		}
		// The page's initial frame is turn 60's: check turn 63 as drawn
		// against its own frame.
		got := eval[[]string](t, b, fmt.Sprintf(`(async () => { const r = await fetch('/api/v1/matches/%s/turns/%d', {headers: {Accept: 'application/json'}});
			return %s((await r.json()).frame.state); })()`, id, at+3, cfCheck), chromedp.EvalAwaitPromise)
		for _, m := range got {
			t.Error(m)
		}
	})

	t.Run("every step", func(t *testing.T) {
		// Draw every step of the match as playback does, check each one,
		// tally what there was to draw and time the drawing alone, forcing
		// layout after each frame as playback's paint would.
		type tally struct {
			Mismatches []string
			Totals     map[string]int
			MS         float64
			Frames     int
		}
		// Steps are fetched in order, so the server steps its cursor once a
		// step instead of replaying from step 0, with two minutes for a busy
		// machine.
		got := evalWithin[tally](t, b, 2*time.Minute, fmt.Sprintf(`(async () => {
			const meta = JSON.parse(document.getElementById('inspector-meta').textContent);
			const turns = [];
			for (let i = 0; i <= meta.turns; i++)
				turns.push(await fetch('/api/v1/matches/%s/turns/' + i, {headers: {Accept: 'application/json'}}).then(r => r.json()));
			const board = document.getElementById('board'), draw = ReplayLab.renderer('careerfair'), check = %s;
			const out = {Mismatches: [], Totals: {}, Frames: turns.length};
			const add = (k, n) => out.Totals[k] = (out.Totals[k] || 0) + n;
			for (const t of turns) {
				draw(board, t.frame.state, t, meta);
				for (const m of check(t.frame.state)) if (out.Mismatches.length < 10) out.Mismatches.push('turn ' + t.turn + ': ' + m);
				const s = t.frame.state, team = s.bot_columns.indexOf('team'), line = s.bot_columns.indexOf('line');
				add('team bots in line', s.bots.filter(b => b[team] >= 0 && b[line] >= 0).length);
				add('overflow counts', board.querySelectorAll('[data-more]:not(:empty)').length);
				add('crowd counts', board.querySelectorAll('[data-count]').length);
				add('talker rings', board.querySelectorAll('[data-talker][visibility=visible]').length);
				add('crowd bots', s.bots.filter(b => b[team] < 0).length);
			}
			add('score', turns[turns.length - 1].frame.state.teams.reduce((n, t) => n + t.score, 0));
			const start = performance.now();
			for (const t of turns) { draw(board, t.frame.state, t, meta); board.getBoundingClientRect(); }
			out.MS = (performance.now() - start) / turns.length;
			return out; })()`, id, cfCheck), chromedp.EvalAwaitPromise)
		for _, m := range got.Mismatches {
			t.Error(m)
		}
		t.Logf("totals over %d frames: %v", got.Frames, got.Totals)
		t.Logf("drawing a frame took %.2f ms on average over all %d steps", got.MS, got.Frames)
		if got.Frames != 311 {
			t.Errorf("got %d frames, want 311 (310 steps and the start)", got.Frames)
		}
		if got.Totals["crowd bots"] < 600*got.Frames {
			t.Errorf("crowd: %d bot-frames, want at least 600 per frame", got.Totals["crowd bots"])
		}
		for k, n := range got.Totals {
			if n == 0 {
				t.Errorf("no frame of the test match has %s: pick another seed", k)
			}
		}
	})

	t.Run("phone width", func(t *testing.T) { checkPhoneWidth(t, b, srv.URL, turnURL(id, at)) })
	b.checkQuiet(t)
}
