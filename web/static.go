package web

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// staticVersion names this build's static files: a digest of their
// names and contents. Pages add it to every static URL, so a browser
// never pairs a new page with an old build's cached script or style
// sheet, and may keep each version for good. It is computed on first
// use: every replaylab process links this package, and commands that
// serve no page (verify, record) should not hash the files.
var staticVersion = sync.OnceValue(func() string { return digestFiles(assets, "static") })

// digestFiles returns a short digest of the names and contents of the
// files under dir in fsys.
func digestFiles(fsys fs.FS, dir string) string {
	h := sha256.New()
	err := fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write(data)
		h.Write([]byte{0})
		return nil
	})
	if err != nil {
		panic("web: digest the embedded static files: " + err.Error()) // embedded files are always readable
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// staticURL adds the static files' version to a URL of one of them.
func staticURL(url string) string {
	if strings.HasPrefix(url, "/static/") {
		return url + "?v=" + staticVersion()
	}
	return url
}

// cacheStatic lets browsers keep a static file for a year when its URL
// names this build's version, and makes them ask again otherwise (an
// unversioned or another build's URL), so a cached file never outlives
// its build.
func cacheStatic(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		value := "no-cache"
		if c.QueryParam("v") == staticVersion() {
			value = "public, max-age=31536000, immutable"
		}
		c.Response().Header().Set("Cache-Control", value)
		return next(c)
	}
}
