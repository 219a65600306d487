package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/trace"
)

// loadTrace reads a trace folder under the allowed roots (trace.Find).
func loadTrace(ctx context.Context, c *Call, field, p string) (*trace.Trace, error) {
	return trace.Find(ctx, c.Server.files, c.Server.tracing.Recorder(), field, p)
}
