package capture

import (
	"context"
	"errors"
	"testing"

	"github.com/understudy-dev/understudy/internal/cdp"
)

func TestDecodeDialog(t *testing.T) {
	d, ok := DecodeDialog(cdp.Event{Method: "Page.javascriptDialogOpening",
		Params: []byte(`{"type":"prompt","message":"name?","url":"https://a.test/","defaultPrompt":"x","hasBrowserHandler":false}`)})
	if !ok || d.Opened == nil || d.Closed != nil || *d.Opened != (Dialog{Type: "prompt", Message: "name?", URL: "https://a.test/", DefaultPrompt: "x"}) {
		t.Fatalf("opening: %+v %v", d, ok)
	}
	d, ok = DecodeDialog(cdp.Event{Method: "Page.javascriptDialogClosed", Params: []byte(`{"result":true,"userInput":"bob"}`)})
	if !ok || d.Closed == nil || d.Opened != nil || *d.Closed != (DialogClosed{Accepted: true, UserInput: "bob"}) {
		t.Fatalf("closed: %+v %v", d, ok)
	}
	for _, ev := range []cdp.Event{
		{Method: "Page.loadEventFired", Params: []byte(`{}`)},
		{Method: "Page.javascriptDialogOpening", Params: []byte(`not json`)},
	} {
		if d, ok := DecodeDialog(ev); ok {
			t.Errorf("%s %s decoded as %+v", ev.Method, ev.Params, d)
		}
	}
}

func TestDecodeConsole(t *testing.T) {
	for _, tc := range []struct {
		ev   cdp.Event
		want Message
	}{
		{cdp.Event{Method: "Runtime.consoleAPICalled", Params: []byte(`{"type":"warning","executionContextId":7,
			"args":[{"type":"string","value":"%s=%d"},{"type":"string","value":"n"},{"type":"number","value":4.5}],
			"stackTrace":{"callFrames":[{"url":"https://a.test/app.js","lineNumber":9}]}}`)},
			Message{Type: "warning", Text: "n=4", Source: "console", URL: "https://a.test/app.js", Line: 10, ContextID: 7}},
		{cdp.Event{Method: "Runtime.exceptionThrown", Params: []byte(`{"exceptionDetails":{"text":"Uncaught","url":"u","lineNumber":0,
			"executionContextId":3,"exception":{"type":"object","description":"Error: boom"}}}`)},
			Message{Type: "exception", Text: "Error: boom", Source: "exception", URL: "u", Line: 1, ContextID: 3}},
		{cdp.Event{Method: "Log.entryAdded", Params: []byte(`{"entry":{"source":"network","level":"verbose","text":"failed","url":"u2","lineNumber":4}}`)},
			Message{Type: "debug", Text: "failed", Source: "network", URL: "u2", Line: 5}},
		{cdp.Event{Method: "Log.entryAdded", Params: []byte(`{"entry":{"source":"security","level":"error","text":"csp"}}`)},
			Message{Type: "error", Text: "csp", Source: "security"}},
	} {
		got, ok := DecodeConsole(tc.ev)
		if !ok || got != tc.want {
			t.Errorf("%s: got %+v %v, want %+v", tc.ev.Method, got, ok, tc.want)
		}
	}
	for _, ev := range []cdp.Event{
		{Method: "Runtime.executionContextCreated", Params: []byte(`{}`)},
		{Method: "Runtime.consoleAPICalled", Params: []byte(`[`)},
	} {
		if m, ok := DecodeConsole(ev); ok {
			t.Errorf("%s %s decoded as %+v", ev.Method, ev.Params, m)
		}
	}
}

func TestHandleDialogWithoutConn(t *testing.T) {
	if err := HandleDialog(context.Background(), nil, true, ""); !errors.Is(err, ErrDialogGone) {
		t.Fatalf("nil conn: %v, want ErrDialogGone", err)
	}
}
