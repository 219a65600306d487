package errs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestEveryCodeHasAHint(t *testing.T) {
	for _, c := range Codes() {
		e, _ := Lookup(c)
		if e.Hint == "" || e.HTTP < 400 || e.Code != c {
			t.Errorf("%s: bad entry %+v", c, e)
		}
	}
}

func TestIsAndAs(t *testing.T) {
	err := fmt.Errorf("outer: %w", New(SurfaceClosed, "gone"))
	if !errors.Is(err, Kind(SurfaceClosed)) {
		t.Fatal("errors.Is by kind failed")
	}
	if errors.Is(err, Kind(SurfaceNotFound)) {
		t.Fatal("errors.Is matched another code")
	}
	if CodeOf(err) != SurfaceClosed || CodeOf(errors.New("x")) != Internal {
		t.Fatal("CodeOf")
	}
}

func TestNewPanicsOnUnknownCode(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	New(Code("NOPE"), "x")
}

// TestNoUnregisteredCodes scans the module's Go files for code-like string
// literals used as error codes and fails on any that the registry lacks.
func TestNoUnregisteredCodes(t *testing.T) {
	root := filepath.Join("..", "..")
	// errs.Code("X") conversions and "code":"X" fields in Go and JS sources.
	pats := []*regexp.Regexp{
		regexp.MustCompile(`errs\.Code\("([A-Z_]+)"\)`),
		regexp.MustCompile(`"code"\s*:\s*"([A-Z][A-Z_]+)"`),
		regexp.MustCompile(`code:\s*'([A-Z][A-Z_]+)'`),
		regexp.MustCompile(`\bcode:\s*"([A-Z][A-Z_]+)"`),
	}
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".js")) || strings.HasSuffix(path, "errs_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, p := range pats {
			for _, m := range p.FindAllStringSubmatch(string(b), -1) {
				n++
				if _, ok := Lookup(Code(m[1])); !ok {
					t.Errorf("%s uses unregistered code %q", path, m[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("checked %d code uses", n)
}
