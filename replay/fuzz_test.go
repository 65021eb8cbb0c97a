package replay_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/replaylab/replaylab/replay"
)

// The seed corpora live in testdata/fuzz/Fuzz*/ (valid text and binary
// replays plus damaged ones); f.Add adds the current encodings too so the
// fuzzers start from the live format.

func FuzzDecodeText(f *testing.F) {
	text, err := toadLog(f).EncodeText()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(text)
	f.Add([]byte(`{"format":"replaylab/1","game":"toad","revision":1,"seed":1,"players":[{"name":"a"}]}` + "\n"))
	// A config in no canonical form, to mutate into the spellings that
	// must read as one match or be refused.
	f.Add([]byte(configHeader(` { "t\u0075rns" : 3 , "rolls" : null , "start_hp" : 5 } `) + "\n1\tA\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := replay.DecodeText(bytes.NewReader(data))
		if err != nil {
			return
		}
		checkStable(t, l)
	})
}

// FuzzDecodeBinary decodes the input as it is and, when it is a version 2
// replay, again with its checksum recomputed: most mutations only break the
// checksum, and the body decoder behind it must hold too.
func FuzzDecodeBinary(f *testing.F) {
	enc, err := toadLog(f).Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc.Bytes)
	f.Add(v1Binary(configHeader(`{"rolls":[-0,1],"st\u0061rt_hp":5}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		if l, err := replay.DecodeBinary(data); err == nil {
			checkStable(t, l)
			checkReadID(t, data, l)
		}
		if len(data) >= 9 && bytes.HasPrefix(data, []byte("RPL\x02")) {
			resealed := withChecksum(bytes.Clone(data[:len(data)-4]))
			if l, err := replay.DecodeBinary(resealed); err == nil {
				checkStable(t, l)
				checkReadID(t, resealed, l)
			}
		}
	})
}

// checkReadID asserts that the id ReadID takes from decoding data (which
// hashes canonical content as read) is the id of the log data decodes to,
// however data spells its content.
func checkReadID(t *testing.T, data []byte, l *replay.Log) {
	t.Helper()
	want, err := l.ID()
	if err != nil {
		return // a log that does not check has no id to compare
	}
	_, got, err := replay.ReadID(bytes.NewReader(data))
	if err != nil || got != want {
		t.Fatalf("ReadID gave %q (%v), the decoded log's id is %q", got, err, want)
	}
}

// checkStable asserts decode → encode → decode gives the same log in both
// encodings and that regeneration never panics.
func checkStable(t *testing.T, l *replay.Log) {
	t.Helper()
	text, err := l.EncodeText()
	if err != nil {
		t.Fatalf("a decoded log does not encode as text: %v", err)
	}
	enc, err := l.Encode()
	if err != nil {
		t.Fatalf("a decoded log does not encode as binary: %v", err)
	}
	l2, err := replay.DecodeText(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("re-decode text: %v\n%q", err, text)
	}
	l3, err := replay.DecodeBinary(enc.Bytes)
	if err != nil {
		t.Fatalf("re-decode binary: %v", err)
	}
	if !reflect.DeepEqual(l, l2) || !reflect.DeepEqual(l, l3) {
		t.Fatalf("unstable round trip:\n%+v\n%+v\n%+v", l, l2, l3)
	}
	enc2, _ := l3.Encode()
	if enc2.ID != enc.ID {
		t.Fatalf("id changed across a round trip: %s vs %s", enc.ID, enc2.ID)
	}
	replay.Run(context.Background(), l, nil) // may fail, must not panic
}
