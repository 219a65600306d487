package mcpwire

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// httpCancels gives the streamable HTTP transport what SilenceCancelled
// gives stdio: a request the client cancelled (notifications/cancelled)
// gets no reply. go-sdk cancels the handler's context on the notification
// (Dispatch then ends the call's work at once) but still writes the
// handler's response into the POST that carried the request; this drops
// that write, so the POST ends with no reply in it.
//
// Per MCP session (Mcp-Session-Id) it remembers only the calls in flight:
// an id is noted when its POST is read and forgotten when its response is
// written or dropped, or when its POST ends, so nothing grows.
type httpCancels struct {
	mu       sync.Mutex
	sessions map[string]map[any]bool // session id → call id → cancelled
}

// jsonID normalizes a JSON-RPC id (a number or a string) into a map key.
func jsonID(raw json.RawMessage) (any, bool) {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	switch x := v.(type) {
	case float64:
		return int64(x), true
	case string:
		return x, true
	}
	return nil, false
}

// maxTrackedBody is the largest POST body whose calls are tracked.
const maxTrackedBody = 4 << 20

type readCloser struct {
	io.Reader
	io.Closer
}

type rpcFrame struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// serve reads a POST's messages (restoring its body for next), notes its
// calls and the cancels it carries, and drops the replies to calls the
// client cancelled.
func (hc *httpCancels) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	sid := r.Header.Get("Mcp-Session-Id")
	if r.Method != http.MethodPost || sid == "" || r.Body == nil {
		next.ServeHTTP(w, r)
		return
	}
	// Only the head of a large body is read here; go-sdk reads (and
	// limits) the rest. A body past the cap is passed on untracked.
	body, err := io.ReadAll(io.LimitReader(r.Body, maxTrackedBody+1))
	r.Body = readCloser{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	if err != nil || len(body) > maxTrackedBody {
		next.ServeHTTP(w, r)
		return
	}
	var frames []rpcFrame
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		_ = json.Unmarshal(trimmed, &frames)
	} else {
		var f rpcFrame
		if json.Unmarshal(trimmed, &f) == nil {
			frames = []rpcFrame{f}
		}
	}
	var calls []any
	hc.mu.Lock()
	for _, f := range frames {
		switch {
		case f.Method == "notifications/cancelled":
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(f.Params, &p) != nil {
				continue
			}
			if id, ok := jsonID(p.RequestID); ok {
				if m := hc.sessions[sid]; m != nil {
					if _, open := m[id]; open {
						m[id] = true
					}
				}
			}
		case f.Method != "":
			if id, ok := jsonID(f.ID); ok {
				if hc.sessions == nil {
					hc.sessions = map[string]map[any]bool{}
				}
				if hc.sessions[sid] == nil {
					hc.sessions[sid] = map[any]bool{}
				}
				hc.sessions[sid][id] = false
				calls = append(calls, id)
			}
		}
	}
	hc.mu.Unlock()
	if len(calls) == 0 {
		next.ServeHTTP(w, r)
		return
	}
	defer hc.forget(sid, calls)
	next.ServeHTTP(&silencedWriter{ResponseWriter: w, hc: hc, sid: sid}, r)
}

// forget drops the POST's calls once it has ended.
func (hc *httpCancels) forget(sid string, ids []any) {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	m := hc.sessions[sid]
	for _, id := range ids {
		delete(m, id)
	}
	if len(m) == 0 {
		delete(hc.sessions, sid)
	}
}

// cancelled reports whether the reply to id must be dropped, and forgets
// the call either way.
func (hc *httpCancels) cancelled(sid string, id any) bool {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	m := hc.sessions[sid]
	c := m[id]
	delete(m, id)
	return c
}

// silencedWriter is the POST's response writer. go-sdk writes one
// message per Write (an SSE event, or the JSON body).
type silencedWriter struct {
	http.ResponseWriter
	hc  *httpCancels
	sid string
}

func (w *silencedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *silencedWriter) Write(p []byte) (int, error) {
	if id, ok := responseID(p); ok && w.hc.cancelled(w.sid, id) {
		return len(p), nil // the client gave up on it: no reply
	}
	return w.ResponseWriter.Write(p)
}

// responseID finds the id of the JSON-RPC response in one write: an SSE
// event's data line, or a JSON body. Anything else is not a response.
func responseID(p []byte) (any, bool) {
	data := p
	if i := bytes.Index(p, []byte("data: ")); i >= 0 && (i == 0 || p[i-1] == '\n') {
		data = p[i+len("data: "):]
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			data = data[:j]
		}
	}
	var f struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(bytes.TrimSpace(data), &f) != nil || f.Method != "" || (f.Result == nil && f.Error == nil) {
		return nil, false
	}
	return jsonID(f.ID)
}

// HTTP wraps a streamable HTTP MCP handler: a request nested too deeply is
// answered as an invalid JSON-RPC request (tooDeep), no error leaves with
// code 0 (codesWriter), and a call the client cancelled gets no reply
// (httpCancels).
func HTTP(next http.Handler) http.Handler {
	cancels := &httpCancels{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tooDeep(w, r) {
			return
		}
		cancels.serve(codesWriter{w}, r, next)
	})
}
