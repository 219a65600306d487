package a11y

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(""); errs.CodeOf(err) != errs.A11yEngineMissing {
		t.Fatalf("no path: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "axe.min.js")); errs.CodeOf(err) != errs.A11yEngineMissing {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := Load(dir); errs.CodeOf(err) != errs.A11yEngineMissing {
		t.Fatalf("a folder: %v", err)
	}
	other := filepath.Join(dir, "other.js")
	if err := os.WriteFile(other, []byte("console.log('not axe')"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(other); errs.CodeOf(err) != errs.A11yEngineMissing {
		t.Fatalf("not axe-core: %v", err)
	}
	fake := filepath.Join(dir, "axe.min.js")
	if err := os.WriteFile(fake, []byte("/*! axe v9.8.7 */ var axe={}; axe.run=function(){}; axe.getRules=function(){return []}"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Load(fake)
	if err != nil || e.Version != "9.8.7" {
		t.Fatalf("banner: %v %v", e, err)
	}
}

func TestOptionsCheck(t *testing.T) {
	bad := []Options{
		{Rules: []string{"image-alt"}, Tags: []string{"wcag2a"}},
		{Rules: []string{""}},
		{Impact: "huge"},
		{MaxViolations: MaxMaxViolations + 1},
		{MaxNodes: -1},
		{Include: []string{" "}},
	}
	for _, o := range bad {
		if err := o.Check(); errs.CodeOf(err) != errs.BadArgument {
			t.Errorf("%+v: %v", o, err)
		}
	}
	good := Options{Tags: []string{"wcag2aa"}, Include: []string{"main"}, Exclude: []string{".ad"}, Impact: "serious", MaxViolations: 10, MaxNodes: 3}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
}
