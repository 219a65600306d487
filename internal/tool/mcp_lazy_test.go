//lint:file-ignore SA1019 MCP log notifications are served during the logging deprecation window (SEP-2577); issue 19 asks for them

package tool

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectCounting connects an in-memory client to a fresh MCP server of s
// and counts the tools/list_changed notifications it receives.
func connectCounting(t *testing.T, s *Server) (*mcp.ClientSession, *atomic.Int32) {
	t.Helper()
	var changed atomic.Int32
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed.Add(1) },
	})
	cs, err := client.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, &changed
}

// TestToolsRegisteredOnFirstUse: the tools are registered after initialize
// (ADR-026), yet initialize states the tools capability, every tool is
// listed by concurrent first tools/list requests, and no list-changed
// notification is sent for the registration.
func TestToolsRegisteredOnFirstUse(t *testing.T) {
	s := New(Config{AllowEvalRenderer: true})
	defer s.Close()
	cs, changed := connectCounting(t, s)
	caps := cs.InitializeResult().Capabilities
	if caps.Tools == nil || caps.Tools.ListChanged || caps.Logging == nil {
		t.Fatalf("initialize capabilities: tools %+v, logging %+v; want tools without listChanged, and logging", caps.Tools, caps.Logging)
	}
	want := len(s.tools().order)
	if want < 50 {
		t.Fatalf("only %d tools defined", want)
	}
	var wg sync.WaitGroup
	counts := make([]int, 4)
	errs := make([]error, 4)
	for i := range counts {
		wg.Go(func() {
			res, err := cs.ListTools(t.Context(), nil)
			if err == nil {
				counts[i] = len(res.Tools)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i := range counts {
		if errs[i] != nil || counts[i] != want {
			t.Errorf("first tools/list #%d: %d tools, err %v; want %d", i, counts[i], errs[i], want)
		}
	}
	time.Sleep(100 * time.Millisecond) // go-sdk debounces list-changed by 10 ms
	if n := changed.Load(); n != 0 {
		t.Errorf("%d tools/list_changed notifications, want none", n)
	}
}

// TestFirstRequestIsAToolCall: a client that calls a tool without listing
// the tools first finds it registered.
func TestFirstRequestIsAToolCall(t *testing.T) {
	s := New(Config{})
	defer s.Close()
	cs, _ := connectCounting(t, s)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "electron_status", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("electron_status as the first request: %v", err)
	}
	if res.IsError {
		t.Fatalf("electron_status failed: %+v", res.StructuredContent)
	}
}

// TestNewBuildsNoRegistry: New leaves the tool registry for its first use
// (ADR-026, amendment of 2026-12-02), which a host waiting for the
// initialize reply would otherwise pay for; the first Names builds it.
func TestNewBuildsNoRegistry(t *testing.T) {
	s := New(Config{})
	defer s.Close()
	if s.reg.defs != nil {
		t.Fatalf("New built the registry (%d tools)", len(s.reg.defs))
	}
	if n := len(s.Names()); n < 50 || len(s.reg.defs) != n {
		t.Fatalf("Names listed %d tools, the registry holds %d", n, len(s.reg.defs))
	}
}
