package replaylab_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink matches a Markdown link or image whose target is a file of the
// repository, with or without an anchor: [text](docs/cli.md#seats).
var mdLink = regexp.MustCompile(`\]\(([^()\s#:]*)(#[\w\-]*)?\)`)

// mdHeading matches a heading outside code blocks.
var mdHeading = regexp.MustCompile(`^#{1,6} (.+)$`)

// TestDocLinks checks that every link of the README and docs/ to a file of
// the repository names one that exists, and that its anchor names one of
// that file's headings, so moving text between the files cannot leave a
// dead link behind.
func TestDocLinks(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{"README.md"}, docs...)
	anchors := map[string]map[string]bool{}
	for _, f := range files {
		anchors[filepath.Clean(f)] = headingAnchors(t, f)
	}
	links := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			target, anchor := m[1], strings.TrimPrefix(m[2], "#")
			path := filepath.Clean(f)
			if target != "" {
				path = filepath.Join(filepath.Dir(f), target)
			}
			links++
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %q: %v", f, m[0], err)
				continue
			}
			if anchor == "" {
				continue
			}
			heads, ok := anchors[path]
			if !ok {
				t.Errorf("%s: link %q: anchor into %s, which is not one of the documentation's files", f, m[0], path)
			} else if !heads[anchor] {
				t.Errorf("%s: link %q: %s has no heading #%s", f, m[0], path, anchor)
			}
		}
	}
	if links == 0 {
		t.Fatal("no links found: the pattern no longer matches the files")
	}
}

// headingAnchors returns the anchors GitHub gives a file's headings:
// lower case, punctuation dropped, spaces as hyphens.
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	fence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		m := mdHeading.FindStringSubmatch(line)
		if fence || m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(m[1])) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}
