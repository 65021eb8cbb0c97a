package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/internal/golden"
)

// docPaths are the README and the reference files under docs/, whose
// generated blocks TestREADMEGenerated keeps equal to what the commands
// print.
func docPaths(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join("..", "..", "README.md")}, docs...)
}

// generatedBlock matches a block of the documentation that a command
// wrote:
//
//	<!-- generated: ./replaylab view --game toad --turn 5 | head -n 20 -->
//	...the command's output...
//	<!-- end generated -->
var generatedBlock = regexp.MustCompile(`(?s)(<!-- generated: (.*?) -->\n)(.*?)(<!-- end generated -->)`)

// TestREADMEGenerated runs the command of every generated block of the
// README and docs/ (the sample views and field tables of "What your bot
// sees", docs/bots.md) and fails where a file shows something else, so
// the documentation cannot drift from the code. With -update it rewrites
// the blocks instead: add a block by writing its two marker lines and
// running
//
//	go test ./cmd/replaylab -run TestREADMEGenerated -update
func TestREADMEGenerated(t *testing.T) {
	found := 0
	for _, path := range docPaths(t) {
		found += checkGenerated(t, path)
	}
	if found == 0 {
		t.Fatal("the README and docs/ have no generated blocks")
	}
}

// checkGenerated checks (or, with -update, rewrites) the generated blocks
// of one file and returns how many it has.
func checkGenerated(t *testing.T, path string) int {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	blocks := generatedBlock.FindAllSubmatchIndex(doc, -1)
	var out bytes.Buffer
	last := 0
	for _, b := range blocks {
		command := string(doc[b[4]:b[5]])
		got, err := generate(t, command)
		if err != nil {
			t.Errorf("%s block %q: %v", name, command, err)
			got = string(doc[b[6]:b[7]])
		}
		if want := string(doc[b[6]:b[7]]); got != want && !*golden.Update {
			t.Errorf("%s block %q is not what the command prints now (go test ./cmd/replaylab -run TestREADMEGenerated -update rewrites it):\n%s", name, command, golden.FirstDiff([]byte(got), []byte(want)))
		}
		out.Write(doc[last:b[6]])
		out.WriteString(got)
		last = b[7]
	}
	out.Write(doc[last:])
	if *golden.Update && !bytes.Equal(out.Bytes(), doc) {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return len(blocks)
}

// generate runs a block's command line, "./replaylab ARGS [| head -n N]"
// with ARGS split as a shell splits them (single quotes only), and returns
// the block: Markdown from --fields as it is, anything else as a console
// session showing the command.
func generate(t *testing.T, command string) (string, error) {
	line, head, piped := strings.Cut(command, " | ")
	words, err := shellWords(line)
	if err != nil {
		return "", err
	}
	if len(words) < 2 || words[0] != "./replaylab" {
		return "", errors.New("want ./replaylab and its arguments")
	}
	code, stdout, stderr := cli(t, words[1:]...)
	if code != 0 {
		return "", fmt.Errorf("exit %d: %s", code, stderr)
	}
	if piped {
		n, ok := strings.CutPrefix(head, "head -n ")
		lines, err := strconv.Atoi(n)
		if !ok || err != nil || lines < 1 {
			return "", fmt.Errorf("pipe %q: only head -n N is understood", head)
		}
		stdout = strings.Join(strings.SplitAfter(stdout, "\n")[:min(lines, strings.Count(stdout, "\n"))], "")
	}
	for _, w := range words {
		if w == "--fields" {
			return stdout, nil
		}
	}
	return "```console\n$ " + command + "\n" + stdout + "```\n", nil
}

// shellWords splits a command line at spaces, except inside single quotes.
func shellWords(s string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, word.String())
				word.Reset()
			}
			inWord = false
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unbalanced quote in %q", s)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// TestShellWords covers the quoting TestREADMEGenerated understands.
func TestShellWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"./replaylab view --game toad", []string{"./replaylab", "view", "--game", "toad"}},
		{`--config '{"board": "tiny"}'  --turn 3`, []string{"--config", `{"board": "tiny"}`, "--turn", "3"}},
		{"''", []string{""}},
	}
	for _, tt := range tests {
		got, err := shellWords(tt.in)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tt.want) || len(got) != len(tt.want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := shellWords("--config '{"); err == nil {
		t.Error("shellWords accepted an unbalanced quote")
	}
}
