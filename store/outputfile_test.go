package store

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestBotOutputFileRoundTrip(t *testing.T) {
	want := []BotOutput{
		{Turn: 0, Seat: 1, Stream: Stderr, Text: "starting\n"},
		{Turn: 3, Seat: 0, Stream: Stdout, Text: "debug \"quoted\" \u2028 line\n"},
		{Seat: 1, Stream: Times, Times: []time.Duration{1500 * time.Microsecond, 0, 2 * time.Second}, Limit: time.Second},
		{Seat: 0, Stream: Times, Times: []time.Duration{time.Millisecond}},
		{Turn: 2, Seat: 1, Stream: Debug, Text: `[{"mark":[1,2]},{"text":"a \u003c b","at":[0,0.5],"color":"red"}]`},
	}
	var buf bytes.Buffer
	if err := WriteBotOutput(&buf, want); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != len(want) {
		t.Errorf("got %d lines, want one per piece:\n%s", n, buf.String())
	}
	if !strings.Contains(buf.String(), `{"turn":2,"seat":1,"stream":"debug","shapes":[{"mark":[1,2]},`) {
		t.Errorf("got no debug line with its shapes as JSON:\n%s", buf.String())
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
		{"text over the bound", `{"turn":3,"seat":1,"stream":"stderr","text":"` + strings.Repeat("x", MaxBotOutput+1) + `"}` + "\n", "line 1: turn 3, Seat 2"},
		{"a key twice", `{"turn":1,"seat":0,"stream":"stdout","text":"a"}` + "\n" + `{"turn":1,"seat":0,"stream":"stderr","text":"a"}` + "\n" +
			`{"turn":1,"seat":0,"stream":"stdout","text":"b"}` + "\n", "line 3: turn 1, Seat 1: stdout again"},
		{"a negative time", `{"seat":1,"stream":"times","times_us":[5,-1]}` + "\n", "line 1: Seat 2's answer time at turn 2 is -1 µs"},
		{"times in output", `{"turn":1,"seat":0,"stream":"stdout","text":"a","times_us":[5]}` + "\n", "line 1: times_us or limit_us in a stdout line"},
		{"debug without shapes", `{"turn":1,"seat":0,"stream":"debug","text":"[]"}` + "\n", "line 1: a debug line wants shapes"},
		{"shapes in output", `{"turn":1,"seat":0,"stream":"stdout","text":"a","shapes":[]}` + "\n", "line 1: shapes in a stdout line"},
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
	// Lines of pieces each within their bound, for turn after turn.
	text := strings.Repeat("x", MaxBotOutput-100)
	var file strings.Builder
	for turn := 0; file.Len() <= MaxBotOutputFile; turn++ {
		fmt.Fprintf(&file, `{"turn":%d,"seat":0,"stream":"stdout","text":"%s"}`+"\n", turn, text)
	}
	if _, err := ReadBotOutput(strings.NewReader(file.String())); err == nil || !strings.Contains(err.Error(), "over 64 MiB") {
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
