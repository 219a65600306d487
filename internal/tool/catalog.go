package tool

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The catalog (docs/adr/022, amended by docs/adr/037): what each tool's
// Def (def.go) says of its world (kind, which decides its MCP
// annotations), the core profiles a Def names by letter, and the
// capability groups (groups below), found by a tool name's prefix.
// TestCatalog checks every Def: a tool that can change the app, its scroll
// position or the browser is never read-only.

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

// Core profiles. A Def's Profiles string holds the letters of the profiles
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
func (d Def) inProfile(profile string) bool {
	if profile == "" || profile == "full" {
		return true
	}
	letter := map[string]rune{"essential": profEssential, "testing": profTesting, "debug": profDebug}[profile]
	return strings.ContainsRune(d.Profiles, letter)
}

// enabled reports whether the selection enables a tool.
func (sel selection) enabled(d Def) bool {
	if sel.profile == "" {
		return true
	}
	if d.Group != "" {
		return sel.groups[d.Group]
	}
	return d.inProfile(sel.profile)
}

// notEnabled is the TOOL_NOT_ENABLED failure of a registered tool the
// selection leaves out, naming what enables it.
func (sel selection) notEnabled(d Def) error {
	name := d.Name
	if g := d.Group; g != "" {
		return errs.New(errs.ToolNotEnabled, "%s belongs to the capability group %s, which is off; the operator enables it with --with %s (or --with all)", name, g, g).With("group", g).With("flag", "--with "+g)
	}
	for _, p := range Profiles {
		if d.inProfile(p) {
			return errs.New(errs.ToolNotEnabled, "%s is not in --tool-profile %s; the operator enables it with --tool-profile %s", name, sel.profile, p).With("profile", p).With("flag", "--tool-profile "+p)
		}
	}
	return errs.New(errs.ToolNotEnabled, "%s is not enabled", name)
}

// enabledName reports whether the selection enables the registered tool
// named; false for a name no tool has.
func (s *Server) enabledName(name string) bool {
	d, ok := s.tools().defs[name]
	return ok && s.sel.enabled(d.Def)
}

// Offered lists the tools this server offers (its profile, groups and
// eval policy), sorted by name: what tools/list carries.
func (s *Server) Offered() []string { return s.enabledNames() }

// enabledNames lists the enabled tools, sorted by name (the order of
// tools/list).
func (s *Server) enabledNames() []string {
	var out []string
	for _, n := range s.tools().order {
		if s.sel.enabled(s.tools().defs[n].Def) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func registerCatalog(s *Server) {
	define(s, Def{
		Name: "electron_plugins", Title: "Capability groups and profiles", Profiles: "ETD", Class: classLifecycle,
		Effects: Effects{Does: kRead},
		Short:   "Profiles and capability groups: on or off, their tools, the flag that enables each.",
		Desc:    "The capability groups (enable one with --with NAME or --with all; --plugin NAME is the same), whether each is on, its tools and what it needs; and the core profiles (--tool-profile) with the one in use. A tool that exists but is off answers TOOL_NOT_ENABLED naming its flag.",
	}, plugins)
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
	defs := s.tools().defs
	r := &pluginsResult{Profile: s.sel.profile, Profiles: []profileInfo{}, Groups: []groupInfo{}}
	if r.Profile == "" {
		r.Profile = "all"
	}
	for _, p := range Profiles {
		pi := profileInfo{Name: p, Tools: []string{}}
		for _, n := range names {
			if d := defs[n]; d.Group == "" && d.inProfile(p) {
				pi.Tools = append(pi.Tools, n)
			}
		}
		r.Profiles = append(r.Profiles, pi)
	}
	for _, g := range groups {
		gi := groupInfo{Name: g.name, Summary: g.summary, Flag: "--with " + g.name, Needs: g.needs, Tools: []string{},
			Enabled: s.sel.profile == "" || s.sel.groups[g.name]}
		for _, n := range names {
			if defs[n].Group == g.name {
				gi.Tools = append(gi.Tools, n)
			}
		}
		r.Groups = append(r.Groups, gi)
	}
	return r, nil
}
