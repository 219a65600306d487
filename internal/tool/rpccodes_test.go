package tool

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHTTPCallBeforeInitializeHasACode: over streamable HTTP, tools/call
// before initialize is a JSON-RPC error with a code (-32600), not go-sdk's
// code 0.
func TestHTTPCallBeforeInitializeHasACode(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(hs.Close)
	res := rawPost(t, hs.URL+MCPPath, "", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"electron_status","arguments":{}}}`)
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	data := string(body)
	if i := strings.Index(data, "data: "); i >= 0 {
		data = data[i+len("data: "):]
		data, _, _ = strings.Cut(data, "\n")
	}
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(data), &m); err != nil || m.Error == nil || m.Error.Code != -32600 || string(m.ID) != "7" {
		t.Fatalf("tools/call before initialize: %s (%v), want error code -32600 for id 7", body, err)
	}
}

// TestHTTPDeepRequestIsInvalid: over streamable HTTP, a request nested
// 100,000 deep is a JSON-RPC -32600 with its id (go-sdk answered a
// plain-text 400 "exceeded maximum nesting depth").
func TestHTTPDeepRequestIsInvalid(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(hs.Close)
	deep := `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`
	res := rawPost(t, hs.URL+MCPPath, "", deep)
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &m); err != nil || m.Error == nil || m.Error.Code != -32600 || string(m.ID) != `"deep"` {
		t.Fatalf("100,000-deep request: HTTP %d %.200s (%v), want -32600 for id \"deep\"", res.StatusCode, body, err)
	}
	// A shallow request is go-sdk's as before.
	ok := rawPost(t, hs.URL+MCPPath, "", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[[[]]]}}`)
	defer ok.Body.Close()
	if b, _ := io.ReadAll(ok.Body); ok.StatusCode != 200 || !strings.Contains(string(b), `"id":1`) {
		t.Fatalf("a shallow ping after: HTTP %d %s", ok.StatusCode, b)
	}
}
