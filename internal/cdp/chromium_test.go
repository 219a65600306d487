package cdp

import (
	"context"
	"testing"
	"time"

	cdpproto "github.com/chromedp/cdproto/cdp"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	cdptarget "github.com/chromedp/cdproto/target"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestRealChromium drives a real browser: a typed call on the browser
// socket, a flattened child session on a page, an event on that session,
// and CDP_DISCONNECTED once the browser is gone.
func TestRealChromium(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	br := chromiumtest.Start(ctx, t)
	c, err := Dial(ctx, br.WSURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	targets, err := cdpproto.Call(ctx, c, cdptarget.GetTargets, cdptarget.GetTargetsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var page cdptarget.ID
	for _, ti := range targets.TargetInfos {
		if ti.Type == "page" {
			page = ti.TargetID
		}
	}
	if page == "" {
		t.Fatalf("no page among %d targets", len(targets.TargetInfos))
	}
	att, err := cdpproto.Call(ctx, c, cdptarget.AttachToTarget, cdptarget.AttachToTargetParams{TargetID: page, Flatten: new(true)})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Session(string(att.SessionID))
	created, stop := s.Subscribe(cdpruntime.ExecutionContextCreated.Method)
	defer stop()
	if _, err := cdpproto.Call(ctx, s, cdpruntime.Enable, cdpproto.Empty{}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-created:
	case <-ctx.Done():
		t.Fatal("no executionContextCreated on the child session")
	}
	res, err := cdpproto.Call(ctx, s, cdpruntime.Evaluate, cdpruntime.EvaluateParams{Expression: "6*7", ReturnByValue: new(true)})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Result.Value) != "42" {
		t.Fatalf("6*7 = %s", res.Result.Value)
	}
	if err := br.Stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("connection did not notice the browser's exit")
	}
	if err := c.Call(ctx, "Browser.getVersion", nil, nil); errs.CodeOf(err) != errs.CDPDisconnected {
		t.Fatalf("after exit: %v", err)
	}
}
