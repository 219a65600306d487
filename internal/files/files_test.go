package files

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// layout makes a root, a folder outside it, and a file in each.
func layout(t *testing.T) (root, outside, inFile, outFile string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	inFile, outFile = filepath.Join(root, "in.txt"), filepath.Join(outside, "out.txt")
	for _, f := range []string{inFile, outFile} {
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return
}

func wantCode(t *testing.T, err error, code errs.Code) {
	t.Helper()
	if got := errs.CodeOf(err); err == nil || got != code {
		t.Fatalf("want %s, got %v", code, err)
	}
}

func TestCheckReadRoots(t *testing.T) {
	root, outside, inFile, outFile := layout(t)
	art := filepath.Join(t.TempDir(), "art")
	r := New(Config{Extra: []string{root}, Artifacts: art})
	ctx := context.Background()
	if got, err := r.CheckRead(ctx, "paths[0]", inFile); err != nil || got != mustReal(t, inFile) {
		t.Fatalf("inside: %q %v", got, err)
	}
	_, err := r.CheckRead(ctx, "paths[0]", outFile)
	wantCode(t, err, errs.PathNotAllowed)
	if e := errs.As(err); e.Details["field"] != "paths[0]" || !strings.Contains(e.Message, root) {
		t.Fatalf("the refusal names neither the field nor the roots: %v %v", e.Message, e.Details)
	}
	// ".." does not climb out.
	_, err = r.CheckRead(ctx, "p", filepath.Join(root, "..", "outside", "out.txt"))
	wantCode(t, err, errs.PathNotAllowed)
	// A file that does not exist outside the roots is refused as outside, not
	// reported missing (no probing of other folders).
	_, err = r.CheckRead(ctx, "p", filepath.Join(outside, "nope"))
	wantCode(t, err, errs.PathNotAllowed)
	_, err = r.CheckRead(ctx, "p", filepath.Join(root, "nope"))
	wantCode(t, err, errs.FileNotFound)
	_, err = r.CheckRead(ctx, "p", "in.txt")
	wantCode(t, err, errs.AbsolutePathRequired)
	for _, bad := range []string{"", inFile + "\x00", root, "/proc/self/mem", "/etc/shadow"} {
		_, err := r.CheckRead(ctx, "p", bad)
		want := errs.BadArgument
		if bad == "/etc/shadow" {
			want = errs.PathNotAllowed
		}
		wantCode(t, err, want)
	}
	// The working directory and the app root are roots too.
	if _, err := New(Config{WorkDir: outside}).CheckRead(ctx, "p", outFile); err != nil {
		t.Fatalf("workdir root: %v", err)
	}
	if _, err := New(Config{AppRoot: outside}).CheckRead(ctx, "p", outFile); err != nil {
		t.Fatalf("app root: %v", err)
	}
}

func TestSymlinkEscape(t *testing.T) {
	root, outside, _, outFile := layout(t)
	r := New(Config{Extra: []string{root}})
	ctx := context.Background()
	// A link to a file outside, a link to a folder outside, and a new file
	// written through the folder link: all refused.
	if err := os.Symlink(outFile, filepath.Join(root, "file-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "dir-link")); err != nil {
		t.Fatal(err)
	}
	_, err := r.CheckRead(ctx, "p", filepath.Join(root, "file-link"))
	wantCode(t, err, errs.PathNotAllowed)
	_, err = r.CheckRead(ctx, "p", filepath.Join(root, "dir-link", "out.txt"))
	wantCode(t, err, errs.PathNotAllowed)
	_, err = r.CheckWrite(ctx, "path", filepath.Join(root, "dir-link", "new.png"), false)
	wantCode(t, err, errs.PathNotAllowed)
	_, err = r.CheckWrite(ctx, "path", filepath.Join(root, "file-link"), true)
	wantCode(t, err, errs.PathNotAllowed)
	_, err = r.CheckDir(ctx, "dir", filepath.Join(root, "dir-link"))
	wantCode(t, err, errs.PathNotAllowed)
	// "link/.." is judged where it is written, and the caller uses that path.
	got, err := r.CheckWrite(ctx, "path", filepath.Join(root, "dir-link", "..", "x.png"), false)
	if err != nil || got != filepath.Join(root, "x.png") {
		t.Fatalf("link/..: %q %v", got, err)
	}
	// A dangling link cannot be judged.
	if err := os.Symlink(filepath.Join(outside, "missing"), filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	_, err = r.CheckWrite(ctx, "path", filepath.Join(root, "dangling"), true)
	wantCode(t, err, errs.BadArgument)
	// A link inside the root to a file inside it is fine.
	if err := os.Symlink(filepath.Join(root, "in.txt"), filepath.Join(root, "good-link")); err != nil {
		t.Fatal(err)
	}
	if got, err := r.CheckRead(ctx, "p", filepath.Join(root, "good-link")); err != nil || got != mustReal(t, filepath.Join(root, "in.txt")) {
		t.Fatalf("inner link: %q %v", got, err)
	}
	// A root that is itself reached through a link still holds its files.
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(root, alias); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{Extra: []string{alias}}).CheckRead(ctx, "p", filepath.Join(root, "in.txt")); err != nil {
		t.Fatalf("root through a link: %v", err)
	}
}

func TestCheckWriteOverwriteAndRelative(t *testing.T) {
	root, outside, inFile, outFile := layout(t)
	art := filepath.Join(t.TempDir(), "cache", "artifacts")
	r := New(Config{Extra: []string{root}, Artifacts: art})
	ctx := context.Background()

	// Someone else's file is not replaced without overwrite.
	_, err := r.CheckWrite(ctx, "path", inFile, false)
	wantCode(t, err, errs.FileExists)
	if got, err := r.CheckWrite(ctx, "path", inFile, true); err != nil || got != inFile {
		t.Fatalf("overwrite:true: %q %v", got, err)
	}
	// A file this server wrote may be written again.
	mine := filepath.Join(root, "mine.png")
	if _, err := r.CheckWrite(ctx, "path", mine, false); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("png"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Wrote(mine)
	if _, err := r.CheckWrite(ctx, "path", mine, false); err != nil {
		t.Fatalf("own file: %v", err)
	}
	// Outside the roots even overwrite does not help.
	_, err = r.CheckWrite(ctx, "path", outFile, true)
	wantCode(t, err, errs.PathNotAllowed)
	_, err = r.CheckWrite(ctx, "path", filepath.Join(root, "no-such-dir", "a.png"), false)
	wantCode(t, err, errs.FileNotFound)
	for _, bad := range []string{root, "/proc/self/mem", "a\x00b.png"} {
		_, err := r.CheckWrite(ctx, "path", bad, true)
		wantCode(t, err, errs.BadArgument)
	}

	// A relative path lands in the artifacts folder, made 0700 on demand.
	got, err := r.CheckWrite(ctx, "path", "shots/../a.png", false)
	if err != nil || got != filepath.Join(art, "a.png") {
		t.Fatalf("relative: %q %v", got, err)
	}
	if st, err := os.Stat(art); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("artifacts folder: %v %v", st, err)
	}
	// ...and cannot climb out of it.
	_, err = r.CheckWrite(ctx, "path", "../escape.png", false)
	wantCode(t, err, errs.PathNotAllowed)
	if d, err := r.CheckDir(ctx, "dir", ""); err != nil || d != art {
		t.Fatalf("default dir: %q %v", d, err)
	}
	_ = outside
}

func TestAllowAny(t *testing.T) {
	_, outside, _, outFile := layout(t)
	r := New(Config{AllowAny: true})
	ctx := context.Background()
	if _, err := r.CheckRead(ctx, "p", outFile); err != nil {
		t.Fatalf("read: %v", err)
	}
	if _, err := r.CheckWrite(ctx, "path", filepath.Join(outside, "new.png"), false); err != nil {
		t.Fatalf("write: %v", err)
	}
	// The overwrite rule and the kernel file systems still hold.
	_, err := r.CheckWrite(ctx, "path", outFile, false)
	wantCode(t, err, errs.FileExists)
	_, err = r.CheckRead(ctx, "p", "/proc/self/environ")
	wantCode(t, err, errs.BadArgument)
	if err := r.CheckURL(ctx, "url", "file:///etc/passwd"); err != nil {
		t.Fatalf("url: %v", err)
	}
}

type fakeClient []string

func (f fakeClient) Roots(context.Context) ([]string, error) { return f, nil }

type failingClient struct{}

func (failingClient) Roots(context.Context) ([]string, error) { return nil, errors.New("no answer") }

func TestClientRoots(t *testing.T) {
	_, outside, _, outFile := layout(t)
	r := New(Config{})
	_, err := r.CheckRead(context.Background(), "p", outFile)
	wantCode(t, err, errs.PathNotAllowed)
	ctx := WithClient(context.Background(), fakeClient{outside, "relative/ignored"})
	if _, err := r.CheckRead(ctx, "p", outFile); err != nil {
		t.Fatalf("client root: %v", err)
	}
	if l := r.List(ctx); len(l) != 1 || l[0].Source != "client" {
		t.Fatalf("roots: %v", l)
	}
	_, err = r.CheckRead(WithClient(context.Background(), failingClient{}), "p", outFile)
	wantCode(t, err, errs.PathNotAllowed)
}

func TestCheckURL(t *testing.T) {
	root, _, _, _ := layout(t)
	r := New(Config{Extra: []string{root}})
	ctx := context.Background()
	for _, ok := range []string{"https://example.com/", "about:blank", "data:text/html,hi", "file://" + root + "/in.txt", "FILE://localhost" + root + "/", "file://" + root} {
		if err := r.CheckURL(ctx, "url", ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"file:///etc/passwd", "FILE:///etc/passwd", " file:///etc/passwd", "view-source:file:///etc/passwd",
		"file:/etc/passwd", "file:\\\\\\etc\\passwd", "file:///%65tc/passwd", "file://" + root + "/../../../etc/passwd", "fi\tle:///etc/passwd"} {
		wantCode(t, r.CheckURL(ctx, "url", bad), errs.PathNotAllowed)
	}
	wantCode(t, r.CheckURL(ctx, "url", "file://fileserver/share/x"), errs.BadArgument)
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestOutFile: a path is checked for writing as given, a folder gets the
// new name, neither is the artifacts folder; each names its field.
func TestOutFile(t *testing.T) {
	art := t.TempDir()
	r := New(Config{Artifacts: art})
	ctx := context.Background()
	if f, gen, err := r.OutFile(ctx, "a.png", "", false, "new.png"); err != nil || gen || f != filepath.Join(art, "a.png") {
		t.Fatalf("path: %s %v %v", f, gen, err)
	}
	if f, gen, err := r.OutFile(ctx, "", "", false, "new.png"); err != nil || !gen || f != filepath.Join(art, "new.png") {
		t.Fatalf("artifacts: %s %v %v", f, gen, err)
	}
	out := t.TempDir()
	if _, _, err := r.OutFile(ctx, "", out, false, "new.png"); errs.As(err) == nil || errs.As(err).Details["field"] != "dir" {
		t.Fatalf("dir outside the roots: %v", err)
	}
	if _, _, err := r.OutFile(ctx, filepath.Join(out, "x.png"), "", false, "new.png"); errs.As(err) == nil || errs.As(err).Details["field"] != "path" {
		t.Fatalf("path outside the roots: %v", err)
	}
}
