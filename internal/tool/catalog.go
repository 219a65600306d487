package tool

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The catalog (docs/adr/022): every tool's title, its MCP annotations and
// the core profiles it belongs to, in ONE table (tools below), and the
// capability groups, found by the tool name's prefix (groups below).
// TestCatalog checks the table against the registry: every registered tool
// has a row, and a tool that can change the app, its scroll position or
// the browser is never read-only.

// kind is what a tool does to the world, which decides its annotations.
type kind int

const (
	// kRead changes nothing: reads, waits, assertions, listings.
	kRead kind = iota + 1
	// kSelect changes only what later calls act on or how they are
	// answered (a selected window or surface, a dialog policy, a relay),
	// or moves the pointer or a scroll position back to the same place on
	// a repeat: not read-only, not destructive, idempotent.
	kSelect
	// kAdd adds something and takes nothing away (a session, a file, a
	// scroll offset): not read-only, not destructive, not idempotent.
	kAdd
	// kSet drives the app to a stated value (a field's text, a checkbox):
	// the app reacts as to a user, so destructive, but a repeat does
	// nothing more.
	kSet
	// kAct drives the app as a user would (a click, a key): the app may do
	// anything, destructive and not idempotent.
	kAct
	// kOpen reaches past the app: navigation to any URL, arbitrary code.
	kOpen
	// kReach reaches past the app and takes nothing away: a session on a
	// grid or a remote endpoint, a new window at any URL. Not destructive,
	// open world.
	kReach
)

// Core profiles. A row's profiles string holds the letters of the profiles
// it belongs to; full holds every core tool.
const (
	profEssential = 'E'
	profTesting   = 'T'
	profDebug     = 'D'
)

// Profiles are the values of --tool-profile, smallest first.
var Profiles = []string{"essential", "testing", "debug", "full"}

// DefaultProfile is the profile the command line uses when none is named:
// the complete core surface, as in stagewright (ADR-021), until a task
// benchmark shows a smaller one serves agents as well.
const DefaultProfile = "full"

type entry struct {
	name     string
	title    string
	kind     kind
	profiles string    // letters: E essential, T testing, D debug (full has all)
	class    toolClass // how its calls share the session (classes.go, docs/adr/018)
}

// tools is the table. One line per tool; a group's tools (see groups) need
// no profile letters.
var tools = []entry{
	// lifecycle and targeting
	{"electron_launch", "Launch an app", kReach, "ETD", classLifecycle},
	{"electron_attach", "Attach to a running app", kReach, "ETD", classLifecycle},
	{"electron_inject", "Open an app's main-process inspector", kOpen, "ETD", classLifecycle},
	{"electron_detach", "Detach, leave the app running", kSelect, "TD", classLifecycle},
	{"electron_stop", "Stop the app", kAct, "ETD", classLifecycle},
	{"electron_force_kill", "Kill the app's processes", kAct, "TD", classLifecycle},
	{"electron_discover_running", "Find DevTools endpoints on loopback", kRead, "D", classLifecycle},
	{"electron_status", "Server and session status", kRead, "ETD", classLifecycle},
	{"electron_info", "App versions and capabilities", kRead, "D", classRead},
	{"electron_doctor", "Preflight check", kRead, "D", classLifecycle},
	{"electron_plugins", "Capability groups and profiles", kRead, "ETD", classLifecycle},
	{"electron_windows_list", "List windows", kRead, "ETD", classRead},
	{"electron_switch_window", "Select a window", kSelect, "ETD", classLifecycle},
	{"electron_navigate", "Navigate a window", kOpen, "ETD", classAction},
	{"electron_surfaces_list", "List surfaces", kRead, "ETD", classRead},
	{"electron_switch_surface", "Select a surface", kSelect, "ETD", classLifecycle},
	{"electron_relay_endpoint", "Share the app through a CDP relay", kSelect, "D", classLifecycle},
	// observe
	{"electron_snapshot", "Snapshot the page", kRead, "ETD", classRead},
	{"electron_find", "Find elements by role and name", kRead, "ETD", classRead},
	{"electron_elements_list", "List elements matching a selector", kRead, "TD", classRead},
	{"electron_exists", "Whether an element exists", kRead, "TD", classRead},
	{"electron_downloads", "List downloads", kRead, "TD", classRead},
	{"electron_get_text", "Read an element's text", kRead, "ETD", classRead},
	{"electron_get_value", "Read a form control's value", kRead, "ETD", classRead},
	{"electron_get_attribute", "Read an attribute", kRead, "TD", classRead},
	{"electron_get_state", "Read an element's states", kRead, "TD", classRead},
	{"electron_get_bbox", "Read an element's box", kRead, "D", classRead},
	{"electron_get_computed_style", "Read computed styles", kRead, "D", classRead},
	{"electron_focused_element", "The focused element", kRead, "TD", classRead},
	{"electron_console_logs", "Read console messages", kRead, "D", classRead},
	{"electron_dialog_handler", "Answer JavaScript dialogs", kSet, "ETD", classAction},
	{"electron_screenshot", "Screenshot to a file", kAdd, "TD", classRead},
	// interact
	{"electron_click", "Click", kAct, "ETD", classAction},
	{"electron_hover", "Hover", kSelect, "TD", classAction},
	{"electron_type", "Set a field's text", kSet, "ETD", classAction},
	{"electron_keyboard_type", "Type with key events", kAct, "TD", classAction},
	{"electron_type_into_editor", "Type into a code or rich-text editor", kSet, "TD", classAction},
	{"electron_key", "Press a key or chord", kAct, "ETD", classAction},
	{"electron_press_sequence", "Press keys in order", kAct, "TD", classAction},
	{"electron_clear_input", "Empty a field", kSet, "TD", classAction},
	{"electron_check", "Check a checkbox", kSet, "ETD", classAction},
	{"electron_uncheck", "Uncheck a checkbox", kSet, "ETD", classAction},
	{"electron_select_option", "Choose options of a select", kSet, "ETD", classAction},
	{"electron_set_value", "Set a value", kSet, "TD", classAction},
	{"electron_set_files", "Set the files of a file input", kSet, "T", classAction},
	{"electron_drop_file", "Drop files onto an element", kAct, "T", classAction},
	{"electron_drag", "Drag and drop", kAct, "T", classAction},
	{"electron_scroll", "Scroll", kAdd, "ETD", classAction},
	{"electron_scroll_into_view", "Scroll an element into view", kSelect, "TD", classAction},
	// waits and assertions
	{"electron_wait", "Sleep", kRead, "TD", classWait},
	{"electron_wait_for_selector", "Wait for an element", kRead, "ETD", classWait},
	{"electron_wait_for_state", "Wait for an element's state", kRead, "T", classWait},
	{"electron_wait_for_event", "Wait for a DOM event", kRead, "T", classWait},
	{"electron_expect_text", "Expect text", kRead, "ETD", classWait},
	{"electron_expect_value", "Expect a form value", kRead, "T", classWait},
	{"electron_expect_visible", "Expect visibility", kRead, "ETD", classWait},
	{"electron_expect_state", "Expect element states", kRead, "T", classWait},
	{"electron_expect_count", "Expect a count of elements", kRead, "T", classWait},
	{"electron_expect_url", "Expect the URL", kRead, "T", classWait},
	{"electron_assert_pattern", "Check text or value once", kRead, "T", classRead},
	// eval: present only with --allow-eval, then in every profile
	{"electron_eval_main", "Run JavaScript in the main process", kOpen, "ETD", classAction},
	{"electron_eval_renderer", "Run JavaScript in the page", kOpen, "ETD", classAction},
	{"production_validate", "Validate a packaged Electron app", kRead, "", classLifecycle},
	{"ipc_invoke", "Invoke a main-process IPC handler", kOpen, "", classAction},
	{"native_menu", "Read the application menu", kRead, "", classRead},
	{"native_menu_item", "Find an application-menu item", kRead, "", classRead},
	{"native_menu_invoke", "Click an application-menu item", kAct, "", classAction},
	{"ipc_capture_start", "Start recording IPC channels", kAct, "", classAction},
	{"ipc_captured", "Read recorded IPC", kRead, "", classRead},
	{"ipc_capture_stop", "Stop recording IPC and restore handlers", kAct, "", classAction},
	{"ipc_stub", "Stub an IPC channel's answer", kAct, "", classAction},
	{"native_notifications_start", "Capture notifications", kSelect, "", classAction},
	{"native_notifications", "Read captured notifications", kRead, "", classRead},
	{"native_notifications_stop", "Stop capturing notifications", kSelect, "", classAction},
	{"native_trays", "Read the system trays", kRead, "", classAction},
	{"native_tray_invoke", "Fire a tray event", kAct, "", classAction},
	{"trace_start", "Start recording a trace", kAdd, "", classLifecycle},
	{"trace_stop", "Stop the trace", kAdd, "", classLifecycle},
	{"trace_status", "Trace status", kRead, "", classLifecycle},
	{"trace_tokens", "Token usage of a trace", kRead, "", classLifecycle},
	{"trace_budget", "Trace token budget", kRead, "", classLifecycle},
	{"trace_view", "View a trace and write its HTML report", kSelect, "", classLifecycle},
	{"trace_export_playwright", "Export a trace as a Playwright test", kSelect, "", classLifecycle},
	{"trace_promote", "Promote a trace to a replay spec", kSelect, "", classLifecycle},
	{"trace_replay", "Replay a trace against the app", kOpen, "", classLifecycle},
	{"a11y_audit", "Audit accessibility with axe-core", kRead, "", classAction},
	{"visual_capture", "Capture an image for review", kAdd, "", classAction},
	{"visual_expect", "Compare with a visual baseline", kRead, "", classRead},
	{"visual_update_baseline", "Update a visual baseline", kSet, "", classAction},
	{"network_capture_start", "Start network capture", kAdd, "", classAction},
	{"network_captured", "Read captured requests", kRead, "", classRead},
	{"network_capture_stop", "Stop network capture", kAdd, "", classAction},
	{"network_stub", "Stub network requests", kAct, "", classAction},
	{"network_unstub", "Remove network stubs", kSelect, "", classAction},
	{"network_export_har", "Export requests as HAR", kAdd, "", classAction},
	{"network_replay_har", "Replay requests from a HAR", kAct, "", classAction},
	{"network_conditions", "Emulate network conditions", kSelect, "", classAction},
	{"storage_cookies", "List cookies", kRead, "", classRead},
	{"storage_set_cookie", "Set a cookie", kSet, "", classAction},
	{"storage_clear_cookies", "Delete cookies", kSet, "", classAction},
	{"storage_snapshot", "Storage snapshot", kRead, "", classRead},
	{"storage_local_get", "Read localStorage", kRead, "", classRead},
	{"storage_session_get", "Read sessionStorage", kRead, "", classRead},
	{"storage_local_set", "Set a localStorage key", kSet, "", classAction},
	{"storage_session_set", "Set a sessionStorage key", kSet, "", classAction},
	{"storage_local_remove", "Remove a localStorage key", kSet, "", classAction},
	{"storage_session_remove", "Remove a sessionStorage key", kSet, "", classAction},
	{"storage_local_keys", "List localStorage keys", kRead, "", classRead},
	{"storage_session_keys", "List sessionStorage keys", kRead, "", classRead},
	{"storage_local_clear", "Clear localStorage", kSet, "", classAction},
	{"storage_session_clear", "Clear sessionStorage", kSet, "", classAction},
	{"storage_idb_schema", "IndexedDB schema", kRead, "", classRead},
	{"storage_idb_get", "Read IndexedDB records", kRead, "", classRead},
	{"storage_idb_keys", "List IndexedDB primary keys", kRead, "", classRead},
	{"storage_idb_count", "Count IndexedDB records", kRead, "", classRead},
	{"storage_idb_set", "Write an IndexedDB record", kSet, "", classAction},
	{"storage_idb_delete", "Delete IndexedDB records", kSet, "", classAction},
	{"storage_idb_clear", "Clear an IndexedDB store", kSet, "", classAction},
	{"storage_state_export", "Export Playwright storageState", kSelect, "", classAction},
	{"storage_state_import", "Import Playwright storageState", kSet, "", classAction},
	{"clock_install", "Install the fake clock", kAdd, "", classAction},
	{"clock_set_time", "Freeze the clock at a time", kSelect, "", classAction},
	{"clock_set_system_time", "Set the running clock's time", kAct, "", classAction},
	{"clock_advance", "Advance the clock", kAct, "", classAction},
	{"clock_run_for", "Run the clock for a while", kAct, "", classAction},
	{"clock_pause", "Pause the clock at a time", kSelect, "", classAction},
	{"clock_resume", "Resume the clock", kAct, "", classAction},
	{"clock_status", "Clock status", kRead, "", classRead},
	{"emulation_set", "Emulate device and environment", kSelect, "TD", classAction},
	{"emulation_reset", "Reset emulation", kSelect, "TD", classAction},
	{"electron_window_open", "Open a window", kReach, "TD", classAction},
	{"electron_window_close", "Close a window", kAct, "TD", classAction},
	{"electron_go_back", "Go back", kOpen, "ETD", classAction},
	{"electron_go_forward", "Go forward", kOpen, "TD", classAction},
	{"electron_reload", "Reload the window", kOpen, "TD", classAction},
}

// group is a capability group: tools whose names start with prefix,
// enabled only by --with NAME (or --with all).
type group struct {
	name    string
	prefix  string
	summary string
	needs   string // what the group needs beyond --with, if anything
}

// groups is the second table: one line per capability group.
var groups = []group{
	{"network", "network_", "see, stub, record and replay requests", ""},
	{"storage", "storage_", "cookies, localStorage, sessionStorage, IndexedDB, Playwright storageState", ""},
	{"clock", "clock_", "install and drive a fake clock", ""},
	{"a11y", "a11y_", "accessibility audits with axe-core", "--axe-core PATH/axe.min.js (the axe-core npm package)"},
	{"visual", "visual_", "visual baselines and comparisons", ""},
	{"trace", "trace_", "record, view and replay session traces", ""},
	{"ipc", "ipc_", "invoke, capture and stub Electron IPC", "--allow-eval=main (and an app launched with main or with an inspector)"},
	{"native-ui", "native_", "application menu, notifications and trays", "the main-process inspector: a dev launch (main) or electron_inject"},
	{"production", "production_", "validate a packaged app", ""},
}

// groupOf names the capability group a tool belongs to ("" for a core
// tool).
func groupOf(name string) string {
	for _, g := range groups {
		if strings.HasPrefix(name, g.prefix) {
			return g.name
		}
	}
	return ""
}

// rowIndex finds a tool's row by name; built once from tools, never
// written after.
var rowIndex = func() map[string]int {
	m := make(map[string]int, len(tools))
	for i, e := range tools {
		m[e.name] = i
	}
	return m
}()

func rowOf(name string) (entry, bool) {
	i, ok := rowIndex[name]
	if !ok {
		return entry{}, false
	}
	return tools[i], true
}

// annotations are the MCP annotations of a tool's row (nil when the tool
// has none, which TestCatalog forbids).
func annotations(name string) *mcp.ToolAnnotations {
	e, ok := rowOf(name)
	if !ok {
		return nil
	}
	f, t := false, true
	a := &mcp.ToolAnnotations{Title: e.title, OpenWorldHint: &f}
	switch e.kind {
	case kRead:
		// destructiveHint means nothing beside readOnlyHint (MCP): left out.
		a.ReadOnlyHint, a.IdempotentHint = true, true
	case kSelect:
		a.IdempotentHint, a.DestructiveHint = true, &f
	case kAdd:
		a.DestructiveHint = &f
	case kSet:
		a.IdempotentHint, a.DestructiveHint = true, &t
	case kAct:
		a.DestructiveHint = &t
	case kOpen:
		a.DestructiveHint, a.OpenWorldHint = &t, &t
	case kReach:
		a.DestructiveHint, a.OpenWorldHint = &f, &t
	}
	return a
}

// selection is the operator's choice of tools: a core profile and the
// capability groups.
type selection struct {
	profile string          // "" enables every tool (an embedder's default)
	groups  map[string]bool // enabled groups
}

// newSelection checks --tool-profile and --with.
func newSelection(profile string, with []string) (selection, error) {
	sel := selection{profile: profile, groups: map[string]bool{}}
	if profile != "" && !slices.Contains(Profiles, profile) {
		return sel, fmt.Errorf("unknown tool profile %q (one of %s)", profile, strings.Join(Profiles, ", "))
	}
	for _, w := range with {
		w = strings.TrimSpace(w)
		switch {
		case w == "":
		case w == "all":
			for _, g := range groups {
				sel.groups[g.name] = true
			}
		case slices.ContainsFunc(groups, func(g group) bool { return g.name == w }):
			sel.groups[w] = true
		default:
			return sel, fmt.Errorf("unknown capability group %q (one of %s, or all)", w, strings.Join(GroupNames(), ", "))
		}
	}
	return sel, nil
}

// GroupNames lists the capability groups (the values of --with).
func GroupNames() []string {
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.name
	}
	return out
}

// ValidateSelection reports whether a profile and groups are known, for
// the command line to refuse them before it starts.
func ValidateSelection(profile string, with []string) error {
	_, err := newSelection(profile, with)
	return err
}

// inProfile reports whether a core tool belongs to a named profile.
func inProfile(name, profile string) bool {
	if profile == "" || profile == "full" {
		return true
	}
	e, ok := rowOf(name)
	if !ok {
		return false // a core tool without a row is only in full
	}
	letter := map[string]rune{"essential": profEssential, "testing": profTesting, "debug": profDebug}[profile]
	return strings.ContainsRune(e.profiles, letter)
}

// enabled reports whether the selection enables a registered tool.
func (sel selection) enabled(name string) bool {
	if sel.profile == "" {
		return true
	}
	if g := groupOf(name); g != "" {
		return sel.groups[g]
	}
	return inProfile(name, sel.profile)
}

// notEnabled is the TOOL_NOT_ENABLED failure of a registered tool the
// selection leaves out, naming what enables it.
func (sel selection) notEnabled(name string) error {
	if g := groupOf(name); g != "" {
		return errs.New(errs.ToolNotEnabled, "%s belongs to the capability group %s, which is off; the operator enables it with --with %s (or --with all)", name, g, g).With("group", g).With("flag", "--with "+g)
	}
	for _, p := range Profiles {
		if inProfile(name, p) {
			return errs.New(errs.ToolNotEnabled, "%s is not in --tool-profile %s; the operator enables it with --tool-profile %s", name, sel.profile, p).With("profile", p).With("flag", "--tool-profile "+p)
		}
	}
	return errs.New(errs.ToolNotEnabled, "%s is not enabled", name)
}

// Offered lists the tools this server offers (its profile, groups and
// eval policy), sorted by name: what tools/list carries.
func (s *Server) Offered() []string { return s.enabledNames() }

// enabledNames lists the enabled tools, sorted by name (the order of
// tools/list).
func (s *Server) enabledNames() []string {
	var out []string
	for _, n := range s.tools().order {
		if s.sel.enabled(n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func registerCatalog(s *Server) {
	add(s, "electron_plugins", "The capability groups (enable one with --with NAME or --with all; --plugin NAME is the same), whether each is on, its tools and what it needs; and the core profiles (--tool-profile) with the one in use. A tool that exists but is off answers TOOL_NOT_ENABLED naming its flag.", false, gateNone, plugins)
}

type pluginsArgs struct {
	Common
}

type pluginsResult struct {
	Profile  string        `json:"profile"`
	Profiles []profileInfo `json:"profiles"`
	Groups   []groupInfo   `json:"groups"`
}

type profileInfo struct {
	Name  string   `json:"name"`
	Tools []string `json:"tools"`
}

type groupInfo struct {
	Name    string   `json:"name"`
	Enabled bool     `json:"enabled"`
	Summary string   `json:"summary"`
	Flag    string   `json:"flag"`
	Needs   string   `json:"needs,omitempty"`
	Tools   []string `json:"tools"`
}

func plugins(_ context.Context, c *Call, _ *pluginsArgs) (*pluginsResult, error) {
	s := c.Server
	names := append([]string(nil), s.tools().order...)
	sort.Strings(names)
	r := &pluginsResult{Profile: s.sel.profile, Profiles: []profileInfo{}, Groups: []groupInfo{}}
	if r.Profile == "" {
		r.Profile = "all"
	}
	for _, p := range Profiles {
		pi := profileInfo{Name: p, Tools: []string{}}
		for _, n := range names {
			if groupOf(n) == "" && inProfile(n, p) {
				pi.Tools = append(pi.Tools, n)
			}
		}
		r.Profiles = append(r.Profiles, pi)
	}
	for _, g := range groups {
		gi := groupInfo{Name: g.name, Summary: g.summary, Flag: "--with " + g.name, Needs: g.needs, Tools: []string{},
			Enabled: s.sel.profile == "" || s.sel.groups[g.name]}
		for _, n := range names {
			if groupOf(n) == g.name {
				gi.Tools = append(gi.Tools, n)
			}
		}
		r.Groups = append(r.Groups, gi)
	}
	return r, nil
}
