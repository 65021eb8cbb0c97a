package replay_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/replay/replaytest"
	"github.com/replaylab/replaylab/sim"
)

// startBot starts the shell-script bot testdata/bots/NAME.sh with args. It
// skips the test in short mode: the bots take seconds to end on purpose, and
// CI runs the short tests under an emulator.
func startBot(t *testing.T, limit time.Duration, name string, args ...string) *replay.Process {
	t.Helper()
	if testing.Short() {
		t.Skip("real bot processes are slow to end")
	}
	argv := append([]string{"/bin/sh", filepath.Join("testdata", "bots", name+".sh")}, args...)
	p, err := replay.StartProcess(context.Background(), argv,
		replay.ProcessOptions{TurnLimit: limit, StartLimit: 2 * limit})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkCommands compares the seat's commands with "D" every turn but
// those of except.
func checkCommands(t *testing.T, l *replay.Log, except map[int]string) {
	t.Helper()
	if len(l.Turns) != 8 {
		t.Fatalf("got %d turns, want 8", len(l.Turns))
	}
	for i, cmds := range l.Turns {
		want, ok := except[i+1]
		if !ok {
			want = "D"
		}
		if cmds[0] != want {
			t.Errorf("turn %d: got command %.40q (%d bytes), want %.40q (%d bytes)", i+1, cmds[0], len(cmds[0]), want, len(want))
		}
	}
}

func checkNotes(t *testing.T, l *replay.Log, want ...replay.Note) {
	t.Helper()
	if !equalNotes(l.Notes, want) {
		t.Errorf("got notes %+v, want %+v", l.Notes, want)
	}
}

func TestProcessChatter(t *testing.T) {
	t.Run("json", func(t *testing.T) {
		replaytest.CheckGoroutines(t)
		l, output := recordWith(t, startBot(t, 5*time.Second, "chatty", "json"))
		checkCommands(t, l, nil)
		checkNotes(t, l)
		for turn := 1; turn <= 8; turn++ {
			for _, want := range []string{fmt.Sprintf("thinking %d.0\n", turn), fmt.Sprintf("thinking %d.299\n", turn)} {
				if turn > 1 && !strings.Contains(output[turn].Stdout, want) {
					t.Errorf("turn %d: stdout lacks %q", turn, want)
				}
			}
			// Lines after an answer belong to the next turn, or to the
			// last one once the match is over.
			after := fmt.Sprintf("debug %d.299\n", turn)
			if next := min(turn+1, 8); !strings.Contains(output[next].Stdout, after) {
				t.Errorf("turn %d: stdout lacks %q", next, after)
			}
		}
	})
	t.Run("plain", func(t *testing.T) {
		// The bot prints its debug lines after its answer, before it reads
		// the next request: they are output, never commands, in every run.
		var first string
		for run := range 3 {
			replaytest.CheckGoroutines(t)
			l, output := recordMatch(t, longHeader(), startBot(t, 5*time.Second, "chatty"))
			checkNotes(t, l)
			if len(l.Turns) != 40 {
				t.Fatalf("run %d: got %d turns, want 40", run, len(l.Turns))
			}
			for i, cmds := range l.Turns {
				if cmds[0] != "D" {
					t.Errorf("run %d, turn %d: got command %q, want D", run, i+1, cmds[0])
				}
			}
			for turn := 1; turn <= 40; turn++ {
				// A turn's output is the debug lines of the turn before;
				// the last turn's has its own too.
				var want strings.Builder
				for from := max(turn-1, 1); from < turn || from == 40; from++ {
					for i := range 300 {
						fmt.Fprintf(&want, "debug %d.%d\n", from, i)
					}
				}
				if got := output[turn].Stdout; got != want.String() {
					t.Errorf("run %d, turn %d: got stdout %.40q (%d bytes), want the %d bytes of the debug lines before", run, turn, got, len(got), want.Len())
				}
			}
			enc, err := l.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if first == "" {
				first = enc.ID
			} else if enc.ID != first {
				t.Errorf("run %d: got replay %s, want %s as in run 0", run, enc.ID, first)
			}
		}
	})
}

// TestProcessUnfinishedLine: a line a bot began before it read the
// request is output, though it ends after.
func TestProcessUnfinishedLine(t *testing.T) {
	replaytest.CheckGoroutines(t)
	l, output := recordWith(t, startBot(t, 5*time.Second, "unfinished"))
	checkCommands(t, l, nil)
	checkNotes(t, l)
	for turn := 2; turn <= 8; turn++ {
		want := "half a line\n"
		if turn == 8 {
			want += "half a \n" // left unfinished at the end
		}
		if got := output[turn].Stdout; got != want {
			t.Errorf("turn %d: got stdout %q, want %q", turn, got, want)
		}
	}
}

// TestProcessTurnlessAfterTurnForm: once a bot has answered in the JSON
// form with the turn, a JSON answer without it is output, whether it comes
// before the bot's answer or after; before that, it is the answer.
func TestProcessTurnlessAfterTurnForm(t *testing.T) {
	replaytest.CheckGoroutines(t)
	l, output := recordWith(t, startBot(t, 5*time.Second, "turnless"))
	checkCommands(t, l, nil)
	checkNotes(t, l)
	const turnless = `{"command":"G"}` + "\n"
	for turn := 2; turn <= 8; turn++ {
		want := 0
		if turn > 2 {
			want = 2 // after the previous answer and before this one
		}
		if turn == 8 {
			want++ // after the last answer
		}
		if got := strings.Count(output[turn].Stdout, turnless); got != want {
			t.Errorf("turn %d: got stdout %q, want %d turn-less answers in it", turn, output[turn].Stdout, want)
		}
	}
}

// TestProcessLastTurnBound: what a bot writes after its last answer, up to
// its end, joins its last turn's output under the bound of one turn, in
// one piece per stream.
func TestProcessLastTurnBound(t *testing.T) {
	replaytest.CheckGoroutines(t)
	l, output := recordWith(t, startBot(t, 5*time.Second, "farewell"))
	checkCommands(t, l, nil)
	checkNotes(t, l)
	// Turn 8's stdout is the chatter after answers 7 and 8 and at the end:
	// 300 lines, of which the whole lines that fit 16 KiB are kept. Its
	// stderr is much the same, but where the recorder took turn 7's, right
	// after answer 7, is a race with the bot.
	written := strings.Repeat(fmt.Sprintf("%099d\n", 0), 300)
	if got, want := output[8].Stdout, written[:16300]+"[13700 bytes truncated]\n"; got != want {
		t.Errorf("turn 8: got %d bytes of stdout ending %q, want %d ending %q", len(got), got[max(0, len(got)-30):], len(want), want[len(want)-30:])
	}
	got := output[8].Stderr
	if kept, _, cut := strings.Cut(got, "\n["); len(got) > replay.MaxOutputBytes || !cut || len(kept) != 16<<10 || strings.Trim(kept, "0\n") != "" {
		t.Errorf("turn 8: got %d bytes of stderr ending %q, want 16 KiB of it and a truncated note", len(got), got[max(0, len(got)-30):])
	}
	if got := output[7].Stdout; len(got) != 10000 {
		t.Errorf("turn 7: got %d bytes of stdout, want the 10000 printed after answer 6", len(got))
	}
}

// silentFrom returns the commands of a bot silent from turn on.
func silentFrom(turn int) map[int]string {
	m := map[int]string{}
	for ; turn <= 8; turn++ {
		m[turn] = ""
	}
	return m
}

// TestProcessEnd records bots that make the end of a match hard: each must
// give a full log, and Close must leave none of their processes running.
func TestProcessEnd(t *testing.T) {
	tests := []struct {
		name    string
		bot     string
		args    []string // after the pid file's name, when pid is set
		pid     bool     // the bot writes a pid to check to its first argument
		crashAt int      // the turn the bot is found dead, silent from then on
	}{
		{name: "child outlives the bot", bot: "fork", pid: true},
		// The child keeps the pipes open, so the bot's exit and not the
		// end of its output says it died.
		{name: "bot dies leaving a child", bot: "fork", args: []string{"die"}, pid: true, crashAt: 4},
		{name: "closes stdout and runs on", bot: "closeout", crashAt: 3},
		{name: "ignores SIGTERM", bot: "noterm", pid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			replaytest.CheckGoroutines(t)
			pidFile := filepath.Join(t.TempDir(), "pid")
			args := tt.args
			if tt.pid {
				args = append([]string{pidFile}, args...)
			}
			l, _ := recordWith(t, startBot(t, 5*time.Second, tt.bot, args...))
			var notes []replay.Note
			except := map[int]string{}
			if tt.crashAt > 0 {
				except = silentFrom(tt.crashAt)
				notes = append(notes, replay.Note{Turn: tt.crashAt, Kind: sim.EventCrash})
			}
			checkCommands(t, l, except)
			checkNotes(t, l, notes...)
			if tt.pid {
				replaytest.CheckDead(t, pidFile)
			}
		})
	}
}

func TestProcessLongAnswer(t *testing.T) {
	tests := []struct {
		word  string
		count int
		want  string
	}{
		{"G", replay.MaxCommandBytes + 1, strings.Repeat("G", replay.MaxCommandBytes)},
		{"G", replay.MaxCommandBytes + 256, strings.Repeat("G", replay.MaxCommandBytes)},
		{"€", 1400, strings.Repeat("€", replay.MaxCommandBytes/3)}, // cut at a rune
		{"G", 1 << 20, strings.Repeat("G", replay.MaxCommandBytes)},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d bytes", len(tt.word)*tt.count), func(t *testing.T) {
			replaytest.CheckGoroutines(t)
			l, _ := recordWith(t, startBot(t, 5*time.Second, "long", tt.word, strconv.Itoa(tt.count)))
			checkCommands(t, l, map[int]string{2: tt.want})
			checkNotes(t, l, replay.Note{Turn: 2, Kind: sim.EventOversize})
		})
	}
}

func TestProcessStderrFlood(t *testing.T) {
	replaytest.CheckGoroutines(t)
	l, output := recordWith(t, startBot(t, 5*time.Second, "flood", strconv.Itoa(1200<<10)))
	checkCommands(t, l, nil)
	checkNotes(t, l)
	for turn := 1; turn <= 8; turn++ {
		got := output[turn].Stderr
		if want := fmt.Sprintf("turn %d starts\n", turn); !strings.HasPrefix(got, want) {
			t.Errorf("turn %d: stderr starts %.30q, want %q", turn, got, want)
		}
		if !strings.Contains(got, " bytes truncated]\n") || len(got) > 17<<10 {
			t.Errorf("turn %d: got %d bytes of stderr ending %q, want at most 16 KiB and a truncated note", turn, len(got), got[max(0, len(got)-40):])
		}
	}
}

func TestProcessLateFlood(t *testing.T) {
	replaytest.CheckGoroutines(t)
	l, output := recordWith(t, startBot(t, 3*time.Second, "lateflood", "3.5"))
	checkCommands(t, l, map[int]string{3: ""})
	checkNotes(t, l, replay.Note{Turn: 3, Kind: sim.EventTimeout})
	late := `{"turn":3,"command":"D"}` + "\n"
	if !strings.HasPrefix(output[4].Stdout, late) || !strings.Contains(output[4].Stdout, " bytes truncated]\n") {
		t.Errorf("turn 4: got stdout %.60q, want the late answer first and a truncated note", output[4].Stdout)
	}
	if !strings.Contains(output[4].Stderr, " bytes truncated]\n") {
		t.Errorf("turn 4: got stderr %.60q, want a truncated note", output[4].Stderr)
	}
}

func TestProcessDeaf(t *testing.T) {
	replaytest.CheckGoroutines(t)
	p := startBot(t, 300*time.Millisecond, "deaf")
	defer p.Close()
	// A view larger than a pipe holds: writing it must not outlast the
	// turn limit.
	view := strings.Repeat("v", 1<<20)
	done := make(chan replay.Answer, 1)
	go func() { done <- p.Act(context.Background(), 1, view) }()
	select {
	case a := <-done:
		if a.Note != sim.EventCrash {
			t.Errorf("got note %q, want %q", a.Note, sim.EventCrash)
		}
	case <-time.After(hangGuard):
		t.Fatal("Act blocked writing to a bot that does not read")
	}
	if a := p.Act(context.Background(), 2, "small"); a != (replay.Answer{}) {
		t.Errorf("got %+v from a dead bot, want nothing", a)
	}
}

// TestProcessMalformed: a broken JSON answer is played as the line itself,
// which the game refuses as an invalid command, instead of the bot timing
// out; a null command is no command; a JSON line without a command is
// output.
func TestProcessMalformed(t *testing.T) {
	replaytest.CheckGoroutines(t)
	l, output := recordWith(t, startBot(t, 5*time.Second, "malformed"))
	checkCommands(t, l, map[int]string{
		2: `{"turn":2,"command":"D"`,
		3: "",
		4: `{"turn":4,"command":5}`,
	})
	checkNotes(t, l)
	if want := "{\"debug\":\"thinking\"}\n"; !strings.Contains(output[5].Stdout, want) {
		t.Errorf("turn 5: stdout %q lacks %q", output[5].Stdout, want)
	}
}

// TestProcessTimes: the recorder keeps each answer's time, at least what
// the bot slept before it answered, and a time-out's time is the limit;
// the replay is the same as that of a bot answering at once.
func TestProcessTimes(t *testing.T) {
	replaytest.CheckGoroutines(t)
	const sleep = 50 * time.Millisecond
	p := startBot(t, 5*time.Second, "slow", "0.05")
	defer p.Close()
	r := replay.Recorder{Header: recordHeader(), Agents: []replay.Agent{p}}
	l, err := r.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Times) != 1 || len(r.Times[0]) != len(l.Turns) {
		t.Fatalf("got times %v, want one seat's, one per turn of %d", r.Times, len(l.Turns))
	}
	for i, d := range r.Times[0] {
		if d < sleep {
			t.Errorf("turn %d: got time %v, want at least the bot's sleep %v", i+1, d, sleep)
		}
	}
	fast := replay.Recorder{Header: recordHeader(), Agents: []replay.Agent{startBot(t, 5*time.Second, "slow", "0")}}
	defer fast.Agents[0].Close()
	lf, err := fast.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := l.ID()
	b, _ := lf.ID()
	if a != b {
		t.Errorf("a slow bot's replay is %s, a fast one's %s: want the same", a, b)
	}

	late := startBot(t, 20*time.Millisecond, "slow", "0.2")
	defer late.Close()
	rl := replay.Recorder{Header: recordHeader(), Agents: []replay.Agent{late}}
	if _, err := rl.Record(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := rl.Times[0][0]; got != 40*time.Millisecond { // the start limit
		t.Errorf("a first turn timed out: got time %v, want the start limit 40ms", got)
	}
	if got := rl.Times[0][1]; got != 20*time.Millisecond {
		t.Errorf("a turn timed out: got time %v, want the limit 20ms", got)
	}
}
