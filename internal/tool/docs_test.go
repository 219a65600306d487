package tool

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
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
	for _, name := range s.Names() {
		d := s.defs[name]
		b.WriteString("## " + name + "\n\n" + d.desc + "\n\n")
		var rows []string
		for pname, p := range d.schema.Properties {
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
