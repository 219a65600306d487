package tool

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/trace"
)

// loadTrace reads a trace folder under the allowed roots.
func loadTrace(ctx context.Context, c *Call, field, p string) (*trace.Trace, error) {
	if p == "" {
		return nil, errs.BadArg(field, "is required: a trace folder")
	}
	if strings.ContainsRune(p, 0) {
		return nil, errs.BadArg(field, "contains a NUL byte")
	}
	if !filepath.IsAbs(p) {
		art, err := c.Server.files.ArtifactsDir()
		if err != nil {
			return nil, err
		}
		p = filepath.Join(art, p)
	}
	if filepath.Base(p) == trace.HeaderFile {
		p = filepath.Dir(p)
	}
	if _, err := os.Stat(filepath.Join(p, trace.HeaderFile)); err != nil {
		if st, e2 := os.Stat(p); e2 == nil && !st.IsDir() {
			if strings.HasSuffix(p, ".json") { // a promoted spec (trace_promote)
				real, err := c.Server.files.CheckRead(ctx, field, p)
				if err != nil {
					return nil, err
				}
				return trace.LoadSpec(real)
			}
			return nil, errs.New(errs.TraceInvalid, "%s is a file, not a trace folder", p).With("field", field)
		}
		// Judge the roots first: a path outside them says so, not "missing".
		if _, err := c.Server.files.CheckDir(ctx, field, filepath.Dir(p)); err != nil && errs.CodeOf(err) == errs.PathNotAllowed {
			return nil, err
		}
		return nil, errs.New(errs.TraceNotFound, "no trace at %s", p).With("field", field)
	}
	real, err := c.Server.files.CheckRead(ctx, field, filepath.Join(p, trace.HeaderFile))
	if err != nil {
		return nil, err
	}
	if rec := c.Server.tracing.recorder(); rec != nil && sameDir(rec.Dir(), filepath.Dir(real)) {
		rec.Flush() // the live trace: what its writer still holds is read too
	}
	return trace.Load(filepath.Dir(real))
}

// sameDir reports whether two paths name one folder.
func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}
