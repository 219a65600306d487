package tool

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// changers are the tools that can change the app, its scroll position, the
// browser or what the server does next: none may be read-only. A new tool
// that does any of that belongs here as well as in the catalog.
var changers = []string{
	"emulation_set", "emulation_reset", "electron_window_open", "electron_window_close", "electron_go_back", "electron_go_forward", "electron_reload",
	"electron_launch", "electron_attach", "electron_inject", "electron_detach", "electron_stop", "electron_force_kill",
	"electron_switch_window", "electron_navigate", "electron_switch_surface", "electron_relay_endpoint",
	"electron_dialog_handler", "electron_screenshot",
	"electron_click", "electron_hover", "electron_type", "electron_keyboard_type", "electron_type_into_editor",
	"electron_key", "electron_press_sequence", "electron_clear_input", "electron_check", "electron_uncheck",
	"electron_select_option", "electron_fill_form", "electron_set_value", "electron_set_files", "electron_drop_file", "electron_drag", "electron_scroll",
	"electron_scroll_into_view", "electron_eval_main", "electron_eval_renderer",
	"storage_idb_set",
}

// TestCatalog checks every definition: a title, effects declared
// (TestEffectsDeclared says more), known profile letters and none on a
// group's tool, and no tool that changes anything read-only; the changers
// list and the definitions agree both ways.
func TestCatalog(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	for _, name := range s.Names() {
		d := s.tools().defs[name].Def
		if d.Title == "" || d.Effects.Does == 0 {
			t.Errorf("%s: no title or no effects", name)
		}
		a := d.annotations()
		if slices.Contains(changers, name) && a.ReadOnlyHint {
			t.Errorf("%s changes the app, the browser or the session but is marked readOnlyHint", name)
		}
		if a.ReadOnlyHint && (a.DestructiveHint != nil || !a.IdempotentHint) {
			t.Errorf("%s: read-only yet destructive or not idempotent", name)
		}
		if strings.Trim(d.Profiles, "ETD") != "" {
			t.Errorf("%s: unknown profile letters %q", name, d.Profiles)
		}
		if d.Group != "" && d.Profiles != "" {
			t.Errorf("%s: a tool of group %s is in no core profile, yet says %q", name, d.Group, d.Profiles)
		}
		if d.Effects.Does == kRead && slices.Contains(changers, name) {
			t.Errorf("%s is in changers but declares kRead", name)
		}
		if d.Effects.Does != kRead && !slices.Contains(changers, name) && d.Group == "" {
			t.Errorf("%s changes something (kind %d) but is missing from changers", name, d.Effects.Does)
		}
	}
	for _, name := range changers {
		if _, ok := s.tools().defs[name]; !ok {
			t.Errorf("changers names %s, which is no registered tool", name)
		}
	}
}

// listTools connects an MCP client to a server built from cfg and returns
// what tools/list says.
func listTools(t *testing.T, cfg Config) []*mcp.Tool {
	t.Helper()
	s := New(cfg)
	t.Cleanup(s.Close)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

// TestProfilesListExactlyTheirTools: each profile's tools/list is exactly
// the catalog's rows with its letter (plus the eval tools when allowed),
// sorted by name, every tool annotated and titled; a tool left out answers
// TOOL_NOT_ENABLED naming the profile that has it.
func TestProfilesListExactlyTheirTools(t *testing.T) {
	letters := map[string]string{"essential": "E", "testing": "T", "debug": "D"}
	for _, p := range Profiles {
		t.Run(p, func(t *testing.T) {
			got := listTools(t, Config{ToolProfile: p})
			var names []string
			for _, tl := range got {
				names = append(names, tl.Name)
				if tl.Title == "" || tl.Annotations == nil || tl.Annotations.OpenWorldHint == nil {
					t.Errorf("%s: no title or annotations in tools/list", tl.Name)
				}
			}
			if !sort.StringsAreSorted(names) {
				t.Errorf("tools/list is not sorted by name: %v", names)
			}
			var want []string
			all := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
			defer all.Close()
			for _, name := range all.Names() {
				d := all.tools().defs[name].Def
				if d.Group != "" || d.Effects.Eval == gateEvalMain || d.Effects.Eval == gateEvalRenderer {
					continue
				}
				if p == "full" || strings.Contains(d.Profiles, letters[p]) {
					want = append(want, name)
				}
			}
			sort.Strings(want)
			if !slices.Equal(names, want) {
				t.Errorf("profile %s lists\n%v\nwant\n%v", p, names, want)
			}
		})
	}
	s := New(Config{ToolProfile: "essential"})
	defer s.Close()
	res := s.Dispatch(context.Background(), "electron_hover", json.RawMessage(`{"selector":"#x"}`), nil)
	var env struct {
		OK      bool   `json:"ok"`
		Code    string `json:"code"`
		Message string `json:"error"`
		Hint    string `json:"hint"`
	}
	if err := json.Unmarshal(res.JSON, &env); err != nil {
		t.Fatal(err)
	}
	if env.OK || env.Code != string(errs.ToolNotEnabled) || !strings.Contains(env.Message, "--tool-profile testing") || env.Hint == "" {
		t.Fatalf("hover outside essential: %s", res.JSON)
	}
}

// TestGroupsListExactlyTheirTools: --with NAME adds exactly the group's
// tools, --with all every group; a group's tool left off answers
// TOOL_NOT_ENABLED naming --with NAME, and electron_plugins says which
// groups are on.
func TestGroupsListExactlyTheirTools(t *testing.T) {
	if _, err := newSelection("full", []string{"nosuch"}); err == nil {
		t.Fatal("an unknown group was accepted")
	}
	if _, err := newSelection("tiny", nil); err == nil {
		t.Fatal("an unknown profile was accepted")
	}
	base := listTools(t, Config{ToolProfile: "essential"})
	for _, g := range append(GroupNames(), "all") {
		t.Run(g, func(t *testing.T) {
			got := listTools(t, Config{ToolProfile: "essential", With: []string{g}})
			extra := map[string]bool{}
			for _, tl := range got {
				extra[tl.Name] = true
			}
			for _, tl := range base {
				delete(extra, tl.Name)
			}
			s := New(Config{})
			defer s.Close()
			for name := range extra {
				if gr := s.groupOf(name); gr == "" || (g != "all" && gr != g) {
					t.Errorf("--with %s added %s (group %q)", g, name, gr)
				}
			}
			for _, name := range s.Names() {
				if gr := s.groupOf(name); gr != "" && (g == "all" || gr == g) && !extra[name] {
					t.Errorf("--with %s left out %s", g, name)
				}
			}
		})
	}
	s := New(Config{ToolProfile: "full", With: []string{"clock"}})
	defer s.Close()
	res := s.Dispatch(context.Background(), "electron_plugins", nil, nil)
	var out pluginsResult
	if err := json.Unmarshal(res.JSON, &out); err != nil {
		t.Fatal(err)
	}
	if out.Profile != "full" || len(out.Groups) != len(groups) || len(out.Profiles) != len(Profiles) {
		t.Fatalf("electron_plugins: %s", res.JSON)
	}
	for _, gi := range out.Groups {
		if gi.Enabled != (gi.Name == "clock") || gi.Flag != "--with "+gi.Name {
			t.Errorf("electron_plugins group %+v with --with clock", gi)
		}
	}
	// A group tool, when one is registered, is refused by name.
	sel, _ := newSelection("full", nil)
	err := sel.notEnabled(s.tools().defs["network_stub"].Def)
	if errs.CodeOf(err) != errs.ToolNotEnabled || !strings.Contains(err.Error(), "--with network") {
		t.Fatalf("network_stub off: %v", err)
	}
}

// TestAnnotationsAHostCanTrust (issue 30, point 7): what a host decides
// from the annotations matches what the tools do. Writes into the page's
// storage are destructive as storage_idb_set is; a clock that fires the
// app's timers acts on the app; opening a window takes nothing away but
// reaches any URL; a launch or attach can reach a grid or a remote
// endpoint; the HAR export adds a file as the other file writers do.
func TestAnnotationsAHostCanTrust(t *testing.T) {
	s := New(Config{})
	defer s.Close()
	for _, c := range []struct {
		name                   string
		destructive, openWorld bool
	}{
		{"storage_local_set", true, false}, {"storage_session_set", true, false}, {"storage_set_cookie", true, false},
		{"storage_idb_set", true, false},
		{"clock_advance", true, false}, {"clock_run_for", true, false}, {"clock_resume", true, false}, {"clock_set_system_time", true, false},
		{"electron_window_open", false, true}, {"electron_launch", false, true}, {"electron_attach", false, true},
		{"network_export_har", false, false}, {"electron_screenshot", false, false},
	} {
		a := s.tools().defs[c.name].annotations()
		if a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint != c.destructive || a.OpenWorldHint == nil || *a.OpenWorldHint != c.openWorld {
			t.Errorf("%s: annotations %+v, want destructive %v, open world %v", c.name, a, c.destructive, c.openWorld)
		}
	}
}

// TestToolNotEnabledThroughMCP (issue 30, point 1): over MCP, a tool that
// exists but is off in this profile or group answers tools/call as a tool
// failure with TOOL_NOT_ENABLED naming its flag, not the JSON-RPC "unknown
// tool" error that leaves an agent no way on; a name no tool has is still
// that error.
func TestToolNotEnabledThroughMCP(t *testing.T) {
	s := New(Config{ToolProfile: "essential"})
	defer s.Close()
	cs, done := inMemoryClient(t, s)
	defer done()
	ctx := context.Background()
	for name, flag := range map[string]string{"storage_cookies": "--with storage", "electron_set_value": "--tool-profile testing"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("%s: a protocol error instead of a tool failure: %v", name, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || !strings.Contains(text, `"code":"TOOL_NOT_ENABLED"`) || !strings.Contains(text, flag) {
			t.Fatalf("%s: %s", name, text)
		}
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "electron_no_such_tool", Arguments: map[string]any{}}); err == nil {
		t.Fatal("a tool no server has answered as a tool")
	}
}

// TestHintsNameOnlyOfferedTools (issue 30, point 1): in every profile (and
// with every group), the hint of every registered error code, and the
// next_actions of a failure, name only tools the server offers: an agent
// is never sent to a tool it cannot call.
func TestHintsNameOnlyOfferedTools(t *testing.T) {
	cfgs := map[string]Config{}
	for _, p := range Profiles {
		cfgs[p] = Config{ToolProfile: p}
	}
	cfgs["essential+all"] = Config{ToolProfile: "essential", With: []string{"all"}}
	for label, cfg := range cfgs {
		s := New(cfg)
		offered := map[string]bool{}
		for _, n := range s.Offered() {
			offered[n] = true
		}
		for _, code := range errs.Codes() {
			e := errs.New(code, "a failure")
			e.NextActions = []string{"electron_snapshot", "electron_dialog_handler", "storage_cookies", "electron_set_value"}
			r := s.failureEnvelope(e, time.Now(), "")
			var env struct {
				Hint        string   `json:"hint"`
				NextActions []string `json:"next_actions"`
			}
			if err := json.Unmarshal(r.JSON, &env); err != nil {
				t.Fatal(err)
			}
			for _, w := range mcpwire.ToolWords(env.Hint) {
				if _, known := s.tools().defs[w]; known && !offered[w] {
					t.Errorf("%s: %s's hint names %s, which this server does not offer: %q", label, code, w, env.Hint)
				}
			}
			for _, a := range env.NextActions {
				if !offered[a] {
					t.Errorf("%s: %s's next_actions name %s, which this server does not offer", label, code, a)
				}
			}
		}
		s.Close()
	}
}
