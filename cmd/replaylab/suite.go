package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/BurntSushi/toml"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
)

// position is one entry of an ask suite: the bot's command at a recorded
// turn and seat must match Expect, or must not match Forbid.
type position struct {
	Replay string `json:"replay" toml:"replay"`
	Turn   int    `json:"turn" toml:"turn"`
	Seat   int    `json:"seat" toml:"seat"` // from 1, as people number seats
	Expect string `json:"expect,omitempty" toml:"expect"`
	Forbid string `json:"forbid,omitempty" toml:"forbid"`
}

// positionResult is a checked position as --json prints it.
type positionResult struct {
	Replay    string `json:"replay"`
	Turn      int    `json:"turn"`
	SeatIndex int    `json:"seat_index"`
	Recorded  string `json:"recorded"`
	Command   string `json:"command"`
	Pass      bool   `json:"pass"`
	Reason    string `json:"reason"`
}

// maxSuite bounds what is read of a suite file: thousands of positions
// take a few hundred kilobytes.
const maxSuite = 16 << 20

// readSuite reads a suite file: a JSON array of positions or one a line,
// or TOML (readTOMLSuite).
func readSuite(path string) ([]position, error) {
	data, err := readBounded(path, maxSuite)
	if err != nil {
		return nil, err
	}
	if isTOMLSuite(path, data) {
		return readTOMLSuite(path, data)
	}
	var ps []position
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		d := json.NewDecoder(bytes.NewReader(t))
		d.DisallowUnknownFields()
		if err := d.Decode(&ps); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return ps, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		t := bytes.TrimSpace(sc.Bytes())
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		var p position
		d := json.NewDecoder(bytes.NewReader(t))
		d.DisallowUnknownFields()
		if err := d.Decode(&p); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		ps = append(ps, p)
	}
	return ps, sc.Err()
}

// isTOMLSuite reports whether a suite file is TOML: named .toml, or its
// first line that is neither blank nor a # comment opens an array of
// tables ("[[position]]"), which no JSON suite starts with.
func isTOMLSuite(path string, data []byte) bool {
	if strings.EqualFold(filepath.Ext(path), ".toml") {
		return true
	}
	for line := range bytes.Lines(data) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			return bytes.HasPrefix(t, []byte("[["))
		}
	}
	return false
}

// tomlSuite is the form of a TOML suite: an array of tables, one
// [[position]] per position.
type tomlSuite struct {
	Position []position `toml:"position"`
}

// readTOMLSuite decodes a TOML suite, refusing a key it does not know
// with the line of its first use.
func readTOMLSuite(path string, data []byte) ([]position, error) {
	var suite tomlSuite
	md, err := toml.Decode(string(data), &suite)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if keys := md.Undecoded(); len(keys) > 0 {
		k := keys[0]
		where := path
		if n := keyLine(data, k[len(k)-1]); n > 0 {
			where = fmt.Sprintf("%s:%d", path, n)
		}
		return nil, fmt.Errorf("%s: unknown key %q (a position has replay, turn, seat, expect and forbid)", where, k.String())
	}
	return suite.Position, nil
}

// keyLine returns the number of the first line of a TOML document that
// sets key or opens a table of that name, 0 if none does. The decoder
// knows where each key is but does not say.
func keyLine(data []byte, key string) int {
	q := regexp.QuoteMeta(key)
	re := regexp.MustCompile(`^\s*(?:\[\[?\s*)?(?:` + q + `|"` + q + `"|'` + q + `')\s*[=.\]]`)
	n := 0
	for line := range bytes.Lines(data) {
		n++
		if re.Match(line) {
			return n
		}
	}
	return 0
}

// suitePath is where a suite's replay is: a relative path is relative to
// the suite file's directory.
func suitePath(suite, replay string) string {
	if filepath.IsAbs(replay) {
		return replay
	}
	return filepath.Join(filepath.Dir(suite), replay)
}

// askSuite checks the bot at every position of the suite and prints a
// table (or JSON); any failure makes the exit status 1. A position the
// suite gets wrong (a turn the match lacks, a bad pattern) is a usage
// error naming it, before any bot is asked.
func askSuite(ctx context.Context, src *matches, f *askFlags, w io.Writer) error {
	ps, err := readSuite(f.suite)
	if err != nil {
		return usageError{err}
	}
	type parentMatch struct {
		g *sim.Game
		l *replay.Log
	}
	parents := map[string]parentMatch{}
	patterns := make([]*regexp.Regexp, len(ps))
	for i, p := range ps {
		where := fmt.Sprintf("%s: position %d", f.suite, i+1)
		if (p.Expect == "") == (p.Forbid == "") {
			return usagef("%s: give one of expect and forbid", where)
		}
		if patterns[i], err = regexp.Compile(`^(?:` + p.Expect + p.Forbid + `)$`); err != nil {
			return usagef("%s: %v", where, err)
		}
		path := suitePath(f.suite, p.Replay)
		if _, ok := parents[path]; !ok {
			g, l, err := src.parent(ctx, path, p.Replay)
			if err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			parents[path] = parentMatch{g, l}
		}
		if err := checkPosition(parents[path].l, p.Turn, p.Seat); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	results := make([]positionResult, len(ps))
	failed := 0
	for i, p := range ps {
		pm := parents[suitePath(f.suite, p.Replay)]
		got, err := playAt(ctx, pm.g, pm.l, p.Turn, p.Seat-1, 1, f.bot, &f.recordFlags)
		if err != nil {
			return fmt.Errorf("%s: position %d: %w", f.suite, i+1, err)
		}
		r := positionResult{Replay: p.Replay, Turn: p.Turn, SeatIndex: p.Seat - 1, Recorded: pm.l.Turns[p.Turn-1][p.Seat-1], Command: got.log.Turns[p.Turn-1][p.Seat-1]}
		matched := patterns[i].MatchString(r.Command)
		if r.Pass = matched == (p.Expect != ""); r.Pass {
			r.Reason = "ok"
		} else if matched {
			r.Reason = "matches forbidden " + sim.QuoteCommand(p.Forbid)
		} else {
			r.Reason = "does not match expected " + sim.QuoteCommand(p.Expect)
		}
		if !r.Pass {
			failed++
		}
		results[i] = r
	}
	if f.json {
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		if err := e.Encode(results); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "REPLAY\tTURN\tSEAT\tRECORDED\tNOW\tRESULT")
		for _, r := range results {
			verdict := "pass"
			if !r.Pass {
				verdict = "FAIL: " + r.Reason
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", r.Replay, r.Turn, sim.SeatName(r.SeatIndex), sim.QuoteCommand(r.Recorded), sim.QuoteCommand(r.Command), verdict)
		}
		tw.Flush()
		fmt.Fprintf(w, "%d of %d positions pass\n", len(results)-failed, len(results))
	}
	if failed > 0 {
		return exitError{1}
	}
	return nil
}
