package tool

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// rawPost sends one JSON-RPC body to the MCP endpoint and returns the
// response (body unread).
func rawPost(t *testing.T, url, sid, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestHTTPCancelledGetsNoReply: over streamable HTTP, a call the client
// cancels (notifications/cancelled) ends its work (electron_wait stops
// long before its 30 s) and its POST ends with no reply in it; a call not
// cancelled still gets its reply on the same MCP session.
func TestHTTPCancelledGetsNoReply(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(hs.Close)
	url := hs.URL + MCPPath
	init := rawPost(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	sid := init.Header.Get("Mcp-Session-Id")
	_, _ = io.ReadAll(init.Body)
	_ = init.Body.Close()
	if sid == "" {
		t.Fatalf("no session id (status %d)", init.StatusCode)
	}
	t.Cleanup(func() { // end the MCP session, as a client leaving does
		req, _ := http.NewRequest(http.MethodDelete, url, nil)
		req.Header.Set("Mcp-Session-Id", sid)
		if res, err := http.DefaultClient.Do(req); err == nil {
			_ = res.Body.Close()
		}
		http.DefaultClient.CloseIdleConnections()
	})
	n := rawPost(t, url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_ = n.Body.Close()

	type answer struct {
		body string
		took time.Duration
	}
	got := make(chan answer, 1)
	start := time.Now()
	go func() {
		res := rawPost(t, url, sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"electron_wait","arguments":{"ms":30000}}}`)
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		got <- answer{string(b), time.Since(start)}
	}()
	time.Sleep(300 * time.Millisecond) // the call is in flight
	c := rawPost(t, url, sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"test"}}`)
	_ = c.Body.Close()
	var a answer
	select {
	case a = <-got:
	case <-time.After(25 * time.Second):
		t.Fatal("the cancelled call's POST never ended: its work went on")
	}
	if strings.Contains(a.body, `"id":7`) || strings.Contains(a.body, `"result"`) || strings.Contains(a.body, `"error"`) {
		t.Fatalf("a cancelled call got a reply: %q", a.body)
	}
	// The MCP session still answers what is not cancelled.
	res := rawPost(t, url, sid, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"electron_wait","arguments":{"ms":10}}}`)
	b, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if !strings.Contains(string(b), `"id":8`) || !strings.Contains(string(b), `"result"`) {
		t.Fatalf("a call after the cancel: %q", b)
	}
}
