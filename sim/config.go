package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// A config is part of a match's identity: the replay header stores it and
// the match id hashes it. So it is read as strictly as the header (keys
// matched exactly, none repeated, none unknown) and written in one
// canonical form, and two configs that mean the same match have the same
// bytes or one of them is refused.

// maxConfigDepth bounds how deeply a config's objects and arrays nest. No
// game's config nests more than two levels; the bound keeps a hostile
// config from exhausting the stack of the recursive canonical writer.
const maxConfigDepth = 32

// CanonicalConfig returns the canonical form of a JSON config object: no
// whitespace, object keys sorted, strings (keys included) decoded and
// written again as encoding/json writes them, integers in plain form with
// -0 written 0, a member whose value is null left out (as decoding into a
// config struct reads it); an empty or null config is "{}". It refuses what
// would otherwise be read two ways or spelled two ways: a key repeated in
// any object (encoding/json keeps the last, another reader the first), a
// null in an array, a number with a fraction or exponent (3.0, 3e0 and
// 30e-1 are all 3), and anything but a single object. Which keys a game
// takes is for its DecodeConfig to judge.
func CanonicalConfig(raw json.RawMessage) (json.RawMessage, error) {
	t := trimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return json.RawMessage("{}"), nil
	}
	if t[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	return appendCanonical(nil, t, 0)
}

// appendCanonical appends the canonical form of the JSON value v (one
// value, without surrounding whitespace) to dst.
func appendCanonical(dst, v []byte, depth int) ([]byte, error) {
	if depth >= maxConfigDepth {
		return nil, fmt.Errorf("nested more than %d levels deep", maxConfigDepth)
	}
	v = trimSpace(v)
	if len(v) == 0 {
		return nil, errors.New("bad JSON: no value")
	}
	switch v[0] {
	case '{':
		return appendObject(dst, v, depth)
	case '[':
		return appendArray(dst, v, depth)
	case '"':
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, fmt.Errorf("bad JSON: %w", err)
		}
		return appendString(dst, s), nil
	case 't', 'f':
		return append(dst, v...), nil // the literals true and false have one spelling
	case 'n': // a member's null is dropped before this; an element's would read as 0 or ""
		return nil, errors.New("null is not a value in an array")
	}
	n := string(v)
	if strings.ContainsAny(n, ".eE") {
		return nil, fmt.Errorf("number %s: write integers without a fraction or exponent", Clip(n, maxQuoted))
	}
	if n == "-0" {
		n = "0"
	}
	return append(dst, n...), nil
}

// trimSpace cuts JSON's whitespace from both ends of b; bytes.TrimSpace
// would cut more (a vertical tab, a no-break space), which JSON refuses.
func trimSpace(b []byte) []byte { return bytes.Trim(b, " \t\r\n") }

// appendObject appends the canonical form of the JSON object v.
func appendObject(dst, v []byte, depth int) ([]byte, error) {
	type member struct {
		key   string
		value []byte
	}
	var ms []member
	err := Members(v, func(key string, value json.RawMessage) error {
		if string(trimSpace(value)) == "null" {
			return nil // decoding a config struct reads it as the key left out
		}
		c, err := appendCanonical(nil, value, depth+1)
		if err != nil {
			return fmt.Errorf("key %s: %w", QuoteCommand(key), err)
		}
		ms = append(ms, member{key, c})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
	dst = append(dst, '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, m.key)
		dst = append(dst, ':')
		dst = append(dst, m.value...)
	}
	return append(dst, '}'), nil
}

// appendArray appends the canonical form of the JSON array v.
func appendArray(dst, v []byte, depth int) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	if _, err := dec.Token(); err != nil { // the '[' the caller saw
		return nil, fmt.Errorf("bad JSON: %w", err)
	}
	dst = append(dst, '[')
	for i := 0; dec.More(); i++ {
		var elem json.RawMessage
		if err := dec.Decode(&elem); err != nil {
			return nil, fmt.Errorf("bad JSON: %w", err)
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendCanonical(dst, elem, depth+1); err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("bad JSON: %w", err)
	}
	return append(dst, ']'), nil
}

// appendString appends s as encoding/json writes it, HTML characters
// escaped: the form configs were always written in, so the ids of stored
// matches stay as they were.
func appendString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return append(dst, b...)
}

// Members calls fn with each member of the JSON object b, in order, with
// its key decoded. It is stricter than encoding/json, which keeps the last
// of a repeated key and ignores nothing after the object: a repeated key,
// anything but an object and trailing data are errors. Replay headers and
// configs are both read through it.
func Members(b []byte, fn func(key string, value json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return errors.New("not a JSON object")
	}
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("bad JSON: %w", err)
		}
		key, _ := tok.(string) // object keys are always strings
		if seen[key] {
			return fmt.Errorf("repeated key %s", QuoteCommand(key))
		}
		seen[key] = true
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return fmt.Errorf("key %s: bad JSON: %w", QuoteCommand(key), err)
		}
		if err := fn(key, value); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("bad JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// UnknownKey is the error for a key that is not one of known. Keys are
// matched exactly, so a key that differs from a known one only in case is
// named as the likely mistake: encoding/json would have taken it.
func UnknownKey(key string, known []string) error {
	for _, k := range known {
		if strings.EqualFold(k, key) {
			return fmt.Errorf("unknown key %s (keys are case-sensitive; did you mean %q?)", QuoteCommand(key), k)
		}
	}
	q := make([]string, len(known))
	for i, k := range known {
		q[i] = fmt.Sprintf("%q", k)
	}
	return fmt.Errorf("unknown key %s (keys are case-sensitive; known keys: %s)", QuoteCommand(key), strings.Join(q, ", "))
}

// DecodeConfig decodes a setup's JSON config into v, a pointer to the
// game's config struct, as strictly as a replay header is read: keys must
// be v's JSON field names exactly (encoding/json alone would take "TURNS"
// for "turns"), and whatever CanonicalConfig refuses is refused. An empty
// config leaves v unchanged. The keys v takes are those its JSON encoding
// writes, so a config struct must not use omitempty (sim may not import
// reflect to read the tags).
func DecodeConfig(raw json.RawMessage, v any) error {
	c, err := CanonicalConfig(raw)
	if err != nil {
		return &SetupError{Field: "config", Reason: err.Error()}
	}
	zero, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("config struct: %w", err) // a game's bug, not its input: no SetupError
	}
	var known []string
	err = Members(zero, func(key string, _ json.RawMessage) error { known = append(known, key); return nil })
	if err != nil {
		return fmt.Errorf("config struct: %w", err)
	}
	err = Members(c, func(key string, _ json.RawMessage) error {
		if !slices.Contains(known, key) {
			return UnknownKey(key, known)
		}
		return nil
	})
	if err != nil {
		return &SetupError{Field: "config", Reason: err.Error()}
	}
	if err := json.Unmarshal(c, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &SetupError{Field: "config." + te.Field, Reason: fmt.Sprintf("got %s, want %s", Clip(te.Value, maxQuoted), te.Type)}
		}
		return &SetupError{Field: "config", Reason: err.Error()}
	}
	return nil
}
