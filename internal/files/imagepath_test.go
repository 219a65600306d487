package files

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestCheckImagePath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "shot.png")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		field, path string
		bad         bool
	}{
		{"path", "", false},
		{"path", file, false},
		{"path", filepath.Join(dir, "new.png"), false},
		{"path", dir, true},              // a folder
		{"path", "/proc/self/mem", true}, // a pseudo file system
		{"dir", "/dev", true},
		{"dir", dir, false},
		{"path", "a\x00b", true},
	} {
		err := CheckImagePath(c.field, c.path)
		if (err != nil) != c.bad || (err != nil && errs.CodeOf(err) != errs.BadArgument) {
			t.Errorf("CheckImagePath(%q, %q) = %v, want bad=%v", c.field, c.path, err, c.bad)
		}
	}
}
