package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/trace"
)

type traceViewArgs struct{ trace.ViewArgs }

func traceView(ctx context.Context, c *Call, a *traceViewArgs) (*trace.ViewResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	return t.WriteView(ctx, c.Server.files, &a.ViewArgs, time.Now())
}

type traceExportArgs struct{ trace.ExportArgs }

func traceExport(ctx context.Context, c *Call, a *traceExportArgs) (*trace.ExportResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	return t.WriteExport(ctx, c.Server.files, &a.ExportArgs, c.Server.exportAction)
}

type tracePromoteArgs struct{ trace.PromoteArgs }

func tracePromote(ctx context.Context, c *Call, a *tracePromoteArgs) (*trace.PromoteResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	return t.WriteSpec(ctx, c.Server.files, &a.PromoteArgs, c.Server.opensSession)
}
