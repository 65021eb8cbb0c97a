// Package codenjoy plays a Snake seat with a bot written for codenjoy's
// CodeBattle server, unchanged: the bot connects to a websocket endpoint
// of ours as it would to the contest's, gets "board=" and its board each
// tick and answers with one text frame, read by the ruleset's own command
// rules.
//
// Each seat has its own endpoint on loopback, on a port of its own, at
// Path with the seat's user and code in the query. Its address is handed
// to the bot in the form the CodeBattle clients take from the contest's
// page, BoardURL, which they turn into the websocket address themselves.
package codenjoy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/sim/snake"
)

const (
	// Path is where the endpoint accepts the bot's websocket, as the
	// contest server's: /codenjoy-contest/ws?user=ID&code=CODE.
	Path = "/codenjoy-contest/ws"
	// Placeholder is the argument text replaced with the board URL in the
	// bot's command line.
	Placeholder = "{url}"
	// EnvURL is the environment variable that holds the board URL too, for
	// a bot that reads its address there rather than from its arguments.
	EnvURL = "CODENJOY_URL"
	// boardPrefix starts every frame the server sends.
	boardPrefix = "board="
	// maxFrame bounds a frame from the bot. A longer one ends the
	// connection (the bot counts as crashed); one longer than
	// replay.MaxCommandBytes is cut and noted oversize.
	maxFrame = 1 << 20
	// lastWords is how long a turn waits for the output of a bot whose
	// connection ended, as replay.Process waits for a dead bot's.
	lastWords = 200 * time.Millisecond
)

// Options configure a codenjoy bot.
type Options struct {
	Seat int
	// TurnLimit is the time the bot has to answer one board, StartLimit
	// the time it has to connect and answer its first.
	TurnLimit, StartLimit time.Duration
	// Argv is the bot's command line, in which every Placeholder is
	// replaced with the board URL. Empty: no process is started; Start
	// writes the URL to Announce and waits for a bot started by hand.
	Argv     []string
	Announce io.Writer
}

// Bot is a seat's endpoint and, unless it listens for a bot started by
// hand, the bot's process.
type Bot struct {
	url    string
	srv    *http.Server
	served chan struct{} // closed when srv.Serve has returned
	proc   *replay.Process
	limit  time.Duration
	first  time.Duration

	life context.Context // the connection's; Close cancels it
	stop context.CancelFunc

	conn      chan *websocket.Conn // the bot's connection, once
	ws        *websocket.Conn
	connEnded chan struct{} // closed when the connection has ended

	mu      sync.Mutex
	claimed bool    // a connection was accepted: no other is
	waiting bool    // a board is out and its answer is not in
	answer  *string // the first text frame after the board
	wake    chan struct{}

	answered bool // the first board was answered or timed out
	dead     bool

	close sync.Once
	last  replay.Output // Close's
}

// Start opens the seat's endpoint, starts the bot (or announces the URL)
// and waits until the bot has connected, within the start limit. A bot
// that does not connect is a start error, naming the URL it was given.
func Start(ctx context.Context, opt Options) (*Bot, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("codenjoy endpoint: %w", err)
	}
	user, code := fmt.Sprintf("seat%d", sim.SeatNumber(opt.Seat)), randomCode()
	life, stop := context.WithCancel(context.Background())
	b := &Bot{
		url:    BoardURL(ln.Addr().String(), user, code),
		served: make(chan struct{}),
		limit:  opt.TurnLimit, first: max(opt.StartLimit, opt.TurnLimit),
		life: life, stop: stop,
		conn: make(chan *websocket.Conn, 1), connEnded: make(chan struct{}),
		wake: make(chan struct{}, 1),
	}
	mux := http.NewServeMux()
	mux.HandleFunc(Path, func(w http.ResponseWriter, r *http.Request) { b.serve(w, r, user, code) })
	b.srv = &http.Server{
		Handler: mux, ReadHeaderTimeout: opt.StartLimit, MaxHeaderBytes: 16 << 10,
		ErrorLog: log.New(io.Discard, "", 0), // a bad handshake is the bot's trouble, told by its start error
	}
	go func() {
		defer close(b.served)
		b.srv.Serve(ln)
	}()
	var exited <-chan struct{}
	if len(opt.Argv) > 0 {
		argv := make([]string, len(opt.Argv))
		for i, a := range opt.Argv {
			argv[i] = strings.ReplaceAll(a, Placeholder, b.url)
		}
		b.proc, err = replay.StartProcess(ctx, argv, replay.ProcessOptions{
			Seat: opt.Seat, TurnLimit: opt.TurnLimit, StartLimit: opt.StartLimit,
			Env: []string{EnvURL + "=" + b.url},
		})
		if err != nil {
			b.Close()
			return nil, err
		}
		exited = b.proc.Exited()
	} else if opt.Announce != nil {
		fmt.Fprintf(opt.Announce, "%s: waiting %v for a codenjoy bot at %s\n", sim.SeatName(opt.Seat), opt.StartLimit, b.url)
	}
	timer := time.NewTimer(opt.StartLimit)
	defer timer.Stop()
	select {
	case b.ws = <-b.conn:
		return b, nil
	case <-exited:
		select {
		case b.ws = <-b.conn: // connected, then exited: its first turn tells
			return b, nil
		default:
		}
		err = fmt.Errorf("the codenjoy bot exited without connecting to %s", b.url)
	case <-timer.C:
		err = fmt.Errorf("no codenjoy bot connected to %s within %v (--start-timeout)", b.url, opt.StartLimit)
	case <-ctx.Done():
		err = fmt.Errorf("waiting for a codenjoy bot: %w", context.Cause(ctx))
	}
	if out := b.Close(); out.Stderr != "" {
		err = fmt.Errorf("%w; its stderr: %s", err, sim.Clip(strings.TrimSpace(out.Stderr), 400))
	}
	return nil, err
}

// BoardURL is the address of a player's board page on the contest server
// at host (HOST:PORT), the form the CodeBattle clients take and turn into
// the websocket address ws://HOST:PORT/codenjoy-contest/ws?user=ID&code=CODE.
func BoardURL(host, user, code string) string {
	return "http://" + host + "/codenjoy-contest/board/player/" + user + "?code=" + code
}

// URL returns the board URL the bot was given.
func (b *Bot) URL() string { return b.url }

// randomCode draws the seat's code, so only the bot given the URL plays
// the seat.
func randomCode() string {
	var c [8]byte
	rand.Read(c[:])
	return hex.EncodeToString(c[:])
}

// serve accepts the first websocket from loopback with the seat's user
// and code, then reads its frames until it ends; it refuses any other.
func (b *Bot) serve(w http.ResponseWriter, r *http.Request, user, code string) {
	if ip, _, err := net.SplitHostPort(r.RemoteAddr); err != nil || !net.ParseIP(ip).IsLoopback() {
		http.Error(w, "only loopback clients may play", http.StatusForbidden)
		return
	}
	q := r.URL.Query()
	if q.Get("user") != user || q.Get("code") != code {
		http.Error(w, "wrong user or code for this seat", http.StatusForbidden)
		return
	}
	b.mu.Lock()
	taken := b.claimed
	b.claimed = true
	b.mu.Unlock()
	if taken {
		http.Error(w, "this seat's bot is already connected", http.StatusConflict)
		return
	}
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		b.mu.Lock()
		b.claimed = false // a failed handshake may be tried again
		b.mu.Unlock()
		return
	}
	ws.SetReadLimit(maxFrame)
	b.conn <- ws
	b.read(ws)
}

// read takes the first text frame after each board as its answer and
// drops the others (a bot's frames before a board, after its answer, or
// not text), so a flood holds nothing. It returns when the connection
// ends.
func (b *Bot) read(ws *websocket.Conn) {
	defer close(b.connEnded)
	for {
		typ, data, err := ws.Read(b.life)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		b.mu.Lock()
		if b.waiting && b.answer == nil {
			s := string(data)
			b.answer = &s
			select {
			case b.wake <- struct{}{}:
			default:
			}
		}
		b.mu.Unlock()
	}
}

// Frame is the text frame the server sends a seat whose view is v:
// "board=" and the board as the seat sees it, its own snake in own
// glyphs.
func Frame(v *snake.View) string { return boardPrefix + v.Board.String() }

// Act sends the board, unless the bot has not answered the last one (as
// the contest server, which sends no board to a bot it awaits), and takes
// the first text frame within the turn limit as the command. A late
// answer is the command of the turn it comes in.
func (b *Bot) Act(ctx context.Context, _ int, view any) replay.Answer {
	if b.dead {
		return replay.Answer{Output: b.output()}
	}
	v, ok := view.(*snake.View)
	if !ok {
		// newAgent seats codenjoy bots in Snake matches only.
		panic(fmt.Sprintf("codenjoy: a %T view, not a Snake one", view))
	}
	limit := b.limit
	if !b.answered {
		limit = b.first
	}
	b.answered = true
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	b.mu.Lock()
	send := !b.waiting
	b.waiting = true
	b.mu.Unlock()
	if send {
		// A write fails when the connection has ended, or when the bot
		// reads nothing for a whole turn: the library then ends it.
		if err := b.ws.Write(ctx, websocket.MessageText, []byte(Frame(v))); err != nil {
			return b.crash(start)
		}
	}
	for {
		b.mu.Lock()
		a := b.answer
		if a != nil {
			b.waiting, b.answer = false, nil
		}
		b.mu.Unlock()
		if a != nil {
			ans := b.command(*a)
			ans.Time = max(time.Since(start), time.Microsecond)
			return ans
		}
		select {
		case <-b.wake:
		case <-b.connEnded:
			return b.crash(start)
		case <-ctx.Done():
			return replay.Answer{Note: sim.EventTimeout, Time: limit, Output: b.output()}
		}
	}
}

// command is the answer of a text frame: cut to replay.MaxCommandBytes
// (noted oversize) and made valid UTF-8.
func (b *Bot) command(frame string) replay.Answer {
	a := replay.Answer{Command: strings.ToValidUTF8(frame, "\uFFFD"), Output: b.output()}
	if cut := replay.CutCommand(a.Command); len(cut) < len(a.Command) {
		a.Command, a.Note = cut, sim.EventOversize
	}
	return a
}

// crash ends the seat's play: the connection ended or failed. The bot's
// process, if any, has a moment for its last words.
func (b *Bot) crash(start time.Time) replay.Answer {
	took := max(time.Since(start), time.Microsecond)
	b.dead = true
	if b.proc != nil {
		select {
		case <-b.proc.Exited():
		case <-time.After(lastWords):
		}
	}
	return replay.Answer{Note: sim.EventCrash, Time: took, Output: b.output()}
}

// output is what the bot's process wrote since the last turn.
func (b *Bot) output() replay.Output {
	if b.proc == nil {
		return replay.Output{}
	}
	return b.proc.TakeOutput()
}

// Close ends the connection, the endpoint and the bot's process group
// (as replay.Process.Close does) and returns the output of the last turn.
// It is safe on a Bot that Start has not finished, and called again it
// returns the same output.
func (b *Bot) Close() replay.Output {
	b.close.Do(func() { b.last = b.end() })
	return b.last
}

func (b *Bot) end() replay.Output {
	b.stop() // ends the connection (its reader returns): the bot sees the server go
	b.srv.Close()
	<-b.served
	if b.ws == nil {
		select {
		case b.ws = <-b.conn: // connected as Start gave up
		default:
		}
	}
	if b.ws != nil {
		b.ws.CloseNow()
		<-b.connEnded
	}
	if b.proc == nil {
		return replay.Output{}
	}
	return b.proc.Close()
}
