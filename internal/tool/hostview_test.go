package tool

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// hostDescLimit is the longest full description a core tool may carry in
// tools/list as it is; a longer one needs a short one (Def.Short)
// (docs/adr/030), so a new tool does not grow the manifest unseen.
const hostDescLimit = 300

// TestHostDescriptions checks the short descriptions of tools/list
// against the full ones: every entry names a registered tool and is
// shorter; one whose full description says what the tool verifies says
// it too; every error code it names is registered; and every core tool
// with a long description has a short one.
func TestHostDescriptions(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	defer s.Close()
	code := regexp.MustCompile(`\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b`)
	for _, name := range s.Names() {
		d := s.tools().defs[name]
		short := d.Short
		if short == "" {
			continue
		}
		if len(short) >= len(d.Desc) {
			t.Errorf("%s: the short description (%d bytes) is not shorter than the full one (%d)", name, len(short), len(d.Desc))
		}
		if strings.Contains(strings.ToLower(d.Desc), "verif") && !strings.Contains(strings.ToLower(short), "verif") {
			t.Errorf("%s: the full description says what the tool verifies; the short one must too: %q", name, short)
		}
		for _, c := range code.FindAllString(short, -1) {
			if _, ok := errs.Lookup(errs.Code(c)); !ok && !strings.HasPrefix(c, "ELECTRON_") && !strings.HasPrefix(c, "NODE_") {
				t.Errorf("%s: the short description names %s, which is not a registered error code", name, c)
			}
		}
	}
	for _, name := range s.Names() {
		d := s.tools().defs[name]
		if d.Group != "" {
			continue
		}
		if d.Short == "" && len(d.Desc) > hostDescLimit {
			t.Errorf("%s: its description is %d bytes; give tools/list a short one (Def.Short), the full one stays in docs/tools.md", name, len(d.Desc))
		}
	}
}

// TestHostInputSchema: tools/list's input schema drops sessionId and
// additionalProperties:false, carries the shared prose in its short form
// (every parameter keeps a description, issue 26), keeps every other
// parameter with its type, and leaves "null" out of a type list.
func TestHostInputSchema(t *testing.T) {
	raw := []byte(`{"type":"object","additionalProperties":false,"properties":{` +
		`"sessionId":{"type":"string","description":"the session to act on; omit when exactly one is open"},` +
		`"ref":{"type":"integer","description":"a ref from electron_snapshot or electron_find of the active surface"},` +
		`"text":{"type":["null","string"],"description":"keep me"},` +
		`"pos":{"type":["null","object"],"additionalProperties":false,"properties":{"x":{"type":"number","description":"CSS pixels from the left edge"}}}}}`)
	got := string(hostInputSchema(raw))
	want := `{"properties":{"pos":{"properties":{"x":{"description":"CSS px","type":"number"}},"type":"object"},"ref":{"description":"snapshot ref","type":"integer"},"text":{"description":"keep me","type":"string"}},"type":"object"}`
	if got != want {
		t.Fatalf("host schema\n got %s\nwant %s", got, want)
	}
}

// TestOutputSchemasOnRequest: tools/list carries no outputSchema by default
// (docs/adr/030); with Config.OutputSchemas every typed tool carries its full
// result schema, the one every tool test validates results against.
func TestOutputSchemasOnRequest(t *testing.T) {
	for _, tl := range listTools(t, Config{}) {
		if tl.OutputSchema != nil {
			t.Fatalf("%s: an outputSchema without --output-schemas", tl.Name)
		}
	}
	s := New(Config{})
	defer s.Close()
	n := 0
	for _, tl := range listTools(t, Config{OutputSchemas: true}) {
		d := s.tools().defs[tl.Name]
		want := d.outputSchema()
		if want == nil {
			continue
		}
		got, err := json.Marshal(tl.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if json.Unmarshal(got, &a) != nil || json.Unmarshal(want, &b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: outputSchema is not the full result schema", tl.Name)
		}
		n++
	}
	if n < 50 {
		t.Fatalf("only %d tools carried an outputSchema with OutputSchemas", n)
	}
}

// TestHostParamsTable keeps the embedded table of short parameter words
// well formed, and its parser strict: a line without a tab, an empty side
// or a description listed twice is an error naming the line.
func TestHostParamsTable(t *testing.T) {
	m, err := parseHostParams(hostParamsTSV)
	if err != nil {
		t.Fatal(err)
	}
	if got := m["a CSS selector"]; got != "CSS selector" {
		t.Errorf(`"a CSS selector" is shortened to %q, want "CSS selector"`, got)
	}
	if got := m[`the text to type; \n presses Enter, \t Tab`]; got != `\n is Enter, \t Tab` {
		t.Errorf("a backslash sequence did not survive the table: %q", got)
	}
	for _, bad := range []string{"no tab here\n", "\tshort\n", "full\t\n", "a\tb\na\tc\n", "a\tb\tc\n"} {
		if _, err := parseHostParams(bad); err == nil || !strings.Contains(err.Error(), "hostparams.tsv:") {
			t.Errorf("parseHostParams(%q) = %v, want an error naming the line", bad, err)
		}
	}
}
