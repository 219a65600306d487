package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/page"
)

// electron_set_files and electron_drop_file, and the checks of the files
// they read.

type filesArgs struct {
	actArgs
	files.PathList
}

func (a *filesArgs) validate() error {
	if err := a.PathList.Check(); err != nil {
		return err
	}
	return a.actArgs.validate()
}

// setFilesResult is electron_set_files's result.
type setFilesResult struct {
	onSurface
	Files []page.FileInfo `json:"files" jsonschema:"the files the input holds now"`
	Count int             `json:"count"`
}

func setFiles(ctx context.Context, c *Call, a *filesArgs) (*setFilesResult, error) {
	paths, err := c.Server.files.ForInput(ctx, a.Paths)
	if err != nil {
		return nil, err
	}
	a.Paths = paths
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
	loaded, err := c.Server.files.ForDrop(ctx, a.Paths)
	if err != nil {
		return nil, err
	}
	dropped := make([]page.DropFile, len(loaded))
	for i, l := range loaded {
		dropped[i] = page.DropFile{Name: l.Name, Type: l.Type, Data: l.Data, Modified: l.Modified}
	}
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	d, err := c.Session.Pages.DropFiles(ctx, f, a.locator(), dropped, a.timeout())
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
