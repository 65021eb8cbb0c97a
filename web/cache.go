package web

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/store"
)

// summaryCacheSize bounds the match summaries kept in memory (about a
// kilobyte each).
const summaryCacheSize = 4096

// summaryCache keeps the summaries of recently requested matches, because
// every match route starts by finding its match and that lookup is most of
// the cost of the small ones (a summary, a turn). A stored match never
// changes: its id is the hash of its replay and nothing updates a stored
// match. It can be deleted, though, by this server (forget) or by another
// process writing the file, so a kept summary is served only while its
// match is stored (store.DB.HasMatch: one lookup of the id's index, far
// cheaper than the summary).
//
// Entries are keyed by the id as requested. Only ids of shortIDLen digits
// or more are kept: the short ids pages link to, and full ids. A shorter
// prefix can become ambiguous when a new match shares it, so it is always
// resolved by the store; a 16-digit prefix would need two ids to share 64
// bits.
type summaryCache struct {
	mu sync.Mutex
	m  map[string]store.MatchSummary
}

// match returns the summary of the match id names, from memory or from
// the store. Callers must not modify the returned summary's slices.
func (c *summaryCache) match(ctx context.Context, db *store.DB, id string) (store.MatchSummary, error) {
	key := strings.ToLower(id)
	cacheable := len(key) >= shortIDLen
	if cacheable {
		c.mu.Lock()
		m, ok := c.m[key]
		c.mu.Unlock()
		if ok {
			stored, err := db.HasMatch(ctx, m.ID)
			if err != nil || stored {
				return m, err
			}
			c.forget(m.ID)
		}
	}
	m, err := db.Match(ctx, id)
	if err != nil || !cacheable {
		return m, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]store.MatchSummary)
	}
	if len(c.m) >= summaryCacheSize {
		for k := range c.m { // evict an arbitrary entry: map order is random
			delete(c.m, k)
			break
		}
	}
	c.m[key] = m
	return m, nil
}

// forget drops the summary of the match id, a full id, under every key
// that names it.
func (c *summaryCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		if strings.HasPrefix(id, k) {
			delete(c.m, k)
		}
	}
}

// keptPages are the routes whose answers pageCache keeps: the pages and
// API answers that show nothing but what derives from the stored matches
// and rating fits, and are asked for often (the leaderboards on every
// visit). Each route's answer depends only on its URL.
var keptPages = []string{
	"/",
	"/bots",
	"/bots/:game/:name",
	"/headtohead/:game/:ruleset",
	"/api/v1/bots",
	"/api/v1/bots/:game/:name",
	"/api/v1/bots/:game/:name/ratings",
	"/api/v1/headtohead",
	"/api/v1/ratings",
}

// pageCacheBytes bounds the memory the kept answers' bodies take,
// maxKeptPage one answer (a head-to-head board of maxMatrixBots versions
// is about 400 kB before compression), and pageCacheEntries their number,
// which a client asking for many tiny answers (an unknown ?game=) would
// otherwise grow.
const (
	pageCacheBytes   = 32 << 20
	maxKeptPage      = 4 << 20
	pageCacheEntries = 1024
)

// pageCache keeps the answers of keptPages as they were sent, headers and
// compressed body, because rendering and compressing a leaderboard of
// hundreds of rows is most of what it costs.
//
// An answer is kept with the store's data version (store.DB.DataVersion)
// read before it was rendered, and served from memory only to a request
// that reads the same version: storing or deleting a match, by this server
// or any other process writing the file, and saving a rating fit change
// it, so a kept answer is never older than the data. Reading the version
// costs one row; the cache holds one version's answers at a time.
type pageCache struct {
	db     *store.DB
	routes map[string]bool // of keptPages
	// fill, while it runs, changes the pages faster than they are asked
	// for, the overview's progress without a data version: none is kept.
	fill *Fill

	mu      sync.Mutex
	version int64 // of every answer in pages
	pages   map[pageKey]*sentPage
	size    int // bytes of the answers' bodies
}

// pageKey names an answer: the request's path and query, and whether the
// client takes gzip, which the answer's body is in then.
type pageKey struct {
	uri  string
	gzip bool
}

// sentPage is an answer as the handler and the compression wrote it.
type sentPage struct {
	header http.Header // the headers the handler and compression set
	body   []byte
}

func newPageCache(db *store.DB, fill *Fill) *pageCache {
	pc := &pageCache{db: db, routes: map[string]bool{}, fill: fill}
	for _, r := range keptPages {
		pc.routes[r] = true
	}
	return pc
}

// keep is the middleware that answers keptPages from memory or keeps
// their answers. It must come before the compression, whose output it
// keeps.
func (pc *pageCache) keep(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Method != http.MethodGet || !pc.routes[c.Path()] || pc.fill.state().Running {
			return next(c)
		}
		v, err := pc.db.DataVersion(req.Context())
		if err != nil {
			return err
		}
		key := pageKey{req.URL.RequestURI(), strings.Contains(req.Header.Get(echo.HeaderAcceptEncoding), "gzip")}
		if p, ok := pc.get(key, v); ok {
			return p.send(c.Response())
		}
		p, err := record(c, next)
		if p != nil {
			pc.put(key, v, p)
		}
		return err
	}
}

func (pc *pageCache) get(key pageKey, version int64) (*sentPage, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	p, ok := pc.pages[key]
	return p, ok && pc.version == version
}

// put keeps p, rendered at version, dropping every answer of an older
// version; an answer of a version older than the kept ones, rendered
// while the data changed, is not kept.
func (pc *pageCache) put(key pageKey, version int64, p *sentPage) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	switch {
	case version < pc.version:
		return
	case version > pc.version || pc.pages == nil:
		pc.version, pc.pages, pc.size = version, map[pageKey]*sentPage{}, 0
	}
	if old, ok := pc.pages[key]; ok {
		pc.size -= len(old.body)
		delete(pc.pages, key)
	}
	for k, old := range pc.pages { // evict arbitrary answers: map order is random
		if pc.size+len(p.body) <= pageCacheBytes && len(pc.pages) < pageCacheEntries {
			break
		}
		delete(pc.pages, k)
		pc.size -= len(old.body)
	}
	pc.pages[key] = p
	pc.size += len(p.body)
}

// send writes the kept answer p.
func (p *sentPage) send(res *echo.Response) error {
	h := res.Header()
	for k, v := range p.header {
		h[k] = slices.Clone(v)
	}
	res.WriteHeader(http.StatusOK)
	_, err := res.Write(p.body)
	return err
}

// record runs next with its answer held in memory, then sends that answer
// as it was written. It returns the answer too when it is one to keep: a
// complete 200 of at most maxKeptPage bytes.
func record(c echo.Context, next echo.HandlerFunc) (*sentPage, error) {
	res := c.Response()
	before := res.Header().Clone()
	w := res.Writer
	buf := &heldWriter{header: w.Header()}
	res.Writer = buf
	err := next(c)
	res.Writer = w
	if !res.Committed {
		return nil, err // the error handler answers, through res
	}
	w.WriteHeader(res.Status)
	if _, werr := w.Write(buf.body.Bytes()); werr != nil && err == nil {
		err = werr
	}
	if err != nil || res.Status != http.StatusOK || buf.body.Len() > maxKeptPage {
		return nil, err
	}
	p := &sentPage{header: http.Header{}, body: bytes.Clone(buf.body.Bytes())}
	for k, v := range res.Header() {
		if !slices.Equal(before[k], v) {
			p.header[k] = slices.Clone(v)
		}
	}
	return p, nil
}

// heldWriter holds a response's body in memory; its status is the one
// echo.Response records.
type heldWriter struct {
	header http.Header
	body   bytes.Buffer
}

func (w *heldWriter) Header() http.Header         { return w.header }
func (w *heldWriter) WriteHeader(int)             {}
func (w *heldWriter) Write(b []byte) (int, error) { return w.body.Write(b) }
