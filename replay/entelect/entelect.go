// Package entelect plays a Worms bot written for the Entelect Challenge
// 2019 runner, unchanged: the bot directory's bot.json says how to start
// it, and each round it reads the round number on standard input and
// the state from rounds/N/state.json (or textMap.txt) in its directory,
// and answers with a line "C;N;command".
package entelect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/worms"
)

// Bot is a bot directory's bot.json, the fields the runner reads.
type Bot struct {
	Language string `json:"botLanguage"`
	Location string `json:"botLocation"` // the bot's directory, within the bot.json's
	FileName string `json:"botFileName"`
	NickName string `json:"nickName"`
	// Arguments' core count is a Haskell bot's +RTS -N.
	Arguments *struct {
		CoreCount int `json:"coreCount"`
	} `json:"arguments"`

	// Dir is where the bot runs and the rounds are written: the bot.json's
	// directory joined with Location.
	Dir string `json:"-"`
}

// maxBotJSON bounds the bot.json read.
const maxBotJSON = 64 << 10

// Load reads dir/bot.json and checks it names a language the runner
// knows and a bot file.
func Load(dir string) (*Bot, error) {
	path := filepath.Join(dir, "bot.json")
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBotJSON+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxBotJSON {
		return nil, fmt.Errorf("%s: longer than %d bytes", path, maxBotJSON)
	}
	var b Bot
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if b.FileName == "" {
		return nil, fmt.Errorf("%s: botFileName is empty", path)
	}
	if _, ok := languages[b.Language]; !ok {
		return nil, fmt.Errorf("%s: botLanguage %q is none the runner knows (%s)", path, b.Language, strings.Join(languageNames(), ", "))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	b.Dir = filepath.Join(abs, b.Location)
	return &b, nil
}

// languages maps botLanguage to the start command the runner used on
// Linux, from the bot's directory. python is 2019.1.0's name, python3
// later releases'.
var languages = map[string]func(b *Bot) ([]string, error){
	"java":       func(b *Bot) ([]string, error) { return []string{"java", "-jar", b.FileName}, nil },
	"scala":      func(b *Bot) ([]string, error) { return []string{"java", "-jar", b.FileName}, nil },
	"dotnetcore": func(b *Bot) ([]string, error) { return []string{"dotnet", b.FileName}, nil },
	"javascript": func(b *Bot) ([]string, error) { return []string{"node", b.FileName}, nil },
	"python":     python,
	"python3":    python,
	"cplusplus":  func(b *Bot) ([]string, error) { return []string{"./" + b.FileName}, nil },
	"rust":       func(b *Bot) ([]string, error) { return []string{"./" + b.FileName}, nil },
	"haskell": func(b *Bot) ([]string, error) {
		argv := []string{"./" + b.FileName}
		if b.Arguments != nil {
			argv = append(argv, "+RTS", "-N"+strconv.Itoa(b.Arguments.CoreCount), "-RTS")
		}
		return argv, nil
	},
}

func languageNames() []string {
	names := make([]string, 0, len(languages))
	for n := range languages {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// python is the runner's choice of interpreter: the first of python3 and
// python found.
func python(b *Bot) ([]string, error) {
	for _, name := range []string{"python3", "python"} {
		if _, err := exec.LookPath(name); err == nil {
			return []string{name, b.FileName}, nil
		}
	}
	return nil, errors.New("no python3 or python on PATH: a Python bot needs Python 3")
}

// Command returns the command line that starts the bot, run in b.Dir.
func (b *Bot) Command() ([]string, error) { return languages[b.Language](b) }

// Fingerprint returns the fingerprint of the bot (replay.FingerprintProtocolIn):
// its start command and the content of its program and bot file.
func (b *Bot) Fingerprint() (string, error) {
	argv, err := b.Command()
	if err != nil {
		return "", err
	}
	return replay.FingerprintProtocolIn("entelect", b.Dir, argv)
}

// dirLocks serialises the rounds of bots sharing a directory (a bot
// playing itself): each seat's state files must stay its own until it
// has answered.
var dirLocks sync.Map // directory → *sync.Mutex

// Agent is a running Entelect bot.
type Agent struct {
	proc  *replay.Process
	dir   string
	final bool
	lock  *sync.Mutex
}

// Start starts the bot of dir for a match of the ruleset (base or
// final), one process for the whole match as the runner. opt's Dir and
// Framing are set here.
func Start(ctx context.Context, dir, ruleset string, opt replay.ProcessOptions) (*Agent, error) {
	b, err := Load(dir)
	if err != nil {
		return nil, err
	}
	argv, err := b.Command()
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(b.Dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("bot directory %s (bot.json's botLocation %q) is not a directory", b.Dir, b.Location)
	}
	opt.Dir, opt.Framing = b.Dir, &framing
	p, err := replay.StartProcess(ctx, argv, opt)
	if err != nil {
		return nil, err
	}
	l, _ := dirLocks.LoadOrStore(b.Dir, new(sync.Mutex))
	return &Agent{proc: p, dir: b.Dir, final: ruleset == "final", lock: l.(*sync.Mutex)}, nil
}

// framing is the runner's: the round number and a newline in, the first
// line starting "C;N;" out. The whole line is the command, which the
// game reads framing included (worms' command rules strip "C;N;").
var framing = replay.Framing{
	Request: func(b []byte, turn int, _ any) []byte {
		return append(strconv.AppendInt(b, int64(turn), 10), '\n')
	},
	Answer: func(line string, turn int) (string, bool) {
		prefix := "C;" + strconv.Itoa(turn) + ";"
		return line, strings.HasPrefix(line, prefix)
	},
}

// Act writes rounds/N/state.json and rounds/N/textMap.txt for the round
// (N is the turn, as rounds count from 1), sends N and waits for the
// answer. The files stay, as the runner leaves them.
func (a *Agent) Act(ctx context.Context, turn int, view any) replay.Answer {
	v, ok := view.(*worms.View)
	if !ok {
		// The recorder hands a Worms match's own views; anything else is a bug.
		panic(fmt.Sprintf("entelect: view %T is not a Worms view", view))
	}
	select {
	case <-a.proc.Exited():
		return a.proc.Act(ctx, turn, view) // no one to read the files
	default:
	}
	a.lock.Lock()
	defer a.lock.Unlock()
	if err := a.write(turn, newState(v, a.final)); err != nil {
		// The bot is not told of a round it has no state for.
		return replay.Answer{Note: sim.EventTimeout, Time: a.proc.Limit(), Output: replay.Output{Stderr: "replaylab: " + err.Error() + "\n"}}
	}
	return a.proc.Act(ctx, turn, view)
}

func (a *Agent) write(turn int, s *state) error {
	round := filepath.Join(a.dir, "rounds", strconv.Itoa(turn))
	if err := os.Mkdir(round, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		if err := os.MkdirAll(round, 0o755); err != nil { // no rounds/ yet
			return fmt.Errorf("write the round's state: %w", err)
		}
	}
	js, err := s.JSON()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(round, "state.json"), js, 0o644); err != nil {
		return fmt.Errorf("write the round's state: %w", err)
	}
	if err := os.WriteFile(filepath.Join(round, "textMap.txt"), []byte(s.Text()), 0o644); err != nil {
		return fmt.Errorf("write the round's state: %w", err)
	}
	return nil
}

// Close ends the bot's process group.
func (a *Agent) Close() replay.Output { return a.proc.Close() }
