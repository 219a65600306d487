package files

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// CheckImagePath refuses, as BAD_ARGUMENT, paths an image cannot
// honestly be written to: a NUL byte, anything under the kernel's pseudo
// file systems (/proc, /sys, /dev: /proc/self/mem is no image file), a path
// that is a folder, and an existing file that is not a regular file. field
// "path" names a file; any other field a folder for a new file. The roots
// are checked after it (Roots.CheckWrite, Roots.CheckDir).
func CheckImagePath(field, p string) error {
	if p == "" {
		return nil
	}
	if strings.ContainsRune(p, 0) {
		return errs.BadArg(field, "contains a NUL byte")
	}
	real := filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	} else if r, err := filepath.EvalSymlinks(filepath.Dir(real)); err == nil {
		real = filepath.Join(r, filepath.Base(real))
	}
	for _, pseudo := range []string{"/proc", "/sys", "/dev"} {
		if real == pseudo || strings.HasPrefix(real, pseudo+"/") {
			return errs.BadArg(field, "%s is in %s, not a place for image files", errs.Quote(p), pseudo)
		}
	}
	if field != "path" {
		return nil
	}
	st, err := os.Stat(real)
	switch {
	case err != nil:
		return nil // a new file; its folder is checked against the roots
	case st.IsDir():
		return errs.BadArg(field, "%s is a folder; pass dir for a new file in it, or a file path", errs.Quote(p))
	case !st.Mode().IsRegular():
		return errs.BadArg(field, "%s exists and is not a regular file", errs.Quote(p))
	}
	return nil
}
