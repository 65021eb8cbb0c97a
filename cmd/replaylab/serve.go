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
	publicURLs                               []string
	maxRegenerations                         int
	demo, allowAnonymous                     bool
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--db FILE] [--demo]",
		Short: "Serve the dashboard and the JSON API",
		Long: `Serve the dashboard (overview, match list, charts, turn inspector, bot
leaderboards) and the JSON API under /api/v1 until interrupted.

--demo first fills an empty database with matches between the built-in bots
of every game; a database that already has matches is left as it is.

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
	fl.StringVar(&f.dbPath, "db", "replaylab.db", "SQLite database file (created if missing)")
	fl.BoolVar(&f.demo, "demo", false, "fill an empty database with demo matches between built-in bots")
	fl.StringVar(&f.maxUpload, "max-upload", "16MiB", "largest request body (uploaded replay) accepted; larger gets 413")
	fl.StringVar(&f.token, "upload-token", "", "token uploads must carry (default $"+tokenEnv+")")
	fl.BoolVar(&f.allowAnonymous, "allow-anonymous-upload", false, "allow uploads without a token on a non-loopback address")
	fl.StringSliceVar(&f.publicURLs, "public-url", nil, "`URL` users reach the server by, such as https://replays.example.org (repeatable or comma-separated): its host is served and its origin may upload")
	fl.IntVar(&f.maxRegenerations, "max-regenerations", runtime.NumCPU(), "uploads regenerated at once; more get 503 with Retry-After")
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
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	db, err := store.Open(ctx, f.dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	// The listener comes before the handler, whose Host checks need the
	// real port (--addr may say 0); connections wait in its backlog until
	// the server starts.
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	refit := analytics.NewRefitter(db, log)
	handler, err := web.New(web.Config{DB: db, Log: log, MaxUpload: maxUpload, UploadToken: f.token,
		Addr: ln.Addr().String(), PublicURLs: f.publicURLs, MaxRegenerations: f.maxRegenerations, Refitter: refit})
	if err != nil {
		return err
	}
	if err := restoreMatches(ctx, db, f.dbPath, stdout, stderr); err != nil {
		return err
	}
	if f.demo {
		if err := fillDemo(ctx, db, stdout, stderr); err != nil {
			return err
		}
	}
	// The refitter's first pass rates every stored match: those of
	// earlier runs, restored or added by --demo just now. It stops before
	// the database closes (deferred above, so it runs after this).
	refitCtx, stopRefit := context.WithCancel(ctx)
	refitDone := make(chan struct{})
	go func() {
		refit.Run(refitCtx)
		close(refitDone)
	}()
	defer func() {
		stopRefit()
		<-refitDone
	}()
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
	fmt.Fprintf(stdout, "replaylab dashboard on http://%s/ (database %s); Ctrl-C stops it\n", ln.Addr(), f.dbPath)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
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
	if err := level.UnmarshalText([]byte(f.logLevel)); err != nil {
		return 0, 0, fmt.Errorf("--log-level %q: want debug, info, warn or error", f.logLevel)
	}
	return maxUpload, level, nil
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
