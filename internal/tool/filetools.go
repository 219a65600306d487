package tool

import (
	"context"
	"mime"
	"os"
	"path/filepath"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
)

// electron_set_files and electron_drop_file, and the checks of the files
// they read.

type filesArgs struct {
	actArgs
	Paths []string `json:"paths" jsonschema:"absolute paths of existing files"`
}

func (a *filesArgs) validate() error {
	if a.Paths == nil {
		return errs.BadArg("paths", "is required: absolute paths of files ([] to empty a file input)")
	}
	if len(a.Paths) > maxFiles {
		return errs.BadArg("paths", "at most %d files, not %d", maxFiles, len(a.Paths))
	}
	for i, p := range a.Paths {
		if !filepath.IsAbs(p) {
			return errs.New(errs.AbsolutePathRequired, "paths[%d]: %q is not an absolute path", i, p).With("field", "paths["+itoa(i)+"]")
		}
	}
	return a.actArgs.validate()
}

// statFiles checks that every path names a regular file no larger than
// limit, and returns their sizes.
func statFiles(paths []string, limit int64) ([]int64, error) {
	sizes := make([]int64, len(paths))
	for i, p := range paths {
		field := "paths[" + itoa(i) + "]"
		st, err := os.Stat(p)
		if err != nil {
			if os.IsNotExist(err) {
				return nil, errs.New(errs.FileNotFound, "%s: %s does not exist", field, p).With("field", field)
			}
			return nil, errs.BadArg(field, "%v", err)
		}
		if !st.Mode().IsRegular() {
			return nil, errs.BadArg(field, "%s is not a regular file", p)
		}
		if st.Size() > limit {
			return nil, errs.BadArg(field, "%s has %d bytes; the limit is %d", p, st.Size(), limit)
		}
		sizes[i] = st.Size()
	}
	return sizes, nil
}

// setFilesResult is electron_set_files's result.
type setFilesResult struct {
	onSurface
	Files []page.FileInfo `json:"files" jsonschema:"the files the input holds now"`
	Count int             `json:"count"`
}

func setFiles(ctx context.Context, c *Call, a *filesArgs) (*setFilesResult, error) {
	paths, err := readablePaths(ctx, c, a.Paths)
	if err != nil {
		return nil, err
	}
	a.Paths = paths
	if _, err := statFiles(a.Paths, maxSetFileBytes); err != nil {
		return nil, err
	}
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	files, err := c.Session.Pages.SetFiles(ctx, f, a.locator(), a.Paths, a.timeout())
	if err != nil {
		return nil, err
	}
	return &setFilesResult{onSurface: surfaceOf(res), Files: files, Count: len(files)}, nil
}

// dropResult is electron_drop_file's result.
type dropResult struct {
	onSurface
	Dropped          bool `json:"dropped"`
	DefaultPrevented bool `json:"default_prevented" jsonschema:"the page's drop handler handled the files itself"`
	Count            int  `json:"count" jsonschema:"how many files were dropped"`
}

func dropFile(ctx context.Context, c *Call, a *filesArgs) (*dropResult, error) {
	if len(a.Paths) == 0 {
		return nil, errs.BadArg("paths", "name at least one file to drop")
	}
	paths, err := readablePaths(ctx, c, a.Paths)
	if err != nil {
		return nil, err
	}
	a.Paths = paths
	sizes, err := statFiles(a.Paths, maxDropFileBytes)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, n := range sizes {
		total += n
	}
	if total > maxDropTotalBytes {
		return nil, errs.BadArg("paths", "the files have %d bytes together; the limit of a drop is %d", total, maxDropTotalBytes)
	}
	files := make([]page.DropFile, len(a.Paths))
	for i, p := range a.Paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, errs.BadArg("paths["+itoa(i)+"]", "%v", err)
		}
		var mod time.Time
		if st, err := os.Stat(p); err == nil {
			mod = st.ModTime()
		}
		files[i] = page.DropFile{Name: filepath.Base(p), Type: mime.TypeByExtension(filepath.Ext(p)), Data: b, Modified: mod}
	}
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	d, err := c.Session.Pages.DropFiles(ctx, f, a.locator(), files, a.timeout())
	if err != nil {
		return nil, err
	}
	if !d.Accepted {
		e := errs.New(errs.TypeNoEffect, "the element did not accept the drop (its dragover was not cancelled), so nothing was dropped")
		e.Hint = "The page takes no drops there. Target its drop zone (the element whose dragover handler calls preventDefault), or use electron_set_files for a file input."
		return nil, e.With("surface_id", res.SurfaceID)
	}
	return &dropResult{onSurface: surfaceOf(res), Dropped: d.Dropped, DefaultPrevented: d.DefaultPrevented, Count: d.Files}, nil
}
