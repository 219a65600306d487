package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/trace"
)

func traceView(ctx context.Context, c *Call, a *trace.ViewArgs) (*trace.ViewResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	return t.WriteView(ctx, c.Server.files, a, time.Now())
}

func traceExport(ctx context.Context, c *Call, a *trace.ExportArgs) (*trace.ExportResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	return t.WriteExport(ctx, c.Server.files, a, c.Server.exportAction)
}

func tracePromote(ctx context.Context, c *Call, a *trace.PromoteArgs) (*trace.PromoteResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	return t.WriteSpec(ctx, c.Server.files, a, c.Server.opensSession)
}
