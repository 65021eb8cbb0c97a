package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

func TestFramesRoundTrip(t *testing.T) {
	many := make([]json.RawMessage, FrameChunkTurns)
	for i := range many {
		many[i] = fmt.Appendf(nil, `{"turn":%d,"board":["..#","#..",".#."],"note":"a, [b] {c}"}`, i)
	}
	tests := []struct {
		name   string
		frames []json.RawMessage
	}{
		{"one frame", []json.RawMessage{json.RawMessage(`{"turn":0}`)}},
		{"a full chunk", many},
		{"any JSON value", []json.RawMessage{json.RawMessage(`null`), json.RawMessage(`[1,2]`), json.RawMessage(`"s"`), json.RawMessage(` 7 `)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := EncodeFrames(tt.frames)
			if err != nil {
				t.Fatalf("EncodeFrames: %v", err)
			}
			got, err := DecodeFrames(data)
			if err != nil {
				t.Fatalf("DecodeFrames: %v", err)
			}
			if len(got) != len(tt.frames) {
				t.Fatalf("DecodeFrames: got %d frames, want %d", len(got), len(tt.frames))
			}
			for i := range got {
				var g, w any
				json.Unmarshal(got[i], &g)
				json.Unmarshal(tt.frames[i], &w)
				if !reflect.DeepEqual(g, w) {
					t.Errorf("frame %d: got %s, want %s", i, got[i], tt.frames[i])
				}
			}
		})
	}
}

func TestEncodeFramesRejects(t *testing.T) {
	tests := []struct {
		name   string
		frames []json.RawMessage
	}{
		{"no frames", nil},
		{"empty frame", []json.RawMessage{json.RawMessage(`{}`), nil}},
		{"broken frame", []json.RawMessage{json.RawMessage(`{"turn":`)}},
		{"two values in one frame", []json.RawMessage{json.RawMessage(`1 2`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := EncodeFrames(tt.frames); err == nil {
				t.Errorf("EncodeFrames(%q): got nil error, want one", tt.frames)
			}
		})
	}
}

func TestDecodeFramesRejects(t *testing.T) {
	notArray, err := frameEncoderForTest([]byte(`{"turn":1}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"not zstd", []byte("[{}]")},
		{"not an array", notArray},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := DecodeFrames(tt.data); err == nil {
				t.Errorf("DecodeFrames(%q): got nil error, want one", tt.data)
			}
		})
	}
}

// frameEncoderForTest compresses raw bytes the way EncodeFrames does, to
// build chunks EncodeFrames itself would never produce.
func frameEncoderForTest(raw []byte) ([]byte, error) {
	enc, err := frameEncoder()
	if err != nil {
		return nil, err
	}
	return enc.EncodeAll(raw, nil), nil
}
