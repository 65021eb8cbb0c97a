package web

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// hostGuard holds what the server answers for: the Host names of its
// listener and of its public URLs, and the origins that may write to it.
//
// Host checking defeats DNS rebinding: a page on evil.example whose name
// is made to resolve to 127.0.0.1 reaches the server, but with
// "Host: evil.example", which is refused. An IP address cannot be
// rebound, so on a wildcard listener (0.0.0.0, [::]) any address literal
// on the listening port is served: the browser's origin is then the server
// itself. Every other name must be given as a public URL.
type hostGuard struct {
	port string
	// names are the host names served on port, lower case, IPv6 without
	// brackets.
	names []string
	// anyIP serves every address literal on port: the listener is a
	// wildcard.
	anyIP bool
	// public are the public URLs' hosts (name and port, the port made
	// explicit) and origins ("https://name[:port]").
	public  []hostPort
	origins []string
}

// hostPort is a Host header split into a lower-case name and a port, the
// port empty when the header has none.
type hostPort struct{ name, port string }

// loopbackNames are the names of a loopback listener.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// newHostGuard builds the guard of a server listening on addr (as
// net.Listener.Addr gives it) and reachable at publicURLs, each an http or
// https URL with no path.
func newHostGuard(addr string, publicURLs []string) (*hostGuard, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return nil, fmt.Errorf("web: listen address %q: want HOST:PORT", addr)
	}
	g := &hostGuard{port: port, names: slices.Clone(loopbackNames)}
	ip := net.ParseIP(host)
	switch {
	case host == "" || ip != nil && ip.IsUnspecified():
		g.anyIP = true
	case host == "localhost": // the loopback names already
	case ip != nil && ip.IsLoopback():
		if !slices.Contains(g.names, ip.String()) {
			g.names = append(g.names, ip.String()) // 127.0.0.2 and the like
		}
	case ip != nil:
		g.names = []string{ip.String()}
	default:
		g.names = []string{strings.ToLower(host)}
	}
	for _, raw := range publicURLs {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("web: --public-url %q: want http(s)://NAME[:PORT] with no path", raw)
		}
		hp := splitHost(u.Host)
		origin := u.Scheme + "://" + strings.ToLower(u.Host)
		if hp.port == defaultPort(u.Scheme) {
			origin = strings.TrimSuffix(origin, ":"+hp.port)
		}
		if hp.port == "" {
			hp.port = defaultPort(u.Scheme)
		}
		g.public = append(g.public, hp)
		g.origins = append(g.origins, origin)
	}
	return g, nil
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// splitHost splits a Host header; a header without a port keeps an empty
// one.
func splitHost(h string) hostPort {
	h = strings.ToLower(h)
	if name, port, err := net.SplitHostPort(h); err == nil {
		return hostPort{name, port}
	}
	return hostPort{strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"), ""}
}

// serves reports whether the server answers requests for the Host header h.
// A header without a port is what a browser sends for port 80 or 443.
func (g *hostGuard) serves(h string) bool {
	hp := splitHost(h)
	samePort := func(port string) bool {
		return hp.port == port || hp.port == "" && (port == "80" || port == "443")
	}
	if samePort(g.port) && (slices.Contains(g.names, hp.name) || g.anyIP && net.ParseIP(hp.name) != nil) {
		return true
	}
	return slices.ContainsFunc(g.public, func(p hostPort) bool { return p.name == hp.name && samePort(p.port) })
}

// checkHost answers 421 Misdirected Request to any request, reads
// included, for a Host the server does not serve.
func (g *hostGuard) checkHost(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if h := c.Request().Host; !g.serves(h) {
			return echo.NewHTTPError(http.StatusMisdirectedRequest, fmt.Sprintf(
				"this server does not answer for the host %s (it could be a DNS rebinding attack); "+
					"to reach it by that name, start it with: replaylab serve --public-url http://NAME:PORT", quoteShort(h)))
		}
		return next(c)
	}
}

// checkOrigin refuses a state-changing request sent by another site's page:
// one whose Sec-Fetch-Site is neither same-origin nor none (a same-site
// page, such as another server on localhost, is refused too), or whose
// Origin is neither the server's own (the scheme and Host the request came
// to) nor a public URL's. A request with neither header, from curl or the
// CLI, passes: a browser sends at least one of them with every POST.
func (g *hostGuard) checkOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
			return next(c)
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
			return echo.NewHTTPError(http.StatusForbidden, fmt.Sprintf(
				"cross-site request refused: Sec-Fetch-Site is %s; a page of another site cannot write to this server", quoteShort(site)))
		}
		origin, ok := r.Header["Origin"]
		if !ok {
			return next(c)
		}
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		got := strings.ToLower(strings.Join(origin, ","))
		if got != scheme+"://"+strings.ToLower(r.Host) && !slices.Contains(g.origins, got) {
			return echo.NewHTTPError(http.StatusForbidden, fmt.Sprintf(
				"cross-origin request refused: Origin %s is not this server's; "+
					"behind a proxy, start the server with --public-url set to the address users reach", quoteShort(got)))
		}
		return next(c)
	}
}

// quoteShort quotes a header's value for an error message: control
// characters escaped, at most 100 bytes of it.
func quoteShort(s string) string {
	const most = 100
	if len(s) > most {
		return strconv.Quote(s[:most]) + "…"
	}
	return strconv.Quote(s)
}
