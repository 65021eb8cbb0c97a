package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// FrameChunkTurns is how many consecutive turns' frames Build puts in one
// chunk. Consecutive frames differ little, so a chunk compresses far better
// than frames one by one, while decoding a chunk to show one turn stays
// cheap; stepping through the inspector mostly stays inside one chunk.
const FrameChunkTurns = 64

// StoredFrame is what the frames table holds for one turn: the game's own
// frame (State) with the commands that led to it, so the inspector shows
// each player's command next to the board it produced.
type StoredFrame struct {
	Turn     int      `json:"turn"`
	Commands []string `json:"commands"` // one per seat; empty at turn 0
	State    any      `json:"state"`    // sim.Match.Frame()
}

// maxChunkBytes bounds what DecodeFrames will inflate, so a corrupt blob
// cannot make the server allocate gigabytes. Real chunks are far smaller.
const maxChunkBytes = 256 << 20

// One encoder and one decoder serve the whole process: both are safe for
// concurrent EncodeAll/DecodeAll and keep their own pools of state, which
// would be wasted if built per call. They are built on first use so that
// programs that never touch frames pay nothing.
var (
	frameEncoder = sync.OnceValues(func() (*zstd.Encoder, error) {
		// Frames are most of a stored match. On 20 matches per game the
		// better level stores Snake's frames in 11 % fewer bytes than the
		// default at about the same import time; the best level saves 30 %
		// but makes import half as fast again. Decoding costs the same.
		return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression))
	})
	frameDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
		return zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(0), // as many parallel decodes as CPUs
			zstd.WithDecoderMaxMemory(maxChunkBytes))
	})
)

// EncodeFrames encodes the frames of consecutive turns as one chunk: a JSON
// array, zstd-compressed. Each frame must be valid JSON; checking here means
// a broken frame fails the import, not the inspector months later.
func EncodeFrames(frames []json.RawMessage) ([]byte, error) {
	if len(frames) == 0 {
		return nil, errors.New("encode frames: no frames")
	}
	n := 1 + len(frames)
	for _, f := range frames {
		n += len(f)
	}
	buf := make([]byte, 0, n)
	buf = append(buf, '[')
	for i, f := range frames {
		if !json.Valid(f) {
			return nil, fmt.Errorf("encode frames: frame %d is not valid JSON", i)
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, f...)
	}
	buf = append(buf, ']')
	enc, err := frameEncoder()
	if err != nil {
		return nil, fmt.Errorf("encode frames: %w", err)
	}
	return enc.EncodeAll(buf, nil), nil
}

// DecodeFrames reverses EncodeFrames, returning the frames of a chunk in
// turn order.
func DecodeFrames(data []byte) ([]json.RawMessage, error) {
	dec, err := frameDecoder()
	if err != nil {
		return nil, fmt.Errorf("decode frames: %w", err)
	}
	raw, err := dec.DecodeAll(data, nil)
	if err != nil {
		return nil, fmt.Errorf("decode frames: %w", err)
	}
	var frames []json.RawMessage
	if err := json.Unmarshal(raw, &frames); err != nil {
		return nil, fmt.Errorf("decode frames: %w", err)
	}
	return frames, nil
}
