package tool

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// paramCount counts the parameters of a tools/list and those that carry a
// description. A parameter is every property of an input schema, nested
// ones included (an object's fields, the fields of an array's items),
// named by its path: "clip.x", "masks[].width". top counts only the
// tool's own parameters (issue 26's measure).
type paramCount struct {
	params, described       int
	topParams, topDescribed int
	undescribed             []string // "tool: path"
}

func countParams(t testing.TB, list []*mcp.Tool) paramCount {
	t.Helper()
	var c paramCount
	for _, tl := range list {
		raw, err := json.Marshal(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema map[string]any
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		c.add(tl.Name, "", schema)
	}
	return c
}

func (c *paramCount) add(tool, prefix string, n map[string]any) {
	props, _ := n["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p, _ := props[k].(map[string]any)
		d, _ := p["description"].(string)
		c.params++
		if prefix == "" {
			c.topParams++
		}
		if strings.TrimSpace(d) != "" {
			c.described++
			if prefix == "" {
				c.topDescribed++
			}
		} else {
			c.undescribed = append(c.undescribed, tool+": "+prefix+k)
		}
		if p == nil {
			continue
		}
		c.add(tool, prefix+k+".", p)
		if items, ok := p["items"].(map[string]any); ok {
			c.add(tool, prefix+k+"[].", items)
		}
	}
}

// TestEveryParameterDescribed (issue 26, point 4): every parameter of
// every tool in tools/list carries a description, in every core profile,
// with every capability group, with eval and with everything on; nested
// fields too. A parameter's description in the registry (its jsonschema
// tag) may be shortened for tools/list (hostParams) but never dropped.
// With -v it logs the figures docs/benchmarks.md keeps.
func TestEveryParameterDescribed(t *testing.T) {
	variants := manifestVariants()
	variants["embedder-default"] = Config{} // every tool, groups included
	names := make([]string, 0, len(variants))
	for n := range variants {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		list := hostTools(t, variants[n])
		c := countParams(t, list)
		m := measureTools(t, list)
		t.Logf("%-16s tools %3d  parameters %3d, described %3d (nested included: %3d, %3d)  chars/4 %5d  BPE %5d",
			n, len(list), c.topParams, c.topDescribed, c.params, c.described, m.Chars4, m.BPE)
		for _, u := range c.undescribed {
			t.Errorf("%s: %s has no description in tools/list; give its field a jsonschema tag, and a short form in hostParams (hostview.go) when it is long", n, u)
		}
		for _, tl := range list {
			if strings.TrimSpace(tl.Description) == "" {
				t.Errorf("%s: %s has no description in tools/list", n, tl.Name)
			}
		}
	}
}

// TestCountParamsSeesNested: the walk above counts a nested field and an
// array item's field, and names each one missing a description.
func TestCountParamsSeesNested(t *testing.T) {
	tl := &mcp.Tool{Name: "x", InputSchema: json.RawMessage(`{"type":"object","properties":{` +
		`"a":{"type":"string","description":"described"},` +
		`"clip":{"type":"object","description":"a box","properties":{"x":{"type":"number"}}},` +
		`"masks":{"type":"array","description":"boxes","items":{"type":"object","properties":{"w":{"type":"number","description":"width"},"h":{"type":"number"}}}},` +
		`"b":{"type":"boolean","description":"  "}}}`)}
	c := countParams(t, []*mcp.Tool{tl})
	if c.topParams != 4 || c.topDescribed != 3 || c.params != 7 || c.described != 4 {
		t.Fatalf("counted %+v", c)
	}
	want := []string{"x: b", "x: clip.x", "x: masks[].h"}
	if strings.Join(c.undescribed, "|") != strings.Join(want, "|") {
		t.Fatalf("undescribed %q, want %q", c.undescribed, want)
	}
}

// TestHostParamsNeverEmpty: a short form in hostParams says something.
// Shortening is how tools/list stays inside its budget (docs/adr/030);
// dropping a parameter's description is not.
func TestHostParamsNeverEmpty(t *testing.T) {
	for full, short := range hostParams() {
		if strings.TrimSpace(short) == "" {
			t.Errorf("hostParams maps %q to nothing; give it a short form", full)
		}
	}
}

// TestHostParamsAreUsed: every entry of hostParams is the description of a
// parameter some tool has, so an entry cannot outlive the text it
// shortens (a changed jsonschema tag then goes to tools/list in full,
// which the manifest gate measures).
func TestHostParamsAreUsed(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	defer s.Close()
	used := map[string]bool{}
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		props, _ := n["properties"].(map[string]any)
		for _, p := range props {
			p, _ := p.(map[string]any)
			if d, ok := p["description"].(string); ok {
				used[d] = true
			}
			walk(p)
			if items, ok := p["items"].(map[string]any); ok {
				walk(items)
			}
		}
	}
	for _, name := range s.Names() {
		var schema map[string]any
		if err := json.Unmarshal(s.tools().defs[name].inputSchema(), &schema); err != nil {
			t.Fatal(err)
		}
		walk(schema)
	}
	for full := range hostParams() {
		if !used[full] {
			t.Errorf("hostParams shortens %q, which no parameter says any more", full)
		}
	}
}

// TestDescriptionsPointOnlyToListedTools (issue 30, point 1: no dead
// ends): in every profile and group, a tools/list description names no
// registered tool that this tools/list lacks, except in its first
// sentence (what the tool is; electron_force_kill "when electron_stop
// cannot").
func TestDescriptionsPointOnlyToListedTools(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	defer s.Close()
	variants := manifestVariants()
	names := make([]string, 0, len(variants))
	for n := range variants {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		list := hostTools(t, variants[n])
		listed := map[string]bool{}
		for _, tl := range list {
			listed[tl.Name] = true
		}
		for _, tl := range list {
			rest := tl.Description
			if i := strings.Index(rest, ". "); i >= 0 {
				rest = rest[i+2:]
			} else {
				rest = ""
			}
			for _, w := range mcpwire.ToolWords(rest) {
				if _, registered := s.tools().defs[w]; registered && !listed[w] {
					t.Errorf("%s: %s's description points to %s, which this tools/list lacks: %q", n, tl.Name, w, tl.Description)
				}
			}
		}
	}
}
