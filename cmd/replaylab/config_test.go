package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/replay"
)

// TestRecordConfigSpellings: the spellings of one config that issue 21
// found recording three matches record one, and the wrong-case and
// repeated keys are refused as usage errors, naming the key.
func TestRecordConfigSpellings(t *testing.T) {
	dir := t.TempDir()
	var ids []string
	for i, config := range []string{`{"turns":3}`, ` { "turns" : 3 } `, `{"t\u0075rns":3}`, `{"turns":3,"rolls":null}`} {
		out := filepath.Join(dir, "m"+string(rune('a'+i))+".rpl")
		mustCLI(t, "record", "--game", "toad", "--seed", "5", "--config", config, "--bot", "builtin:astar", "-o", out)
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		l, err := replay.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(l.Header.Config); got != `{"turns":3}` {
			t.Errorf("--config %s: header config %s, want {\"turns\":3}", config, got)
		}
		id, _ := l.ID()
		ids = append(ids, id)
	}
	for i, id := range ids[1:] {
		if id != ids[0] {
			t.Errorf("spelling %d recorded match %.12s, the first %.12s", i+1, id, ids[0])
		}
	}

	rolls := filepath.Join(dir, "rolls.json")
	if err := os.WriteFile(rolls, []byte("[1,2]"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "refused.rpl")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", `{"TURNS":3}`}, `config: unknown key "TURNS" (keys are case-sensitive; did you mean "turns"?)`},
		{[]string{"--config", `{"Turns":3,"turns":3}`}, `config: unknown key "Turns" (keys are case-sensitive; did you mean "turns"?)`},
		{[]string{"--config", `{"turns":99,"turns":30}`}, `--config: repeated key "turns"`},
		{[]string{"--config", `{"turns":3.0}`}, `--config: key "turns": number 3.0: write integers without a fraction or exponent`},
		{[]string{"--config", `{"rolls":[3]}`, "--rolls", rolls}, `--rolls and a "rolls" key in --config`},
	} {
		args := append([]string{"record", "--game", "toad", "--seed", "5", "--bot", "builtin:astar", "-o", out}, tt.args...)
		code, _, errOut := cli(t, args...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused record wrote a replay")
	}
}

// TestServeConfigSpellings uploads one match with its config spelled the
// ways issue 21 lists to a running server: the match is stored once, an
// equivalent spelling is a duplicate, and the wrong-case and repeated keys
// are refused.
func TestServeConfigSpellings(t *testing.T) {
	dir := t.TempDir()
	rlog := filepath.Join(dir, "m.rlog")
	mustCLI(t, "record", "--game", "toad", "--seed", "5", "--config", `{"turns":3}`, "--bot", "builtin:astar", "-o", rlog)
	data, err := os.ReadFile(rlog)
	if err != nil {
		t.Fatal(err)
	}
	// The replaylab/1 form has no end record, whose digest would refuse a
	// changed header before its config is read.
	text := asV1(string(data))
	if !strings.Contains(text, `"config":{"turns":3}`) {
		t.Fatalf("recorded header has no config {\"turns\":3}:\n%s", text)
	}
	spelled := func(config string) string {
		return strings.Replace(text, `"config":{"turns":3}`, `"config":`+config, 1)
	}

	base, _, _, stop := startServe(t, "--db", filepath.Join(dir, "s.db"))
	defer stop()
	for _, tt := range []struct {
		config string
		status int
		want   string
	}{
		{`{"turns":3}`, http.StatusCreated, `"duplicate":false`},
		{`{"TURNS":3}`, http.StatusUnprocessableEntity, `unknown key \"TURNS\" (keys are case-sensitive; did you mean \"turns\"?)`},
		{`{"Turns":3,"turns":3}`, http.StatusUnprocessableEntity, `unknown key \"Turns\"`},
		{`{"turns":99,"turns":30}`, http.StatusUnprocessableEntity, `repeated key \"turns\"`},
		{` { "t\u0075rns" : 3 } `, http.StatusOK, `"duplicate":true`},
	} {
		res, err := http.Post(base+"/api/v1/replays", "application/octet-stream", strings.NewReader(spelled(tt.config)))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tt.status || !strings.Contains(string(body), tt.want) {
			t.Errorf("config %s: got %s %s, want %d and %s", tt.config, res.Status, body, tt.status, tt.want)
		}
	}
	var list struct{ Total int }
	getJSON(t, base+"/api/v1/matches", &list)
	if list.Total != 1 {
		t.Errorf("%d matches stored, want 1", list.Total)
	}
}
