package tool

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// env is a server with an in-memory MCP client, plus the fixture app.
type env struct {
	t      *testing.T
	srv    *Server
	client *mcp.ClientSession
	app    *fixture.Server
	chrome string
	// results holds each tool's published outputSchema, resolved: every
	// successful call's structured content is validated against it.
	results map[string]*jsonschema.Resolved
	full    map[string]*jsonschema.Resolved // see fullResultSchema
	fullMu  *sync.Mutex                     // calls run from several goroutines
	// callTimeout bounds each call (default 90 s; a grid launch waits for
	// a JVM and chromedriver).
	callTimeout time.Duration
}

func newEnv(t *testing.T, cfg Config) *env {
	t.Helper()
	chrome := chromiumtest.Require(t)
	ctx := context.Background()
	app, err := fixture.Serve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	if cfg.FileRoots == nil { // tests keep their files in the temporary folder
		cfg.FileRoots = []string{os.TempDir()}
	}
	if cfg.ArtifactsDir == "" {
		cfg.ArtifactsDir = filepath.Join(t.TempDir(), "artifacts")
	}
	s := New(cfg)
	t.Cleanup(s.Close)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return &env{t: t, srv: s, client: cs, app: app, chrome: chrome, results: outputSchemas(t, cs), fullMu: new(sync.Mutex)}
}

// outputSchemas lists the tools the client sees and resolves the
// outputSchema of each tool that publishes one.
func outputSchemas(t *testing.T, cs *mcp.ClientSession) map[string]*jsonschema.Resolved {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out := map[string]*jsonschema.Resolved{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		if tool.OutputSchema == nil {
			continue
		}
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var sch jsonschema.Schema
		if err := json.Unmarshal(b, &sch); err != nil {
			t.Fatalf("%s: outputSchema: %v", tool.Name, err)
		}
		r, err := sch.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: outputSchema does not resolve: %v", tool.Name, err)
		}
		out[tool.Name] = r
	}
	return out
}

// call runs a tool through MCP and returns the decoded envelope.
func (e *env) call(name string, args map[string]any) map[string]any {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cmp.Or(e.callTimeout, 90*time.Second))
	defer cancel()
	res, err := e.client.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		e.t.Fatalf("%s: protocol error: %v", name, err)
	}
	var m map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &m); err != nil {
		e.t.Fatalf("%s: structured content: %v", name, err)
	}
	then, _ := m["then"].(map[string]any)
	if body := e.srv.tools().defs[name].TextBody; body != "" && m[body] != nil || then != nil && then["diff"] != nil {
		// The text for the agent, verbatim, then the rest of the envelope.
		want := m[body]
		if want == nil {
			want, body = then["diff"], "diff"
		}
		t0, ok0 := res.Content[0].(*mcp.TextContent)
		t1, ok1 := res.Content[len(res.Content)-1].(*mcp.TextContent)
		if len(res.Content) != 2 || !ok0 || !ok1 || t0.Text != want || !json.Valid([]byte(t1.Text)) || strings.Contains(t1.Text, `"`+body+`"`) {
			e.t.Fatalf("%s: want the %s as plain text, then the envelope without it", name, body)
		}
	} else {
		if len(res.Content) != 1 && (name != "electron_screenshot" || len(res.Content) != 2) {
			e.t.Fatalf("%s: want one text block (and a screenshot's image), got %d", name, len(res.Content))
		}
		if tc, ok := res.Content[0].(*mcp.TextContent); !ok || !json.Valid([]byte(tc.Text)) {
			e.t.Fatalf("%s: content is not one JSON text block", name)
		}
	}
	if ok, _ := m["ok"].(bool); ok == res.IsError {
		e.t.Fatalf("%s: ok=%v but isError=%v", name, m["ok"], res.IsError)
	}
	meta, _ := m["_meta"].(map[string]any)
	if meta == nil || meta["estimated_tokens"] == nil || meta["elapsed_ms"] == nil {
		e.t.Fatalf("%s: no _meta in %v", name, m)
	}
	if r := e.results[name]; r != nil && !res.IsError {
		if err := r.Validate(m); err != nil {
			e.t.Fatalf("%s: the result does not match the tool's outputSchema: %v\n%s", name, err, b)
		}
	}
	if d, known := e.srv.tools().defs[name]; known && !res.IsError && d.outputSchema() != nil {
		// The full schema of the result type, nested fields included
		// (tools/list carries none, docs/adr/030).
		if err := e.fullResultSchema(name).Validate(m); err != nil {
			e.t.Fatalf("%s: the result does not match its result type's schema (schemas/out): %v\n%s", name, err, b)
		}
	}
	return m
}

// fullResultSchema resolves the tool's whole result schema, once.
func (e *env) fullResultSchema(name string) *jsonschema.Resolved {
	e.t.Helper()
	e.fullMu.Lock()
	defer e.fullMu.Unlock()
	if r, ok := e.full[name]; ok {
		return r
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(e.srv.tools().defs[name].outputSchema(), &sch); err != nil {
		e.t.Fatalf("%s: result schema: %v", name, err)
	}
	r, err := sch.Resolve(nil)
	if err != nil {
		e.t.Fatalf("%s: result schema does not resolve: %v", name, err)
	}
	if e.full == nil {
		e.full = map[string]*jsonschema.Resolved{}
	}
	e.full[name] = r
	return r
}

// ok calls and fails the test unless the call succeeded.
func (e *env) ok(name string, args map[string]any) map[string]any {
	e.t.Helper()
	m := e.call(name, args)
	if m["ok"] != true {
		e.t.Fatalf("%s(%v) failed: %v", name, args, m)
	}
	return m
}

// fails calls and checks the error code.
func (e *env) fails(name string, args map[string]any, code string) map[string]any {
	e.t.Helper()
	m := e.call(name, args)
	if m["ok"] != false || m["code"] != code {
		e.t.Fatalf("%s(%v): want code %s, got %v", name, args, code, m)
	}
	if h, _ := m["hint"].(string); h == "" {
		e.t.Fatalf("%s: failure without a hint: %v", name, m)
	}
	return m
}

// launch starts Chromium on a fixture page.
func (e *env) launch(path string, extra ...string) map[string]any {
	e.t.Helper()
	args := append([]string{"--host-resolver-rules=" + fixture.HostResolverRules()}, extra...)
	args = append(args, e.app.URL("a.test", path))
	return e.ok("electron_launch", map[string]any{"executablePath": e.chrome, "args": args})
}

// noOrphans waits a little for the group to go, then fails if any remains.
func noOrphans(t *testing.T, pgid int) {
	t.Helper()
	if pgid <= 0 {
		t.Fatal("no pid to check")
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if len(browser.LiveGroupMembers(pgid)) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("processes of group %d remain: %v", pgid, browser.LiveGroupMembers(pgid))
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
