package web

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// TestBotFingerprints: a bot's page and API list the code each version
// was played with, a version changed without a new number twice, short on
// the page with the whole fingerprint in its title, escaped; a bot
// without fingerprints (built-in) shows no such section.
func TestBotFingerprints(t *testing.T) {
	f := newFixture(t, nil)
	digest := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])
	}
	fpA, fpB, fpC := digest("a"), digest("b"), digest("c")
	for i, p := range []struct{ version, fp string }{{"2", fpA}, {"2", fpB}, {"3", fpC}, {"4", "<b>hostile</b>"}} {
		l := recordToad(t, uint64(10+i), "astar", "mine", `{"turns":5}`)
		l.Header.Players[0].Version, l.Header.Players[0].Fingerprint = p.version, p.fp
		ingest(t, f.db, l)
	}
	for _, sc := range []scenario{
		{name: "page", url: "/bots/toad/mine", status: 200, want: []string{
			`<h2>Code</h2>`, fmt.Sprintf(`<code title="%s">%s</code>`, fpA, fpA[:12]), fmt.Sprintf(`<code title="%s">%s</code>`, fpB, fpB[:12]),
			`<code title="&lt;b&gt;hostile&lt;/b&gt;">&lt;b&gt;hostile&lt;/</code>`,
		}, notWant: []string{"<b>hostile"}},
		{name: "page of a built-in bot", url: "/bots/toad/astar", status: 200, notWant: []string{`<h2>Code</h2>`}},
		{name: "api", url: "/api/v1/bots/toad/mine", status: 200, want: []string{fmt.Sprintf(
			`"fingerprints":[{"version":"2","fingerprint":"%s","matches":1},{"version":"2","fingerprint":"%s","matches":1},{"version":"3","fingerprint":"%s","matches":1},`,
			fpA, fpB, fpC)}},
		{name: "api of a built-in bot", url: "/api/v1/bots/toad/astar", status: 200, want: []string{`"fingerprints":[]`}},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}
