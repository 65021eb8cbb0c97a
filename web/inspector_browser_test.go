package web

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/store"
)

// stderrBot is an external River Toad bot that stays put and says on
// standard error, in words a page must not take for markup, which turn it
// is answering.
const stderrBot = `#!/bin/sh
while read -r req; do
	turn=${req#*\"turn\":}
	turn=${turn%%,*}
	echo "thinking about <b>turn $turn</b> & more" >&2
	echo S
done
`

// recordExternal plays a River Toad match against stderrBot as a real
// process and stores it with the output and answer times the recorder
// kept, as import does with record's output file.
func recordExternal(t *testing.T, db *store.DB, turns int) string {
	t.Helper()
	bot := filepath.Join(t.TempDir(), "stderr.sh")
	if err := os.WriteFile(bot, []byte(stderrBot), 0o755); err != nil {
		t.Fatal(err)
	}
	h := replay.NewHeader(toad.Game, "", 5, fmt.Appendf(nil, `{"turns":%d}`, turns))
	h.Players = []replay.Player{{Name: "stderr-bot", Version: "v1"}}
	if _, err := h.Check(); err != nil {
		t.Fatalf("header: %v", err)
	}
	p, err := replay.StartProcess(context.Background(), []string{"/bin/sh", bot}, replay.ProcessOptions{TurnLimit: 5 * time.Second, StartLimit: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var output []store.BotOutput
	keep := func(turn, seat int, o replay.Output) {
		for _, s := range []struct{ stream, text string }{{store.Stdout, o.Stdout}, {store.Stderr, o.Stderr}} {
			if s.text != "" {
				output = append(output, store.BotOutput{Turn: turn, Seat: seat, Stream: s.stream, Text: s.text})
			}
		}
	}
	rec := replay.Recorder{Header: h, Agents: []replay.Agent{p}, HashEvery: 10, OnOutput: keep}
	l, err := rec.Record(context.Background())
	keep(len(l.Turns), 0, p.Close())
	if err != nil {
		t.Fatalf("record: %v", err)
	}
	return buildWith(t, db, l, append(output, store.BotOutput{Seat: 0, Stream: store.Times, Times: rec.Times[0], Limit: 5 * time.Second})).ID
}

// TestBrowserInspector checks the inspector's bot output panel, event
// timeline, go-to-turn box, keys overlay and playback speed in headless
// chromium.
func TestBrowserInspector(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	b := newBrowserSession(t)
	open := func(t *testing.T, id string, turn int) {
		t.Helper()
		b.do(t, "open inspector", chromedp.Navigate(srv.URL+turnURL(id, turn)), chromedp.WaitVisible(chromedp.CSS("#board svg")))
	}
	shownTurn := func(t *testing.T) int {
		t.Helper()
		return eval[int](t, b, `Number(document.getElementById('inspector').getAttribute('data-shown'))`)
	}
	waitTurn := func(t *testing.T, id string, turn int) {
		t.Helper()
		b.do(t, fmt.Sprintf("wait for turn %d", turn), chromedp.Poll[chromedp.Void](fmt.Sprintf(
			`location.pathname === %q && document.getElementById('inspector').getAttribute('data-shown') === '%d'`, turnURL(id, turn), turn)))
	}

	t.Run("bot output", func(t *testing.T) {
		id := recordExternal(t, f.db, 12)
		open(t, id, 3)
		got := eval[string](t, b, `Array.from(document.querySelectorAll('#bot-output [data-seat="0"] pre[data-stream=stderr]')).map(p => p.textContent).join('')`)
		if want := "thinking about <b>turn 3</b> & more\n"; got != want {
			t.Errorf("turn 3 stderr: got %q, want %q", got, want)
		}
		if n := eval[int](t, b, `document.querySelectorAll('#bot-output b').length`); n != 0 {
			t.Errorf("the output made %d <b> elements, want it shown as text", n)
		}
		b.do(t, "press →", chromedp.KeyEvent(kb.ArrowRight))
		waitTurn(t, id, 4)
		if got := eval[string](t, b, `document.querySelector('#bot-output pre[data-stream=stderr]').textContent`); !strings.Contains(got, "turn 4<") {
			t.Errorf("turn 4 stderr: got %q, want the bot's line for turn 4", got)
		}
		open(t, id, 0) // the bot is asked from turn 1 on
		if got := eval[string](t, b, `document.querySelector('#bot-output [data-seat="0"]').textContent`); !strings.HasSuffix(got, "no output") {
			t.Errorf("turn 0: got %q, want no output", got)
		}
		// The new controls and the panel fit a phone.
		checkPhoneWidth(t, b, srv.URL, turnURL(id, 3))
		// A match recorded with built-in bots has no output either.
		open(t, f.won, 5)
		if got := eval[string](t, b, `document.querySelector('#bot-output .empty').textContent`); got != "no output" {
			t.Errorf("built-in bot: got %q, want no output", got)
		}
		b.checkQuiet(t)
	})

	t.Run("event timeline", func(t *testing.T) {
		page, err := f.db.Events(context.Background(), f.won, store.EventQuery{From: 0, To: 30, Limit: store.MaxEventLimit})
		if err != nil {
			t.Fatal(err)
		}
		var eventTurns []int
		for _, e := range page.Events {
			eventTurns = append(eventTurns, e.Turn)
		}
		open(t, f.won, 0)
		marks := eval[[]int](t, b, `Array.from(document.querySelectorAll('#timeline .mark')).map(m => Number(m.dataset.turn))`)
		if len(marks) < 2 {
			t.Fatalf("timeline: got marks at %v, want at least two (the match has events at turns %v)", marks, eventTurns)
		}
		for _, m := range marks {
			if !slices.Contains(eventTurns, m) {
				t.Errorf("mark at turn %d, which has no event (events at %v)", m, eventTurns)
			}
		}
		if n := eval[int](t, b, `document.querySelectorAll('#timeline .mark:empty').length`); n != len(marks) {
			t.Errorf("%d of %d marks are empty, want all: the events go in tooltips, not as text on the line", n, len(marks))
		}
		b.do(t, "press ]", chromedp.KeyEvent("]"))
		waitTurn(t, f.won, marks[0])
		b.do(t, "press ]", chromedp.KeyEvent("]"))
		waitTurn(t, f.won, marks[1])
		b.do(t, "press [", chromedp.KeyEvent("["))
		waitTurn(t, f.won, marks[0])
		b.do(t, "press [", chromedp.KeyEvent("["))
		// Before the first event there is none to go back to: stay.
		time.Sleep(100 * time.Millisecond)
		if got := shownTurn(t); got != marks[0] {
			t.Errorf("[ before the first event: at turn %d, want to stay at %d", got, marks[0])
		}
		b.do(t, "click a mark", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#timeline .mark[data-turn="%d"]`, marks[len(marks)-1]))))
		waitTurn(t, f.won, marks[len(marks)-1])
		b.checkQuiet(t)
	})

	t.Run("go to turn", func(t *testing.T) {
		open(t, f.won, 0)
		// typeTurn leaves the box (Esc), opens it again with its key,
		// types input over what it held and presses Enter.
		typeTurn := func(t *testing.T, input string) {
			t.Helper()
			b.do(t, "press Esc, g", chromedp.KeyEvent(kb.Escape), chromedp.KeyEvent("g"), chromedp.Poll[chromedp.Void](`document.activeElement.id === 'goto-turn'`))
			b.do(t, "type "+input, chromedp.KeyEvent(kb.Delete), chromedp.KeyEvent(input+kb.Enter))
		}
		for _, tt := range []struct{ input, want string }{
			{"abc", `"abc" is not a turn number`},
			{"-3", `"-3" is not a turn number`},
			{"", "Type a turn number"},
			{"31", "past the last turn, 30"},
		} {
			typeTurn(t, tt.input)
			if got := eval[string](t, b, `document.getElementById('goto-error').textContent`); !strings.Contains(got, tt.want) {
				t.Errorf("input %q: got message %q, want %q", tt.input, got, tt.want)
			}
			if got := shownTurn(t); got != 0 {
				t.Errorf("input %q: moved to turn %d", tt.input, got)
			}
		}
		typeTurn(t, "17")
		waitTurn(t, f.won, 17)
		if got := eval[string](t, b, `document.getElementById('goto-error').textContent`); got != "" {
			t.Errorf("after a valid turn: message %q left", got)
		}
		// The keys work again once the turn is chosen.
		b.do(t, "press →", chromedp.KeyEvent(kb.ArrowRight))
		waitTurn(t, f.won, 18)
		b.checkQuiet(t)
	})

	t.Run("keys overlay", func(t *testing.T) {
		open(t, f.won, 0)
		if eval[bool](t, b, `document.getElementById('keys-help').hidden === false`) {
			t.Fatal("the keys overlay is open before ? is pressed")
		}
		b.do(t, "press ?", chromedp.KeyEvent("?"), chromedp.WaitVisible(chromedp.CSS("#keys-help")))
		got := eval[[]string](t, b, `Array.from(document.querySelectorAll('#keys-list dt')).map(d => d.textContent)`)
		for _, key := range []string{"←", "→", "[", "]", "space", "Home", "End", "g", "?", "Esc"} {
			if !slices.Contains(got, key) {
				t.Errorf("keys overlay: got keys %q, want %q among them", got, key)
			}
		}
		// The overlay is modal: → does not step behind it.
		b.do(t, "press →", chromedp.KeyEvent(kb.ArrowRight))
		b.do(t, "press Esc", chromedp.KeyEvent(kb.Escape), chromedp.WaitNotVisible(chromedp.CSS("#keys-help")))
		if got := shownTurn(t); got != 0 {
			t.Errorf("→ under the overlay moved to turn %d", got)
		}
		b.checkQuiet(t)
	})

	t.Run("playback speed", func(t *testing.T) {
		long := ingest(t, f.db, longToad(t, 600))
		for _, rate := range []float64{10, 20} {
			t.Run(fmt.Sprint(rate), func(t *testing.T) {
				open(t, long, 0)
				b.do(t, "play", chromedp.SetValue(chromedp.CSS("#speed"), fmt.Sprint(rate)), chromedp.KeyEvent(" "))
				// The turns drawn per second over 3 s, after 0.5 s to settle:
				// the slope of a least-squares line through the turn on
				// screen sampled every 100 ms, so one late frame at either
				// end (frames come every 50 to 200 ms on a loaded machine)
				// does not decide the result.
				got := evalWithin[float64](t, b, 10*time.Second, `new Promise(done => {
					const root = document.getElementById('inspector'), xs = [], ys = [];
					setTimeout(() => { const iv = setInterval(() => {
						xs.push(performance.now() / 1000); ys.push(Number(root.getAttribute('data-shown')));
						if (xs.length < 31) return;
						clearInterval(iv);
						const mean = a => a.reduce((s, v) => s + v, 0) / a.length, mx = mean(xs), my = mean(ys);
						let sxy = 0, sxx = 0;
						xs.forEach((x, i) => { sxy += (x - mx) * (ys[i] - my); sxx += (x - mx) * (x - mx); });
						done(sxy / sxx);
					}, 100); }, 500);
				})`, chromedp.EvalAwaitPromise)
				b.do(t, "pause", chromedp.KeyEvent(" "))
				t.Logf("set to %g turns/s: drew %.2f turns/s", rate, got)
				if math.Abs(got-rate) > rate/10 {
					t.Errorf("set to %g turns/s: drew %.1f turns/s, want within 10%%", rate, got)
				}
			})
		}
		b.checkQuiet(t)
	})
}

// TestBrowserResponseTimes: the inspector's Commands table shows the
// seat's answer time, and the match page's collapsed Response time chart
// draws when opened, the turn limit with it.
func TestBrowserResponseTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixture(t)
	b := newBrowserSession(t)
	id := recordExternal(t, f.db, 6)
	b.do(t, "open inspector", chromedp.Navigate(srv.URL+turnURL(id, 3)), chromedp.WaitVisible(chromedp.CSS("#board svg")))
	if got := eval[string](t, b, `document.querySelector('#commands tbody tr td:last-child').textContent`); !strings.HasSuffix(got, " ms") {
		t.Errorf("Commands table's time: got %q, want milliseconds", got)
	}
	b.do(t, "open match", chromedp.Navigate(srv.URL+matchURL(id)), chromedp.WaitReady(chromedp.CSS("footer")))
	b.do(t, "open the Response time chart", chromedp.Click(chromedp.CSS("#chart-response-time-box summary")),
		chromedp.WaitVisible(chromedp.CSS("#chart-response-time[data-drawn] canvas")))
	limit := eval[float64](t, b, `echarts.getInstanceByDom(document.getElementById('chart-response-time')).getOption().series[0].markLine.data[0].yAxis`)
	if limit != 5000 {
		t.Errorf("the chart's turn limit line: got %v ms, want 5000", limit)
	}
	b.checkQuiet(t)
}
