//go:build linux

package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestCheckLoopback(t *testing.T) {
	for _, h := range []string{"127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST", "localhost.", "::ffff:127.0.0.1"} {
		if err := CheckLoopback(h); err != nil {
			t.Errorf("%q: %v", h, err)
		}
	}
	for _, h := range []string{"", "10.0.0.1", "0.0.0.0", "::", "192.168.1.1", "example.com", "localhost.example.com",
		"127.0.0.1.nip.io", "fe80::1%lo", "::ffff:10.0.0.1", "[::1"} {
		wantCode(t, CheckLoopback(h), errs.BadArgument, "host")
	}
}

func TestResolveBadInput(t *testing.T) {
	// A server that fails the test if anything reaches it: nothing here may
	// connect anywhere, not even to loopback.
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()

	tests := []struct {
		name   string
		host   string
		port   int
		cdpURL string
		field  string
	}{
		{"neither", "", 0, "", "port"},
		{"both", "", 9222, "http://127.0.0.1:9222", "cdpUrl"},
		{"remote host", "10.0.0.1", 9222, "", "host"},
		{"remote name", "example.com", 9222, "", "host"},
		{"unspecified host", "0.0.0.0", 9222, "", "host"},
		{"bad port", "", 70000, "", "port"},
		{"negative port", "", -1, "", "port"},
		{"remote ws", "", 0, "ws://example.com:9222", "cdpUrl"},
		{"remote http", "", 0, "http://10.0.0.1:9222/json/version", "cdpUrl"},
		{"remote ipv6", "", 0, "ws://[2001:db8::1]:9222/devtools/browser/x", "cdpUrl"},
		{"userinfo trick", "", 0, "http://127.0.0.1@example.com:9222", "cdpUrl"},
		{"not a URL", "", 0, "127.0.0.1:9222", "cdpUrl"},
		{"bad scheme", "", 0, "ftp://127.0.0.1:9222", "cdpUrl"},
		{"host with cdpUrl", "127.0.0.1", 0, srv.URL, "host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Resolve(t.Context(), tt.host, tt.port, tt.cdpURL)
			wantCode(t, err, errs.BadArgument, tt.field)
		})
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("%d requests reached a server", n)
	}
}

func TestResolveClosedPort(t *testing.T) {
	port := closedPort(t)
	for _, c := range []struct {
		host, cdpURL string
		port         int
	}{
		{"", "", port},
		{"localhost", "", port},
		{"", fmt.Sprintf("http://127.0.0.1:%d", port), 0},
		{"", fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser/x", port), 0},
	} {
		_, _, err := Resolve(t.Context(), c.host, c.port, c.cdpURL)
		e := wantCode(t, err, errs.NotRunning, "")
		if !strings.Contains(e.Message, "no DevTools endpoint at") || !strings.Contains(e.Hint, "--remote-debugging-port") {
			t.Fatalf("message %q hint %q", e.Message, e.Hint)
		}
	}
}

// A fake DevTools endpoint for the JSON paths.
func fakeDevtools(t *testing.T, version string, status int) (host string, port int) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/json/version":
			w.WriteHeader(status)
			fmt.Fprint(w, version)
		case "/json/list":
			fmt.Fprint(w, `[{"id":"A","type":"page","title":"t","url":"about:blank","webSocketDebuggerUrl":"ws://x/devtools/page/A"},
				{"id":"B","type":"iframe","parentId":"A","url":"http://b.test/"},{"id":"C","type":"browser_ui"}]`)
		case "/redirect":
			http.Redirect(w, r, "http://10.0.0.1/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	h, p, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	port, _ = strconv.Atoi(p)
	return h, port
}

func TestResolveFakeEndpoints(t *testing.T) {
	ctx := t.Context()

	// A remote ws URL in /json/version is pulled back to the endpoint.
	h, port := fakeDevtools(t, `{"Browser":"Fake/1","webSocketDebuggerUrl":"ws://10.9.9.9:1/devtools/browser/z"}`, 200)
	ep, v, err := Resolve(ctx, h, port, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("ws://127.0.0.1:%d/devtools/browser/z", port); ep.BrowserWSURL != want || v.Browser != "Fake/1" {
		t.Fatalf("endpoint %+v version %+v", ep, v)
	}
	ts, err := ListTargets(ctx, ep)
	if err != nil || len(ts) != 3 || ts[1].ParentID != "A" || ts[0].WebSocketDebuggerURL == "" {
		t.Fatalf("targets %+v %v", ts, err)
	}
	found, err := Discover(ctx, h, []int{port}, time.Second)
	if err != nil || len(found) != 1 || found[0].Targets != 2 {
		t.Fatalf("found %+v %v", found, err)
	}

	// Not DevTools: NOT_RUNNING.
	for _, body := range []struct {
		v      string
		status int
	}{{`{}`, 200}, {`<html>`, 200}, {`{"Browser":"x"}`, 404}} {
		h, port := fakeDevtools(t, body.v, body.status)
		_, _, err := Resolve(ctx, h, port, "")
		wantCode(t, err, errs.NotRunning, "")
	}

	// A hand-built endpoint off loopback is refused before any dial.
	_, err = GetVersion(ctx, newEndpoint("10.0.0.1", 9222, ""))
	wantCode(t, err, errs.NotRunning, "")
	if !strings.Contains(err.Error(), "non-loopback") {
		t.Fatalf("%v", err)
	}
	// Redirects are not followed.
	var out any
	err = getJSON(ctx, newEndpoint(h, port, ""), "/redirect", &out)
	wantCode(t, err, errs.NotRunning, "")
}

func TestResolveTimeout(t *testing.T) {
	// Accepts connections, never answers.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	_, _, err = Resolve(ctx, "", l.Addr().(*net.TCPAddr).Port, "")
	wantCode(t, err, errs.CDPTimeout, "")
}

func TestResolveAndDiscoverChromium(t *testing.T) {
	ctx := t.Context()
	p := launchChromium(t, ctx)
	port := p.Endpoint.Port

	for _, c := range []struct {
		name, host, cdpURL string
		port               int
		wantHost           string
	}{
		{"port", "", "", port, "127.0.0.1"},
		{"localhost", "localhost", "", port, "localhost"},
		{"http url", "", fmt.Sprintf("http://127.0.0.1:%d", port), 0, "127.0.0.1"},
		{"http url with path", "", fmt.Sprintf("http://127.0.0.1:%d/json/version", port), 0, "127.0.0.1"},
		{"ws url", "", p.Endpoint.BrowserWSURL, 0, "127.0.0.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ep, v, err := Resolve(ctx, c.host, c.port, c.cdpURL)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if ep.Port != port || ep.Host != c.wantHost || !strings.Contains(v.Browser, "Chrome") {
				t.Fatalf("endpoint %+v version %+v", ep, v)
			}
			id := p.Endpoint.BrowserWSURL[strings.LastIndexByte(p.Endpoint.BrowserWSURL, '/'):]
			if !strings.HasSuffix(ep.BrowserWSURL, id) || !strings.HasPrefix(ep.BrowserWSURL, "ws://"+c.wantHost+":") {
				t.Fatalf("browser ws %q, launched %q", ep.BrowserWSURL, p.Endpoint.BrowserWSURL)
			}
		})
	}

	ports := []int{closedPort(t), port, closedPort(t), port}
	found, err := Discover(ctx, "127.0.0.1", ports, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Endpoint.Port != port || found[0].Endpoint.BrowserWSURL != p.Endpoint.BrowserWSURL ||
		found[0].Targets < 1 || !strings.Contains(found[0].Version.Browser, "Chrome") {
		t.Fatalf("found %+v", found)
	}

	_, err = Discover(ctx, "10.0.0.1", ports, time.Second)
	wantCode(t, err, errs.BadArgument, "host")
	_, err = Discover(ctx, "", []int{0}, time.Second)
	wantCode(t, err, errs.BadArgument, "ports")
}
