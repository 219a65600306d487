package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/tool"
)

// step is one call of the demo tour.
type step struct {
	tool    string
	args    func() map[string]any
	explain func(res map[string]any) string
	// until, when set, repeats the call (for up to 10 s) until it holds:
	// frames load after the window's own document is ready.
	until func(res map[string]any) bool
	// before waits before the call; wantCode is the error the step
	// shows (a failure with that code passes, explained by explain).
	before   time.Duration
	wantCode string
}

func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	browserPath := fs.String("browser", "", "Chromium binary (default: $UNDERSTUDY_CHROMIUM, then the usual places)")
	verbose := fs.Bool("json", false, "also print each response envelope")
	fs.String("config", "", "read settings from this JSON file (keys are flag names)")
	if _, err := parseLayered(fs, args, "UNDERSTUDY_DEMO_", os.Getenv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "understudy demo — launch Chromium on the embedded demo app and walk a tour of the tools.\n\n  understudy demo [--browser PATH] [--json]\n\nFlags:")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintln(stderr, "understudy demo:", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "understudy demo: unexpected argument %q (see --help)\n", fs.Arg(0))
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

	s := tool.New(tool.Config{Version: appVersion(), AllowEvalRenderer: true, BrowserPath: path})
	defer s.Close()

	fmt.Fprintf(stdout, "understudy %s demo: Chromium %s on the embedded app at %s\n\n", appVersion(), path, srv.URL("a.test", "/index.html"))
	failed, pid := 0, 0
	for _, st := range tour(srv, path) {
		time.Sleep(st.before)
		t0 := time.Now()
		var res tool.Result
		var m map[string]any
		for deadline := time.Now().Add(10 * time.Second); ; {
			res = s.Dispatch(ctx, st.tool, mustJSON(st.args()), nil)
			m = nil
			_ = json.Unmarshal(res.JSON, &m)
			if res.IsError || st.until == nil || st.until(m) || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		mark, line := "✓", ""
		if st.wantCode != "" && m["code"] != st.wantCode {
			mark, line = "✗", fmt.Sprintf("want %s, got %v: %v", st.wantCode, m["code"], m["error"])
			failed++
		} else if st.wantCode != "" {
			line = st.explain(m)
		} else if res.IsError {
			mark, line = "✗", fmt.Sprintf("%v: %v", m["code"], m["error"])
			failed++
		} else if st.explain != nil {
			line = st.explain(m)
		}
		fmt.Fprintf(stdout, "%s %-26s %-70s %5d ms\n", mark, st.tool, line, time.Since(t0).Milliseconds())
		if *verbose {
			fmt.Fprintf(stdout, "    %s\n", res.JSON)
		}
		if !res.IsError && st.tool == "electron_launch" {
			pid = int(num(m["pid"]))
		}
		if res.IsError && st.tool == "electron_launch" {
			break
		}
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "\n%d step(s) failed\n", failed)
		return 1
	}
	if left := browser.LiveGroupMembers(pid); pid == 0 || len(left) > 0 {
		fmt.Fprintf(stdout, "\nprocesses of the browser are still running: %v\n", left)
		return 1
	}
	fmt.Fprintf(stdout, "\nall steps passed; no process of the browser's group %d is left running\n", pid)
	return 0
}

func tour(srv *fixture.Server, chromium string) []step {
	top := srv.URL("a.test", "/index.html")
	var cross2, topSurface string
	fixed := func(m map[string]any) func() map[string]any { return func() map[string]any { return m } }
	none := fixed(map[string]any{})
	return []step{
		{tool: "electron_doctor", args: none, explain: func(r map[string]any) string {
			return fmt.Sprintf("healthy=%v, %d checks", r["healthy"], len(list(r["checks"])))
		}},
		{tool: "electron_launch", args: fixed(map[string]any{
			"executablePath": chromium,
			"args":           []string{"--host-resolver-rules=" + fixture.HostResolverRules(), top},
		}), explain: func(r map[string]any) string {
			return fmt.Sprintf("session %v, %d window(s), renderer_ready=%v", r["session_id"], len(list(r["windows"])), r["renderer_ready"])
		}},
		{tool: "electron_windows_list", args: none, explain: func(r map[string]any) string {
			var titles []string
			for _, w := range list(r["windows"]) {
				titles = append(titles, fmt.Sprintf("%q", str(w, "title")))
			}
			return "windows: " + strings.Join(titles, ", ")
		}},
		{tool: "electron_surfaces_list", args: none, until: func(r map[string]any) bool {
			loaded := 0
			for _, x := range list(r["surfaces"]) {
				if strings.HasPrefix(str(x, "url"), "http") {
					loaded++
				}
			}
			return loaded >= 7 // every frame of the fixture has committed its document
		}, explain: func(r map[string]any) string {
			kinds := map[string]int{}
			for _, x := range list(r["surfaces"]) {
				kinds[str(x, "kind")]++
				if strings.HasSuffix(str(x, "url"), "/cross2.html") {
					cross2 = str(x, "id")
				}
				if strings.HasSuffix(str(x, "url"), "/index.html") {
					topSurface = str(x, "id")
				}
			}
			return fmt.Sprintf("%d surfaces (%d window root, %d frames); nested cross-site frame is %s", len(list(r["surfaces"])), kinds["other"], kinds["frame"], cross2)
		}},
		{tool: "electron_switch_surface", args: func() map[string]any { return map[string]any{"surfaceId": cross2} }, explain: func(r map[string]any) string {
			sf, _ := r["surface"].(map[string]any)
			return fmt.Sprintf("active: %v (%v, %v)", sf["id"], sf["kind"], sf["originRelation"])
		}},
		{tool: "electron_snapshot", args: fixed(map[string]any{"format": "text"}), explain: func(r map[string]any) string {
			lines := strings.Split(strings.TrimSpace(fmt.Sprint(r["snapshot_text"])), "\n")
			return fmt.Sprintf("%d lines inside c.example, e.g. %s", len(lines), pick(lines, `button "Order"`))
		}},
		{tool: "electron_click", args: fixed(map[string]any{"selector": "#btn"}), explain: func(r map[string]any) string {
			return fmt.Sprintf("clicked \"Click cross2\" at (%.0f, %.0f) on the top window", r["x"], r["y"])
		}},
		{tool: "electron_eval_renderer", args: fixed(map[string]any{"code": "window.__events.filter(e => e.type === 'click').map(e => e.target)"}), explain: func(r map[string]any) string {
			return fmt.Sprintf("the OOPIF's page recorded clicks on %v", r["result"])
		}},
		{tool: "electron_key", args: fixed(map[string]any{"key": "Shift+K", "selector": "#inp"}), explain: func(r map[string]any) string {
			return fmt.Sprintf("pressed %v into the nested frame's input", r["pressed"])
		}},
		{tool: "electron_get_value", args: fixed(map[string]any{"selector": "#inp"}), explain: func(r map[string]any) string {
			return fmt.Sprintf("its value is now %q", fmt.Sprint(r["value"]))
		}},
		{tool: "electron_type", args: fixed(map[string]any{"selector": "#qty", "text": "3"}), explain: func(r map[string]any) string {
			return "typed 3 into the order form's Quantity"
		}},
		{tool: "electron_select_option", args: fixed(map[string]any{"selector": "#size", "values": []string{"Large"}}), explain: func(r map[string]any) string {
			return "chose Large by its label"
		}},
		{tool: "electron_check", args: fixed(map[string]any{"selector": "#gift"}), explain: func(r map[string]any) string {
			return "checked Gift (verified by the page)"
		}},
		{tool: "electron_click", args: fixed(map[string]any{"selector": "#order-submit"}), explain: func(r map[string]any) string {
			return "submitted the form inside c.example"
		}},
		{tool: "electron_expect_text", args: fixed(map[string]any{"selector": "#result", "equals": "Ordered 3 x l (gift)"}), explain: func(r map[string]any) string {
			return fmt.Sprintf("the page says %q", fmt.Sprint(r["actual"]))
		}},
		{tool: "electron_screenshot", args: fixed(map[string]any{"selector": "#order"}), explain: func(r map[string]any) string {
			return fmt.Sprintf("the form, %vx%v px: %v", r["width"], r["height"], r["path"])
		}},
		{tool: "electron_switch_surface", args: func() map[string]any { return map[string]any{"surfaceId": topSurface} }, explain: func(r map[string]any) string {
			return fmt.Sprintf("back to the top surface %v", r["active_surface_id"])
		}},
		// A page's own download lands in the artifacts folder, never in ~/Downloads.
		{tool: "electron_navigate", args: fixed(map[string]any{"url": srv.URL("a.test", "/actions.html")}), explain: func(r map[string]any) string {
			return fmt.Sprintf("now at %q", r["title"])
		}},
		{tool: "electron_click", args: fixed(map[string]any{"selector": "#download"}), explain: func(r map[string]any) string {
			return "clicked the page's download link"
		}},
		{tool: "electron_downloads", args: none, until: func(r map[string]any) bool {
			dl := list(r["downloads"])
			return len(dl) > 0 && str(dl[len(dl)-1], "state") == "completed"
		}, explain: func(r map[string]any) string {
			dl := list(r["downloads"])
			if len(dl) == 0 {
				return "no download"
			}
			d, _ := dl[len(dl)-1].(map[string]any)
			return fmt.Sprintf("%v, %v, %v bytes, saved as %v", d["suggested_filename"], d["state"], d["received_bytes"], d["path"])
		}},
		{tool: "electron_navigate", args: fixed(map[string]any{"url": srv.URL("a.test", "/second.html")}), explain: func(r map[string]any) string {
			return fmt.Sprintf("now at %q (%v)", r["title"], r["url"])
		}},
		// A page stuck in a script: found at once, and reloaded out of it.
		{tool: "electron_eval_renderer", args: fixed(map[string]any{"code": "setTimeout(() => { while (true) {} }, 50); return 'spinning'"}), explain: func(r map[string]any) string {
			return "the page now runs while(true){} (from a timer)"
		}},
		{tool: "electron_snapshot", before: 300 * time.Millisecond, wantCode: "PAGE_UNRESPONSIVE", args: none, explain: func(r map[string]any) string {
			d, _ := r["details"].(map[string]any)
			next := list(r["next_actions"])
			first := ""
			if len(next) > 0 {
				first, _, _ = strings.Cut(fmt.Sprint(next[0]), " ")
			}
			return fmt.Sprintf("PAGE_UNRESPONSIVE after %v ms; the way out: %s", d["waited_ms"], first)
		}},
		{tool: "electron_reload", args: none, explain: func(r map[string]any) string {
			return fmt.Sprintf("ended the script (stopped_script=%v) and reloaded %q", r["stopped_script"], r["title"])
		}},
		{tool: "electron_status", args: none, explain: func(r map[string]any) string {
			ss := list(r["sessions"])
			if len(ss) == 0 {
				return "no session"
			}
			return fmt.Sprintf("%d session(s); active window %v", len(ss), str(ss[0], "active_window_id"))
		}},
		{tool: "electron_stop", args: none, explain: func(r map[string]any) string {
			return fmt.Sprintf("stopped by %v, escalated=%v", r["method"], r["escalated"])
		}},
	}
}

// pick returns the first line that contains want, else the last line.
func pick(lines []string, want string) string {
	if len(lines) == 0 {
		return ""
	}
	l := strings.TrimSpace(lines[len(lines)-1])
	for _, x := range lines {
		if strings.Contains(x, want) {
			l = strings.TrimSpace(x)
			break
		}
	}
	if len(l) > 40 {
		l = l[:40] + "…"
	}
	return l
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

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}
