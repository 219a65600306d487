package tool

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// stillTalksCDP is the known, shrinking allowlist of files that still
// import the protocol: empty now that every file is on the domain layer.
// Never add one.
var stillTalksCDP = map[string]bool{}

// TestToolTalksNoCDP keeps internal/tool above the typed domain layer
// (docs/adr/016-typed-domain-layer-under-the-tools.md): no non-test file of
// the package may import internal/cdp or a cdproto package. Protocol work
// belongs in the domain packages (page, input, surface, session, capture,
// nav, ...), which tool calls.
func TestToolTalksNoCDP(t *testing.T) {
	checked := 0
	for f, src := range nonTestSources(t) {
		parsed, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		checked++
		talks := false
		for _, imp := range parsed.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			talks = talks || forbiddenInTool(path)
			if forbiddenInTool(path) && !stillTalksCDP[f] {
				t.Errorf("%s imports %s: internal/tool must not talk CDP; put the protocol work in a typed API of a domain package and call that", f, path)
			}
		}
		if stillTalksCDP[f] && !talks {
			t.Errorf("%s no longer imports the protocol: drop it from stillTalksCDP", f)
		}
	}
	for f := range stillTalksCDP {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("allowlisted %s: %v; drop it from stillTalksCDP", f, err)
		}
	}
	if checked == 0 {
		t.Fatal("no .go files found: the test ran outside internal/tool")
	}
}

func forbiddenInTool(path string) bool {
	return path == "github.com/understudy-dev/understudy/internal/cdp" ||
		strings.HasPrefix(path, "github.com/understudy-dev/understudy/internal/cdp/") ||
		path == "github.com/chromedp/cdproto" ||
		strings.HasPrefix(path, "github.com/chromedp/cdproto/")
}

func TestForbiddenInTool(t *testing.T) {
	for path, want := range map[string]bool{
		"github.com/understudy-dev/understudy/internal/cdp":  true,
		"github.com/chromedp/cdproto/cdp":                    true,
		"github.com/chromedp/cdproto/input":                  true,
		"github.com/chromedp/cdproto/cdp/jsonv2":             true,
		"github.com/understudy-dev/understudy/internal/page": false,
		"github.com/chromedp/cdprotox":                       false,
		"github.com/understudy-dev/understudy/internal/cdpx": false,
	} {
		if got := forbiddenInTool(path); got != want {
			t.Errorf("forbiddenInTool(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestHouseMapNamesEveryPackage keeps CONTRIBUTING.md's house map whole:
// every package under internal/ with non-test code has a row, except the
// test fixtures it names as such (internal/fixture/..., *test packages,
// internal/production/oracle).
func TestHouseMapNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..")
	var missing []string
	err = filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "internal/fixture") || strings.HasSuffix(rel, "test") || rel == "internal/production/oracle" ||
			strings.Contains(rel, "/node_modules") || strings.HasSuffix(rel, "/testdata") {
			return nil
		}
		code, _ := filepath.Glob(filepath.Join(path, "*.go"))
		code = slices.DeleteFunc(code, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
		if len(code) > 0 && !strings.Contains(string(doc), "`"+rel+"`") {
			missing = append(missing, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Fatalf("CONTRIBUTING.md's house map has no row for %v: add one (layer, what it does, what it may import)", missing)
	}
}

// TestHouseMapImports holds every package of the house map to its "May
// import" column: the packages it names in backquotes, "base" (errs,
// urlpolicy, leakcheck, secret, svc), "protocol" (cdp and cdproto), "domain" (every
// domain row) and "cdproto" (chromedp's protocol types). Imports outside this module
// other than cdproto are not judged.
func TestHouseMapImports(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	const mod = "github.com/understudy-dev/understudy/"
	type row struct{ layer, pkg, may string }
	var rows []row
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 6 || !strings.HasPrefix(strings.TrimSpace(cells[2]), "`internal/") {
			continue
		}
		for _, p := range strings.Split(strings.TrimSpace(cells[2]), ",") {
			rows = append(rows, row{strings.TrimSpace(cells[1]), strings.Trim(strings.TrimSpace(p), "`"), cells[4]})
		}
	}
	var domain []string
	for _, r := range rows {
		if r.layer == "domain" {
			domain = append(domain, r.pkg)
		}
	}
	base := []string{"internal/errs", "internal/urlpolicy", "internal/leakcheck", "internal/secret", "internal/svc"}
	checked := 0
	for _, r := range rows {
		allowed := map[string]bool{}
		cdproto := strings.Contains(r.may, "cdproto") && !strings.Contains(r.may, "**never** `cdp` or cdproto")
		for i, code := range strings.Split(r.may, "`") {
			if i%2 == 1 { // between backquotes
				allowed["internal/"+code] = true
			}
		}
		if strings.Contains(r.may, "base") || r.layer != "base" {
			for _, b := range base {
				allowed[b] = true
			}
		}
		if strings.Contains(r.may, "protocol") {
			allowed["internal/cdp"] = true
			cdproto = true
		}
		if strings.Contains(r.may, "domain") {
			for _, d := range domain {
				allowed[d] = true
			}
		}
		if r.pkg == "internal/tool" {
			delete(allowed, "internal/cdp")
		}
		files, _ := filepath.Glob(filepath.Join("..", "..", r.pkg, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range parsed.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				switch {
				case strings.HasPrefix(path, "github.com/chromedp/cdproto"):
					if !cdproto {
						t.Errorf("%s imports %s; the house map does not allow cdproto there", f, path)
					}
				case strings.HasPrefix(path, mod):
					p := strings.TrimPrefix(path, mod)
					if p != r.pkg && !allowed[p] {
						t.Errorf("%s imports %s; the house map allows %s", f, p, strings.TrimSpace(r.may))
					}
				}
			}
			checked++
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d files: the house map was not read", checked)
	}
}

// nonTestSources reads the package's non-test Go files, by name.
func nonTestSources(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = src
	}
	if len(out) == 0 {
		t.Fatal("no .go files found: the test ran outside internal/tool")
	}
	return out
}
