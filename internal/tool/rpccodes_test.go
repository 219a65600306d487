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
