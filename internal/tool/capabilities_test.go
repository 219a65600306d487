package tool

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCapabilityClaimsNameRealTests: every capability that can be true
// names, in its comment, tests that exist in this repository.
func TestCapabilityClaimsNameRealTests(t *testing.T) {
	src, err := os.ReadFile("capabilities.go")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err = filepath.WalkDir(filepath.Join("..", ".."), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, "_test.go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
				tests[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	flag := regexp.MustCompile(`^\s*(\w+):\s*([^,]+),\s*(//.*)?$`) // Field: value, // tests
	named := regexp.MustCompile(`Test\w+`)
	claims := 0
	for _, line := range strings.Split(string(src), "\n") {
		m := flag.FindStringSubmatch(line)
		if m == nil || m[2] == "false" || strings.HasPrefix(m[2], `"`) || strings.HasPrefix(m[2], "evalPolicy") {
			continue
		}
		claims++
		names := named.FindAllString(m[3], -1)
		if len(names) == 0 {
			t.Errorf("capability %s can be true but names no test", m[1])
		}
		for _, n := range names {
			if !tests[n] {
				t.Errorf("capability %s names %s, which does not exist", m[1], n)
			}
		}
	}
	if claims < 10 {
		t.Fatalf("read only %d claims: the parser is wrong", claims)
	}
}
