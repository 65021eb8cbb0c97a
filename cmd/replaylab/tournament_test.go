package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/store"
)

func TestTournamentBadInput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	two := []string{"--bot", "builtin:random", "--bot", "builtin:tactical"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown game", []string{"--game", "chess", "--bot", "builtin:a", "--bot", "builtin:b"}, `unknown game "chess"`},
		{"unknown ruleset", append([]string{"--game", "worms", "--ruleset", "modern"}, two...), "no ruleset"},
		{"bad config", append([]string{"--game", "worms", "--config", "[1]"}, two...), "--config: not a JSON object"},
		{"config key case", append([]string{"--game", "worms", "--config", `{"Rounds":3}`}, two...), `config: unknown key "Rounds" (keys are case-sensitive; did you mean "rounds"?)`},
		{"config key twice", append([]string{"--game", "worms", "--config", `{"rounds":3,"rounds":4}`}, two...), `--config: repeated key "rounds"`},
		{"one bot", []string{"--game", "worms", "--bot", "builtin:random"}, "at least 2 bots, got 1"},
		{"unknown built-in", []string{"--game", "worms", "--bot", "builtin:random", "--bot", "builtin:nobody"}, `bot 2 (builtin:nobody): game worms has no built-in bot "nobody"`},
		{"unknown program", []string{"--game", "worms", "--bot", "builtin:random", "--bot", "/nonexistent/bot"}, "bot 2 (/nonexistent/bot)"},
		{"same bot twice", []string{"--game", "worms", "--bot", "builtin:random", "--bot", "builtin:random"}, "bots 1 and 2 are both random@builtin"},
		{"bad name", append([]string{"--game", "worms", "--name", "a\tb"}, two...), "bot 1 (builtin:random): header: players[0] (Seat 1) name: control character"},
		{"more names than bots", append([]string{"--game", "worms", "--name", "a", "--name", "b", "--name", "c"}, two...), "3 --name and 0 --version flags for 2 bots"},
		{"seats over bots", append([]string{"--game", "snake", "--seats", "3"}, two[0], "builtin:random", two[2], "builtin:greedy"), "--seats 3: more seats than the 2 bots"},
		{"seats over the game's", append([]string{"--game", "worms", "--seats", "3"}, two...), "game worms seats 2 to 2 players, a tournament match 3"},
		{"one-seat game", []string{"--game", "toad", "--bot", "builtin:random", "--bot", "builtin:astar"}, "game toad seats 1 to 1 players, a tournament match 2"},
		{"no seeds", append([]string{"--game", "worms", "--seeds", "0"}, two...), "--seeds 0: want 1 to"},
		{"seeds past 2^64", append([]string{"--game", "worms", "--seeds", "2", "--seed-from", "18446744073709551615"}, two...), "go past the largest seed"},
		{"no workers", append([]string{"--game", "worms", "--workers", "0"}, two...), "--workers 0"},
		{"bad format", append([]string{"--game", "worms", "--format", "swiss"}, two...), `--format "swiss"`},
		{"unknown flag", append([]string{"--game", "worms", "--rounds", "3"}, two...), "unknown flag: --rounds"},
		{"too many matches", append([]string{"--game", "worms", "--seeds", "100000"}, hundredBots()...), "at most 1000000 at once"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"tournament", "--db", db}, tt.args...)
			code, out, errOut := cli(t, args...)
			if code != 2 || !strings.Contains(errOut, tt.want) {
				t.Errorf("got exit %d, stderr %q, want 2 and a message containing %q", code, errOut, tt.want)
			}
			if out != "" {
				t.Errorf("got stdout %q, want none", out)
			}
		})
	}
	if code, _, errOut := cli(t, "tournament", "--game", "worms", "--bot", "builtin:random", "--bot", "builtin:tactical"); code != 2 || !strings.Contains(errOut, "--db is required") {
		t.Errorf("no --db: got exit %d, stderr %q, want 2 and that --db is required", code, errOut)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("a refused tournament touched the database: stat says %v", err)
	}
}

// hundredBots is 100 distinct --bot flags.
func hundredBots() []string {
	var args []string
	for i := range 100 {
		args = append(args, "--bot", "builtin:random", "--version", strconv.Itoa(i))
	}
	return args
}

// standingRow is one row of the printed standings.
type standingRow struct {
	bot                                 string
	matches, seats, wins, draws, losses int
	winRate, rating                     float64
}

var standingLine = regexp.MustCompile(`(?m)^(\d+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)-(\d+)-(\d+)\s+([\d.]+)%\s+\[[\d.]+%, [\d.]+%\]\s+\S+\s+(\d+)\s+\[\d+, \d+\]$`)

// parseStandings reads the standings table of a tournament's output.
func parseStandings(t *testing.T, out string) []standingRow {
	t.Helper()
	var rows []standingRow
	for _, m := range standingLine.FindAllStringSubmatch(out, -1) {
		atoi := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		atof := func(s string) float64 {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
		if rank := atoi(m[1]); rank != len(rows)+1 {
			t.Errorf("got rank %d in row %d", rank, len(rows)+1)
		}
		rows = append(rows, standingRow{m[2], atoi(m[3]), atoi(m[4]), atoi(m[5]), atoi(m[6]), atoi(m[7]), atof(m[8]), atof(m[9])})
	}
	return rows
}

// TestTournamentResumesAndRanks plays a round robin of two built-in bots
// and an external one (two seats of Snake: a Worms view is too long for a
// shell bot to read quickly), checks the seats against the database, runs it
// again (nothing left to play) and checks the standings against the
// stored matches.
func TestTournamentResumesAndRanks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts external bots")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	args := []string{"tournament", "--db", db, "--game", "snake", "--seeds", "2", "--seed-from", "40", "--workers", "2",
		"--bot", "builtin:random", "--bot", "builtin:greedy", "--bot", botSpec("long", "D", "1"), "--name", "random", "--name", "greedy", "--name", "stay", "--version", "1", "--version", "1", "--version", "sh"}
	out := mustCLI(t, args...)
	if !strings.Contains(out, "12 matches, 0 already stored (skipped), 12 to play") || !strings.Contains(out, "played 12 matches") {
		t.Errorf("first run: got\n%s\nwant 12 matches played", out)
	}

	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	type record struct{ matches, wins, draws, losses int }
	want := map[string]*record{}
	for seed := uint64(40); seed <= 41; seed++ {
		ms, err := st.MatchesOnSeed(context.Background(), "snake", "codebattle2020", json.RawMessage("{}"), seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != 6 {
			t.Errorf("seed %d: got %d matches, want 6 (3 pairs, both ways round)", seed, len(ms))
		}
		seats := map[string]map[int]int{}
		for _, m := range ms {
			for _, p := range m.Players {
				bot := botLabel(p.Name, p.Version)
				if seats[bot] == nil {
					seats[bot] = map[int]int{}
				}
				seats[bot][p.Seat]++
				if want[bot] == nil {
					want[bot] = &record{}
				}
				r := want[bot]
				r.matches++
				switch p.Outcome {
				case "win":
					r.wins++
				case "draw":
					r.draws++
				default:
					r.losses++
				}
			}
		}
		for bot, bySeat := range seats {
			if bySeat[0] != 2 || bySeat[1] != 2 {
				t.Errorf("seed %d: %s got seats %v, want 2 matches in each of seats 0 and 1", seed, bot, bySeat)
			}
		}
	}

	out = mustCLI(t, args...)
	if !strings.Contains(out, "12 matches, 12 already stored (skipped), 0 to play") || !strings.Contains(out, "played 0 matches") {
		t.Errorf("second run: got\n%s\nwant every match skipped", out)
	}
	if n, err := st.CountMatches(context.Background()); err != nil || n != 12 {
		t.Errorf("after the second run: got %d matches (%v), want 12", n, err)
	}

	rows := parseStandings(t, out)
	if len(rows) != 3 {
		t.Fatalf("got %d standings rows, want 3, in\n%s", len(rows), out)
	}
	for i, r := range rows {
		w := want[r.bot]
		if w == nil || (record{r.matches, r.wins, r.draws, r.losses}) != *w {
			t.Errorf("%s: got %d matches %d-%d-%d, want %+v as stored", r.bot, r.matches, r.wins, r.draws, r.losses, w)
			continue
		}
		if got, want := r.winRate, 100*float64(r.wins)/float64(r.matches); fmt.Sprintf("%.1f", got) != fmt.Sprintf("%.1f", want) {
			t.Errorf("%s: got win rate %.1f%%, want %.1f%%", r.bot, got, want)
		}
		if i > 0 && r.rating > rows[i-1].rating {
			t.Errorf("%s rated %g ranks below %s rated %g", r.bot, r.rating, rows[i-1].bot, rows[i-1].rating)
		}
	}
}

// TestTournamentInterrupted stops a tournament whose external bot never
// answers: it exits 1 saying how to resume, its progress counts no match
// played, the bot is ended and nothing is stored.
func TestTournamentInterrupted(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	pidFile := filepath.Join(dir, "bot.pid")
	code, errOut := runInterrupted(t, pidFile, "tournament", "--db", db, "--game", "worms", "--seeds", "1", "--workers", "1", "--start-timeout", "1m",
		"--bot", "builtin:random", "--bot", botSpec("noterm", pidFile, "mute"), "--name", "random", "--name", "mute")
	if code != 1 || !strings.Contains(errOut, "interrupted after storing 0 of 2 matches; run the same command again to resume") {
		t.Errorf("got exit %d and stderr %q, want 1 and how to resume", code, errOut)
	}
	// The progress counts played matches: the interrupted one is not.
	if !strings.Contains(errOut, "tournament: 0/2 (0%)") || strings.Contains(errOut, "1/2") {
		t.Errorf("got stderr %q, want the progress to end at 0/2", errOut)
	}
	checkBotEnded(t, pidFile)
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, err := st.CountMatches(context.Background()); err != nil || n != 0 {
		t.Errorf("got %d matches stored (%v), want none", n, err)
	}
}

// TestTournamentThreeSeats plays a three-seat round robin of built-in
// Snake bots: one lineup in its three rotations on two seeds, ranked by
// placement.
func TestTournamentThreeSeats(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	out := mustCLI(t, "tournament", "--db", db, "--game", "snake", "--seats", "3", "--seeds", "2",
		"--bot", "builtin:random", "--bot", "builtin:random", "--bot", "builtin:greedy", "--version", "1", "--version", "2")
	if !strings.Contains(out, "round-robin of 3 bots, 3 per match, 2 seeds from 1: 6 matches") {
		t.Errorf("got\n%s\nwant 6 matches planned", out)
	}
	rows := parseStandings(t, out)
	if len(rows) != 3 {
		t.Fatalf("got %d standings rows, want 3, in\n%s", len(rows), out)
	}
	for _, r := range rows {
		if r.matches != 6 || r.wins+r.draws+r.losses != 6 {
			t.Errorf("%s: got %d matches, %d-%d-%d; want 6 matches, each a win, draw or loss", r.bot, r.matches, r.wins, r.draws, r.losses)
		}
	}
}

// TestTournamentKeepsBotOutput checks that a tournament stores what an
// external bot writes besides its answers with each match, for the
// inspector, whichever seat the bot sat in.
func TestTournamentKeepsBotOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("starts external bots")
	}
	dbPath := filepath.Join(t.TempDir(), "t.db")
	mustCLI(t, "tournament", "--db", dbPath, "--game", "snake", "--seeds", "1", "--seed-from", "7",
		"--bot", "builtin:random", "--bot", botSpec("chatty", "json"), "--name", "random", "--name", "chatty")
	db, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ms, err := db.MatchesOnSeed(context.Background(), "snake", "codebattle2020", json.RawMessage("{}"), 7)
	if err != nil || len(ms) != 2 {
		t.Fatalf("got %d matches (%v), want 2: both seatings", len(ms), err)
	}
	for _, m := range ms {
		chatty := slices.IndexFunc(m.Players, func(p store.PlayerSummary) bool { return p.Name == "chatty" })
		got, err := db.BotOutputAt(context.Background(), m.ID, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Seat != chatty || got[0].Stream != store.Stdout || !strings.Contains(got[0].Text, "debug 2.0\n") {
			t.Errorf("match %s, chatty in seat %d: got turn 3 output %.200v, want its stdout holding the debug lines of turn 2", m.ID, chatty, got)
		}
	}
}

// TestOutputLogSkipsEmptyStreams: a stream a bot left silent in a turn
// makes no line. (The recorder keeps the text as UTF-8; see
// TestRecordOutputOnePiecePerTurn.)
func TestOutputLogSkipsEmptyStreams(t *testing.T) {
	var o outputLog
	o.add(4, 1, replay.Output{Stderr: "ok\n"})
	o.add(5, 0, replay.Output{})
	want := []store.BotOutput{{Turn: 4, Seat: 1, Stream: store.Stderr, Text: "ok\n"}}
	if !reflect.DeepEqual(o.lines, want) {
		t.Errorf("got %+v, want %+v", o.lines, want)
	}
}

// TestTournamentAgreesWithDashboard runs a tournament into a new database,
// then refits the database's ratings as the dashboard does: on the same
// matches, the standings print the same ratings.
func TestTournamentAgreesWithDashboard(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "t.db")
	out := mustCLI(t, "tournament", "--db", dbPath, "--game", "snake", "--seats", "3", "--seeds", "2",
		"--bot", "builtin:random", "--bot", "builtin:random", "--bot", "builtin:greedy", "--version", "1", "--version", "2")
	if !strings.Contains(out, "ratings: fitted over these 6 matches only") {
		t.Errorf("got\n%s\nwant the standings to say what the ratings were fitted over", out)
	}
	rows := parseStandings(t, out)
	db, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := analytics.NewRefitter(db, slog.New(slog.DiscardHandler)).Refit(context.Background()); err != nil {
		t.Fatal(err)
	}
	boards, err := db.Ratings(context.Background(), "snake", "")
	if err != nil || len(boards) != 1 || boards[0].Matches != 6 {
		t.Fatalf("got boards %+v, %v; want one fitted over 6 matches", boards, err)
	}
	dashboard := map[string]float64{}
	for _, r := range boards[0].Ratings {
		dashboard[botLabel(r.Name, r.Version)] = r.Rating
	}
	if len(rows) != 3 || len(dashboard) != 3 {
		t.Fatalf("got %d standings and %d ratings, want 3 of each", len(rows), len(dashboard))
	}
	for _, r := range rows {
		if got, want := r.rating, math.Round(dashboard[r.bot]); got != want {
			t.Errorf("%s: tournament rating %g, dashboard %g", r.bot, got, dashboard[r.bot])
		}
	}
}
