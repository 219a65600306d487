package files

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// writeCalls are the os functions that create, replace, move or open files
// and folders for writing.
var writeCalls = map[string]bool{
	"WriteFile": true, "Create": true, "CreateTemp": true, "OpenFile": true, "Rename": true,
	"Link": true, "Symlink": true, "Mkdir": true, "MkdirAll": true, "MkdirTemp": true, "Truncate": true,
}

// notTheWriter lists the places outside internal/files that may still
// write, each for a reason that is not a tool's output.
var notTheWriter = map[string]string{
	"internal/browser/launch.go": "a launched browser's temporary profile folder (user-data-dir), removed on stop",
	"internal/relay/owned.go":    "the relay's downloads folder for its CDP clients (docs/adr/035)",
	"cmd/understudy/main.go":     "the operator's --log-file",
	"cmd/understudy/relay.go":    "the operator's --log-file",
	"internal/grid/gridtest":     "a test helper",
	"internal/production/oracle": "builds test artifacts with npm",
	"internal/fixture":           "test fixtures",
	"internal/target/targettest": "a test helper",
	"internal/page/pagetest":     "a test helper",
}

// TestOneWriter fails when non-test code outside internal/files writes
// files itself instead of through the one writer (Roots.Write, WriteAll,
// MakeDir's Dir, SubDir, PrivateFile).
func TestOneWriter(t *testing.T) {
	root := filepath.Join("..", "..")
	var bad []string
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel == "internal/files" || strings.HasSuffix(rel, "/testdata") || strings.HasSuffix(rel, "/node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			for allowed := range notTheWriter {
				if rel == allowed || strings.HasPrefix(rel, allowed+"/") {
					return nil
				}
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			osName := ""
			for _, im := range f.Imports {
				if im.Path.Value == `"os"` {
					osName = "os"
					if im.Name != nil {
						osName = im.Name.Name
					}
				}
			}
			if osName == "" {
				return nil
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == osName && writeCalls[sel.Sel.Name] {
					bad = append(bad, rel+": os."+sel.Sel.Name)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Fatalf("files written outside the one writer (use files.Roots.Write/WriteAll/MakeDir/SubDir or files.PrivateFile, or add the file to notTheWriter with its reason):\n%s", strings.Join(bad, "\n"))
	}
}
