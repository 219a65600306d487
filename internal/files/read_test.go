package files

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestStatFilesLimits: the files a page is given are refused files over their size
// limit and anything that is not a regular file, naming the path's index.
func TestStatFilesLimits(t *testing.T) {
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small"), filepath.Join(dir, "big")
	if err := os.WriteFile(small, []byte("abc"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, 11), 0o600); err != nil {
		t.Fatal(err)
	}
	if sizes, err := StatFiles("paths", []string{small}, 10); err != nil || len(sizes) != 1 || sizes[0] != 3 {
		t.Fatalf("a small file: %v %v", sizes, err)
	}
	for _, tc := range []struct {
		paths []string
		field string
	}{
		{[]string{small, big}, "paths[1]"},
		{[]string{dir}, "paths[0]"},
	} {
		_, err := StatFiles("paths", tc.paths, 10)
		if e := errs.As(err); e == nil || e.Code != errs.BadArgument || e.Details["field"] != tc.field {
			t.Fatalf("%v: %v", tc.paths, err)
		}
	}
	if _, err := StatFiles("paths", []string{filepath.Join(dir, "none")}, 10); errs.CodeOf(err) != errs.FileNotFound {
		t.Fatalf("a missing file: %v", err)
	}
}

// TestForInputAndDrop: files handed to a page are checked against the
// roots first (a path outside them names its index), then sized or read.
func TestForInputAndDrop(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	in, out := filepath.Join(root, "a.txt"), filepath.Join(outside, "b.txt")
	for _, p := range []string{in, out} {
		if err := os.WriteFile(p, []byte("abc"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := New(Config{Artifacts: root})
	ctx := context.Background()
	if got, err := r.ForInput(ctx, []string{in}); err != nil || len(got) != 1 {
		t.Fatalf("ForInput: %v %v", got, err)
	}
	if l, err := r.ForDrop(ctx, []string{in}); err != nil || len(l) != 1 || l[0].Name != "a.txt" || string(l[0].Data) != "abc" {
		t.Fatalf("ForDrop: %+v %v", l, err)
	}
	for name, f := range map[string]func() error{
		"input": func() error { _, err := r.ForInput(ctx, []string{in, out}); return err },
		"drop":  func() error { _, err := r.ForDrop(ctx, []string{in, out}); return err },
	} {
		if e := errs.As(f()); e == nil || e.Code != errs.PathNotAllowed || e.Details["field"] != "paths[1]" {
			t.Errorf("%s outside the roots: %v", name, e)
		}
	}
}
