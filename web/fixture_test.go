package web

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim/toad"
	"github.com/replaylab/replaylab/store"
)

// xssName is a bot name that runs code wherever it is not escaped.
const xssName = `<img src=x onerror=alert(1)>`

// testAddr is the address the fixture's server listens on, as far as its
// Host checks know, and the Host of its scenarios' requests.
const testAddr = "127.0.0.1:8080"

// fixture is a server over a real SQLite file with a few River Toad matches
// recorded by the built-in bots.
type fixture struct {
	db  *store.DB
	e   *echo.Echo
	log *syncBuffer
	// won and lost are stored matches; hostile is one whose bot is named
	// xssName.
	won, lost, hostile string
	// fresh is a replay that is not stored, for uploads.
	fresh *replay.Log
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// Reset empties the buffer, so a test reads one request's lines.
func (s *syncBuffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// recordToad plays a River Toad match with a built-in bot.
func recordToad(t testing.TB, seed uint64, bot, name, config string) *replay.Log {
	t.Helper()
	return recordToadWith(t, seed, bot, name, config, nil)
}

// recordToadWith plays a River Toad match with a built-in bot, wrapped by
// wrap unless it is nil.
func recordToadWith(t testing.TB, seed uint64, bot, name, config string, wrap func(replay.Agent) replay.Agent) *replay.Log {
	t.Helper()
	h := replay.NewHeader(toad.Game, "", seed, json.RawMessage(config))
	h.Players = []replay.Player{{Name: name, Version: "v1"}}
	if _, err := h.Check(); err != nil {
		t.Fatalf("header: %v", err)
	}
	agent, err := replay.NewBuiltin(toad.Game, bot, h.Setup(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		agent = wrap(agent)
	}
	rec := replay.Recorder{Header: h, Agents: []replay.Agent{agent}, HashEvery: 10}
	l, err := rec.Record(context.Background())
	if err != nil {
		t.Fatalf("record: %v", err)
	}
	return l
}

// ingest regenerates a log and stores it, returning its id.
func ingest(t testing.TB, db *store.DB, l *replay.Log) string {
	t.Helper()
	return build(t, db, l).ID
}

// build regenerates a log and stores it, returning the stored record.
func build(t testing.TB, db *store.DB, l *replay.Log) *store.Record {
	t.Helper()
	return buildWith(t, db, l, nil)
}

// buildWith is build storing the bot output out with the match, as
// import stores a recording's output file.
func buildWith(t testing.TB, db *store.DB, l *replay.Log, out []store.BotOutput) *store.Record {
	t.Helper()
	rec, err := regen.Build(context.Background(), l)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	rec.Output = out
	if _, err := db.Ingest(context.Background(), rec); err != nil {
		t.Fatalf("ingest: %v", err)
	}
	return rec
}

func openDB(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newFixture builds the fixture; configure, if not nil, adjusts the
// server's Config.
func newFixture(t testing.TB, configure func(*Config)) *fixture {
	t.Helper()
	f := &fixture{db: openDB(t), log: &syncBuffer{}}
	f.won = ingest(t, f.db, recordToad(t, 1, "astar", "astar", `{"turns":30}`))
	f.lost = ingest(t, f.db, recordToad(t, 2, "random", "random", `{"turns":30}`))
	f.hostile = ingest(t, f.db, recordToad(t, 3, "astar", xssName, `{"turns":20}`))
	f.fresh = recordToad(t, 4, "astar", "astar", `{"turns":25}`)
	cfg := Config{DB: f.db, Log: slog.New(slog.NewTextHandler(f.log, &slog.HandlerOptions{Level: slog.LevelDebug})), Addr: testAddr}
	if configure != nil {
		configure(&cfg)
	}
	e, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	f.e = e
	return f
}

// encodeFresh returns the fresh replay in its binary and text forms.
func (f *fixture) encodeFresh(t testing.TB) (replay.Encoded, []byte) {
	t.Helper()
	enc, err := f.fresh.Encode()
	if err != nil {
		t.Fatal(err)
	}
	text, err := f.fresh.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	return enc, text
}
