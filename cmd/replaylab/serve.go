package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/labstack/gommon/bytes"
	"github.com/spf13/cobra"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/store"
	"github.com/replaylab/replaylab/web"
)

// tokenEnv is the environment variable that may hold the upload token, so
// it need not appear in the process list.
const tokenEnv = "REPLAYLAB_UPLOAD_TOKEN"

type serveFlags struct {
	addr, dbPath, maxUpload, token, logLevel string
	maxMemory                                string
	publicURLs                               []string
	maxRegenerations                         int
	forkTimeLimit                            time.Duration
	demo, allowAnonymous                     bool
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--db FILE] [--demo]",
		Short: "Serve the dashboard and the JSON API",
		Long: `Serve the dashboard (overview, match list, charts, turn inspector, bot
leaderboards) and the JSON API under /api/v1 until interrupted.

--demo fills an empty database with matches between the built-in bots of
every game (the first ones with the debug drawings of the bots that draw),
and one recorded match of the starter bot (docs/examples/first_bot.py)
with its debug drawings and answer times, in the background: the
dashboard answers at once and its overview shows how far the fill is. A database that already has matches
is left as it is.

Uploads need a token when the server listens on an address other than
loopback: --upload-token or ` + tokenEnv + `, sent as
"Authorization: Bearer TOKEN" or the upload form's token field. Without one
such a server refuses to start unless --allow-anonymous-upload is given.

Only the names of the listening address are served, so that no other site
can reach the dashboard through DNS rebinding: 127.0.0.1, localhost and
[::1] on a loopback address, the address itself on another one, and on a
wildcard address (0.0.0.0, [::]) the loopback names and any IP address.
Any other Host gets 421: give each name users reach the server by with
--public-url (a reverse proxy's address too). Uploads sent by the page of
another site (Sec-Fetch-Site other than same-origin or none, or an Origin
that is neither the server's nor a --public-url) get 403; curl and scripts,
which send neither header, are not affected.`,
		Example: `  replaylab serve --demo
  ` + tokenEnv + `=s3cret replaylab serve --addr 0.0.0.0:8080 --db matches.db \
    --public-url http://replays.lan:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.token == "" {
				f.token = os.Getenv(tokenEnv)
			}
			return serve(cmd.Context(), &f, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fl.StringVar(&f.dbPath, "db", "replaylab.db", "database: an SQLite file (created if missing) or a postgres:// URL")
	fl.BoolVar(&f.demo, "demo", false, "fill an empty database with demo matches between built-in bots")
	fl.StringVar(&f.maxUpload, "max-upload", "16MiB", "largest request body (uploaded replay) accepted; larger gets 413")
	fl.StringVar(&f.token, "upload-token", "", "token uploads must carry (default $"+tokenEnv+")")
	fl.BoolVar(&f.allowAnonymous, "allow-anonymous-upload", false, "allow uploads without a token on a non-loopback address")
	fl.StringSliceVar(&f.publicURLs, "public-url", nil, "`URL` users reach the server by, such as https://replays.example.org (repeatable or comma-separated): its host is served and its origin may upload")
	fl.IntVar(&f.maxRegenerations, "max-regenerations", runtime.NumCPU(), "uploads regenerated at once; more get 503 with Retry-After")
	fl.DurationVar(&f.forkTimeLimit, "fork-time-limit", web.DefaultForkTimeLimit, "longest a fork played on the server (POST /api/v1/matches/ID/forks) may take; one still playing then is stopped, stores nothing and gets 503 naming the turn reached")
	fl.StringVar(&f.maxMemory, "max-memory", fmt.Sprintf("%dMiB", web.DefaultMaxMemory>>20), "memory the server may use: uploads, views and downloads that would take more wait a moment, then get 503 with Retry-After; also the Go runtime's limit unless GOMEMLIMIT is set")
	fl.StringVar(&f.logLevel, "log-level", "info", "least important log lines shown: debug (one line per request), info, warn or error")
	return cmd
}

// isLoopback reports whether addr (host:port) listens on loopback only.
// An empty host or 0.0.0.0 listens everywhere; a host name other than
// localhost is taken as reachable from outside, the safe assumption.
func isLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("--addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

func serve(ctx context.Context, f *serveFlags, stdout, stderr io.Writer) error {
	maxUpload, level, err := checkServeFlags(f)
	if err != nil {
		return err
	}
	maxMemory, err := parseMaxMemory(f)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	defer limitMemory(maxMemory, log)()

	// The port first: a busy one fails at once, before any other work.
	// The handler's Host checks need the real port (--addr may say 0);
	// connections wait in the listener's backlog until the server starts.
	ln, err := listen(f.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	db, err := store.Open(ctx, f.dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	var fill *web.Fill
	if f.demo {
		fill = new(web.Fill)
	}
	refit := analytics.NewRefitter(db, log)
	handler, err := web.New(web.Config{DB: db, Log: log, MaxUpload: maxUpload, UploadToken: f.token,
		Addr: ln.Addr().String(), PublicURLs: f.publicURLs, MaxRegenerations: f.maxRegenerations, MaxMemory: maxMemory,
		ForkTimeLimit: f.forkTimeLimit, Refitter: refit, Fill: fill})
	if err != nil {
		return err
	}
	if err := restoreMatches(ctx, db, f.dbPath, stdout, stderr); err != nil {
		return err
	}
	var demo []demoMatch
	if f.demo {
		if demo, err = demoToRecord(ctx, db, stdout); err != nil {
			return err
		}
		// Started before the server answers, so that its first page
		// shows the fill.
		if len(demo) > 0 {
			fill.Start(len(demo))
		}
	}
	// The refitter's first pass rates the rulesets whose stored matches
	// changed since their saved fit (restored ones, or matches written
	// while no server ran), then it takes over the other saved fits, so
	// that a new match updates a fit in memory; the demo fill notifies it
	// when done. Both stop before the database closes (deferred above, so
	// it runs after this).
	bgCtx, stopBackground := context.WithCancel(ctx)
	var background sync.WaitGroup
	defer func() {
		stopBackground()
		background.Wait()
	}()
	background.Go(func() { refit.Run(bgCtx) })
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		// Long enough for a 16 MiB upload on a slow link; a stuck client
		// does not hold a connection forever.
		ReadTimeout:  2 * time.Minute,
		WriteTimeout: 2 * time.Minute,
		IdleTimeout:  2 * time.Minute,
		ErrorLog:     slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		// Requests inherit ctx, so on Ctrl-C an upload being regenerated
		// stops within a turn instead of holding up the shutdown.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	printURLs(stdout, ln.Addr(), store.DisplayName(f.dbPath))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if len(demo) > 0 {
		// The demo fills while the server answers: pages show what is
		// stored so far and the overview the progress.
		background.Go(func() {
			if fillDemo(bgCtx, db, demo, fill, stdout, stderr) {
				refit.Notify()
			}
		})
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// Finish the requests in flight, then close the database (deferred).
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listen binds addr, saying plainly when another process holds the port.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		_, port, _ := net.SplitHostPort(addr)
		return nil, fmt.Errorf("listen on %s: the port is in use by another process (another replaylab serve?); "+
			"find it with \"ss -ltnp 'sport = :%s'\" or \"lsof -i :%s\", or choose another --addr", addr, port, port)
	}
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// maxURLsShown bounds the machine's addresses printed for a wildcard
// listener: a host with many interfaces would fill the screen.
const maxURLsShown = 4

// printURLs says where the dashboard is. A wildcard address (0.0.0.0,
// [::]) is no address a browser can open: it gets localhost instead, and
// the machine's own addresses, which other machines reach it by.
func printURLs(w io.Writer, addr net.Addr, dbPath string) {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil { // a TCP listener's address always splits
		host, port = addr.String(), ""
	}
	ip := net.ParseIP(host)
	wildcard := ip != nil && ip.IsUnspecified()
	if wildcard {
		host = "localhost"
	}
	fmt.Fprintf(w, "replaylab dashboard on %s (database %s); Ctrl-C stops it\n", hostURL(host, port), dbPath)
	if !wildcard {
		return
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return // the localhost URL is enough
	}
	var others []string
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok || n.IP.IsLoopback() || n.IP.IsLinkLocalUnicast() || (ip.To4() != nil && n.IP.To4() == nil) {
			continue
		}
		if others = append(others, hostURL(n.IP.String(), port)); len(others) == maxURLsShown {
			break
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(w, "other machines may reach it on %s\n", strings.Join(others, " "))
	}
}

// hostURL is the dashboard's URL on host and port.
func hostURL(host, port string) string {
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// checkServeFlags refuses flags that make no sense before anything is
// opened, and an address other machines can reach without an upload token
// unless anonymous uploads were asked for.
func checkServeFlags(f *serveFlags) (maxUpload int64, level slog.Level, err error) {
	maxUpload, err = bytes.Parse(f.maxUpload)
	if err != nil || maxUpload <= 0 {
		return 0, 0, fmt.Errorf("--max-upload %q: want a size such as 16MiB or 500KB", f.maxUpload)
	}
	loopback, err := isLoopback(f.addr)
	if err != nil {
		return 0, 0, err
	}
	if !loopback && f.token == "" && !f.allowAnonymous {
		return 0, 0, fmt.Errorf("%s is reachable from other machines: give an --upload-token (or set %s), or --allow-anonymous-upload to let anyone upload", f.addr, tokenEnv)
	}
	if f.maxRegenerations < 1 {
		return 0, 0, fmt.Errorf("--max-regenerations %d: want at least 1", f.maxRegenerations)
	}
	if f.forkTimeLimit <= 0 {
		return 0, 0, fmt.Errorf("--fork-time-limit %v: want a positive duration such as 30s", f.forkTimeLimit)
	}
	if err := level.UnmarshalText([]byte(f.logLevel)); err != nil {
		return 0, 0, fmt.Errorf("--log-level %q: want debug, info, warn or error", f.logLevel)
	}
	return maxUpload, level, nil
}

// parseMaxMemory reads --max-memory.
func parseMaxMemory(f *serveFlags) (int64, error) {
	n, err := bytes.Parse(f.maxMemory)
	if err != nil || n < web.MinMaxMemory {
		return 0, fmt.Errorf("--max-memory %q: want a size of at least %dMiB, such as 512MiB or 2GiB", f.maxMemory, web.MinMaxMemory>>20)
	}
	return n, nil
}

// limitMemory sets the Go runtime's soft memory limit under --max-memory
// (web.GoMemoryLimit) and returns the undoing of it. Without a limit the
// collector lets the heap grow to twice what is live before it runs, which
// alone would double the server's memory. A GOMEMLIMIT in the environment
// is the operator's word on the runtime and is left to rule it; the budget
// of replays still follows --max-memory.
func limitMemory(maxMemory int64, log *slog.Logger) (undo func()) {
	if v := os.Getenv("GOMEMLIMIT"); v != "" {
		log.Info("the Go runtime's memory limit follows GOMEMLIMIT, not --max-memory", "GOMEMLIMIT", v)
		return func() {}
	}
	old := debug.SetMemoryLimit(web.GoMemoryLimit(maxMemory))
	return func() { debug.SetMemoryLimit(old) }
}

// restoreMatches regenerates the stored replays that have no match: a
// database written before the current schema keeps its replays when it is
// opened, but loses the matches it could not convert, and the dashboard
// would show them missing. A replay that fails is reported and skipped.
func restoreMatches(ctx context.Context, db *store.DB, dbPath string, stdout, stderr io.Writer) error {
	ids, err := db.UnmatchedReplays(ctx)
	if err != nil || len(ids) == 0 {
		return err
	}
	fmt.Fprintf(stdout, "%d stored replays have no match (the database was written by an older build): regenerating them\n", len(ids))
	_, err = ingestAll(ctx, db, dbPath, ids, "stored replays", storedReplay(db), stdout, stderr)
	return err
}
