package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	if pvs, ok := t.(mcp.ProtocolVersionSupporter); ok {
		return &codesVersioned{codesTransport{t}, pvs}
	}
	return &codesTransport{t}
}

type codesTransport struct{ inner mcp.Transport }

type codesVersioned struct {
	codesTransport
	pvs mcp.ProtocolVersionSupporter
}

func (c *codesVersioned) SupportsProtocolVersion(v string) bool {
	return c.pvs.SupportsProtocolVersion(v)
}

func (c *codesTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return codesConn{conn}, nil
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
