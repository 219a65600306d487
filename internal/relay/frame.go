package relay

import (
	"encoding/json"
	"errors"
	"strconv"
)

// envelope is the routing part of one CDP message: its top-level id, method
// and sessionId, found without decoding params or result. Everything else in
// the message stays as bytes and is forwarded untouched.
type envelope struct {
	id        int64
	hasID     bool
	method    string
	sessionID string
	hasSID    bool
	params    []byte // the raw params value; nil when absent

	// sidStart and sidEnd bound the bytes to cut to remove the sessionId
	// member, with one neighbouring comma, so the rest stays valid JSON.
	sidStart, sidEnd int
}

// isReply reports whether the message is a command reply (an id and no
// method).
func (e *envelope) isReply() bool { return e.hasID && e.method == "" }

// Errors of scanEnvelope. They map to the JSON-RPC codes Chromium uses:
// errBadJSON is a parse error (-32700), the others invalid requests (-32600).
var (
	errBadJSON   = errors.New("message must be a valid JSON object")
	errBadID     = errors.New("message must have integer 'id' property")
	errBadMethod = errors.New("message must have string 'method' property")
	errBadSID    = errors.New("message has a non-string 'sessionId' property")
	errDupKey    = errors.New("message repeats a routing property")
)

// scanEnvelope reads the top-level members of one JSON object. It validates
// the object's structure (balanced braces and brackets, closed strings, one
// value per member) but not the grammar inside nested values: Chromium
// validates what it is sent. It never allocates for plain ASCII method and
// session strings beyond the strings themselves.
func scanEnvelope(b []byte) (envelope, error) {
	var env envelope
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return env, errBadJSON
	}
	i++
	prevEnd := i // end of the previous member (or just after '{')
	first := true
	var seenParams bool
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return env, errBadJSON
		}
		if b[i] == '}' && first {
			i++
			break
		}
		if b[i] != '"' {
			return env, errBadJSON
		}
		memberStart := i
		keyEnd, err := skipString(b, i)
		if err != nil {
			return env, err
		}
		key := b[i+1 : keyEnd-1]
		i = skipSpace(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return env, errBadJSON
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return env, errBadJSON
		}
		valStart := i
		valEnd, err := skipValue(b, i)
		if err != nil {
			return env, err
		}
		val := b[valStart:valEnd]
		switch string(key) { // no allocation: the compiler special-cases this
		case "id":
			if env.hasID {
				return env, errDupKey
			}
			n, ok := parseInt(val)
			if !ok {
				return env, errBadID
			}
			env.id, env.hasID = n, true
		case "method":
			if env.method != "" {
				return env, errDupKey
			}
			s, ok := stringValue(val)
			if !ok || s == "" {
				return env, errBadMethod
			}
			env.method = s
		case "sessionId":
			if env.hasSID {
				return env, errDupKey
			}
			s, ok := stringValue(val)
			if !ok {
				return env, errBadSID
			}
			env.sessionID, env.hasSID = s, true
			if first {
				env.sidStart = memberStart
				env.sidEnd = valEnd // the comma after it is cut below
			} else {
				env.sidStart = prevEnd // from the comma before it
				env.sidEnd = valEnd
			}
		case "params":
			if seenParams {
				return env, errDupKey
			}
			seenParams = true
			env.params = val
		}
		i = skipSpace(b, valEnd)
		if i >= len(b) {
			return env, errBadJSON
		}
		if b[i] == ',' {
			if env.hasSID && env.sidStart == memberStart {
				env.sidEnd = i + 1 // first member: cut its trailing comma
			}
			prevEnd = valEnd
			first = false
			i++
			continue
		}
		if b[i] != '}' {
			return env, errBadJSON
		}
		i++
		break
	}
	if skipSpace(b, i) != len(b) {
		return env, errBadJSON
	}
	return env, nil
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
// (which must be '"').
func skipString(b []byte, i int) (int, error) {
	i++
	for i < len(b) {
		switch b[i] {
		case '"':
			return i + 1, nil
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return 0, errBadJSON
}

// skipValue returns the index just after the JSON value that starts at b[i].
// Objects and arrays are skipped by counting brackets, outside strings,
// without recursion.
func skipValue(b []byte, i int) (int, error) {
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		var stack []byte // open brackets, innermost last
		var small [32]byte
		stack = small[:0]
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
					return 0, errBadJSON
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, errBadJSON
	default:
		// A number or a literal: a run of the characters they are made of.
		start := i
		for i < len(b) && isScalarByte(b[i]) {
			i++
		}
		if i == start {
			return 0, errBadJSON
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

// withoutSession returns the message with its sessionId member removed, for
// a socket where the session is the socket itself. b is not modified.
func withoutSession(b []byte, env *envelope) []byte {
	if !env.hasSID {
		return b
	}
	out := make([]byte, 0, len(b)-(env.sidEnd-env.sidStart))
	out = append(out, b[:env.sidStart]...)
	return append(out, b[env.sidEnd:]...)
}

// withSession returns the message (a JSON object without a sessionId) with
// "sessionId":sid added as its last member, where Chromium puts it.
func withSession(b []byte, sid string) []byte {
	end := len(b) - 1
	for end >= 0 && b[end] != '}' {
		end--
	}
	if end < 0 {
		return b
	}
	inner := skipSpaceBack(b, end-1)
	empty := inner >= 0 && b[inner] == '{'
	out := make([]byte, 0, len(b)+len(sid)+16)
	out = append(out, b[:end]...)
	if !empty {
		out = append(out, ',')
	}
	out = append(out, `"sessionId":`...)
	out = strconv.AppendQuote(out, sid)
	return append(out, '}')
}

func skipSpaceBack(b []byte, i int) int {
	for i >= 0 {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i--
		default:
			return i
		}
	}
	return i
}

// droppable reports whether an event may be dropped for a client that falls
// behind: the high-volume network, log and console events. Replies, Target.*,
// Runtime.executionContext*, Page.*, Fetch.* and every other event are never
// dropped.
func droppable(method string) bool {
	switch {
	case len(method) > 8 && method[:8] == "Network.":
		return true
	case len(method) > 4 && method[:4] == "Log.":
		return true
	case method == "Runtime.consoleAPICalled":
		return true
	}
	return false
}

// message builders. Replies and events the relay writes itself are built
// with encoding/json; they are rare (target bookkeeping), never per frame.

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// CDP error codes, as Chromium sends them.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeServerError    = -32000
	codeNoSession      = -32001
)

func replyResult(id int64, sid string, result any) []byte {
	type msg struct {
		ID        int64  `json:"id"`
		Result    any    `json:"result"`
		SessionID string `json:"sessionId,omitempty"`
	}
	if result == nil {
		result = struct{}{}
	}
	b, _ := json.Marshal(msg{ID: id, Result: result, SessionID: sid})
	return b
}

func replyError(id int64, sid string, code int, message string) []byte {
	type msg struct {
		ID        int64    `json:"id"`
		Error     rpcError `json:"error"`
		SessionID string   `json:"sessionId,omitempty"`
	}
	b, _ := json.Marshal(msg{ID: id, Error: rpcError{code, message}, SessionID: sid})
	return b
}

func eventMessage(method string, params any, sid string) []byte {
	type msg struct {
		Method    string `json:"method"`
		Params    any    `json:"params"`
		SessionID string `json:"sessionId,omitempty"`
	}
	b, _ := json.Marshal(msg{Method: method, Params: params, SessionID: sid})
	return b
}
