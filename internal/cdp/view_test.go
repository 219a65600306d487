package cdp

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestAttachView drives a real browser through a view: a flattened
// session bound as a connection. Its calls reach the page, its events
// arrive without a session id and only on it, Close detaches it (calls
// then fail, the browser socket stays open), and closing the browser
// socket ends every view.
func TestAttachView(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	br := chromiumtest.Start(ctx, t)
	root, err := Dial(ctx, br.WSURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var ts struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
		} `json:"targetInfos"`
	}
	if err := root.Call(ctx, "Target.getTargets", nil, &ts); err != nil {
		t.Fatal(err)
	}
	var page string
	for _, ti := range ts.TargetInfos {
		if ti.Type == "page" {
			page = ti.TargetID
		}
	}
	if page == "" {
		t.Fatal("no page")
	}
	evs := make(chan Event, 64)
	v, err := root.Attach(ctx, page, func(ev Event) { evs <- ev })
	if err != nil {
		t.Fatal(err)
	}
	other, err := root.Attach(ctx, page, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.SessionID() == "" || v.SessionID() == other.SessionID() || root.Views() != 2 {
		t.Fatalf("sessions %q %q, views %d", v.SessionID(), other.SessionID(), root.Views())
	}
	created, stop := v.Subscribe("Runtime.executionContextCreated")
	defer stop()
	if err := v.Call(ctx, "Runtime.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-created:
	case <-ctx.Done():
		t.Fatal("no executionContextCreated on the view's subscription")
	}
	select {
	case ev := <-evs:
		if ev.SessionID != "" || ev.Method == "" {
			t.Fatalf("view event %+v", ev)
		}
	case <-ctx.Done():
		t.Fatal("no event on the view's OnEvent")
	}
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
	}
	if err := v.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "6*7", "returnByValue": true}, &res); err != nil {
		t.Fatal(err)
	}
	if string(res.Result.Value) != "42" {
		t.Fatalf("6*7 = %s", res.Result.Value)
	}
	// The other view enabled nothing: it saw none of v's events.
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-v.Done():
	default:
		t.Fatal("a closed view is not done")
	}
	if err := v.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); errs.CodeOf(err) != errs.CDPDisconnected {
		t.Fatalf("call on a closed view: %v", err)
	}
	if root.Views() != 1 {
		t.Fatalf("views after close: %d", root.Views())
	}
	if err := other.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); err != nil {
		t.Fatalf("the other view: %v", err)
	}
	// A target that goes ends its view (Target.detachedFromTarget).
	var nt struct {
		TargetID string `json:"targetId"`
	}
	if err := root.Call(ctx, "Target.createTarget", map[string]any{"url": "about:blank"}, &nt); err != nil {
		t.Fatal(err)
	}
	gone, err := root.Attach(ctx, nt.TargetID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := root.Call(ctx, "Target.closeTarget", map[string]any{"targetId": nt.TargetID}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-gone.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a closed target's view did not end")
	}
	if root.Views() != 1 {
		t.Fatalf("views after the target went: %d", root.Views())
	}
	if err := root.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-other.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("closing the browser socket did not end its views")
	}
}
