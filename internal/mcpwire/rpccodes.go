package mcpwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rpcCode is the JSON-RPC code for an error go-sdk would send with code 0
// (it answers a plain Go error so): a request other than initialize or
// ping before initialize ("method ... is invalid during session
// initialization") is -32600, invalid request; any other uncoded error
// -32603, internal error.
func rpcCode(message string) int64 {
	if strings.Contains(message, "invalid during session initialization") {
		return jsonrpc.CodeInvalidRequest
	}
	return jsonrpc.CodeInternalError
}

// RPCCodes wraps an MCP transport so that no JSON-RPC error leaves it with
// code 0 (rpcCode). The streamable HTTP handler does the same on its
// response bodies (codesWriter).
func RPCCodes(t mcp.Transport) mcp.Transport {
	return wrapTransport(t, func(c mcp.Connection) mcp.Connection { return codesConn{c} })
}

type codesConn struct{ mcp.Connection }

func (c codesConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error != nil {
		var we *jsonrpc.Error
		if !errors.As(r.Error, &we) || we.Code == 0 {
			fixed := *r
			fixed.Error = &jsonrpc.Error{Code: rpcCode(r.Error.Error()), Message: r.Error.Error()}
			msg = &fixed
		}
	}
	return c.Connection.Write(ctx, msg)
}

// codesWriter is a streamable HTTP response writer that gives a JSON-RPC
// error with code 0 its code (rpcCode). go-sdk writes one message per
// Write: an SSE event ("event: message\ndata: {...}\n\n") or a JSON body.
type codesWriter struct{ http.ResponseWriter }

func (w codesWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w codesWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w codesWriter) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte(`"code":0`)) {
		return w.ResponseWriter.Write(p)
	}
	start, end := 0, len(p)
	if i := bytes.Index(p, []byte("data: ")); i >= 0 && (i == 0 || p[i-1] == '\n') {
		start = i + len("data: ")
		if j := bytes.IndexByte(p[start:], '\n'); j >= 0 {
			end = start + j
		}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(p[start:end], &m) != nil || m["error"] == nil || m["method"] != nil {
		return w.ResponseWriter.Write(p)
	}
	var e map[string]json.RawMessage
	if json.Unmarshal(m["error"], &e) != nil || string(e["code"]) != "0" {
		return w.ResponseWriter.Write(p)
	}
	var message string
	_ = json.Unmarshal(e["message"], &message)
	e["code"], _ = json.Marshal(rpcCode(message))
	m["error"], _ = json.Marshal(e)
	body, err := json.Marshal(m)
	if err != nil {
		return w.ResponseWriter.Write(p)
	}
	out := append(append(append([]byte{}, p[:start]...), body...), p[end:]...)
	if _, err := w.ResponseWriter.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// JSONDepth is the deepest nesting of arrays and objects in a valid JSON value.
func JSONDepth(b []byte) int {
	d, max, inStr, esc := 0, 0, false, false
	for _, c := range b {
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			d++
			if d > max {
				max = d
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return max
}

// DeepValue walks a line nested too deeply for json.Valid token by token
// (json.Decoder.Token keeps its own stack, without the validator's depth
// limit) and reports whether it is exactly one JSON value, with the id of a
// top-level object's "id" member when that is a string or a number (nil
// otherwise, or when "id" appears more than once).
func DeepValue(line []byte) (id json.RawMessage, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	level, ids, done := 0, 0, false
	topObject, expectName, idNext := false, false, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if !done {
				return nil, false
			}
			if ids != 1 {
				id = nil
			}
			return id, true
		}
		if err != nil || done {
			return nil, false // bad syntax, or a second value after the first
		}
		if d, isDelim := tok.(json.Delim); isDelim {
			opening := d == '{' || d == '['
			if opening {
				if level == 0 && d == '{' {
					topObject, expectName = true, true
				} else if level == 1 {
					idNext = false // an object or array is no id
				}
				level++
			} else {
				level--
				if level == 1 {
					expectName = true // a nested value of the top object ended
				}
			}
			done = level == 0
			continue
		}
		if level == 0 {
			done = true // a scalar
			continue
		}
		if level != 1 || !topObject {
			continue
		}
		if expectName {
			if name, _ := tok.(string); name == "id" {
				ids++
				idNext = true
			}
			expectName = false
			continue
		}
		if idNext {
			switch v := tok.(type) {
			case string:
				id, _ = json.Marshal(v)
			case json.Number:
				id = json.RawMessage(v)
			}
			idNext = false
		}
		expectName = true
	}
}

// maxHTTPDepth bounds the nesting of a POSTed JSON-RPC message, as the
// stdio filter does (cmd/understudy: maxJSONDepth).
const maxHTTPDepth = 512

// tooDeep answers a POST whose JSON nests deeper than maxHTTPDepth with a
// JSON-RPC -32600 (with the request's id when it is a plain top-level
// member) instead of go-sdk's plain-text 400 "exceeded maximum nesting
// depth", and reports whether it did. The body is put back for the next
// handler otherwise; a body past maxTrackedBody is left to go-sdk.
func tooDeep(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxTrackedBody+1))
	r.Body = readCloser{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	if err != nil || len(body) > maxTrackedBody || JSONDepth(body) <= maxHTTPDepth {
		return false
	}
	id, ok := DeepValue(bytes.TrimSpace(body))
	code, msg := jsonrpc.CodeInvalidRequest, "invalid request: nested too deeply"
	if !ok {
		code, msg = jsonrpc.CodeParseError, "parse error: not one JSON value"
	}
	if id == nil {
		id = json.RawMessage("null")
	}
	out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(out)
	return true
}
