package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/replay"
	"github.com/replaylab/replaylab/sim"
	"github.com/replaylab/replaylab/store"
)

//go:embed templates static
var assets embed.FS

// pages lists every page template. Each is parsed on its own with the
// layout and the partials (templates/partials/*.html), so pages may define
// blocks with the same names without clashing.
var pages = []string{"overview", "matches", "match", "inspector", "branch", "bots", "bot", "headtohead", "compare", "error", "duplicate"}

// templates holds the parsed pages.
type templates struct {
	pages map[string]*template.Template
}

// parseTemplates parses every page once, at start-up. It fails when a file
// in templates/ is neither the layout nor a listed page, so a template
// cannot be added and silently never used, and when a listed page has no
// file.
func parseTemplates() (*templates, error) {
	files, err := fs.Glob(assets, "templates/*.html")
	if err != nil {
		return nil, err
	}
	partials, err := fs.Glob(assets, "templates/partials/*.html")
	if err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	for _, p := range pages {
		listed[p+".html"] = true
	}
	found := map[string]bool{}
	for _, f := range files {
		switch name := path.Base(f); {
		case name == "layout.html":
		case listed[name]:
			found[name] = true
		default:
			return nil, fmt.Errorf("web: template %s is not a registered page (add it to pages)", f)
		}
	}
	shared := append([]string{"templates/layout.html"}, partials...)
	t := &templates{pages: map[string]*template.Template{}}
	for _, p := range pages {
		if !found[p+".html"] {
			return nil, fmt.Errorf("web: page %q has no template file", p)
		}
		tpl, err := template.New("layout.html").Funcs(funcs).ParseFS(assets, append(shared[:len(shared):len(shared)], "templates/"+p+".html")...)
		if err != nil {
			return nil, fmt.Errorf("web: parse page %s: %w", p, err)
		}
		t.pages[p] = tpl
	}
	return t, nil
}

// bufPool recycles render buffers: a match page is a few hundred
// kilobytes of chart data.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render executes a page into a buffer first, so a template error becomes
// a clean 500 instead of half a page.
func (s *server) render(c echo.Context, status int, page string, data any) error {
	tpl, ok := s.tpl.pages[page]
	if !ok {
		return fmt.Errorf("render: no page %q", page)
	}
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if err := tpl.Execute(buf, data); err != nil {
		return fmt.Errorf("render %s: %w", page, err)
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// funcs are the helpers templates may call.
var funcs = template.FuncMap{
	"short":       shortID,
	"forkOutcome": forkOutcome,
	"shortCode":   replay.ShortFingerprint,
	"matchURL":    matchURL,
	"turnURL":     turnURL,
	"branchURL":   branchURL,
	"botURL":      botURL,
	"matchesURL":  matchesURL,
	"h2hURL":      h2hURL,
	"botLabel":    botLabel,
	"seatName":    sim.SeatName,
	"seatNumber":  sim.SeatNumber,
	"seatColor":   seatColor,
	"pct": func(x float64) string {
		return strconv.FormatFloat(100*x, 'f', 0, 64) + "%"
	},
	"num": formatNumber,
	// duration writes an answer time in milliseconds.
	"duration":      func(d time.Duration) string { return strconv.FormatFloat(millis(d), 'f', -1, 64) + " ms" },
	"maxTimedSeats": func() int { return store.MaxTimedSeats },
	"maxTimedTurns": func() string { return count(store.MaxTimedTurns) },
	"count":         count,
	"rank":          func(i int) int { return i + 1 }, // a 0-based place in a list, from 1
	"interval":      func(i [2]float64) string { return fmt.Sprintf("%.0f–%.0f%%", 100*i[0], 100*i[1]) },
	"rating":        func(x *float64) string { return strconv.FormatFloat(*x, 'f', 0, 64) },
	"ratingInterval": func(i *[2]float64) string {
		return fmt.Sprintf("%.0f–%.0f", i[0], i[1])
	},
	"outcome": outcomeText,
	"place":   placeText,
	"matchRows": func(ms []store.MatchSummary, bot string) matchRows {
		return matchRows{ms, bot}
	},
	"query":        query,
	"static":       staticURL,
	"outcomes":     func() []sim.Outcome { return []sim.Outcome{sim.Win, sim.Draw, sim.Loss} },
	"troubleKinds": func() []troubleOption { return troubleOptions },
}

// shortIDLen is how many hex digits of a match id pages and URLs show: 64
// bits, so a collision between two stored matches is practically
// impossible, while the store accepts any unique prefix of 8 or more.
const shortIDLen = 16

func shortID(id string) string {
	if len(id) > shortIDLen {
		return id[:shortIDLen]
	}
	return id
}

// query builds a query string from key/value pairs, leaving out empty
// strings and zero numbers, for filter and paging links.
func query(kv ...any) template.URL {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if v := fmt.Sprint(kv[i+1]); v != "" && kv[i+1] != 0 && kv[i+1] != int64(0) {
			q.Set(fmt.Sprint(kv[i]), v)
		}
	}
	if len(q) == 0 {
		return ""
	}
	return template.URL("?" + q.Encode())
}

// matchesURL links to the page of the match list that f selects starting
// at offset, keeping every filter and its cursor.
func matchesURL(f store.MatchFilter, offset int) template.URL {
	return matchesLink(f, "offset", offset)
}

// matchesLink links to the match list that f selects, from its cursor,
// with the further parameters of kv (query's pairs).
func matchesLink(f store.MatchFilter, kv ...any) template.URL {
	return "/matches" + query(append([]any{"game", f.Game, "ruleset", f.Ruleset, "bot", f.Bot, "version", f.Version,
		"vs", f.Vs, "vs_version", f.VsVersion, "result", f.Outcome, "rank", f.Rank, "trouble", f.Trouble, "before", f.Before}, kv...)...)
}

func matchURL(id string) string { return "/matches/" + shortID(id) }

func turnURL(id string, turn int) string { return matchURL(id) + "/turns/" + strconv.Itoa(turn) }

// branchURL is the branch view of a fork: it beside its parent.
func branchURL(id string) string { return matchURL(id) + "/branch" }

func botURL(game, name string) string {
	return "/bots/" + url.PathEscape(game) + "/" + url.PathEscape(name)
}

// formatNumber shows a metric without a trailing ".000" for the integers
// most games report.
func formatNumber(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// count writes a count with its thousands grouped: 1,000,000.
func count(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// matchRows is the match table's data: the matches, and the bot whose
// seats it marks (the one the list is about), if any.
type matchRows struct {
	Matches []store.MatchSummary
	Bot     string
}

// placeText names a rank as a place: 1st, 2nd, 3rd, 4th, 11th, 21st; a
// rank not known (0) is a dash.
func placeText(rank int) string {
	if rank <= 0 {
		return "–"
	}
	suffix := "th"
	if rank%100 < 11 || rank%100 > 13 {
		switch rank % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(rank) + suffix
}

func outcomeText(o sim.Outcome) string {
	if o == "" {
		return "–"
	}
	return string(o)
}
