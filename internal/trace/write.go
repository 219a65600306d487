package trace

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
)

// What a trace tool writes from a trace, each file checked against the
// roots and written through the one writer (files.Roots, field out).

// WriteView is t's View and, with a.HTML, its HTML report written to
// a.ReportPath (rendered at now).
func (t *Trace) WriteView(ctx context.Context, roots *files.Roots, a *ViewArgs, now time.Time) (*ViewResult, error) {
	r := t.View()
	if !a.HTML {
		return r, nil
	}
	file, err := roots.CheckWrite(ctx, "out", a.ReportPath(t.Dir), a.Overwrite)
	if err != nil {
		return nil, err
	}
	page, err := t.HTML(now)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "rendering the report")
	}
	path, err := roots.Write(ctx, files.Out{Field: "out", Path: file, Overwrite: a.Overwrite}, page)
	if err != nil {
		return nil, err
	}
	r.HTMLPath, r.HTMLBytes = path, len(page)
	return r, nil
}

// WriteExport writes t as a Playwright test (ExportPlaywright, action
// translating a step) to a.Out.
func (t *Trace) WriteExport(ctx context.Context, roots *files.Roots, a *ExportArgs, action func(Step) Action) (*ExportResult, error) {
	file, err := roots.CheckWrite(ctx, "out", a.Out, a.Overwrite)
	if err != nil {
		return nil, err
	}
	ex := t.ExportPlaywright(a.Options(action))
	path, err := roots.Write(ctx, files.Out{Field: "out", Path: file, Overwrite: a.Overwrite}, []byte(ex.Source))
	if err != nil {
		return nil, err
	}
	return ex.Result(path), nil
}

// WriteSpec writes t promoted to a replay spec (Promote, opensSession
// naming the tools that open a session) to a.SpecPath.
func (t *Trace) WriteSpec(ctx context.Context, roots *files.Roots, a *PromoteArgs, opensSession func(tool string) bool) (*PromoteResult, error) {
	file, err := roots.CheckWrite(ctx, "out", a.SpecPath(t.Dir), a.Overwrite)
	if err != nil {
		return nil, err
	}
	sp := t.Promote(a.Options(opensSession))
	b, err := sp.File()
	if err != nil {
		return nil, err
	}
	path, err := roots.Write(ctx, files.Out{Field: "out", Path: file, Overwrite: a.Overwrite}, b)
	if err != nil {
		return nil, err
	}
	return sp.Result(path, len(b)), nil
}
