package main

import (
	"context"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestStubsEndWithTheServer: a request paused by a stub (delayMs) in an
// attached browser is not left hanging when the server dies (SIGKILL) or
// exits (stdin closed): the page's request goes on to the network and
// later requests load unstubbed.
func TestStubsEndWithTheServer(t *testing.T) {
	for _, how := range []string{"killed", "exited"} {
		t.Run(how, func(t *testing.T) {
			ctx := t.Context()
			app, err := fixture.Serve(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = app.Close() })
			b := chromiumtest.Start(ctx, t)
			page := b.OpenPageFor(t, app.URL("a.test", "/index.html"))
			conn, err := cdp.Dial(ctx, page.WebSocketDebuggerURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			eval := func(expr string) any {
				t.Helper()
				var res struct {
					Result struct {
						Value any `json:"value"`
					} `json:"result"`
				}
				cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
				defer cancel()
				if err := conn.Call(cctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res); err != nil {
					t.Fatalf("evaluate %s: %v", expr, err)
				}
				return res.Result.Value
			}

			for i := 0; eval("location.pathname === '/index.html' && document.readyState === 'complete'") != true; i++ {
				if i > 200 {
					t.Fatal("the page never loaded")
				}
				time.Sleep(100 * time.Millisecond)
			}
			p := startBinary(t, "--with", "network")
			p.call(t, "electron_attach", map[string]any{"cdpUrl": b.HTTPURL})
			r := p.call(t, "network_stub", map[string]any{"urls": []string{"/echo?x=held"}, "body": `{"x":"stubbed"}`, "delayMs": 60000})
			if r["stubbed"] != true {
				t.Fatalf("stub: %v", r)
			}
			eval(`window.__r = 'pending'; fetch('/echo?x=held').then(r => r.json()).then(j => { window.__r = j.x }, e => { window.__r = 'failed ' + e }); true`)
			time.Sleep(time.Second)
			if got := eval("window.__r"); got != "pending" {
				t.Fatalf("the stub did not hold the request: %v", got)
			}
			switch how {
			case "killed":
				_ = p.cmd.Process.Kill()
			case "exited":
				_ = p.stdin.Close()
			}
			done := make(chan error, 1)
			go func() { done <- p.cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the server did not end")
			}
			ended := time.Now()
			deadline := time.Now().Add(30 * time.Second)
			for {
				got := eval("window.__r")
				if got == "held" {
					t.Logf("the paused request went on %v after the server %s", time.Since(ended).Round(time.Millisecond), how)
					break // the real server answered: the paused request went on
				}
				if got != "pending" || time.Now().After(deadline) {
					t.Fatalf("the paused request after the server %s: %v", how, got)
				}
				time.Sleep(100 * time.Millisecond)
			}
			if got := eval(`fetch('/echo?x=held').then(r => r.json()).then(j => j.x)`); got != "held" {
				t.Fatalf("a later request is still stubbed: %v", got)
			}
		})
	}
}
