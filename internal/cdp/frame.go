package cdp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Frame is the envelope of one CDP message. A reply has ID and Result or
// Error; an event has Method and Params. SessionID is set on frames of a
// flattened child session.
type Frame struct {
	ID        int64           `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *ProtocolError  `json:"error,omitempty"`
}

// ProtocolError is an error the browser returned for a call.
type ProtocolError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

func (e *ProtocolError) Error() string {
	if e.Data != "" {
		return fmt.Sprintf("%s (%d): %s", e.Message, e.Code, e.Data)
	}
	return fmt.Sprintf("%s (%d)", e.Message, e.Code)
}

var errBadFrame = errors.New("cdp: frame is neither a reply nor an event")

// DecodeFrame parses one message. It rejects frames that are neither a reply
// (id > 0) nor an event (method set). The frame's params and result may
// share b's bytes.
func DecodeFrame(b []byte) (Frame, error) {
	if f, ok := decodeEnvelope(b); ok && (f.ID > 0 || f.Method != "") {
		return f, nil
	}
	var f Frame
	if err := json.Unmarshal(b, &f); err != nil {
		return Frame{}, fmt.Errorf("cdp: bad frame: %w", err)
	}
	if f.ID <= 0 && f.Method == "" {
		return Frame{}, errBadFrame
	}
	return f, nil
}

// decodeEnvelope reads a frame's top level without decoding the values it
// does not need: params and result are kept as the bytes they are (a
// sub-slice of b, which the caller must not reuse), so an event costs one
// pass over its bytes on the reader. It handles the frames Chromium writes
// (plain ASCII keys, method and sessionId without escapes, an id that is an
// integer) and reports false for anything else, which DecodeFrame then
// decodes in full. Unlike a full decode it does not validate the inside of
// params and result; their consumers decode them.
func decodeEnvelope(b []byte) (Frame, bool) {
	var f Frame
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return f, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return f, false // empty: let the full decode say what it is
	}
	for {
		key, j, ok := plainString(b, i)
		if !ok {
			return f, false
		}
		i = skipSpace(b, j)
		if i >= len(b) || b[i] != ':' {
			return f, false
		}
		i = skipSpace(b, i+1)
		end, ok := skipValue(b, i)
		if !ok {
			return f, false
		}
		v := b[i:end]
		switch key {
		case "id":
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				return f, false
			}
			f.ID = n
		case "sessionId", "method":
			s, _, ok := plainString(v, 0)
			if !ok || len(s)+2 != len(v) {
				return f, false
			}
			if key == "method" {
				f.Method = s
			} else {
				f.SessionID = s
			}
		case "params", "result":
			if v[0] != '{' && v[0] != '[' {
				return f, false
			}
			if key == "params" {
				f.Params = json.RawMessage(v)
			} else {
				f.Result = json.RawMessage(v)
			}
		default:
			for _, k := range [...]string{"id", "sessionId", "method", "params", "result", "error"} {
				if strings.EqualFold(key, k) {
					return f, false // "error", or a key the full decode matches without case
				}
			}
		}
		i = skipSpace(b, end)
		if i >= len(b) {
			return f, false
		}
		if b[i] == '}' {
			break
		}
		if b[i] != ',' {
			return f, false
		}
		i = skipSpace(b, i+1)
	}
	if skipSpace(b, i+1) != len(b) {
		return f, false
	}
	return f, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plainString reads a string at b[i] made of printable ASCII without
// escapes, and returns it and the index after its closing quote.
func plainString(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return string(b[i+1 : j]), j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", 0, false
		}
	}
	return "", 0, false
}

// skipValue returns the index just after the JSON value at b[i]. It finds
// the value's end (strings with escapes, nesting) without checking its
// inside.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return 0, false
	}
	return j, true
}

// skipString returns the index after the string starting at b[i] (a quote).
func skipString(b []byte, i int) (int, bool) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, false
		}
		q := j + k
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
}
