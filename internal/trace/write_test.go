package trace

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
)

// TestWritesGoThroughTheRoots: the report, the Playwright test and the
// spec land where asked under the roots, and a path outside them is
// refused with nothing written.
func TestWritesGoThroughTheRoots(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "t")
	r, err := startIn(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Add(step(r, "electron_click", `{"ref":3}`, true, 7), nil)
	if _, err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, roots := context.Background(), files.New(files.Config{Artifacts: root})
	v, err := tr.WriteView(ctx, roots, &ViewArgs{Path: dir, HTML: true}, time.Now())
	if err != nil || v.HTMLPath != filepath.Join(dir, "report.html") || v.HTMLBytes == 0 {
		t.Fatalf("view %+v %v", v, err)
	}
	ex, err := tr.WriteExport(ctx, roots, &ExportArgs{Path: dir, Out: filepath.Join(root, "flow.spec.ts")}, nil)
	if err != nil || ex == nil {
		t.Fatalf("export %+v %v", ex, err)
	}
	sp, err := tr.WriteSpec(ctx, roots, &PromoteArgs{Path: dir}, func(string) bool { return false })
	if err != nil || sp == nil {
		t.Fatalf("promote %+v %v", sp, err)
	}
	for _, f := range []string{"report.html", "replay.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	outside := filepath.Join(t.TempDir(), "x.spec.ts")
	if _, err := tr.WriteExport(ctx, roots, &ExportArgs{Path: dir, Out: outside}, nil); errs.CodeOf(err) != errs.PathNotAllowed {
		t.Fatalf("outside the roots: %v", err)
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Fatalf("written outside the roots: %v", err)
	}
}

// TestOpenerChecksTheFolderFirst: the parent is checked when asked, the
// folder made only when the recording opens.
func TestOpenerChecksTheFolderFirst(t *testing.T) {
	root := t.TempDir()
	ctx, roots := context.Background(), files.New(files.Config{Artifacts: root})
	if _, err := (&StartArgs{Path: filepath.Join(t.TempDir(), "t")}).Opener(ctx, roots, time.Now(), "v"); errs.CodeOf(err) != errs.PathNotAllowed {
		t.Fatalf("outside the roots: %v", err)
	}
	open, err := (&StartArgs{Path: "mine"}).Opener(ctx, roots, time.Now(), "v")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "mine")); !os.IsNotExist(err) {
		t.Fatalf("made before open: %v", err)
	}
	rec, err := open()
	if err != nil || rec.Dir() != filepath.Join(root, "mine") {
		t.Fatalf("open: %v", err)
	}
	if _, err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := LiveTokens(nil); errs.CodeOf(err) != errs.TraceNotRecording {
		t.Fatalf("tokens of no recording: %v", err)
	}
}
