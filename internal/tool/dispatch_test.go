package tool

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

func TestEnvelopeShape(t *testing.T) {
	s := New(Config{})
	r := s.Dispatch(context.Background(), "electron_status", nil, nil)
	var m map[string]any
	if err := json.Unmarshal(r.JSON, &m); err != nil || m["ok"] != true || r.IsError {
		t.Fatalf("status envelope: %s", r.JSON)
	}
	meta := m["_meta"].(map[string]any)
	if num(meta["estimated_tokens"]) <= 0 {
		t.Fatalf("estimated_tokens: %v", meta)
	}
	r = s.Dispatch(context.Background(), "electron_windows_list", nil, nil)
	_ = json.Unmarshal(r.JSON, &m)
	for _, k := range []string{"ok", "error", "code", "hint", "retryable", "http", "_meta"} {
		if _, ok := m[k]; !ok {
			t.Errorf("failure envelope lacks %s: %s", k, r.JSON)
		}
	}
	if !r.IsError || r.Code != errs.NotRunning || num(m["http"]) != 409 {
		t.Fatalf("failure: %s", r.JSON)
	}
	r = s.Dispatch(context.Background(), "no_such_tool", nil, nil)
	if r.Code != errs.BadArgument {
		t.Fatalf("unknown tool: %s", r.JSON)
	}
}

// TestBackstop: a call past --operation-timeout-ms returns OPERATION_TIMEOUT
// and the session is usable afterwards.
func TestBackstop(t *testing.T) {
	// 10 s: a launch on a loaded 2-core machine can take 4.
	e := newEnv(t, Config{AllowEvalRenderer: true, OperationTimeout: 10 * time.Second})
	e.launch("/second.html")
	m := e.call("electron_eval_renderer", map[string]any{"code": "new Promise(() => {})", "timeoutMs": 60000})
	if m["code"] != "OPERATION_TIMEOUT" {
		t.Fatalf("want OPERATION_TIMEOUT, got %v", m)
	}
	if r := e.ok("electron_eval_renderer", map[string]any{"code": "document.title"}); r["result"] != "Second" {
		t.Fatalf("session wedged after the backstop: %v", r)
	}
}

func TestLaunchReportsProgress(t *testing.T) {
	chrome := chromiumtest.Require(t)
	app, err := fixture.Serve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	s := New(Config{})
	defer s.Close()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	var mu sync.Mutex
	var msgs []string
	var steps [][2]float64
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			msgs = append(msgs, r.Params.Message)
			steps = append(steps, [2]float64{r.Params.Progress, r.Params.Total})
			mu.Unlock()
		},
	})
	cs, err := client.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	// No executablePath: the browser doctor finds is launched and named.
	_ = chrome
	p := &mcp.CallToolParams{Name: "electron_launch", Arguments: map[string]any{
		"args": []string{"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/second.html")}}}
	p.SetProgressToken("launch-1")
	res, err := cs.CallTool(t.Context(), p)
	if err != nil || res.IsError {
		t.Fatalf("launch: %v %v", err, res)
	}
	if sc, _ := res.StructuredContent.(map[string]any); sc["executable_path"] != FindChromium() {
		t.Fatalf("executable_path %v, want %s", sc["executable_path"], FindChromium())
	}
	// Every stage is reported, in order, and the last one is the total.
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(steps)
		last := [2]float64{}
		if n > 0 {
			last = steps[n-1]
		}
		mu.Unlock()
		if n >= 5 && last[0] == last[1] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("progress notifications: %v %v", msgs, steps)
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	for i, st := range steps {
		if st[0] != float64(i+1) || st[1] != 5 {
			t.Fatalf("step %d is %v of %v, want %d of 5: %v", i, st[0], st[1], i+1, msgs)
		}
	}
}

// FuzzToolArguments: no argument object makes a tool's decoding panic, and
// every refusal is BAD_ARGUMENT naming a field.
func FuzzToolArguments(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `[]`, `{"ref":-1}`, `{"selector":""}`, `{"executablePath":1}`, `{"ports":[0,70000]}`,
		`{"key":"Control+"}`, `{"since":"x","format":"y"}`, `{"code":""}`, `{"surfaceId":5}`, `"x"`, `{"a":`} {
		f.Add(s)
	}
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	f.Fuzz(func(t *testing.T, raw string) {
		for _, name := range s.Names() {
			_, err := s.tools().defs[name].decode(json.RawMessage(raw))
			if err == nil {
				continue
			}
			e := errs.As(err)
			if e == nil || e.Code != errs.BadArgument || e.Details["field"] == nil {
				t.Fatalf("%s(%q): %v", name, raw, err)
			}
		}
	})
}
