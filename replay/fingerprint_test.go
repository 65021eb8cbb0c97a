package replay_test

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
)

// TestFingerprint: a fingerprint changes with the program's file, with a
// file named on the command line (an interpreter's script) and with the
// command line itself, and with nothing else.
func TestFingerprint(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("bot.sh", "#!/bin/sh\necho G\n")
	write("bot.py", "print('G')\n")
	write("other.py", "print('G')\n")
	os.Mkdir(filepath.Join(dir, "lib"), 0o755)
	fp := func(cmd string) string {
		t.Helper()
		got, err := replay.Fingerprint(strings.Fields(cmd))
		if err != nil {
			t.Fatalf("Fingerprint(%q): %v", cmd, err)
		}
		if len(got) != 64 || strings.Trim(got, "0123456789abcdef") != "" {
			t.Fatalf("Fingerprint(%q) = %q, want 64 lower-case hex digits", cmd, got)
		}
		return got
	}
	tests := []struct {
		name        string
		before      string // the command line fingerprinted first
		edit        func() // then this is done
		after       string // and this one is fingerprinted: "" = before
		wantChanged bool
	}{
		{"program unchanged", "./bot.sh", func() {}, "", false},
		{"program edited", "./bot.sh", func() { write("bot.sh", "#!/bin/sh\necho A\n") }, "", true},
		{"script of an interpreter edited", "sh bot.py --fast", func() { write("bot.py", "print('A')\n") }, "", true},
		{"another argument", "sh bot.py --fast", func() {}, "sh bot.py --slow", true},
		{"another script of the same content", "sh bot.py", func() { write("other.py", "print('A')\n") }, "sh other.py", true},
		{"a directory argument is not read", "sh lib", func() { write("lib/x.py", "x = 1\n") }, "", false},
		{"a file not named is not read", "./bot.sh", func() { write("unnamed.py", "x = 1\n") }, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fp(tt.before)
			tt.edit()
			after := fp(cmp.Or(tt.after, tt.before))
			if changed := after != before; changed != tt.wantChanged {
				t.Errorf("fingerprint %s, then %s: changed %v, want %v", before, after, changed, tt.wantChanged)
			}
		})
	}
	if _, err := replay.Fingerprint([]string{"./missing-bot"}); err == nil {
		t.Error("fingerprint of a missing program: got no error")
	}
}

// TestFingerprintInHeader: a fingerprint round-trips through both
// encodings and is part of the match id; a player without one is written
// without the field, so replays from before fingerprints keep their bytes
// and ids; the header refuses one with a control character.
func TestFingerprintInHeader(t *testing.T) {
	l := toadLog(t)
	text, err := l.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(firstLine(text), []byte("fingerprint")) {
		t.Errorf("a header without fingerprints writes the field: %s", firstLine(text))
	}
	id, _ := l.ID()
	l.Header.Players[0].Fingerprint = "0123456789abcdef"
	enc, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if enc.ID == id {
		t.Error("a fingerprint kept the match id")
	}
	text, err = l.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(firstLine(text), []byte(`"fingerprint":"0123456789abcdef"`)) {
		t.Errorf("header %s lacks the fingerprint", firstLine(text))
	}
	for name, data := range map[string][]byte{"text": text, "binary": enc.Bytes} {
		got, err := replay.Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got.Header.Players, l.Header.Players) {
			t.Errorf("%s: players %+v, want %+v", name, got.Header.Players, l.Header.Players)
		}
	}
	bad := strings.Replace(string(text), "0123456789abcdef", `01\u0007`, 1)
	if _, err := replay.DecodeText(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "players[0] (Seat 1) fingerprint: control character") {
		t.Errorf("fingerprint with a bell: got %v, want a control character error", err)
	}
}
