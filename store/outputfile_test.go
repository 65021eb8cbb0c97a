package store

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestBotOutputFileRoundTrip(t *testing.T) {
	want := []BotOutput{
		{Turn: 0, Seat: 1, Stream: Stderr, Text: "starting\n"},
		{Turn: 3, Seat: 0, Stream: Stdout, Text: "debug \"quoted\" \u2028 line\n"},
	}
	var buf bytes.Buffer
	if err := WriteBotOutput(&buf, want); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != len(want) {
		t.Errorf("got %d lines, want one per piece:\n%s", n, buf.String())
	}
	got, err := ReadBotOutput(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestReadBotOutputRefuses(t *testing.T) {
	for _, tt := range []struct {
		name, file, want string
	}{
		{"not JSON", `{"turn":1,"seat":0,"stream":"stdout","text":"a"}` + "\nhello\n", "line 2"},
		{"wrong type", `{"turn":"one"}` + "\n", "line 1"},
		{"line over the bound", `{"text":"` + strings.Repeat("x", 8*MaxBotOutput) + `"}` + "\n", "token too long"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadBotOutput(strings.NewReader(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestReadBotOutputBoundsTheFile(t *testing.T) {
	line := `{"turn":1,"seat":0,"stream":"stdout","text":"` + strings.Repeat("x", 200<<10) + `"}` + "\n"
	file := strings.Repeat(line, MaxBotOutputFile/len(line)+1)
	if _, err := ReadBotOutput(strings.NewReader(file)); err == nil || !strings.Contains(err.Error(), "over 64 MiB") {
		t.Errorf("got error %v, want the file refused as over 64 MiB", err)
	}
}

func FuzzReadBotOutput(f *testing.F) {
	f.Add([]byte(`{"turn":1,"seat":0,"stream":"stdout","text":"a"}` + "\n"))
	f.Add([]byte("{}\n{\"text\":\"\\u2028\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := ReadBotOutput(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteBotOutput(&buf, out); err != nil {
			t.Fatal(err)
		}
		again, err := ReadBotOutput(&buf)
		if err != nil || len(again) != len(out) {
			t.Fatalf("rewritten output reads as %d pieces (%v), want %d", len(again), err, len(out))
		}
	})
}
