package web

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/replaylab/replaylab/store"
)

// newLiveFixtureWith is newLiveFixture with the server's Config adjusted
// by configure.
func newLiveFixtureWith(t *testing.T, configure func(*Config)) (*fixture, *httptest.Server) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	f := newFixture(t, func(c *Config) {
		c.Addr = srv.Listener.Addr().String()
		configure(c)
	})
	srv.Config.Handler = f.e
	srv.Start()
	t.Cleanup(srv.Close)
	return f, srv
}

// droppedFile is a file dropped on a page: its name and content.
type droppedFile struct {
	name    string
	content []byte
}

// dropFiles drops files on the open page, as a person dragging them from
// their desktop does, and waits for the drop panel's answer: its state
// and text.
func dropFiles(t *testing.T, b *browserSession, files ...droppedFile) (state, text string) {
	t.Helper()
	var adds strings.Builder
	for _, f := range files {
		fmt.Fprintf(&adds, "dt.items.add(new File([Uint8Array.from(atob(%q), c => c.charCodeAt(0))], %q));\n", base64.StdEncoding.EncodeToString(f.content), f.name)
	}
	eval[bool](t, b, `(() => {
		const dt = new DataTransfer();
		`+adds.String()+`
		for (const type of ['dragenter', 'dragover', 'drop']) {
			document.body.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));
		}
		return true; })()`)
	b.do(t, "wait for the answer", chromedp.Poll[chromedp.Void](`(() => {
		const p = document.getElementById('drop-panel');
		return p && p.dataset.state !== 'uploading'; })()`))
	got := eval[[]string](t, b, `(() => { const p = document.getElementById('drop-panel');
		return [p.dataset.state, p.innerText]; })()`)
	return got[0], got[1]
}

// TestBrowserDropUpload drops replay files on pages of the dashboard: a
// new replay is stored and linked, the same one again is said to be
// stored already, and a refused one shows the server's reason.
func TestBrowserDropUpload(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are slow; not in -short")
	}
	f, srv := newLiveFixtureWith(t, func(c *Config) { c.MaxUpload = 64 << 10 })
	enc, _ := f.encodeFresh(t)
	b := newBrowserSession(t)

	tests := []struct {
		name, page, file string
		content          []byte
		state            string
		want             []string
		link             string // the panel's link, if any
	}{
		{"new replay", "/bots", "fresh.rpl", enc.Bytes, "stored", []string{"fresh.rpl is stored as match " + shortID(enc.ID)}, matchURL(enc.ID)},
		{"same again", "/matches", "again.rpl", enc.Bytes, "duplicate", []string{"again.rpl is already stored: match " + shortID(enc.ID)}, matchURL(enc.ID)},
		{"not a replay", "/", "notes.txt", []byte("hello"), "error", []string{"notes.txt was not stored: neither a binary replay"}, ""},
		{"too large", matchURL(f.won), "big.rpl", bytes.Repeat([]byte("x"), 70<<10), "error", []string{"replays are limited to 64 KiB"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b.do(t, "open", chromedp.Navigate(srv.URL+tt.page), chromedp.WaitReady(chromedp.CSS("footer")))
			state, text := dropFiles(t, b, droppedFile{tt.file, tt.content})
			if state != tt.state {
				t.Errorf("got state %q, want %q (panel: %q)", state, tt.state, text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("got panel %q, want it to contain %q", text, w)
				}
			}
			link := eval[string](t, b, `(() => { const a = document.querySelector('#drop-panel a'); return a ? a.getAttribute('href') : ''; })()`)
			if link != tt.link {
				t.Errorf("got link %q, want %q", link, tt.link)
			}
			if eval[bool](t, b, `!!document.querySelector('.drop-overlay:not([hidden])')`) {
				t.Error("the drop veil is still shown after the drop")
			}
			if tt.state == "error" {
				b.takeErrors() // the browser logs the refusal's status
			}
			b.checkQuiet(t)
		})
	}
	if _, err := f.db.Match(t.Context(), enc.ID); err != nil {
		t.Errorf("the dropped replay is not stored: %v", err)
	}

	t.Run("asks for the token", func(t *testing.T) {
		const token = "drop-token"
		f, srv := newLiveFixtureWith(t, func(c *Config) { c.UploadToken = token })
		b.do(t, "open", chromedp.Navigate(srv.URL+"/bots"), chromedp.WaitReady(chromedp.CSS("footer")))
		state, text := dropFiles(t, b, droppedFile{"fresh.rpl", enc.Bytes})
		if state != "token" {
			t.Fatalf("got state %q, want token (panel: %q)", state, text)
		}
		b.takeErrors() // the browser logs the 401
		b.do(t, "give the token", chromedp.SendKeys(chromedp.CSS(`#drop-panel input[name=token]`), token),
			chromedp.Click(chromedp.CSS(`#drop-panel button[type=submit]`)),
			chromedp.Poll[chromedp.Void](`document.getElementById('drop-panel').dataset.state === 'stored'`))
		if _, err := f.db.Match(t.Context(), enc.ID); err != nil {
			t.Errorf("the dropped replay is not stored after the token: %v", err)
		}
		b.checkQuiet(t)
	})

	t.Run("with its bot output", func(t *testing.T) {
		f, srv := newLiveFixtureWith(t, func(*Config) {})
		enc, _ := f.encodeFresh(t)
		var output bytes.Buffer
		want := []store.BotOutput{{Turn: 2, Seat: 0, Stream: store.Stdout, Text: "planning\n"}}
		if err := store.WriteBotOutput(&output, want); err != nil {
			t.Fatal(err)
		}
		b.do(t, "open", chromedp.Navigate(srv.URL+"/"), chromedp.WaitReady(chromedp.CSS("footer")))
		state, text := dropFiles(t, b, droppedFile{"m.rpl.output.jsonl", output.Bytes()}, droppedFile{"m.rpl", enc.Bytes})
		if state != "stored" || !strings.Contains(text, "m.rpl is stored as match") {
			t.Fatalf("got state %q, panel %q, want m.rpl stored", state, text)
		}
		got, err := f.db.BotOutputAt(t.Context(), enc.ID, 2)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("turn 2 output: got %+v (%v), want %+v", got, err, want)
		}
		state, text = dropFiles(t, b, droppedFile{"a.rpl", enc.Bytes}, droppedFile{"b.rpl", enc.Bytes})
		if state != "error" || !strings.Contains(text, "Drop one replay file at a time") {
			t.Errorf("two replays: got state %q, panel %q, want them refused", state, text)
		}
		b.checkQuiet(t)
	})

	t.Run("bot output of a stored match", func(t *testing.T) {
		f, srv := newLiveFixtureWith(t, func(*Config) {})
		stored, err := f.db.Replay(t.Context(), f.won)
		if err != nil {
			t.Fatal(err)
		}
		var output bytes.Buffer
		if err := store.WriteBotOutput(&output, []store.BotOutput{{Turn: 1, Seat: 0, Stream: store.Stderr, Text: "late\n"}}); err != nil {
			t.Fatal(err)
		}
		b.do(t, "open", chromedp.Navigate(srv.URL+"/"), chromedp.WaitReady(chromedp.CSS("footer")))
		for _, want := range []string{"now attached", "which was not changed"} {
			state, text := dropFiles(t, b, droppedFile{"w.rpl", stored}, droppedFile{"w.rpl.output.jsonl", output.Bytes()})
			if state != "duplicate" || !strings.Contains(text, want) {
				t.Errorf("got state %q, panel %q, want duplicate saying %q", state, text, want)
			}
		}
		b.checkQuiet(t)
	})
}
