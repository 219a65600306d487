package surface

import (
	"context"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
)

// Frame is the page.Frame the resolution's document is read and acted in.
func (res *Resolution) Frame() page.Frame {
	return page.Frame{Session: res.Eval, ContextID: res.ContextID, SurfaceID: res.SurfaceID, Document: res.Document, Fallback: res.Fallback}
}

// ChildSurfaceOf names the surface of an <iframe> entry of parent: the
// live child whose URL is the frame's, when exactly one matches
// (page.SnapshotOptions.ChildSurface).
func (r *Registry) ChildSurfaceOf(parent string) func(page.FrameInfo) string {
	return func(fi page.FrameInfo) string {
		id, _ := r.ChildByURL(parent, fi.Src)
		return id
	}
}

// SnapshotWindow is the text snapshot of the active surface's window root
// with every descendant surface (frames, nested OOPIFs, webview guests)
// inlined under the line of the iframe or webview that hosts it, indented
// and headed by its surface id, kind and URL. opts apply to each surface
// (Since is each surface's own baseline); opts.BudgetTokens bounds the
// whole answer. A descendant that cannot be read is a line saying so; the
// root's failure is the call's.
func (r *Registry) SnapshotWindow(ctx context.Context, pages *page.Store, opts page.SnapshotOptions) (*page.SnapshotResult, error) {
	root, byID, children, err := r.WindowTree(ctx)
	if err != nil {
		return nil, err
	}
	opts.Format = "text"
	whole := opts.BudgetTokens
	budget := whole
	var top *page.SnapshotResult
	var walk func(id string) (string, error)
	walk = func(id string) (string, error) {
		if budget < 0 {
			return "", nil
		}
		o := opts
		o.BudgetTokens = budget
		res, err := r.ResolveID(ctx, id)
		var out *page.SnapshotResult
		if err == nil {
			o.ChildSurface = r.ChildSurfaceOf(id)
			out, err = pages.Snapshot(ctx, res.Frame(), o)
		}
		if err != nil {
			if top == nil {
				return "", err // the root itself: the call fails
			}
			return "# not readable: " + string(errs.CodeOf(err)) + "\n", nil
		}
		if top == nil {
			top = out
		} else {
			top.Count += out.Count
			top.Truncated = top.Truncated || out.Truncated
			top.Partial = top.Partial || out.Partial
			top.RendererReloaded = top.RendererReloaded || out.RendererReloaded
			if top.TruncatedReason == "" {
				top.TruncatedReason = out.TruncatedReason
			}
		}
		if whole > 0 {
			budget -= len(out.Text)/4 + 1
			if budget <= 0 {
				budget = -1
			}
		}
		text := out.Text
		for _, child := range children[id] {
			d := byID[child]
			sub, err := walk(child)
			if err != nil {
				return "", err
			}
			if sub != "" && !strings.HasSuffix(sub, "\n") {
				sub += "\n"
			}
			head := "# surface " + d.ID + " " + d.Kind + " " + d.URL + "\n"
			text = inlineChild(text, child, head+sub)
		}
		return text, nil
	}
	text, err := walk(root)
	if err != nil {
		return nil, err
	}
	if budget < 0 {
		top.Truncated, top.TruncatedReason = true, "budget"
		text += "# truncated: budgetTokens reached; surfaces after this point are not in the snapshot\n"
	}
	top.Text = text
	return top, nil
}

// inlineChild puts a child surface's block under the line of text that
// names it (" surface=ID"), indented two spaces deeper than that line; a
// child no line names goes at the end.
func inlineChild(text, id, block string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if !strings.Contains(l, " surface="+id) || !endsID(l, " surface="+id) {
			continue
		}
		indent := strings.Repeat(" ", len(l)-len(strings.TrimLeft(l, " "))+2)
		var b strings.Builder
		for _, bl := range strings.SplitAfter(block, "\n") {
			if bl != "" {
				b.WriteString(indent + bl)
			}
		}
		if !strings.HasSuffix(l, "\n") {
			lines[i] = l + "\n"
		}
		return strings.Join(lines[:i+1], "") + b.String() + strings.Join(lines[i+1:], "")
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text + block
}

// endsID reports whether the marker in l is the whole id (s1-surface-3 is
// not s1-surface-30).
func endsID(l, marker string) bool {
	i := strings.Index(l, marker)
	rest := l[i+len(marker):]
	return rest == "" || rest[0] == ' ' || rest[0] == '\n' || rest[0] == ']' || rest[0] == ')'
}

// FindInWindow runs q in every surface of the active surface's window,
// parent before children, and keeps the first limit matches, each with its
// surface id. A surface that cannot be searched is skipped (its id is in
// skipped); the root's failure is the call's.
func (r *Registry) FindInWindow(ctx context.Context, pages *page.Store, q page.FindQuery, limit int) (out *page.FindResult, skipped []string, err error) {
	root, _, children, err := r.WindowTree(ctx)
	if err != nil {
		return nil, nil, err
	}
	out = &page.FindResult{SurfaceID: root, Matches: []page.Match{}}
	var walk func(id string) error
	walk = func(id string) error {
		res, err := r.ResolveID(ctx, id)
		var fr *page.FindResult
		if err == nil {
			fr, err = pages.Find(ctx, res.Frame(), q)
		}
		switch {
		case err != nil && id == root:
			return err
		case err != nil:
			skipped = append(skipped, id)
		default:
			out.Count += fr.Count
			out.RendererReloaded = out.RendererReloaded || fr.RendererReloaded
			for _, m := range fr.Matches {
				if len(out.Matches) == limit {
					out.Truncated = true
					break
				}
				m.SurfaceID = id
				out.Matches = append(out.Matches, m)
			}
			out.Truncated = out.Truncated || fr.Truncated
		}
		for _, ch := range children[id] {
			if err := walk(ch); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, nil, err
	}
	return out, skipped, nil
}
