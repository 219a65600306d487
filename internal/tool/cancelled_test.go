package tool

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// wire records what crosses a server-side transport: the ids of the
// tools/call requests read (by tool name) and of every response written.
type wire struct {
	inner mcp.Transport
	mu    sync.Mutex
	calls map[string][]any // tool name → request ids
	resps []any            // ids of responses written
}

func (w *wire) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := w.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &wireConn{Connection: c, w: w}, nil
}

type wireConn struct {
	mcp.Connection
	w *wire
}

func (c *wireConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.IsCall() && req.Method == "tools/call" {
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		c.w.mu.Lock()
		c.w.calls[p.Name] = append(c.w.calls[p.Name], mcpwire.IDKey(req.ID))
		c.w.mu.Unlock()
	}
	return msg, err
}

func (c *wireConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.w.mu.Lock()
		c.w.resps = append(c.w.resps, mcpwire.IDKey(resp.ID))
		c.w.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

// answered reports whether a response with the id of the n-th call of tool
// was written.
func (w *wire) answered(t *testing.T, tool string, n int) bool {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.calls[tool]) <= n {
		t.Fatalf("no call %d of %s crossed the wire: %v", n, tool, w.calls)
	}
	id := w.calls[tool][n]
	for _, r := range w.resps {
		if r == id {
			return true
		}
	}
	return false
}

// newWiredEnv is newEnv with the server's side of the in-memory transport
// recorded, and (silence) wrapped as cmd/understudy wraps stdio.
func newWiredEnv(t *testing.T, silence bool) (*env, *wire) {
	t.Helper()
	chrome := chromiumtest.Require(t)
	ctx := context.Background()
	app, err := fixture.Serve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	s := New(Config{FileRoots: []string{os.TempDir()}, ArtifactsDir: filepath.Join(t.TempDir(), "artifacts")})
	t.Cleanup(s.Close)
	ct, st := mcp.NewInMemoryTransports()
	w := &wire{inner: st, calls: map[string][]any{}}
	var server mcp.Transport = w
	if silence {
		server = SilenceCancelled(w)
	}
	ss, err := s.MCP().Connect(ctx, server, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return &env{t: t, srv: s, client: cs, app: app, chrome: chrome, fullMu: new(sync.Mutex)}, w
}

// cancelAfter starts tool and cancels it (notifications/cancelled) after d;
// it returns once the client gave up on the call.
func (e *env) cancelAfter(d time.Duration, tool string, args map[string]any) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, err := e.client.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		e.t.Fatalf("%s: want the client's cancellation, got %v", tool, err)
	}
}

// A cancelled wait ends its work at once (the next call on the same session
// gets the lock within a second, not after the wait's 20 s) and its id gets
// no reply.
func TestCancelledCallStopsAndIsNotAnswered(t *testing.T) {
	e, w := newWiredEnv(t, true)
	e.launch("/index.html")
	start := time.Now()
	e.cancelAfter(300*time.Millisecond, "electron_wait_for_selector", map[string]any{"selector": "#never-there", "timeoutMs": 20000})
	cancelled := time.Since(start)
	next := time.Now()
	e.ok("electron_get_text", map[string]any{"selector": "body"})
	took := time.Since(next)
	t.Logf("the client gave up after %v; get_text then answered in %v", cancelled, took)
	if took > time.Second {
		t.Fatalf("get_text after a cancelled wait took %v: the cancelled call kept the session", took)
	}
	// Give a stray reply time to arrive: the handler has returned (the
	// lock was released), so its reply would have been written by now.
	time.Sleep(500 * time.Millisecond)
	if w.answered(t, "electron_wait_for_selector", 0) {
		t.Fatal("a reply was written for the cancelled call")
	}
	if !w.answered(t, "electron_get_text", 0) {
		t.Fatal("the wire recorder saw no reply at all: it is not recording")
	}
	// The connection still serves, and a sessionless call cancelled the
	// same way is silent too.
	e.cancelAfter(200*time.Millisecond, "electron_wait", map[string]any{"ms": 20000})
	e.ok("electron_status", nil)
	time.Sleep(300 * time.Millisecond)
	if w.answered(t, "electron_wait", 0) {
		t.Fatal("a reply was written for the cancelled electron_wait")
	}
}

// The control: without SilenceCancelled, go-sdk writes a reply for a
// cancelled call (the reason the wrapper exists). If go-sdk stops doing
// that, this fails and the wrapper can go.
func TestGoSDKAnswersCancelledCalls(t *testing.T) {
	e, w := newWiredEnv(t, false)
	e.cancelAfter(200*time.Millisecond, "electron_wait", map[string]any{"ms": 20000})
	deadline := time.Now().Add(5 * time.Second)
	for !w.answered(t, "electron_wait", 0) {
		if time.Now().After(deadline) {
			t.Fatal("go-sdk no longer replies to a cancelled call: SilenceCancelled may be unnecessary")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
