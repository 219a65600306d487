package tool

import (
	"fmt"
	"slices"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
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
