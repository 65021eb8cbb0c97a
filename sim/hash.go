package sim

// Hasher computes the 64-bit state digest behind Match.Hash. A game feeds it
// its full state as integers in a fixed, documented order; the digest depends
// only on that sequence, never on memory layout, map order or the platform.
//
// The mixing is FNV-1a over 64-bit words followed by a final avalanche: cheap
// enough to hash every turn, and a one-bit change anywhere flips about half of
// the output bits.
type Hasher struct{ h uint64 }

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// NewHasher returns a Hasher seeded with a domain string (the game name and
// ruleset), so equal states of different games hash differently.
func NewHasher(domain string) Hasher {
	h := Hasher{h: fnvOffset}
	h.String(domain)
	return h
}

// Uint64 adds one word.
func (h *Hasher) Uint64(v uint64) {
	h.h = (h.h ^ v) * fnvPrime
	h.h ^= h.h >> 29
}

// Int adds one signed integer.
func (h *Hasher) Int(v int) { h.Uint64(uint64(int64(v))) }

// Bool adds one boolean.
func (h *Hasher) Bool(v bool) {
	if v {
		h.Uint64(1)
	} else {
		h.Uint64(0)
	}
}

// String adds a length-prefixed string.
func (h *Hasher) String(s string) {
	h.Uint64(uint64(len(s)))
	for i := 0; i < len(s); i++ {
		h.Uint64(uint64(s[i]))
	}
}

// Sum returns the digest of everything added so far.
func (h *Hasher) Sum() uint64 {
	x := h.h
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
