package tool

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/tools.md from the registered tools")

// TestToolsDoc keeps docs/tools.md equal to what the registry says: every
// tool, its description and its parameters. Rewrite it with
// go test ./internal/tool -run TestToolsDoc -update-docs.
func TestToolsDoc(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	var b strings.Builder
	b.WriteString("# Tool reference\n\n")
	b.WriteString("Generated from the registered tools by `go test ./internal/tool -run TestToolsDoc -update-docs`;\n")
	b.WriteString("a test fails when this file and the code disagree. Every tool also takes `sessionId` (omit it\n")
	b.WriteString("when exactly one session is open). Eval tools exist only with `--allow-eval`.\n\n")
	b.WriteString(docsProfiles)
	b.WriteString(docsElements)
	b.WriteString(docsVerification)
	for _, name := range s.Names() {
		d := s.tools().defs[name]
		b.WriteString("## " + name + "\n\n" + docsCatalogLine(d.Def) + "\n\n" + d.Desc + "\n\n")
		if d.Short != "" {
			b.WriteString("*In tools/list:* " + d.Short + "\n\n")
		}
		var rows []string
		for pname, p := range d.schema().Properties {
			if pname == "sessionId" {
				continue
			}
			typ := p.Type
			if typ == "" && len(p.Types) > 0 {
				typ = strings.Join(p.Types, " or ")
			}
			rows = append(rows, "| `"+pname+"` | "+typ+" | "+strings.ReplaceAll(p.Description, "|", "\\|")+" |")
		}
		if len(rows) > 0 {
			sort.Strings(rows)
			b.WriteString("| parameter | type | meaning |\n|---|---|---|\n" + strings.Join(rows, "\n") + "\n\n")
		}
		b.WriteString(resultLine(d.result()) + "\n\n")
	}
	b.WriteString(fieldMeanings)
	path := filepath.Join("..", "..", "docs", "tools.md")
	if *updateDocs {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (write it with -update-docs)", err)
	}
	if string(have) != b.String() {
		t.Fatal("docs/tools.md is out of date: go test ./internal/tool -run TestToolsDoc -update-docs")
	}
}

// resultLine lists a tool's result fields (besides ok and _meta), in the
// result type's order: the ones always present, then the optional ones.
func resultLine(r *jsonschema.Schema) string {
	required := map[string]bool{}
	for _, n := range r.Required {
		required[n] = true
	}
	var always, optional []string
	for _, n := range r.PropertyOrder {
		f := "`" + n + "` " + schemaType(r.Properties[n])
		if required[n] {
			always = append(always, f)
		} else {
			optional = append(optional, f)
		}
	}
	line := "Result: " + strings.Join(always, ", ")
	if len(always) == 0 {
		line = "Result: no fields of its own"
	}
	if len(optional) > 0 {
		line += "; optional " + strings.Join(optional, ", ")
	}
	return line + "."
}

// schemaType names a field's JSON type tersely: null is left out (a
// field that may be null says so in its tool's description), an array
// names its items' type, a value of any type is "any".
func schemaType(s *jsonschema.Schema) string {
	var types []string
	for _, t := range append([]string{s.Type}, s.Types...) {
		if t != "" && t != "null" {
			types = append(types, t)
		}
	}
	if len(types) == 0 {
		return "any"
	}
	if len(types) == 1 && types[0] == "array" && s.Items != nil {
		return "array of " + schemaType(s.Items)
	}
	return strings.Join(types, " or ")
}

// docsElements is the part of docs/tools.md on naming elements: selectors,
// refs, web components, and which action failures come at once.
const docsElements = `## Naming elements

**Selectors** are CSS selectors evaluated in the active surface's document, and they pierce open
shadow roots in every tool (as Playwright's CSS selectors do): a descendant (` + "`a b`" + `) or child
(` + "`a > b`" + `) combinator steps from the top of a shadow tree to its host, so
` + "`sl-button#save button`" + ` matches the ` + "`<button>`" + ` inside the host's shadow root. ` + "`>>>`" + ` is accepted as
an explicit descendant combinator across shadow roots (` + "`#save >>> button`" + ` means the same). Sibling
combinators (` + "`+`, `~`" + `) and everything inside one compound selector (` + "`:has()`, `:is()`" + `…) stay within one
tree; closed shadow roots are never entered. When several elements match, those of the document
come first (document order), then those in shadow roots (outer roots first); a tool that takes one
element takes the first.

**Refs** come from electron_snapshot, electron_find, electron_elements_list and the answers of
waits; a ref names one element for as long as it lives, and any tool given it acts in the surface
that issued it (the active surface does not change; the answer's surface_id says where; a ref of a
surface that closed is ` + "`SURFACE_CLOSED`" + `). ` + "`electron_snapshot {surfaces:'all'}`" + ` shows the active
window's every surface in one text snapshot, each frame or webview guest under its iframe or
webview line, so a frame needs no electron_switch_surface. An element can come to show another item
while it lives (lists that recycle their rows as they scroll, like VS Code's list widget): every
action (click, hover, type, check, select, drag, scroll, key, …) compares the ref's element with
what you were last shown of it (role and name, by the last snapshot — ` + "`since:'last'`" + ` included —, find,
list or action result that reported it) and answers ` + "`REF_STALE`" + ` at once when it now shows another
role or name; details.was and details.now say both. Pass ` + "`allowChanged: true`" + ` to act on the element
as it is now: the result's ` + "`ref_changed`" + ` [{ref, was, now}] reports the change, as it does when an
action itself renamed what it acted on (a toggle), and from then on that is what you have seen.
Reads (get_text, get_state, …) read the element as it is and do not check.

**Web components.** A click or hover on a component's host, its inner control, its shadow tree
or the text it slots in counts as reaching it (the hit test and the click receipt follow the
composed tree). Text actions on a host (` + "`electron_type`" + ` on ` + "`sl-input`" + `) go to its inner text field, a
focus to its inner control when the host takes none; ` + "`electron_check`" + `, electron_get_state and
electron_expect_state read a host's own properties (` + "`checked`, `disabled`" + ` …) where it has them, else
its inner control's states. A host that cannot take the action is refused with its inner
control's selector in the message.

**When an action fails at once.** Actions wait (timeoutMs) for what the page can still change:
an element that is missing, hidden (display:none up the tree, zero size, outside the viewport),
moving, disabled, read-only or covered. They fail at once when waiting cannot help: the ref's
element is gone (` + "`REF_NOT_FOUND`" + `) or shows another item (` + "`REF_STALE`" + `), the selector is malformed or the
element cannot take the action at all (` + "`BAD_ARGUMENT`" + `, e.g. typing into a button). A stale ref's
` + "`similar_refs`" + ` are only elements that show the role and name you saw. With no timeoutMs given, a selector
that matches nothing fails once the page has been quiet for 1 s (no DOM change, document loaded;
` + "`details.quiet_ms`" + `), not at the 5 s default; a timeoutMs you give is waited in full, for what the page
renders later with nothing changing meanwhile (` + "`TestSelectorMissOnAQuietPage`" + `).

**When the page navigates under a read.** A snapshot, find, list or element read that a navigation
or reload cuts off (the document went) is read again in the new document, up to five documents with
pauses of 20, 40, 60 and 80 ms, on a surface that is its own DevTools target (a window, a webview
guest, a cross-site frame); a same-site frame's read is not repeated (its old document's context
cannot be resolved again from inside the call). What is still cut off answers ` + "`PAGE_NAVIGATING`" + `
(retryable): nothing was read; wait for the page you expect (` + "`electron_wait_for_selector`" + `) and call
again. A frame that was removed is ` + "`SURFACE_CLOSED`" + `. Actions are never repeated this way: whether a
click landed before its document went is unknown, and the action's own check says what it observed
(` + "`TestReadsSurviveNavigation`" + `, ` + "`TestReadOnAStaleContextIsPageNavigating`" + `).

`

// docsCatalogLine is a tool's line from the catalog: title, where it is
// enabled (profiles or group) and its MCP annotations.
func docsCatalogLine(d Def) string {
	a := d.annotations()
	where := "group `" + d.Group + "` (`--with " + d.Group + "`)"
	if d.Group == "" {
		var ps []string
		for _, p := range Profiles {
			if d.inProfile(p) {
				ps = append(ps, p)
			}
		}
		where = "profiles: " + strings.Join(ps, ", ")
	}
	var hints []string
	if a.ReadOnlyHint {
		hints = append(hints, "read-only")
	} else {
		if a.DestructiveHint != nil && *a.DestructiveHint {
			hints = append(hints, "destructive")
		}
		if a.IdempotentHint {
			hints = append(hints, "idempotent")
		}
	}
	if a.OpenWorldHint != nil && *a.OpenWorldHint {
		hints = append(hints, "open world")
	}
	if len(hints) == 0 {
		hints = append(hints, "changes state")
	}
	return "*" + d.Title + "* · " + where + " · " + strings.Join(hints, ", ")
}

// docsProfiles is the part of docs/tools.md on profiles, groups and what
// tools/list leaves to this file.
const docsProfiles = `## Profiles, groups and what tools/list carries

Each tool's line below gives its title, the core profiles (` + "`--tool-profile essential|testing|debug|full`" + `,
default full) or the capability group (` + "`--with NAME`" + `, also ` + "`--plugin NAME`" + `) that offers it, and its MCP
annotations. A tool that exists but is not offered answers ` + "`TOOL_NOT_ENABLED`" + ` naming the flag that
enables it; electron_plugins lists the profiles and groups (docs/adr/022).

tools/list carries less than this file, because every host puts it into the model's context
(docs/adr/030): a tool's short description (shown below as *In tools/list*, when it has one;
else the full description), every parameter with a short description (sessionId is left out: the
server's instructions say once that every tool takes it, and describe ref, selector, allowChanged
and the actionability timeoutMs in more words), and no outputSchema (the result fields are listed under each tool here, and
` + "`internal/tool/schemas/out/`" + ` holds each result's full JSON Schema). This file has every word.

`
