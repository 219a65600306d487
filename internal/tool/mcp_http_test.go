package tool

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// bearer adds a token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// httpClient connects one MCP client over streamable HTTP.
func httpClient(t *testing.T, url, token string) func(name string, args map[string]any) map[string]any {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "http-client", Version: "0"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return func(name string, args map[string]any) map[string]any {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var m map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &m)
		return m
	}
}

// TestHTTPClientsOwnTheirSessions: over streamable HTTP, a second MCP
// client neither sees nor drives the session the first one launched (by
// default, or by naming its id), until the server shares sessions; only
// the MCP path is served, and only with the token.
func TestHTTPClientsOwnTheirSessions(t *testing.T) {
	chrome := chromiumtest.Require(t)
	app, err := fixture.Serve(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	s := New(Config{})
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.HTTPHandler(HTTPOptions{Token: "s3cret"}))
	t.Cleanup(hs.Close)

	for _, c := range []struct {
		path, auth string
		want       int
	}{
		{"/", "Bearer s3cret", 404},
		{"/other", "Bearer s3cret", 404},
		{MCPPath, "", 401},
		{MCPPath, "Bearer wrong", 401},
	} {
		req, _ := http.NewRequest("POST", hs.URL+c.path, nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("POST %s (%q): %d, want %d", c.path, c.auth, resp.StatusCode, c.want)
		}
	}

	a := httpClient(t, hs.URL+MCPPath, "s3cret")
	b := httpClient(t, hs.URL+MCPPath, "s3cret")
	r := a("electron_launch", map[string]any{"executablePath": chrome,
		"args": []string{"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/index.html")}})
	if r["ok"] != true {
		t.Fatalf("launch: %v", r)
	}
	sid := r["session_id"].(string)
	pid := num(r["pid"])

	if st := b("electron_status", nil); len(st["sessions"].([]any)) != 0 {
		t.Fatalf("the second client sees sessions: %v", st)
	}
	for _, args := range []map[string]any{nil, {"sessionId": sid}} {
		if m := b("electron_windows_list", args); m["code"] != "NOT_RUNNING" {
			t.Fatalf("the second client drove windows_list %v: %v", args, m)
		}
		if m := b("electron_stop", args); m["code"] != "NOT_RUNNING" {
			t.Fatalf("the second client stopped %v: %v", args, m)
		}
	}
	// Its own launch is not refused as "already running".
	if st := a("electron_status", nil); len(st["sessions"].([]any)) != 1 {
		t.Fatalf("the first client's status: %v", st)
	}
	if m := a("electron_windows_list", nil); m["ok"] != true {
		t.Fatalf("the first client's session: %v", m)
	}

	// Shared by the operator (--share-sessions): another server attached
	// to the same browser lets both clients drive it.
	shared := New(Config{ShareSessions: true})
	t.Cleanup(shared.Close)
	hs2 := httptest.NewServer(shared.HTTPHandler(HTTPOptions{}))
	t.Cleanup(hs2.Close)
	a2, b2 := httpClient(t, hs2.URL+MCPPath, ""), httpClient(t, hs2.URL+MCPPath, "")
	if m := a2("electron_attach", map[string]any{"cdpUrl": r["endpoint"]}); m["ok"] != true {
		t.Fatalf("attach: %v", m)
	}
	if m := b2("electron_windows_list", nil); m["ok"] != true {
		t.Fatalf("shared: %v", m)
	}
	if m := b2("electron_stop", nil); m["action"] != "detached" {
		t.Fatalf("shared stop: %v", m)
	}

	if m := a("electron_stop", nil); m["action"] != "closed" {
		t.Fatalf("stop: %v", m)
	}
	noOrphans(t, pid)
}

// TestHTTPTokenMessages (issue 29): a request without a token and one with
// a wrong token are both 401, with different messages.
func TestHTTPTokenMessages(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.HTTPHandler(HTTPOptions{Token: "s3cret"}))
	t.Cleanup(hs.Close)
	for _, c := range []struct{ auth, want string }{
		{"", "a token is required"},
		{"Bearer wrong", "does not carry the server's token"},
		{"Basic czNjcmV0", "does not carry the server's token"},
	} {
		req, _ := http.NewRequest("POST", hs.URL+MCPPath, nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 401 || !strings.Contains(string(body), c.want) {
			t.Errorf("%q: %d %q, want 401 naming %q", c.auth, resp.StatusCode, body, c.want)
		}
	}
}
