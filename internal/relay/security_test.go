package relay

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/errs"
)

func request(tb testing.TB, url string, header map[string]string) (int, string) {
	tb.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 4096)
	n, _ := resp.Body.Read(buf)
	sb.Write(buf[:n])
	return resp.StatusCode, sb.String()
}

func TestNewRefusesNonLoopbackWithoutToken(t *testing.T) {
	up := startFake(t).endpoint()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:9222"} {
		_, err := New(Options{Upstream: up, Addr: addr})
		if errs.CodeOf(err) != errs.BadArgument || !strings.Contains(err.Error(), "token") {
			t.Errorf("New(%s) without a token: %v, want BAD_ARGUMENT about the token", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0", "127.0.0.2:0"} {
		if _, err := New(Options{Upstream: up, Addr: addr}); err != nil {
			t.Errorf("New(%s): %v", addr, err)
		}
	}
	if _, err := New(Options{Upstream: up, Addr: "nope"}); errs.CodeOf(err) != errs.BadArgument {
		t.Errorf("a bad address: %v", err)
	}
	if _, err := New(Options{}); errs.CodeOf(err) != errs.BadArgument {
		t.Errorf("no upstream: %v", err)
	}
	// A flat upstream is its browser WebSocket.
	for _, ws := range []string{"", "http://127.0.0.1:9222", "ws://"} {
		if _, err := New(Options{Upstream: browser.Endpoint{BrowserWSURL: ws, HTTPURL: "http://127.0.0.1:9222"}, Flat: true}); errs.CodeOf(err) != errs.BadArgument {
			t.Errorf("a flat upstream %q: %v", ws, err)
		}
	}
	if _, err := New(Options{Upstream: browser.Endpoint{BrowserWSURL: "ws://192.0.2.2:4444/session/x/se/cdp"}, Flat: true}); err != nil {
		t.Errorf("a flat upstream: %v", err)
	}
	// With a token, every interface is allowed.
	r := startRelayWith(t, Options{Upstream: up, Addr: "0.0.0.0:0", Token: "s3cret"}, nil)
	if !strings.HasPrefix(r.HTTPURL(), "http://127.0.0.1:") || !strings.HasSuffix(r.HTTPURL(), "?token=s3cret") {
		t.Errorf("HTTPURL %s", r.HTTPURL())
	}
}

func TestHostHeaderAgainstDNSRebinding(t *testing.T) {
	r := startRelayWith(t, Options{Upstream: startFake(t).endpoint(), AllowHosts: []string{"devbox.internal"}}, nil)
	port := r.ln.Addr().String()[strings.LastIndex(r.ln.Addr().String(), ":"):]
	cases := []struct {
		host string
		want int
	}{
		{"127.0.0.1" + port, 200},
		{"localhost" + port, 200},
		{"LOCALHOST", 200},
		{"[::1]" + port, 200},
		{"127.0.0.2" + port, 200},
		{"devbox.internal" + port, 200},
		{"evil.example" + port, 403},
		{"evil.example", 403},
		{"localhost.evil.example" + port, 403},
		{"10.0.0.5" + port, 403},
		{"127.0.0.1.nip.io" + port, 403},
	}
	for _, c := range cases {
		if got, body := request(t, r.HTTPURL()+"/json/version", map[string]string{"Host": c.host}); got != c.want {
			t.Errorf("Host %q: %d (%s), want %d", c.host, got, body, c.want)
		}
	}
	// The WebSocket handshake is checked the same way.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, r.WSURL(), &websocket.DialOptions{Host: "evil.example" + port})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("WebSocket with a foreign Host: %v %v", err, resp)
	}
}

func TestOriginAndFetchSiteRefused(t *testing.T) {
	r := startRelay(t, startFake(t).endpoint())
	for _, h := range []map[string]string{
		{"Origin": "http://evil.example"},
		{"Origin": "http://127.0.0.1:1234"},
		{"Origin": "null"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"},
	} {
		for _, p := range []string{"/json/version", "/json/list", "/devtools/browser/" + r.testBrowserID()} {
			if got, _ := request(t, r.HTTPURL()+p, h); got != http.StatusForbidden {
				t.Errorf("%s with %v: %d, want 403", p, h, got)
			}
		}
	}
	if got, _ := request(t, r.HTTPURL()+"/json/version", map[string]string{"Sec-Fetch-Site": "none"}); got != 200 {
		t.Errorf("a request the user typed (Sec-Fetch-Site: none): %d", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, r.WSURL(), &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("WebSocket with an Origin: %v %v", err, resp)
	}
}

func TestToken(t *testing.T) {
	r := startRelayWith(t, Options{Upstream: startFake(t).endpoint(), Token: "s3cret"}, nil)
	base := strings.TrimSuffix(r.HTTPURL(), "?token=s3cret")
	if got, _ := request(t, base+"/json/version", nil); got != http.StatusUnauthorized {
		t.Errorf("no token: %d", got)
	}
	if got, _ := request(t, base+"/json/version?token=wrong", nil); got != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d", got)
	}
	if got, _ := request(t, base+"/json/version", map[string]string{"Authorization": "Bearer wrong"}); got != http.StatusUnauthorized {
		t.Errorf("a wrong bearer token: %d", got)
	}
	got, body := request(t, base+"/json/version?token=s3cret", nil)
	if got != 200 || !strings.Contains(body, "/devtools/browser/"+r.testBrowserID()+"?token=s3cret") {
		t.Errorf("?token=: %d %s", got, body)
	}
	got, body = request(t, base+"/json/version", map[string]string{"Authorization": "Bearer s3cret"})
	if got != 200 || strings.Contains(body, "token=") {
		t.Errorf("bearer: %d %s (the URL carries no token when the header did)", got, body)
	}
	got, body = request(t, base+"/json/list?token=s3cret", nil)
	if got != 200 || !strings.Contains(body, "/devtools/page/PAGE1?token=s3cret") {
		t.Errorf("/json/list with a token: %d %s", got, body)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	noToken := strings.TrimSuffix(r.WSURL(), "?token=s3cret")
	if _, resp, err := websocket.Dial(ctx, noToken, nil); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("WebSocket without the token: %v", err)
	}
	c := dialRaw(t, r.WSURL())
	if v := decode[map[string]string](t, c.call("", "Browser.getVersion", nil)); v["product"] != "Fake/1.0" {
		t.Errorf("Browser.getVersion: %v", v)
	}
	ws, _, err := websocket.Dial(ctx, noToken, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer s3cret"}}})
	if err != nil {
		t.Errorf("WebSocket with a bearer token: %v", err)
	} else {
		_ = ws.CloseNow()
	}
}

func TestCloseBeforeStart(t *testing.T) {
	r, err := New(Options{Upstream: startFake(t).endpoint()})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err == nil {
		t.Error("Start after Close succeeded")
	}
	<-r.Done()
}
