package files

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestWriteKeepsTheOverwriteRule: the one writer creates new files 0600,
// replaces only files it wrote (or with Overwrite), gives a made-up name
// a suffix instead of replacing, and writes none of a set when one fails.
func TestWriteKeepsTheOverwriteRule(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	r := New(Config{Artifacts: filepath.Join(dir, "art"), Extra: []string{dir}})
	theirs := filepath.Join(dir, "package.json")
	if err := os.WriteFile(theirs, []byte(`{"name":"app"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Write(ctx, Out{Field: "path", Path: theirs}, []byte("x")); errs.CodeOf(err) != errs.FileExists {
		t.Fatalf("replacing a file not ours: %v", err)
	}
	mine := filepath.Join(dir, "out.json")
	if _, err := r.WriteAll(ctx, []Out{{Path: mine}, {Path: theirs}}, [][]byte{[]byte("a"), []byte("b")}); errs.CodeOf(err) != errs.FileExists {
		t.Fatalf("a set with one file not ours: %v", err)
	}
	if _, err := os.Stat(mine); !os.IsNotExist(err) {
		t.Fatal("a set that failed its check wrote a file")
	}
	p, err := r.Write(ctx, Out{Path: mine}, []byte("one"))
	if err != nil || p != mine {
		t.Fatal(p, err)
	}
	if st, _ := os.Stat(mine); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
	if _, err := r.Write(ctx, Out{Path: mine}, []byte("two")); err != nil {
		t.Fatalf("replacing a file this server wrote: %v", err)
	}
	p, err = r.Write(ctx, Out{Path: theirs, Unique: true}, []byte("new"))
	if err != nil || p != filepath.Join(dir, "package-2.json") {
		t.Fatalf("a made-up name that is taken: %q %v", p, err)
	}
	if b, _ := os.ReadFile(theirs); !bytes.Equal(b, []byte(`{"name":"app"}`)) {
		t.Fatalf("package.json changed: %s", b)
	}
	if _, err := r.Write(ctx, Out{Path: theirs, Overwrite: true}, []byte("ok")); err != nil {
		t.Fatalf("overwrite:true: %v", err)
	}
	rel, err := r.Write(ctx, Out{Path: "rel.txt"}, []byte("r"))
	if err != nil || rel != filepath.Join(dir, "art", "rel.txt") {
		t.Fatalf("a relative path: %q %v", rel, err)
	}
	if _, err := r.Write(ctx, Out{Field: "out", Path: "/etc/passwd2"}, nil); errs.CodeOf(err) != errs.PathNotAllowed {
		t.Fatalf("outside the roots: %v", err)
	}
}

func TestMakeDir(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	r := New(Config{Extra: []string{dir}})
	d, err := r.MakeDir(ctx, "path", filepath.Join(dir, "t"), errs.Internal)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Mkdir("steps"); err != nil {
		t.Fatal(err)
	}
	if err := d.Write("steps/1.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := d.Write("../escape", nil); err == nil {
		t.Fatal("a name leaving the folder was written")
	}
	if _, err := r.MakeDir(ctx, "path", filepath.Join(dir, "t"), errs.Internal); errs.CodeOf(err) != errs.FileExists {
		t.Fatalf("an existing folder: %v", err)
	}
	if _, err := r.MakeDir(ctx, "path", "/etc/understudy-t", errs.Internal); errs.CodeOf(err) != errs.PathNotAllowed {
		t.Fatalf("outside the roots: %v", err)
	}
}
