package files

import (
	"path/filepath"
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
)

// MaxPaths bounds the files one call gives the page.
const MaxPaths = 100

// PathList is the files a caller gives the page (a file input, a drop), as
// the caller gives them (docs/adr/045).
type PathList struct {
	Paths []string `json:"paths" jsonschema:"absolute paths of existing files"`
}

// Check refuses no list, more than MaxPaths and a path that is not
// absolute (ABSOLUTE_PATH_REQUIRED naming paths[i]). Whether each may be
// read is the Roots' CheckRead.
func (p *PathList) Check() error {
	if p.Paths == nil {
		return errs.BadArg("paths", "is required: absolute paths of files ([] to empty a file input)")
	}
	if len(p.Paths) > MaxPaths {
		return errs.BadArg("paths", "at most %d files, not %d", MaxPaths, len(p.Paths))
	}
	for i, path := range p.Paths {
		if !filepath.IsAbs(path) {
			return errs.New(errs.AbsolutePathRequired, "paths[%d]: %q is not an absolute path", i, path).With("field", "paths["+strconv.Itoa(i)+"]")
		}
	}
	return nil
}
