package replay

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCaptureCaps(t *testing.T) {
	var c capture
	chunk := strings.Repeat("e", 5000)
	kept := 0
	for turn := 1; turn <= 100; turn++ {
		for range 4 {
			c.write(chunk, 7)
		}
		got := c.take()
		text, note, _ := strings.Cut(got, "[")
		text = strings.TrimSuffix(text, "\n")
		keep := min(maxTurnOutput, maxMatchOutput-kept)
		if len(text) != keep || strings.Trim(text, "e") != "" {
			t.Fatalf("turn %d: got %d bytes of text, want %d", turn, len(text), keep)
		}
		kept += keep
		if want := fmt.Sprintf("%d bytes truncated]\n", 4*(5000+7)-keep); note != want {
			t.Fatalf("turn %d: got note %q, want %q", turn, note, want)
		}
	}
	if kept != maxMatchOutput {
		t.Errorf("got %d bytes kept over the match, want %d", kept, maxMatchOutput)
	}
}

func TestCaptureWriteLine(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"fits", []string{"a\n", "b\n"}, "a\nb\n"},
		{"drops a line whole", []string{strings.Repeat("a", maxTurnOutput-3) + "\n", "bb\n", "c\n"},
			strings.Repeat("a", maxTurnOutput-3) + "\nc\n[3 bytes truncated]\n"},
		{"cuts a first long line", []string{strings.Repeat("a", maxTurnOutput+9) + "\n"},
			strings.Repeat("a", maxTurnOutput) + "\n[10 bytes truncated]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c capture
			for _, l := range tt.lines {
				c.writeLine(l, 0)
			}
			if got := c.take(); got != tt.want {
				t.Errorf("got %.60q (%d bytes), want %.60q (%d bytes)", got, len(got), tt.want, len(tt.want))
			}
		})
	}
}

// TestCaptureTakeBound: however much was dropped, a take fits
// MaxOutputBytes, the bound the store holds bot output to.
func TestCaptureTakeBound(t *testing.T) {
	c := capture{text: []byte(strings.Repeat("x", maxTurnOutput)), dropped: math.MaxInt}
	if got := c.take(); len(got) > MaxOutputBytes {
		t.Errorf("got %d bytes, want at most %d", len(got), MaxOutputBytes)
	}
}

func TestCaptureTakeLast(t *testing.T) {
	long := strings.Repeat("a", maxTurnOutput-4) + "\n"
	tests := []struct {
		name   string
		last   []string // written before the last take
		pass   bool     // the turn after the take had no output
		more   []string // written since
		byLine bool
		want   string
	}{
		{"joins", []string{"a\n"}, false, []string{"b\n", "c\n"}, true, "a\nb\nc\n"},
		{"nothing since", []string{"a\n"}, false, nil, true, "a\n"},
		{"only since", nil, false, []string{"b\n"}, true, "b\n"},
		{"keeps lines whole", []string{long}, false, []string{"bbbb\n", "c\n"}, true, long + "c\n[5 bytes truncated]\n"},
		{"cuts a stream", []string{long}, false, []string{"bbbb\n"}, false, long + "bbb\n[2 bytes truncated]\n"},
		{"counts both drops", []string{long, "bbbb\n"}, false, []string{"cccc\n"}, true, long + "[10 bytes truncated]\n"},
		{"after a pass", []string{"a\n"}, true, []string{"b\n"}, true, "b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c capture
			for _, s := range tt.last {
				c.writeLine(s, 0)
			}
			c.take()
			if tt.pass {
				c.pass()
			}
			for _, s := range tt.more {
				c.writeLine(s, 0)
			}
			if got := c.takeLast(tt.byLine); got != tt.want {
				t.Errorf("got %.60q (%d bytes), want %.60q (%d bytes)", got, len(got), tt.want, len(tt.want))
			}
		})
	}
}

// TestGotStderrUTF8: standard error is kept as UTF-8, a sequence split
// between two reads whole, bytes that are not UTF-8 as U+FFFD.
func TestGotStderrUTF8(t *testing.T) {
	var p Process
	for _, b := range []string{"a\xe2\x82", "\xacb\xff", "c\xe2"} {
		p.gotStderr([]byte(b), false)
	}
	p.gotStderr(nil, true)
	if got, want := p.errOut.take(), "a€b\uFFFDc\uFFFD"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCaptureCutsAtARune(t *testing.T) {
	var c capture
	c.write(strings.Repeat("€", maxTurnOutput), 0)
	got := c.take()
	text, _, _ := strings.Cut(got, "\n[")
	if !utf8.ValidString(got) || len(text) != maxTurnOutput/3*3 {
		t.Errorf("got %d bytes of text, valid UTF-8 %v; want %d, valid", len(text), utf8.ValidString(got), maxTurnOutput/3*3)
	}
}

func TestCutUTF8(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 2, "ab"},
		{"a€b", 2, "a"},
		{"a€b", 4, "a€"},
		{"€", 0, ""},
	}
	for _, tt := range tests {
		if got := cutUTF8(tt.s, tt.n); got != tt.want {
			t.Errorf("cutUTF8(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
