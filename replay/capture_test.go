package replay

import (
	"fmt"
	"strings"
	"testing"
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
