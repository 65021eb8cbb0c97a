// Package web is replaylab's dashboard: an Echo server that renders pages
// from embedded html/templates, draws per-turn charts with go-echarts, and
// answers a JSON API under /api/v1 for everything the pages show, plus
// replay upload and download, CSV export and /healthz.
//
// Every asset is embedded, ECharts included, so a page never loads anything
// from another host, and no page has an inline script: data reach the page
// as JSON blocks (<script type="application/json">, which browsers never
// execute) read by the embedded scripts, so the Content-Security-Policy can
// forbid inline scripts altogether.
package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/replaylab/replaylab/analytics"
	"github.com/replaylab/replaylab/regen"
	"github.com/replaylab/replaylab/store"
)

// Config is what the server needs from its caller.
type Config struct {
	DB  *store.DB
	Log *slog.Logger
	// MaxUpload bounds the body of any request, an uploaded replay being
	// the only large one; a larger body is answered with 413.
	MaxUpload int64
	// UploadToken, when not empty, must come with every upload, as
	// "Authorization: Bearer TOKEN" or the form field "token" placed before
	// the replay file. Empty means anyone who can reach the server may
	// upload.
	UploadToken string
	// Addr is the address the server listens on, as net.Listener.Addr
	// gives it (the real port, never 0). Only its names are served: the
	// loopback names on a loopback address, that address on another one,
	// the loopback names and any IP address on a wildcard one (0.0.0.0,
	// [::]). Any other Host gets 421, which defeats DNS rebinding.
	Addr string
	// PublicURLs are further addresses users reach the server by, such as
	// a reverse proxy's "https://replays.example.org": their hosts are
	// served and their origins may upload.
	PublicURLs []string
	// MaxRegenerations bounds the uploads regenerated at once; more get
	// 503 with Retry-After. Zero means the number of CPUs.
	MaxRegenerations int
	// MaxMemory bounds the server's memory: the decoded replays of
	// uploads, inspector cursors, downloads and comparisons hold at most
	// ReplayBudget of it, and work that finds no room waits a moment,
	// then gets 503 with Retry-After. Zero means DefaultMaxMemory; less
	// than MinMaxMemory is an error. The caller sets the Go runtime's
	// limit (GoMemoryLimit).
	MaxMemory int64
	// ForkTimeLimit bounds the wall-clock time of a fork played on the
	// server (POST /api/v1/matches/ID/forks), which holds a regeneration
	// slot throughout: a fork still playing then is stopped, nothing is
	// stored and the client gets 503 naming the turn reached. Zero means
	// DefaultForkTimeLimit.
	ForkTimeLimit time.Duration
	// onForkTurn, when not nil, is called after each turn of a fork played
	// on the server, with the fork's context; tests use it to let the time
	// limit pass at a turn of their choosing.
	onForkTurn func(ctx context.Context, turn int)
	// fits gives the compare page its rating fits; tests set a fake.
	fits fitter
	// pace is the pace of upload bodies, regenerations the slots of
	// uploads being regenerated; tests set their own.
	pace          pace
	regenerations slots
	// Refitter, when not nil, is notified of every stored upload and
	// deleted match; the caller runs it (Refitter.Run) for as long as
	// the server runs. Pages only read the ratings it stores.
	Refitter *analytics.Refitter
	// Fill, when not nil, is a fill of the database running beside the
	// server (serve --demo), whose progress the overview shows.
	Fill *Fill
}

// DefaultMaxUpload is the limit when Config.MaxUpload is zero: far above
// any real replay (a 2000-turn match is a few kilobytes).
const DefaultMaxUpload = 16 << 20

// csp allows scripts, styles, images and requests from the server itself
// only. Scripts are never inline (see the package comment). Styles allow
// 'unsafe-inline' because ECharts writes style attributes into the HTML of
// its tooltips; a style cannot run code. data: and blob: images are the
// charts' "save as image" output.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// server holds what the handlers share.
type server struct {
	db          *store.DB
	log         *slog.Logger
	tpl         *templates
	maxUpload   int64
	uploadToken string
	pace        pace // of upload bodies (see bodyReader)
	// regenerations are the slots of uploads being regenerated.
	regenerations slots
	summaries     summaryCache
	frames        *regen.Frames
	// memory is the budget of every decoded replay the server holds, the
	// frames' cursors included.
	memory *regen.Budget
	// fits gives rating differences; nil means ratings not fitted yet.
	fits  fitter
	refit *analytics.Refitter // nil: nobody to notify
	fill  *Fill               // nil: no fill
	// forkTimeLimit and onForkTurn are Config's ForkTimeLimit and
	// onForkTurn.
	forkTimeLimit time.Duration
	onForkTurn    func(ctx context.Context, turn int)
	turnGzip      echo.MiddlewareFunc // see turnGzip
}

// New builds the dashboard's router: middleware, pages, API and assets. It
// fails when the embedded templates do not parse or one is not registered.
func New(cfg Config) (*echo.Echo, error) {
	if cfg.DB == nil {
		return nil, errors.New("web: no database")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxUpload <= 0 {
		cfg.MaxUpload = DefaultMaxUpload
	}
	if cfg.MaxRegenerations <= 0 {
		cfg.MaxRegenerations = runtime.NumCPU()
	}
	if cfg.regenerations == nil {
		cfg.regenerations = make(slots, cfg.MaxRegenerations)
	}
	if cfg.pace.rate <= 0 {
		cfg.pace = defaultPace
	}
	if cfg.MaxMemory == 0 {
		cfg.MaxMemory = DefaultMaxMemory
	}
	if cfg.ForkTimeLimit <= 0 {
		cfg.ForkTimeLimit = DefaultForkTimeLimit
	}
	if cfg.MaxMemory < MinMaxMemory {
		return nil, fmt.Errorf("web: a memory bound of %s, less than the %s the largest replay needs", formatSize(cfg.MaxMemory), formatSize(MinMaxMemory))
	}
	// Kept inspector cursors may fill half the budget, which leaves the
	// other half to uploads without dropping them.
	memory := regen.NewBudget(ReplayBudget(cfg.MaxMemory), memoryWait)
	guard, err := newHostGuard(cfg.Addr, cfg.PublicURLs)
	if err != nil {
		return nil, err
	}
	tpl, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	zip, err := turnGzip()
	if err != nil {
		return nil, err
	}
	s := &server{turnGzip: zip, db: cfg.DB, log: cfg.Log, tpl: tpl, maxUpload: cfg.MaxUpload, uploadToken: cfg.UploadToken,
		pace: cfg.pace, regenerations: cfg.regenerations, frames: regen.NewFrames(cfg.DB, memory, memory.Limit()/2),
		memory: memory, fits: cfg.fits, refit: cfg.Refitter, fill: cfg.Fill,
		forkTimeLimit: cfg.ForkTimeLimit, onForkTurn: cfg.onForkTurn}
	if s.fits == nil && cfg.Refitter != nil {
		s.fits = cfg.Refitter
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	e.Use(
		middleware.RequestID(),
		middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
			// The error handler runs first so the logged status is the one
			// sent, not the 200 a failed handler leaves behind.
			HandleError: true,
			LogLatency:  true, LogMethod: true, LogURI: true, LogStatus: true,
			LogRequestID: true, LogRemoteIP: true, LogResponseSize: true,
			LogValuesFunc: s.logRequest,
		}),
		middleware.RecoverWithConfig(middleware.RecoverConfig{
			// The stack goes to slog once, through the error handler's 500.
			DisablePrintStack: true,
		}),
		middleware.SecureWithConfig(middleware.SecureConfig{
			ContentTypeNosniff:    "nosniff",
			XFrameOptions:         "DENY",
			ReferrerPolicy:        "same-origin",
			ContentSecurityPolicy: csp,
		}),
		// Before any handler, so a refused request reads nothing. The
		// upload caps its own body (see upload).
		guard.checkHost,
		guard.checkOrigin,
		newPageCache(cfg.DB, cfg.Fill).keep,
		middleware.GzipWithConfig(middleware.GzipConfig{MinLength: 1024, Skipper: func(c echo.Context) bool { return c.Path() == turnRoute }}),
	)
	s.routes(e)
	return e, nil
}

// turnRoute is the inspector's turn API. Playback asks for it every step,
// and compressing a turn at the default level cost more than
// regenerating it (40% of a career fair turn's CPU time), so turns are
// compressed by turnGzip instead.
const turnRoute = "/api/v1/matches/:id/turns/:n"

// turnGzip compresses the answers of turnRoute at klauspost/compress's
// fastest gzip level: a career fair turn of 24 KB takes a third of the
// standard library's fastest level's time and comes out smaller (6.4 KB
// against 6.9). An error is written inside the compressing writer, which
// is closed when the handler returns.
func turnGzip() (echo.MiddlewareFunc, error) {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(1024), gzhttp.CompressionLevel(gzip.BestSpeed), gzhttp.EnableZstd(false))
	if err != nil {
		return nil, err
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			res := c.Response()
			w := res.Writer
			defer func() { res.Writer = w }()
			wrap(http.HandlerFunc(func(gw http.ResponseWriter, r *http.Request) {
				res.Writer = gw
				c.SetRequest(r)
				if err := next(c); err != nil {
					c.Error(err)
				}
			})).ServeHTTP(w, c.Request())
			return nil
		}
	}, nil
}

// routes registers every page, API endpoint and asset.
func (s *server) routes(e *echo.Echo) {
	e.GET("/", s.overviewPage)
	e.GET("/matches", s.matchesPage)
	e.GET("/matches/:id", s.matchPage)
	e.GET("/matches/:id/duplicate", s.duplicatePage)
	e.GET("/matches/:id/turns/:n", s.inspectorPage)
	e.GET("/matches/:id/branch", s.branchPage)
	e.GET("/matches/:id/charts/:metric", s.matchChart)
	e.GET("/matches/:id/times/chart", s.timesChartData)
	e.GET("/matches/:id/branch/charts/:metric", s.branchMetric)
	e.GET("/bots", s.botsPage)
	e.GET("/bots/:game/:name", s.botPage)
	e.GET("/headtohead/:game/:ruleset", s.h2hPage)
	e.GET("/compare", s.comparePage)
	e.POST("/upload", s.uploadForm)
	e.GET("/healthz", s.healthz)

	api := e.Group("/api/v1")
	api.GET("/games", s.apiGames)
	api.GET("/matches", s.apiMatches)
	api.GET("/matches/:id", s.apiMatch)
	api.GET("/matches/:id/series/:metric", s.apiSeries)
	api.GET(strings.TrimPrefix(turnRoute, "/api/v1"), s.apiTurn, s.turnGzip)
	api.GET("/matches/:id/turns/:n/view", s.apiSeatView)
	api.GET("/matches/:id/events", s.apiEvents)
	api.GET("/matches/:id/times", s.apiTimes)
	api.GET("/matches/:id/replay.rpl", s.apiReplayBinary)
	api.GET("/matches/:id/replay.rlog", s.apiReplayText)
	api.GET("/matches/:id/turns.csv", s.apiTurnsCSV)
	api.GET("/matches/:id/critical", s.apiCritical)
	api.GET("/matches/:id/branch", s.apiBranch)
	api.GET("/bots", s.apiBots)
	api.GET("/bots/:game/:name", s.apiBot)
	api.GET("/headtohead", s.apiHeadToHead)
	api.GET("/compare", s.apiCompare)
	api.GET("/bots/:game/:name/ratings", s.apiBotRatings)
	api.GET("/ratings", s.apiRatings)
	api.POST("/replays", s.apiUpload)
	api.POST("/matches/:id/forks", s.apiFork)
	api.DELETE("/matches/:id", s.apiDelete)

	static, err := fs.Sub(assets, "static")
	if err != nil {
		panic(fmt.Sprintf("web: embedded static files: %v", err)) // the embed pattern guarantees the directory
	}
	e.Group("/static", cacheStatic).StaticFS("/", static)
}

// logRequest writes one slog line per request: at debug level for an
// answered request or a client that went away (499), so that a normal run
// is quiet; info for a refused one (4xx: a bad upload, a missing token, a
// cross-site write, a foreign Host); warn for a busy server (503); error
// for any other server fault.
func (s *server) logRequest(c echo.Context, v middleware.RequestLoggerValues) error {
	level := slog.LevelDebug
	switch {
	case v.Status == statusClientClosed:
	case v.Status == http.StatusServiceUnavailable:
		level = slog.LevelWarn
	case v.Status >= 500:
		level = slog.LevelError
	case v.Status >= 400:
		level = slog.LevelInfo
	}
	s.log.LogAttrs(c.Request().Context(), level, "request",
		slog.String("method", v.Method), slog.String("uri", v.URI), slog.Int("status", v.Status),
		slog.Duration("latency", v.Latency), slog.Int64("bytes", v.ResponseSize),
		slog.String("remote", v.RemoteIP), slog.String("request_id", v.RequestID))
	return nil
}

// healthz answers 200 while the database can take a write, and 503 with
// the reason when it cannot (store.DB.Health: read-only, disk full, write
// lock held elsewhere).
func (s *server) healthz(c echo.Context) error {
	if err := s.db.Health(c.Request().Context()); err != nil {
		s.log.Warn("health check failed", "err", err)
		return c.String(http.StatusServiceUnavailable, err.Error()+"\n")
	}
	return c.String(http.StatusOK, "ok\n")
}
