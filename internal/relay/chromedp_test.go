package relay

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	cdptarget "github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/understudy-dev/understudy/internal/files"
)

// chromedp (pinned in go.mod) through the relay. chromedp v0.23 keeps the
// remote allocator in package remote (remote.NewAllocator, formerly
// chromedp.NewRemoteAllocator) and runs typed actions:
// chromedp.Run(ctx, action) returns the action's value.

func TestChromedp(t *testing.T) {
	b := needBrowser(t)
	srv := fixtureSrv.get(t)
	top := srv.URL("a.test", "/index.html")
	topID := openPage(t, top)
	r := startRelay(t, endpointOf(b))

	base, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	for _, endpoint := range []string{r.HTTPURL(), r.WSURL()} {
		t.Run("connect "+strings.SplitN(endpoint, ":", 2)[0], func(t *testing.T) {
			actx, acancel := remote.NewAllocator(base, endpoint)
			defer acancel()
			ctx, ccancel := chromedp.NewContext(actx) // a new tab of the client's own
			defer ccancel()
			if err := chromedp.Do(ctx); err != nil {
				t.Fatal(err)
			}
			infos, err := chromedp.Targets(ctx)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, ti := range infos {
				if ti.Type == "browser_ui" || ti.Type == "tab" {
					t.Errorf("Targets shows %+v", ti)
				}
				if string(ti.TargetID) == topID {
					found = ti.URL == top && ti.Type == "page"
				}
			}
			if !found {
				t.Errorf("Targets does not list %s with its URL", top)
			}
		})
	}

	actx, acancel := remote.NewAllocator(base, r.HTTPURL())
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	if err := chromedp.Do(bctx); err != nil {
		t.Fatal(err)
	}

	t.Run("evaluate and click in the nested cross-site frame", func(t *testing.T) {
		// The existing page, left open when this client goes.
		pctx, pcancel := chromedp.NewContext(bctx, chromedp.WithTargetID(cdptarget.ID(topID)), chromedp.WithDetachOnCancel())
		defer pcancel()
		title, err := chromedp.Run(pctx, chromedp.Evaluate[string](`document.title`))
		if err != nil || title != "Top" {
			t.Fatalf("title %q: %v", title, err)
		}
		var frameID cdptarget.ID
		deadline := time.Now().Add(waitTimeout)
		for frameID == "" {
			infos, err := chromedp.Targets(bctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, ti := range infos {
				if ti.Type == "iframe" && ti.URL == srv.URL("c.example", "/cross2.html") {
					frameID = ti.TargetID
				}
			}
			if time.Now().After(deadline) {
				t.Fatal("no c.example frame target")
			}
		}
		fctx, fcancel := chromedp.NewContext(bctx, chromedp.WithTargetID(frameID), chromedp.WithDetachOnCancel())
		defer fcancel()
		origin, err := chromedp.Run(fctx, chromedp.Evaluate[string](`location.origin`))
		if err != nil || origin+"/" != srv.URL("c.example", "/") {
			t.Fatalf("origin %q: %v", origin, err)
		}
		if err := chromedp.Do(fctx, chromedp.Click(chromedp.CSS(`#btn`))); err != nil {
			t.Fatal(err)
		}
		clicked, err := chromedp.Run(fctx, chromedp.Poll[bool](
			`window.__events.some(e => e.type === 'click' && e.target === 'btn')`, chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil || !clicked {
			t.Errorf("the click in the nested frame: %v %v", clicked, err)
		}
	})

	t.Run("navigate, reload, dialog, console and close on a new tab", func(t *testing.T) {
		tctx, tcancel := chromedp.NewContext(bctx)
		defer tcancel()
		dialogs := make(chan *page.EventJavascriptDialogOpening, 1)
		consoles := make(chan string, 8)
		if err := chromedp.Do(tctx); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Listen(tctx, func(ev any) {
			switch ev := ev.(type) {
			case *page.EventJavascriptDialogOpening:
				select {
				case dialogs <- ev:
				default:
				}
			case *cdpruntime.EventConsoleAPICalled:
				if len(ev.Args) > 0 {
					var s string
					_ = json.Unmarshal([]byte(ev.Args[0].Value), &s)
					select {
					case consoles <- s:
					default:
					}
				}
			}
		}); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(tctx,
			chromedp.Navigate(srv.URL("a.test", "/second.html")),
			chromedp.Navigate(srv.URL("b.test", "/cross1.html")),
			chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__marker = true`))
				return err
			}),
			chromedp.Reload(),
		); err != nil {
			t.Fatal(err)
		}
		origin, err := chromedp.Run(tctx, chromedp.Evaluate[string](`location.origin + (window.__marker === undefined ? '' : '!')`))
		if err != nil || origin+"/" != srv.URL("b.test", "/") {
			t.Errorf("after navigate and reload: %q %v", origin, err)
		}
		if err := chromedp.Do(tctx, chromedp.Navigate(srv.URL("a.test", "/actions.html"))); err != nil {
			t.Fatal(err)
		}
		handled := make(chan error, 1)
		go func() {
			select {
			case <-dialogs:
				_, err := chromedp.Call(tctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
				handled <- err
			case <-tctx.Done():
				handled <- tctx.Err()
			}
		}()
		if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(`#confirm`))); err != nil {
			t.Fatal(err)
		}
		if err := <-handled; err != nil {
			t.Fatalf("Page.handleJavaScriptDialog: %v", err)
		}
		ok, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.getElementById('dialog-result').textContent === 'confirm: true'`,
			chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil || !ok {
			t.Fatalf("the dialog result: %v %v", ok, err)
		}
		if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(`#log-btn`))); err != nil {
			t.Fatal(err)
		}
		select {
		case s := <-consoles:
			if s != "clicked-log" {
				t.Errorf("console %q", s)
			}
		case <-time.After(10 * time.Second):
			t.Error("no console message")
		}
		id := chromedp.FromContext(tctx).Target.TargetID
		// Cancelling closes the tab the context created: the relay lets a
		// client close its own targets.
		tcancel()
		if err := chromedp.Cancel(tctx); err != nil && err != context.Canceled {
			t.Logf("cancel: %v", err)
		}
		deadline := time.Now().Add(waitTimeout)
		for {
			_, body := httpGet(t, http.MethodGet, r.HTTPURL()+"/json/list")
			if !strings.Contains(string(body), string(id)) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the tab chromedp closed is still listed")
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("five sequential connections", func(t *testing.T) {
		for i := range 5 {
			actx, acancel := remote.NewAllocator(base, r.HTTPURL())
			ctx, ccancel := chromedp.NewContext(actx, chromedp.WithTargetID(cdptarget.ID(topID)), chromedp.WithDetachOnCancel())
			href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
			ccancel()
			acancel()
			if err != nil || href != top {
				t.Fatalf("cycle %d: %q %v", i, href, err)
			}
		}
	})

	t.Run("closing a page it did not open is refused", func(t *testing.T) {
		ctx, ccancel := chromedp.NewContext(bctx, chromedp.WithTargetID(cdptarget.ID(topID)))
		if err := chromedp.Do(ctx); err != nil {
			t.Fatal(err)
		}
		ccancel()
		err := chromedp.Cancel(ctx)
		if err == nil || !strings.Contains(fmt.Sprint(err), "allowed only") {
			t.Errorf("cancel of a context on the agent's page: %v, want the relay's refusal", err)
		}
		_, body := httpGet(t, http.MethodGet, r.HTTPURL()+"/json/list")
		if !strings.Contains(string(body), topID) {
			t.Error("the agent's page was closed")
		}
	})
}

func TestChromedpWithToken(t *testing.T) {
	b := needBrowser(t)
	top := fixtureSrv.get(t).URL("a.test", "/second.html")
	topID := openPage(t, top)
	r := startRelayWith(t, Options{Upstream: endpointOf(b), Token: "cdp-t0ken"}, nil)
	base, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for name, opts := range map[string][]remote.Option{
		"query":  nil,
		"header": {remote.WithDialHTTPHeader(http.Header{"Authorization": {"Bearer cdp-t0ken"}})},
	} {
		url := r.WSURL() // carries ?token=
		if name == "header" {
			url = strings.TrimSuffix(url, "?token=cdp-t0ken")
		}
		actx, acancel := remote.NewAllocator(base, url, opts...)
		ctx, ccancel := chromedp.NewContext(actx, chromedp.WithTargetID(cdptarget.ID(topID)), chromedp.WithDetachOnCancel())
		href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
		ccancel()
		acancel()
		if err != nil || href != top {
			t.Errorf("%s: %q %v", name, href, err)
		}
	}
}

// TestChromedpRefusalsNeverHang: every command the relay refuses, sent by
// chromedp (typed commands where cdproto has them, raw method names
// otherwise, on the page's session and on the browser's), ends in an
// error or a close within a bound, and the app's page survives each. Each
// case has a connection of its own.
func TestChromedpRefusalsNeverHang(t *testing.T) {
	h := startHostile(t, "/second.html")
	const bound = 15 * time.Second
	type call func(ctx context.Context) error
	raw := func(browserLevel bool, method string, params any) call {
		return func(ctx context.Context) error {
			c := chromedp.FromContext(ctx)
			if browserLevel {
				return c.Browser.Call(ctx, method, params, nil)
			}
			return c.Target.Call(ctx, method, params, nil)
		}
	}
	cases := []struct {
		name string
		fn   call
		// closes: the case ends this connection (Browser.close); no error
		// is wanted then.
		closes bool
	}{
		{name: "Navigate(chrome://quit)", fn: func(ctx context.Context) error {
			return chromedp.Do(ctx, chromedp.Navigate("chrome://quit"))
		}},
		{name: "page.Close", fn: func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, page.Close, cdp.Empty{})
			return err
		}},
		{name: "browser.Crash", fn: func(ctx context.Context) error {
			_, err := chromedp.CallBrowser(ctx, cdpbrowser.Crash, cdp.Empty{})
			return err
		}},
		{name: "Browser.crashGpuProcess", fn: raw(true, "Browser.crashGpuProcess", nil)},
		{name: "Browser.crash on the page session", fn: raw(false, "Browser.crash", nil)},
		{name: "target.CreateTarget(chrome://quit)", fn: func(ctx context.Context) error {
			_, err := chromedp.CallBrowser(ctx, cdptarget.CreateTarget, cdptarget.CreateTargetParams{URL: "chrome://quit/"})
			return err
		}},
		{name: "target.CloseTarget of the app window", fn: func(ctx context.Context) error {
			_, err := chromedp.CallBrowser(ctx, cdptarget.CloseTarget, cdptarget.CloseTargetParams{TargetID: cdptarget.ID(h.page)})
			return err
		}},
		{name: "Target.sendMessageToTarget", fn: raw(true, "Target.sendMessageToTarget", map[string]string{"message": "{}", "sessionId": "X"})},
		{name: "target.AttachToTarget flatten:false", fn: func(ctx context.Context) error {
			f := false
			_, err := chromedp.CallBrowser(ctx, cdptarget.AttachToTarget, cdptarget.AttachToTargetParams{TargetID: cdptarget.ID(h.page), Flatten: &f})
			return err
		}},
		{name: "Navigate(file:///etc/passwd)", fn: func(ctx context.Context) error {
			return chromedp.Do(ctx, chromedp.Navigate("file:///etc/passwd"))
		}},
		{name: "Page.crash of the app window", fn: raw(false, "Page.crash", nil)},
		{name: "Target.exposeDevToolsProtocol", fn: raw(true, "Target.exposeDevToolsProtocol", map[string]string{"targetId": h.page, "bindingName": "cdp"})},
		{name: "SystemInfo.getProcessInfo (off the allowlist)", fn: raw(true, "SystemInfo.getProcessInfo", nil)},
		{name: "Cancel of a context on the app window (closes its target)", fn: nil},
		{name: "browser.Close", closes: true, fn: func(ctx context.Context) error {
			_, err := chromedp.CallBrowser(ctx, cdpbrowser.Close, cdp.Empty{})
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			actx, acancel := remote.NewAllocator(base, h.r.HTTPURL())
			defer acancel()
			opts := []chromedp.ContextOption{chromedp.WithTargetID(cdptarget.ID(h.page))}
			if tc.fn != nil {
				opts = append(opts, chromedp.WithDetachOnCancel())
			}
			ctx, ccancel := chromedp.NewContext(actx, opts...)
			defer ccancel()
			if err := chromedp.Do(ctx); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			done := make(chan error, 1)
			go func() {
				if tc.fn == nil {
					ccancel()
					done <- chromedp.Cancel(ctx)
					return
				}
				bctx, bcancel := context.WithTimeout(ctx, bound)
				defer bcancel()
				done <- tc.fn(bctx)
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(bound + 5*time.Second):
				t.Fatalf("no answer after %s", bound+5*time.Second)
			}
			if time.Since(start) > bound {
				t.Errorf("the answer took %s (bound %s): %v", time.Since(start), bound, err)
			}
			switch {
			case tc.closes:
				t.Logf("%s: %v (connection closed)", tc.name, err)
			case err == nil:
				t.Errorf("%s succeeded, want the relay's refusal", tc.name)
			case !strings.Contains(err.Error(), "relay:"):
				t.Errorf("%s: %v, want the relay's refusal", tc.name, err)
			default:
				t.Logf("%s: %v", tc.name, err)
			}
			h.assertAlive(t, tc.name)
		})
	}
}

// TestChromedpSetUploadFiles: chromedp's SetUploadFiles (DOM.setFileInputFiles
// with the paths) works through the relay for a file under the operator's
// file roots and gets the relay's refusal for /etc/passwd.
func TestChromedpSetUploadFiles(t *testing.T) {
	b := needBrowser(t)
	srv := fixtureSrv.get(t)
	root := t.TempDir()
	inRoot := filepath.Join(root, "up.txt")
	if err := os.WriteFile(inRoot, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := startRelayWith(t, Options{Upstream: endpointOf(b), Files: files.New(files.Config{Artifacts: filepath.Join(t.TempDir(), "artifacts"), Extra: []string{root}})}, nil)
	base, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	actx, acancel := remote.NewAllocator(base, r.HTTPURL())
	defer acancel()
	ctx, ccancel := chromedp.NewContext(actx) // a tab of the client's own
	defer ccancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL("a.test", "/second.html"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.body.append(Object.assign(document.createElement('input'), {type: 'file', id: 'f'})), true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS("#f"), []string{inRoot})); err != nil {
		t.Fatalf("a file under the roots: %v", err)
	}
	name, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('f').files[0].name`))
	if err != nil || name != "up.txt" {
		t.Fatalf("the page's file: %q %v", name, err)
	}
	err = chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS("#f"), []string{"/etc/passwd"}))
	if err == nil || !strings.Contains(err.Error(), "relay: DOM.setFileInputFiles") || !strings.Contains(err.Error(), "--relay-allow DOM.setFileInputFiles") {
		t.Fatalf("/etc/passwd: %v, want the relay's refusal", err)
	}
}
