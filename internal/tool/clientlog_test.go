//lint:file-ignore SA1019 MCP log notifications are served during the logging deprecation window (SEP-2577); issue 19 asks for them

package tool

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLogNotificationsFollowTheClientsLevel: a client gets a tool call's
// log notifications only when it asked for a level (per request, as
// protocol 2026-07-28 clients do; older ones use logging/setLevel, which the
// SDK applies the same way), and only at or above it; each tool call is
// logged at debug without its arguments.
func TestLogNotificationsFollowTheClientsLevel(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	ctx := t.Context()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	var mu sync.Mutex
	var got []*mcp.LoggingMessageParams
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			got = append(got, r.Params)
			mu.Unlock()
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	call := func(level string) {
		t.Helper()
		p := &mcp.CallToolParams{Name: "electron_windows_list", Arguments: map[string]any{"sessionId": "secret-looking-arg"}}
		if level != "" {
			p.SetMeta(mcp.Meta{mcp.MetaKeyLogLevel: level})
		}
		if _, err := cs.CallTool(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(got)
	}
	call("")
	time.Sleep(100 * time.Millisecond)
	if n := count(); n != 0 {
		t.Fatalf("%d log notifications before the client set a level", n)
	}
	call("warning")
	time.Sleep(100 * time.Millisecond)
	if n := count(); n != 0 {
		t.Fatalf("a debug record reached a client at level warning")
	}
	call("debug")
	deadline := time.Now().Add(5 * time.Second)
	for count() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no log notification at level debug")
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	p := got[0]
	data, _ := p.Data.(map[string]any)
	if p.Level != "debug" || p.Logger != "understudy" || data["msg"] != "tool call" || data["tool"] != "electron_windows_list" || data["code"] != "NOT_RUNNING" {
		t.Fatalf("notification %+v", p)
	}
	for k, v := range data {
		if v == "secret-looking-arg" {
			t.Fatalf("the call's argument is in the log (%s)", k)
		}
	}
}
