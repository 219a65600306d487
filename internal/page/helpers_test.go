package page

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/leakcheck"
)

// browser is shared by the tests of this package (see chromiumtest.Main).
var browser *chromiumtest.Browser

func TestMain(m *testing.M) {
	os.Exit(leakcheck.Main(func() int {
		defer func() {
			if serverOnce.srv != nil {
				_ = serverOnce.srv.Close()
			}
		}()
		return chromiumtest.Main(m, &browser)
	}))
}

// server is the fixture app, started once for the package.
var serverOnce struct {
	sync.Once
	srv *fixture.Server
	err error
}

func fixtureServer(tb testing.TB) *fixture.Server {
	tb.Helper()
	chromiumtest.Require(tb)
	serverOnce.Do(func() {
		serverOnce.srv, serverOnce.err = fixture.Serve(context.Background())
	})
	if serverOnce.err != nil {
		tb.Fatal(serverOnce.err)
	}
	return serverOnce.srv
}

// tab is one open page of the shared browser with its own socket.
type tab struct {
	id   string
	conn *cdp.Conn
}

// frame returns the Frame of the tab's main frame as surface id.
func (t *tab) frame(id string) Frame { return Frame{Session: t.conn, SurfaceID: id} }

// openTab opens url in a new tab, waits until its document is complete and
// returns it; the tab closes at cleanup.
func openTab(tb testing.TB, url string) *tab {
	tb.Helper()
	chromiumtest.Require(tb)
	target := browser.OpenPageFor(tb, url)
	conn, err := cdp.Dial(context.Background(), target.WebSocketDebuggerURL, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = conn.Close() })
	t := &tab{id: target.ID, conn: conn}
	t.waitTrue(tb, `document.readyState === "complete" && location.href === `+strconv.Quote(url))
	return t
}

// eval evaluates expr in the tab's main world and decodes the value into
// out (which may be nil).
func (t *tab) eval(tb testing.TB, expr string, out any) {
	tb.Helper()
	var res cdp.Evaluated
	var raw json.RawMessage
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err := t.conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &raw)
	if err != nil {
		tb.Fatalf("eval %s: %v", expr, err)
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		tb.Fatal(err)
	}
	if thrown, ok := res.Thrown(); ok {
		tb.Fatalf("eval %s: %s", expr, thrown)
	}
	if out != nil && len(res.Result.Value) > 0 {
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			tb.Fatalf("eval %s: %v (%s)", expr, err, res.Result.Value)
		}
	}
}

// waitTrue polls expr until it is true (45 s at most: a first tab on a
// loaded machine takes long).
func (t *tab) waitTrue(tb testing.TB, expr string) {
	tb.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		var ok bool
		var raw json.RawMessage
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := t.conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "!!(" + expr + ")", "returnByValue": true}, &raw)
		cancel()
		if err == nil {
			var res struct {
				Result struct {
					Value bool `json:"value"`
				} `json:"result"`
			}
			if json.Unmarshal(raw, &res) == nil {
				ok = res.Result.Value
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", expr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dataURL is a data: URL of an HTML document.
func dataURL(html string) string {
	return "data:text/html;charset=utf-8," + urlEscape(html)
}

func urlEscape(s string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)*2)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}

// wantCode fails unless err carries code.
func wantCode(tb testing.TB, err error, code errs.Code) *errs.Error {
	tb.Helper()
	if err == nil {
		tb.Fatalf("want %s, got no error", code)
	}
	e := errs.As(err)
	if e == nil || e.Code != code {
		tb.Fatalf("want %s, got %v", code, err)
	}
	return e
}

func ctxT(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	tb.Cleanup(cancel)
	return ctx
}

// injectionsOf is how many times the walker was installed for a surface.
func (s *Store) injectionsOf(surfaceID string) int {
	s.mu.Lock()
	sf := s.surfaces[surfaceID]
	s.mu.Unlock()
	if sf == nil {
		return 0
	}
	sf.mu.Lock()
	defer sf.mu.Unlock()
	return sf.injections
}

// reload reloads the tab and waits for the new document to be complete.
func (t *tab) reload(tb testing.TB) {
	tb.Helper()
	t.eval(tb, `window.__oldDocument = true; location.reload()`, nil)
	t.waitTrue(tb, `!window.__oldDocument && document.readyState === "complete"`)
}

func runtimeContext(id int64) runtime.ExecutionContextID { return runtime.ExecutionContextID(id) }
