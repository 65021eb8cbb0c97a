package replay

import (
	"fmt"
	"strings"
)

// MaxOutputBytes bounds each stream of an Output, in bytes: what a bot
// wrote in a turn, at most maxTurnOutput bytes of it, and a line saying
// how much more was dropped.
const MaxOutputBytes = maxTurnOutput + 64

const (
	// maxTurnOutput and maxMatchOutput bound the output kept per stream of
	// a bot, per turn and over the match.
	maxTurnOutput  = 16 << 10
	maxMatchOutput = 1 << 20
)

// capture keeps what a bot wrote to one stream, as UTF-8 text: at most
// maxTurnOutput bytes a turn and maxMatchOutput over the match. It counts
// what it drops.
type capture struct {
	text    []byte // kept since the last take
	dropped int    // bytes dropped since the last take
	kept    int    // over the match
	// last and lastDropped are the text and count of the last take, which
	// takeLast takes again with what came after it.
	last        []byte
	lastDropped int
}

// write keeps what it can of s and counts the rest, plus more bytes that
// were dropped before. It never splits a UTF-8 sequence of s.
func (c *capture) write(s string, more int) {
	n := len(cutUTF8(s, max(0, min(len(s), maxTurnOutput-len(c.text), maxMatchOutput-c.kept))))
	c.text = append(c.text, s[:n]...)
	c.kept += n
	c.dropped += len(s) - n + more
}

// writeLine keeps a stdout line whole or drops it, unless it is the first
// of the turn: then it keeps what fits.
func (c *capture) writeLine(s string, more int) {
	if len(c.text) > 0 && len(s) > min(maxTurnOutput-len(c.text), maxMatchOutput-c.kept) {
		c.dropped += len(s) + more
		return
	}
	c.write(s, more)
}

// take returns the text since the last take, ending with a line
// "[N bytes truncated]" when some was dropped.
func (c *capture) take() string {
	s := string(c.text)
	if c.dropped > 0 {
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		s += fmt.Sprintf("[%d bytes truncated]\n", c.dropped)
	}
	c.last, c.lastDropped = append(c.last[:0], c.text...), c.dropped
	c.text, c.dropped = c.text[:0], 0
	return s
}

// pass ends a turn that has no output, leaving what was kept since the
// last take to the next.
func (c *capture) pass() {
	c.last, c.lastDropped = c.last[:0], 0
}

// takeLast returns the output of the turn the last take (or pass) ended
// again, now whole: followed by what was kept since, within the bound of
// one turn, and one truncated line counting all either dropped. byLine
// adds what came since a line at a time, as writeLine does.
func (c *capture) takeLast(byLine bool) string {
	whole := capture{text: c.last, dropped: c.lastDropped + c.dropped}
	if byLine {
		for line := range strings.Lines(string(c.text)) {
			whole.writeLine(line, 0)
		}
	} else {
		whole.write(string(c.text), 0)
	}
	c.last, c.text, c.dropped = nil, c.text[:0], 0
	return whole.take()
}

// CutOutput bounds text a bot wrote in one turn as Output's streams are
// bounded: valid UTF-8, at most the bytes a turn keeps, and a line
// "[N bytes truncated]" counting what was cut, with dropped bytes the
// caller cut already.
func CutOutput(s string, dropped int) string {
	var c capture
	c.write(strings.ToValidUTF8(s, "\uFFFD"), dropped)
	return c.take()
}
