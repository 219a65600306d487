package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/trace"
)

type traceViewArgs struct{ trace.ViewArgs }

func (a *traceViewArgs) validate() error { return a.ViewArgs.Check() }

func traceView(ctx context.Context, c *Call, a *traceViewArgs) (*trace.ViewResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	r := t.View()
	if !a.HTML {
		return r, nil
	}
	file, err := c.Server.files.CheckWrite(ctx, "out", a.ReportPath(t.Dir), a.Overwrite)
	if err != nil {
		return nil, err
	}
	page, err := t.HTML(time.Now())
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "rendering the report")
	}
	path, err := c.Server.files.Write(ctx, files.Out{Field: "out", Path: file, Overwrite: a.Overwrite}, page)
	if err != nil {
		return nil, err
	}
	r.HTMLPath, r.HTMLBytes = path, len(page)
	return r, nil
}

type traceExportArgs struct{ trace.ExportArgs }

func (a *traceExportArgs) validate() error { return a.ExportArgs.Check() }

func traceExport(ctx context.Context, c *Call, a *traceExportArgs) (*trace.ExportResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	file, err := c.Server.files.CheckWrite(ctx, "out", a.Out, a.Overwrite)
	if err != nil {
		return nil, err
	}
	ex := t.ExportPlaywright(a.Options(c.Server.exportAction))
	path, err := c.Server.files.Write(ctx, files.Out{Field: "out", Path: file, Overwrite: a.Overwrite}, []byte(ex.Source))
	if err != nil {
		return nil, err
	}
	return ex.Result(path), nil
}

type tracePromoteArgs struct{ trace.PromoteArgs }

func (a *tracePromoteArgs) validate() error { return a.PromoteArgs.Check() }

func tracePromote(ctx context.Context, c *Call, a *tracePromoteArgs) (*trace.PromoteResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	file, err := c.Server.files.CheckWrite(ctx, "out", a.SpecPath(t.Dir), a.Overwrite)
	if err != nil {
		return nil, err
	}
	sp := t.Promote(a.Options(c.Server.opensSession))
	b, err := sp.File()
	if err != nil {
		return nil, err
	}
	path, err := c.Server.files.Write(ctx, files.Out{Field: "out", Path: file, Overwrite: a.Overwrite}, b)
	if err != nil {
		return nil, err
	}
	return sp.Result(path, len(b)), nil
}
