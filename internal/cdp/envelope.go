package cdp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Envelope is the top level of one CDP message, found in one pass without
// decoding params, result or error: their values stay as sub-slices of the
// scanned bytes. The relay routes on it and forwards the bytes untouched;
// DecodeFrame builds a Frame from it.
type Envelope struct {
	ID           int64
	HasID        bool
	Method       string
	SessionID    string
	HasSessionID bool
	Params       []byte // the raw params value; nil when absent
	Result       []byte // the raw result value; nil when absent
	Error        []byte // the raw error value; nil when absent

	// SessionIDStart and SessionIDEnd bound the bytes to cut to remove the
	// sessionId member with one neighbouring comma, so that the rest stays
	// valid JSON.
	SessionIDStart, SessionIDEnd int

	// Folded reports a member whose name matches id, method, sessionId,
	// params, result or error only without regard to case. Chromium ignores
	// such a member; encoding/json would take it.
	Folded bool
}

// IsReply reports whether the message is a command reply (an id and no
// method).
func (e *Envelope) IsReply() bool { return e.HasID && e.Method == "" }

// Errors of ScanEnvelope, worded as Chromium words them. ErrEnvelopeJSON is
// a parse error (JSON-RPC -32700), the others are invalid requests (-32600).
var (
	ErrEnvelopeJSON      = errors.New("message must be a valid JSON object")
	ErrEnvelopeID        = errors.New("message must have integer 'id' property")
	ErrEnvelopeMethod    = errors.New("message must have string 'method' property")
	ErrEnvelopeSessionID = errors.New("message has a non-string 'sessionId' property")
	ErrEnvelopeDuplicate = errors.New("message repeats a routing property")
)

// ScanEnvelope reads the top-level members of one JSON object. It checks the
// object's structure (balanced braces and brackets, closed strings, one value
// per member) but not the grammar inside values, which their consumers (or
// Chromium) decode. Member names are compared as Chromium reads them, after
// unescaping, so "p\u0061rams" is params; a repeated id, method, sessionId or
// params is an error, as Chromium refuses duplicate names. It allocates
// nothing for plain ASCII names, methods and session ids beyond the method
// and session strings themselves.
func ScanEnvelope(b []byte) (Envelope, error) {
	var env Envelope
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return env, ErrEnvelopeJSON
	}
	i++
	prevEnd := i // end of the previous member (or just after '{')
	first := true
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return env, ErrEnvelopeJSON
		}
		if b[i] == '}' && first {
			i++
			break
		}
		if b[i] != '"' {
			return env, ErrEnvelopeJSON
		}
		memberStart := i
		keyEnd, err := skipString(b, i)
		if err != nil {
			return env, err
		}
		key, ok := memberName(b[i:keyEnd])
		if !ok {
			return env, ErrEnvelopeJSON
		}
		i = skipSpace(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return env, ErrEnvelopeJSON
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return env, ErrEnvelopeJSON
		}
		valEnd, err := skipValue(b, i)
		if err != nil {
			return env, err
		}
		val := b[i:valEnd]
		switch string(key) { // no allocation: the compiler special-cases this
		case "id":
			if env.HasID {
				return env, ErrEnvelopeDuplicate
			}
			n, ok := parseInt(val)
			if !ok {
				return env, ErrEnvelopeID
			}
			env.ID, env.HasID = n, true
		case "method":
			if env.Method != "" {
				return env, ErrEnvelopeDuplicate
			}
			s, ok := stringValue(val)
			if !ok || s == "" {
				return env, ErrEnvelopeMethod
			}
			env.Method = s
		case "sessionId":
			if env.HasSessionID {
				return env, ErrEnvelopeDuplicate
			}
			s, ok := stringValue(val)
			if !ok {
				return env, ErrEnvelopeSessionID
			}
			env.SessionID, env.HasSessionID = s, true
			if first {
				env.SessionIDStart = memberStart
				env.SessionIDEnd = valEnd // the comma after it is cut below
			} else {
				env.SessionIDStart = prevEnd // from the comma before it
				env.SessionIDEnd = valEnd
			}
		case "params":
			if env.Params != nil {
				return env, ErrEnvelopeDuplicate
			}
			env.Params = val
		case "result":
			env.Result = val
		case "error":
			env.Error = val
		default:
			if foldsOntoRoutingName(key) {
				env.Folded = true
			}
		}
		i = skipSpace(b, valEnd)
		if i >= len(b) {
			return env, ErrEnvelopeJSON
		}
		if b[i] == ',' {
			if env.HasSessionID && env.SessionIDStart == memberStart {
				env.SessionIDEnd = i + 1 // first member: cut its trailing comma
			}
			prevEnd = valEnd
			first = false
			i++
			continue
		}
		if b[i] != '}' {
			return env, ErrEnvelopeJSON
		}
		i++
		break
	}
	if skipSpace(b, i) != len(b) {
		return env, ErrEnvelopeJSON
	}
	return env, nil
}

// memberName is a member name as a JSON reader sees it: the bytes between
// the quotes when they hold no escape (a sub-slice, no allocation), else the
// unescaped name.
func memberName(quoted []byte) ([]byte, bool) {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner, true
	}
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return nil, false
	}
	return []byte(s), true
}

// foldsOntoRoutingName reports whether key equals a routing member's name
// without regard to case (it is not exactly one: the caller's switch took
// those).
func foldsOntoRoutingName(key []byte) bool {
	if len(key) < 2 || len(key) > len("sessionId") {
		return false
	}
	for _, k := range [...]string{"id", "method", "sessionId", "params", "result", "error"} {
		if bytes.EqualFold(key, []byte(k)) {
			return true
		}
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just after the string that starts at b[i]
// (which must be '"'). It jumps from quote to quote (bytes.IndexByte), so
// a long string value (a snapshot, a response body) costs little on the
// reader: a quote ends the string when an even number of backslashes
// precede it.
func skipString(b []byte, i int) (int, error) {
	start := i
	i++
	for {
		k := bytes.IndexByte(b[i:], '"')
		if k < 0 {
			return 0, ErrEnvelopeJSON
		}
		q := i + k
		n := 0
		for p := q - 1; p > start && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, nil
		}
		i = q + 1
	}
}

// skipValue returns the index just after the JSON value that starts at b[i].
// Objects and arrays are skipped by counting brackets, outside strings,
// without recursion.
func skipValue(b []byte, i int) (int, error) {
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		var small [32]byte
		stack := small[:0] // open brackets, innermost last
		for i < len(b) {
			switch c := b[i]; c {
			case '"':
				end, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = end
				continue
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if len(stack) == 0 || (c == '}') != (stack[len(stack)-1] == '{') {
					return 0, ErrEnvelopeJSON
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, ErrEnvelopeJSON
	default:
		// A number or a literal: a run of the characters they are made of.
		start := i
		for i < len(b) && isScalarByte(b[i]) {
			i++
		}
		if i == start {
			return 0, ErrEnvelopeJSON
		}
		return i, nil
	}
}

func isScalarByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

// parseInt parses a JSON integer (no fraction, no exponent).
func parseInt(v []byte) (int64, bool) {
	if len(v) == 0 || len(v) > 20 {
		return 0, false
	}
	for k, c := range v {
		if c == '-' && k == 0 {
			continue
		}
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	return n, err == nil
}

// stringValue returns the Go string of a JSON string token.
func stringValue(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	inner := v[1 : len(v)-1]
	plain := true
	for _, c := range inner {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return string(inner), true
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}
