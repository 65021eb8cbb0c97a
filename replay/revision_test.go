package replay_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/internal/revtest"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/games"
	"github.com/replaylab/replaylab/sim/toad"
)

// TestHeaderRevision decodes headers naming each kind of revision while
// this build plays toad/classic at revision 2: 0, 1 and an absent field
// are revision 1 in one canonical form, a newer revision is ErrNewer, and
// anything that is not a revision is refused.
func TestHeaderRevision(t *testing.T) {
	revtest.Bump(t, toad.Game, "classic", 2, -1)
	const head, tail = `{"format":"replaylab/1","game":"toad",`, `"seed":1,"players":[{"name":"a"}]}` + "\n"
	tests := []struct {
		name, field string
		want        int    // the decoded Revision
		wantErr     string // "" = decodes
		newer       bool   // the error is an ErrNewer
	}{
		{"absent", ``, 0, "", false},
		{"zero", `"revision":0,`, 0, "", false},
		{"one", `"revision":1,`, 0, "", false},
		{"current", `"revision":2,`, 2, "", false},
		{"newer", `"revision":3,`, 0, "header: recorded with a newer engine revision of toad/classic (r3; this build plays r2)", true},
		{"huge", `"revision":9223372036854775807,`, 0, "recorded with a newer engine revision of toad/classic (r9223372036854775807; this build plays r2)", true},
		{"negative", `"revision":-1,`, 0, "header: revision -1: revisions count from 1", false},
		{"past int64", `"revision":1e30,`, 0, `field "revision": want an integer`, false},
		{"fraction", `"revision":1.5,`, 0, `field "revision": want an integer`, false},
		{"string", `"revision":"2",`, 0, `field "revision": want an integer`, false},
		{"null", `"revision":null,`, 0, `field "revision" is null`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := replay.DecodeText(strings.NewReader(head + tt.field + tail))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tt.wantErr)
				}
				if got := errors.Is(err, replay.ErrNewer); got != tt.newer {
					t.Errorf("errors.Is(err, ErrNewer) = %v, want %v", got, tt.newer)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if l.Header.Revision != tt.want {
				t.Errorf("got Revision %d, want %d", l.Header.Revision, tt.want)
			}
			if got, want := l.Header.RulesRevision(), max(tt.want, 1); got != want {
				t.Errorf("got RulesRevision %d, want %d", got, want)
			}
		})
	}
}

// TestRevisionOneKeepsID: a revision-1 header written with its revision
// has the id and the bytes of one written without, so every replay
// recorded before revisions existed keeps its id.
func TestRevisionOneKeepsID(t *testing.T) {
	l := toadLog(t)
	want, err := l.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	l.Header.Revision = 1
	got, err := l.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("revision 1 encodes as\n%s\nwant\n%s", firstLine(got), firstLine(want))
	}
}

func firstLine(b []byte) []byte {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return line
}

// TestNewHeaderRecordsRevision: a recording started from NewHeader names
// the current revision in both encodings, which round-trip it; a new
// revision makes the same commands a different match (id); the recorder
// refuses a header that names another revision than it plays.
func TestNewHeaderRecordsRevision(t *testing.T) {
	record := func() *replay.Log {
		t.Helper()
		h := replay.NewHeader(toad.Game, "", 9, []byte(`{"rolls":[0,32,33,1,2,16,8,17]}`))
		h.Players = []replay.Player{{Name: "plan"}}
		p := plan{"D", "D", "D"}
		r := replay.Recorder{Header: h, Agents: []replay.Agent{&p}}
		l, err := r.Record(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	r1 := record()
	text1, err := r1.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	if r1.Header.Revision != 0 || bytes.Contains(firstLine(text1), []byte("revision")) {
		t.Fatalf("a revision-1 recording has Revision %d and header %s, want 0 and no revision field", r1.Header.Revision, firstLine(text1))
	}
	revtest.Bump(t, toad.Game, "classic", 2, -1)
	old := replay.Recorder{Header: r1.Header, Agents: []replay.Agent{&plan{"D"}}}
	if _, err := old.Record(context.Background()); err == nil || !strings.Contains(err.Error(), "names rules revision 1 of toad/classic, but this build plays revision 2") {
		t.Errorf("recording under an older revision's header: got %v, want an error naming both revisions", err)
	}
	r2 := record()
	text2, err := r2.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(firstLine(text2), []byte(`"revision":2`)) {
		t.Fatalf("a revision-2 recording has header %s, want revision 2", firstLine(text2))
	}
	enc, err := r2.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"text": text2, "binary": enc.Bytes} {
		l, err := replay.Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if l.Header.Revision != 2 {
			t.Errorf("%s: decoded Revision %d, want 2", name, l.Header.Revision)
		}
	}
	id1, err := r1.ID()
	if err != nil {
		t.Fatal(err)
	}
	if id1 == enc.ID {
		t.Errorf("revisions 1 and 2 of a match share the id %s", id1)
	}
}

// TestRunOlderRevision plays logs recorded at toad/classic revision 1 in a
// build at revision 2: untouched by the rule change, a log regenerates as
// before; changed by it, or with nothing to compare, it is an
// ErrOldRevision that names both revisions, is no DivergenceError and is
// reported before any turn is visited.
func TestRunOlderRevision(t *testing.T) {
	const wantMsg = "recorded with an older engine revision of toad/classic (r1; this build plays r2)"
	tests := []struct {
		name     string
		changeAt int // the turn from which revision 2 differs; -1 = never
		log      func() *replay.Log
		wantErr  string // "" = regenerates
	}{
		{"untouched", -1, func() *replay.Log { return toadLog(t) }, ""},
		{"untouched v1", -1, func() *replay.Log { return readGolden(t, "toad-example.rlog") }, ""},
		{"changed from turn 4", 4, func() *replay.Log { return toadLog(t) }, "turn 4: state hash"},
		{"changed from the start", 0, func() *replay.Log { return toadLog(t) }, "turn 0: state hash"},
		// Only recorded states are compared: a change after the last
		// one goes unseen.
		{"changed after the last hash", 4, func() *replay.Log {
			l := toadLog(t)
			l.Header.Format, l.End, l.Hashes = replay.FormatV1, nil, l.Hashes[:3]
			return l
		}, ""},
		{"no hashes", -1, func() *replay.Log {
			l := toadLog(t)
			l.Header.Format, l.End, l.Hashes = replay.FormatV1, nil, nil
			return l
		}, "the replay records no state hash to compare"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.log()
			revtest.Bump(t, toad.Game, "classic", 2, tt.changeAt)
			visited := 0
			m, err := replay.Run(context.Background(), l, func(*replay.TurnView) error {
				visited++
				return nil
			})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if visited != len(l.Turns)+1 || !m.Over() {
					t.Errorf("visited %d turns of %d, over %v: want every turn and turn 0 once", visited, len(l.Turns)+1, m.Over())
				}
				return
			}
			if !errors.Is(err, replay.ErrOldRevision) || !strings.HasPrefix(err.Error(), wantMsg) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got %v, want ErrOldRevision %q ... %q", err, wantMsg, tt.wantErr)
			}
			var de *replay.DivergenceError
			if errors.As(err, &de) {
				t.Errorf("an older revision is reported as a divergence: %v", err)
			}
			if visited != 0 {
				t.Errorf("visited %d turns of a replay this build does not reproduce", visited)
			}
		})
	}
}

// TestRunCurrentRevisionDiverges: a log recorded at the current revision
// that the engine does not reproduce is a divergence, as before revisions.
func TestRunCurrentRevisionDiverges(t *testing.T) {
	l := toadLog(t)
	l.Header.Revision = 2
	revtest.Bump(t, toad.Game, "classic", 2, 4)
	_, err := replay.Run(context.Background(), l, nil)
	var de *replay.DivergenceError
	if !errors.As(err, &de) || de.Turn != 4 || errors.Is(err, replay.ErrOldRevision) {
		t.Fatalf("got %v, want a DivergenceError at turn 4", err)
	}
}

// TestRunOlderRevisionCancelled: a comparison cut short by ctx reports
// the cancellation, not an older revision.
func TestRunOlderRevisionCancelled(t *testing.T) {
	l := toadLog(t)
	revtest.Bump(t, toad.Game, "classic", 2, -1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := replay.Run(ctx, l, nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, replay.ErrOldRevision) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestRealOlderRevisions runs replays recorded before real rule changes
// under this build's rules: one the change altered is ErrOldRevision
// naming both revisions (never a divergence), and ones it left untouched
// regenerate as they always did. The old files are kept in
// ../testdata/revisions, or in the goldens when they still reproduce.
func TestRealOlderRevisions(t *testing.T) {
	tests := []struct {
		path    string
		wantErr string // "" = reproduced
	}{
		// Revision 2 of worms/base moved the start positions: the map differs from turn 0.
		{"../testdata/revisions/worms-base-tactical-random-r1.rlog",
			"recorded with an older engine revision of worms/base (r1; this build plays r2), which this build does not reproduce: turn 0"},
		// Revision 2 of both Snake rulesets changed what the match state
		// holds from the first tick.
		{"../testdata/revisions/snake-greedy-random-r1.rlog",
			"recorded with an older engine revision of snake/codebattle2020 (r1; this build plays r2), which this build does not reproduce: turn 0"},
		{"../testdata/revisions/snake-codenjoy-greedy-r1.rlog",
			"recorded with an older engine revision of snake/codenjoy (r1; this build plays r2), which this build does not reproduce: turn 0"},
		// Revision 2 of worms/final only changed how C;<round>; framing and
		// non-ASCII digits are read; these bots send neither.
		{goldenDir + "/worms-final-random-tactical.rlog", ""},
		{goldenDir + "/worms-final-tactical-tactical.rlog", ""},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			data, err := os.ReadFile(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			l, err := replay.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			g, err := games.Lookup(l.Header.Game)
			if err != nil {
				t.Fatal(err)
			}
			if got, now := l.Header.RulesRevision(), g.Revision(l.Header.Ruleset); got >= now {
				t.Fatalf("recorded at revision %d, this build plays %d: not an older revision", got, now)
			}
			_, err = replay.Run(context.Background(), l, nil)
			var de *replay.DivergenceError
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatal(err)
			case tt.wantErr != "" && (!errors.Is(err, replay.ErrOldRevision) || !strings.HasPrefix(err.Error(), tt.wantErr)):
				t.Fatalf("got %v, want ErrOldRevision %q", err, tt.wantErr)
			case errors.As(err, &de):
				t.Errorf("an older revision is reported as a divergence: %v", err)
			}
		})
	}
}
