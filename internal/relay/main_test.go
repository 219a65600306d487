package relay

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
	"github.com/understudy-dev/understudy/internal/leakcheck"
)

// shared is the one Chromium of this package's tests (nil under -short or
// without a browser). Tests open fresh pages in it.
var shared *chromiumtest.Browser

// fixtureSrv is the fixture app, served for the whole package.
var fixtureSrv = &lazyFixture{}

func TestMain(m *testing.M) {
	if up := os.Getenv(childEnv); up != "" {
		os.Exit(runRelayChild(up)) // a relay process for the peer benchmarks
	}
	os.Exit(leakcheck.Main(func() int {
		defer fixtureSrv.close()
		return chromiumtest.Main(m, &shared)
	}))
}

type lazyFixture struct {
	once sync.Once
	srv  *fixture.Server
	err  error
}

func (l *lazyFixture) get(tb testing.TB) *fixture.Server {
	tb.Helper()
	l.once.Do(func() { l.srv, l.err = fixture.Serve(context.Background()) })
	if l.err != nil {
		tb.Fatal(l.err)
	}
	return l.srv
}

func (l *lazyFixture) close() {
	if l.srv != nil {
		_ = l.srv.Close()
	}
}

// needBrowser skips (or, with CI=true, fails) a test without Chromium.
func needBrowser(tb testing.TB) *chromiumtest.Browser {
	tb.Helper()
	chromiumtest.Require(tb)
	if shared == nil {
		tb.Fatal("chromiumtest: the shared browser did not start")
	}
	return shared
}

// endpointOf is the upstream Endpoint of a test browser.
func endpointOf(b *chromiumtest.Browser) browser.Endpoint {
	return browser.Endpoint{Host: "127.0.0.1", Port: b.Port, HTTPURL: b.HTTPURL, BrowserWSURL: b.WSURL}
}

// startRelay starts a relay in front of up for one test and closes it at
// cleanup, then checks that none of its goroutines is left.
func startRelay(tb testing.TB, up browser.Endpoint) *Relay {
	tb.Helper()
	return startRelayWith(tb, Options{Upstream: up}, nil)
}

// startRelayWith is startRelay with options, and a hook that may change
// internal limits before the relay starts.
func startRelayWith(tb testing.TB, opts Options, before func(*Relay)) *Relay {
	tb.Helper()
	r, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	if before != nil {
		before(r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := r.Close(); err != nil {
			tb.Errorf("relay close: %v", err)
		}
		if leaked := relayGoroutines(3 * time.Second); leaked != "" {
			tb.Errorf("goroutines of the relay left after Close:\n%s", leaked)
		}
	})
	return r
}

// ownRelay starts a browser of the test's own (so no other test's tabs are
// in it) with the fixture's page loaded in a tab, and a relay in front of
// it. It returns node (with the pinned clients installed), the browser,
// the page's URL and the relay.
func ownRelay(tb testing.TB, page string) (node string, own *chromiumtest.Browser, top string, r *Relay) {
	tb.Helper()
	node = requireNode(tb)
	chromiumtest.Require(tb)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	own = chromiumtest.Start(ctx, tb)
	top = fixtureSrv.get(tb).URL("a.test", page)
	openPageIn(tb, own, top)
	return node, own, top, startRelay(tb, endpointOf(own))
}

// openPage opens url in a new tab of the shared browser, waits for its
// document (frames included) to load, and closes it at cleanup.
func openPage(tb testing.TB, url string) string {
	tb.Helper()
	return openPageIn(tb, needBrowser(tb), url)
}

func openPageIn(tb testing.TB, b *chromiumtest.Browser, url string) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, err := b.NewPage(ctx, url)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = b.ClosePage(ctx, id)
	})
	if _, err := b.WaitList(ctx, func(ts []chromiumtest.Target) bool {
		for _, t := range ts {
			if t.ID == id && t.URL == url {
				return true
			}
		}
		return false
	}); err != nil {
		tb.Fatal(err)
	}
	// Straight to the browser, not through a relay.
	pageWS := b.WSURL[:strings.Index(b.WSURL, "/devtools/")] + "/devtools/page/" + id
	conn, err := cdp.Dial(ctx, pageWS, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	for {
		var res struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		// /json/list shows the URL of a new tab before its first document
		// commits; wait for that document, not the initial about:blank.
		err := conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "location.href + ' ' + document.readyState", "returnByValue": true}, &res)
		if err == nil && res.Result.Value == url+" complete" {
			return id
		}
		select {
		case <-ctx.Done():
			tb.Fatalf("%s did not load: %v", url, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// relayGoroutines waits up to d for the relay's goroutines (those with a
// frame of this package, other than test goroutines) to end, and returns
// the stacks of those left.
func relayGoroutines(d time.Duration) string {
	return leakcheck.Left(d, func(g leakcheck.Goroutine) bool {
		return strings.Contains(g.Stack, "understudy/internal/relay.") &&
			!strings.Contains(g.Stack, "testing.tRunner") && !strings.Contains(g.Stack, "testing.(*T)") &&
			!strings.Contains(g.Stack, "relay.TestMain")
	})
}
