package tool

import (
	"context"
	"sort"
)

// The catalog (docs/adr/022, amended by docs/adr/037): what each tool's
// Def (def.go) says of its world (kind, which decides its MCP
// annotations), the core profiles a Def names by letter, and the
// capability groups (groups below), found by a tool name's prefix.
// TestCatalog checks every Def: a tool that can change the app, its scroll
// position or the browser is never read-only.

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
