package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/tool"
)

// step is one call of the demo tour.
type step struct {
	tool    string
	args    map[string]any
	explain func(res map[string]any) string
	// after may read the result to shape later steps.
	after func(res map[string]any)
}

func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	browserPath := fs.String("browser", "", "Chromium binary (default: found on this machine)")
	verbose := fs.Bool("json", false, "also print each response envelope")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	path := *browserPath
	if path == "" {
		path = tool.FindChromium()
	}
	if path == "" {
		fmt.Fprintln(stderr, "understudy demo: no Chromium found; install it (apt-get install -y chromium) or pass --browser PATH")
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	srv, err := fixture.Serve(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "understudy demo: serving the demo app:", err)
		return 1
	}
	defer srv.Close()

	s := tool.New(tool.Config{Version: version, AllowEvalRenderer: true, BrowserPath: path})
	defer s.Close()

	fmt.Fprintf(stdout, "understudy %s demo: Chromium %s on the embedded app at %s\n\n", version, path, srv.URL("a.test", "/index.html"))
	failed := 0
	for _, st := range tour(srv, path) {
		t0 := time.Now()
		res := s.Dispatch(ctx, st.tool, mustJSON(st.args), nil)
		var m map[string]any
		_ = json.Unmarshal(res.JSON, &m)
		mark, line := "✓", ""
		if res.IsError {
			mark, line = "✗", fmt.Sprintf("%v: %v", m["code"], m["error"])
			failed++
		} else if st.explain != nil {
			line = st.explain(m)
		}
		fmt.Fprintf(stdout, "%s %-26s %-70s %5d ms\n", mark, st.tool, line, time.Since(t0).Milliseconds())
		if *verbose {
			fmt.Fprintf(stdout, "    %s\n", res.JSON)
		}
		if !res.IsError && st.after != nil {
			st.after(m)
		}
		if res.IsError && st.tool == "electron_launch" {
			break
		}
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "\n%d step(s) failed\n", failed)
		return 1
	}
	fmt.Fprintln(stdout, "\nall steps passed; no browser process is left running")
	return 0
}

func tour(srv *fixture.Server, chromium string) []step {
	top := srv.URL("a.test", "/index.html")
	return []step{
		{tool: "electron_doctor", args: map[string]any{}, explain: func(r map[string]any) string {
			return fmt.Sprintf("healthy=%v, %d checks", r["healthy"], len(list(r["checks"])))
		}},
		{tool: "electron_launch", args: map[string]any{
			"executablePath": chromium,
			"args":           []string{"--host-resolver-rules=" + fixture.HostResolverRules(), top},
		}, explain: func(r map[string]any) string {
			return fmt.Sprintf("session %v, %d window(s), renderer_ready=%v", r["session_id"], len(list(r["windows"])), r["renderer_ready"])
		}},
		{tool: "electron_windows_list", args: map[string]any{}, explain: func(r map[string]any) string {
			var titles []string
			for _, w := range list(r["windows"]) {
				titles = append(titles, fmt.Sprintf("%q", str(w, "title")))
			}
			return "windows: " + strings.Join(titles, ", ")
		}},
		{tool: "electron_navigate", args: map[string]any{"url": srv.URL("a.test", "/second.html")}, explain: func(r map[string]any) string {
			return fmt.Sprintf("now at %q (%v)", r["title"], r["url"])
		}},
		{tool: "electron_navigate", args: map[string]any{"url": top}, explain: func(r map[string]any) string {
			return fmt.Sprintf("back at %q", r["title"])
		}},
		{tool: "electron_status", args: map[string]any{}, explain: func(r map[string]any) string {
			ss := list(r["sessions"])
			if len(ss) == 0 {
				return "no session"
			}
			return fmt.Sprintf("%d session(s); active window %v", len(ss), str(ss[0], "active_window_id"))
		}},
		{tool: "electron_stop", args: map[string]any{}, explain: func(r map[string]any) string {
			return fmt.Sprintf("stopped by %v, escalated=%v", r["method"], r["escalated"])
		}},
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func str(v any, key string) string {
	m, _ := v.(map[string]any)
	s, _ := m[key].(string)
	return s
}
