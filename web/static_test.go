package web

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPagesVersionStaticURLs checks that every page names its scripts,
// style sheet and icon with this build's static version, and that each
// such URL answers and may be cached for good.
func TestPagesVersionStaticURLs(t *testing.T) {
	f := newFixture(t, nil)
	staticRef := regexp.MustCompile(`(?:src|href)="(/static/[^"]*)"`)
	for _, page := range []string{"/", "/matches", "/matches/" + f.won, "/matches/" + f.won + "/turns/3", "/bots", "/bots/toad/astar"} {
		code, body := serveGet(t, f.e, page)
		if code != 200 {
			t.Fatalf("%s: got status %d", page, code)
		}
		refs := staticRef.FindAllStringSubmatch(string(body), -1)
		if len(refs) < 3 {
			t.Errorf("%s: got %d static URLs, want the style sheet, the icon and scripts", page, len(refs))
		}
		for _, ref := range refs {
			url := strings.ReplaceAll(ref[1], "&amp;", "&")
			if !strings.HasSuffix(url, "?v="+staticVersion()) {
				t.Errorf("%s: got static URL %q, want it to end in ?v=%s", page, url, staticVersion())
				continue
			}
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodGet, url, nil)
			req.Host = testAddr
			f.e.ServeHTTP(rec, req)
			if rec.Code != 200 || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
				t.Errorf("%s: GET %s: got status %d, Cache-Control %q, want 200 and immutable", page, url, rec.Code, rec.Header().Get("Cache-Control"))
			}
		}
	}
}

func TestDigestFilesFollowsContent(t *testing.T) {
	a := fstest.MapFS{"static/a.css": {Data: []byte("body{}")}, "static/js/b.js": {Data: []byte("x")}}
	same := fstest.MapFS{"static/a.css": {Data: []byte("body{}")}, "static/js/b.js": {Data: []byte("x")}}
	edited := fstest.MapFS{"static/a.css": {Data: []byte("body{ }")}, "static/js/b.js": {Data: []byte("x")}}
	moved := fstest.MapFS{"static/a.css": {Data: []byte("body{}")}, "static/js/c.js": {Data: []byte("x")}}
	got := digestFiles(a, "static")
	if len(got) != 16 || digestFiles(same, "static") != got {
		t.Errorf("got digests %q and %q of the same files, want one 16-digit digest", got, digestFiles(same, "static"))
	}
	for name, fsys := range map[string]fstest.MapFS{"edited": edited, "moved": moved} {
		if digestFiles(fsys, "static") == got {
			t.Errorf("%s files: got the same digest %q, want another", name, got)
		}
	}
}
