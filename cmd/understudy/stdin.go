package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/tool"
)

// MaxStdinLine is the longest line the stdio MCP transport accepts. A longer
// line is answered with a JSON-RPC error and skipped as it streams past,
// never buffered whole.
const MaxStdinLine = 16 << 20

// maxJSONDepth bounds nesting; the SDK's decoder gives up (and with it the
// whole connection) at 1000.
const maxJSONDepth = 512

// JSON-RPC error codes the filter answers with.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
)

// stdioTransport is go-sdk's newline-delimited stdio transport behind a
// filter: go-sdk ends the connection (and so the server, and the app it
// launched) on the first line it cannot decode. The filter hands it only
// well-formed single JSON-RPC 2.0 messages, rewritten to their canonical
// members, and answers everything else itself with a JSON-RPC error on
// stdout: -32700 for what is not JSON, -32600 for JSON that is not a
// request, notification or response (a batch, "jsonrpc":"1.0", an object
// id, a line over MaxStdinLine, ...). Both writers share one lock, one
// whole line per write, so lines never interleave.
func stdioTransport(stdin io.Reader, stdout io.Writer, log *slog.Logger) mcp.Transport {
	w := &lineWriter{w: stdout}
	return &mcp.IOTransport{
		Reader:        &lineFilter{src: bufio.NewReaderSize(stdin, 64<<10), out: w, log: log},
		Writer:        w,
		MaxLineLength: 2 * MaxStdinLine,
	}
}

// lineWriter serialises whole-line writes to stdout.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineWriter) Close() error { return nil }

// lineFilter is the reader go-sdk reads: the valid lines of src.
type lineFilter struct {
	src     *bufio.Reader
	out     *lineWriter
	log     *slog.Logger
	pending []byte // a valid line (with its newline) not yet read
	err     error  // src's error, returned once pending is empty
}

func (f *lineFilter) Close() error { return nil }

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, tooLong, err := f.readLine()
		if err != nil {
			f.err = err
		}
		switch {
		case tooLong:
			f.reject(nil, rpcInvalidRequest, "request line longer than the 16 MiB limit; skipped")
		case len(bytes.TrimSpace(line)) > 0:
			if msg, id, code, why := canonical(line); code != 0 {
				f.reject(id, code, why)
			} else {
				f.pending = append(msg, '\n')
			}
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// readLine reads up to the next newline. A line over MaxStdinLine is read
// past in pieces and reported tooLong, without its bytes.
func (f *lineFilter) readLine() (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := f.src.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxStdinLine+2 { // the newline (and a \r) do not count
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, tooLong, err
	}
}

func (f *lineFilter) reject(id json.RawMessage, code int, why string) {
	if f.log != nil {
		f.log.Warn("mcp: refused a stdin line", "code", code, "why", why)
	}
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": why},
	})
	_, _ = f.out.Write(append(b, '\n'))
}

// canonical validates one line as a single JSON-RPC 2.0 message and returns
// it rewritten with only its known members, or the id to answer with (nil
// when none can be trusted), an error code and why.
func canonical(line []byte) (msg, id json.RawMessage, code int, why string) {
	line = bytes.TrimSpace(line)
	if !utf8.Valid(line) {
		return nil, nil, rpcParseError, "parse error: not one JSON value"
	}
	// Depth first: encoding/json's validator gives up at 10000 levels, so a
	// request nested deeper would read as a parse error. A line that is one
	// JSON value but nests past maxJSONDepth is an invalid request, answered
	// with its id when the id is a plain top-level member.
	if tool.JSONDepth(line) > maxJSONDepth {
		id, ok := tool.DeepValue(line)
		if !ok {
			return nil, nil, rpcParseError, "parse error: not one JSON value"
		}
		return nil, id, rpcInvalidRequest, "invalid request: nested too deeply"
	}
	if !json.Valid(line) {
		return nil, nil, rpcParseError, "parse error: not one JSON value"
	}
	switch line[0] {
	case '{':
	case '[':
		return nil, nil, rpcInvalidRequest, "invalid request: batches are not supported; send one message per line"
	default:
		return nil, nil, rpcInvalidRequest, "invalid request: a message is a JSON object"
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, nil, rpcParseError, "parse error: " + err.Error()
	}
	rawID, hasID := m["id"]
	if hasID {
		var v any
		if json.Unmarshal(rawID, &v) != nil {
			return nil, nil, rpcInvalidRequest, "invalid request: bad id"
		}
		switch v.(type) {
		case string, float64:
			id = rawID
		default:
			return nil, nil, rpcInvalidRequest, "invalid request: id must be a string or a number"
		}
	}
	var version string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return nil, id, rpcInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0"`)
	if hasID {
		b.WriteString(`,"id":`)
		b.Write(rawID)
	}
	if rawMethod, ok := m["method"]; ok {
		var method string
		if json.Unmarshal(rawMethod, &method) != nil || method == "" {
			return nil, id, rpcInvalidRequest, `invalid request: "method" must be a non-empty string`
		}
		b.WriteString(`,"method":`)
		b.Write(rawMethod)
		if p, ok := m["params"]; ok && !bytes.Equal(p, []byte("null")) {
			if p[0] != '{' && p[0] != '[' {
				return nil, id, rpcInvalidRequest, `invalid request: "params" must be an object`
			}
			b.WriteString(`,"params":`)
			b.Write(p)
		}
		b.WriteByte('}')
		return b.Bytes(), nil, 0, ""
	}
	// A response to one of the server's requests.
	if !hasID {
		return nil, nil, rpcInvalidRequest, `invalid request: no "method" and no "id"`
	}
	res, hasRes := m["result"]
	e, hasErr := m["error"]
	if hasErr && !bytes.Equal(e, []byte("null")) {
		var we struct {
			Code    int64           `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if e[0] != '{' || json.Unmarshal(e, &we) != nil {
			return nil, id, rpcInvalidRequest, `invalid request: "error" must be an object with a code and a message`
		}
		clean, _ := json.Marshal(we)
		b.WriteString(`,"error":`)
		b.Write(clean)
	} else if hasRes {
		b.WriteString(`,"result":`)
		b.Write(res)
	} else {
		return nil, id, rpcInvalidRequest, `invalid request: a response needs "result" or "error"`
	}
	b.WriteByte('}')
	return b.Bytes(), nil, 0, ""
}
