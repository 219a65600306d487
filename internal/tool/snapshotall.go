package tool

import (
	"context"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
)

// snapshotAll is electron_snapshot {surfaces:"all"}: the text snapshot of
// the active surface's window root with every descendant surface (frames,
// nested OOPIFs, webview guests) inlined under the line of the iframe or
// webview that hosts it, indented and headed by its surface id, kind and
// URL. Refs are unique in the session and route themselves (routeRef), so
// an agent acts in a frame without switching. since:'last' is each
// surface's own baseline; budgetTokens bounds the whole answer.
func snapshotAll(ctx context.Context, c *Call, a *snapshotArgs) (*page.SnapshotResult, error) {
	if a.Surfaces != "all" {
		return nil, errs.BadArg("surfaces", "'all' is the one value (omit it for the active surface)")
	}
	if a.Format != "" && a.Format != "text" {
		return nil, errs.BadArg("format", "surfaces:'all' answers in the text form; omit format or pass 'text'")
	}
	root, byID, children, err := c.Session.Surfaces.WindowTree(ctx)
	if err != nil {
		return nil, err
	}
	budget := a.BudgetTokens
	var top *page.SnapshotResult
	var walk func(id string) (string, error)
	walk = func(id string) (string, error) {
		if budget < 0 {
			return "", nil
		}
		opts := page.SnapshotOptions{Since: a.Since, InteractiveOnly: a.InteractiveOnly, MaxEntries: a.MaxEntries, Format: "text", BudgetTokens: budget}
		res, err := c.Session.Surfaces.ResolveID(ctx, id)
		var out *page.SnapshotResult
		if err == nil {
			f := frameAt(res)
			opts.ChildSurface = childSurface(c, id)
			out, err = c.Session.Pages.Snapshot(ctx, f, opts)
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
		if a.BudgetTokens > 0 {
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

// findAll is electron_find {surfaces:"all"}: the query in every surface of
// the active window, parent before children; each match says its
// surface_id and its ref acts there (routeRef). A surface that cannot be
// read is skipped (its id is in skipped_surfaces).
func findAll(ctx context.Context, c *Call, a *findArgs) (*findResult, error) {
	if a.Surfaces != "all" {
		return nil, errs.BadArg("surfaces", "'all' is the one value (omit it for the active surface)")
	}
	if a.Scroll {
		return nil, errs.BadArg("scroll", "scrolling lists is for one surface; drop surfaces or scroll")
	}
	root, _, children, err := c.Session.Surfaces.WindowTree(ctx)
	if err != nil {
		return nil, err
	}
	limit := a.Limit
	if limit == 0 {
		limit = 50
	}
	out := &findResult{FindResult: &page.FindResult{SurfaceID: root, Matches: []page.Match{}}}
	var walk func(id string) error
	walk = func(id string) error {
		res, err := c.Session.Surfaces.ResolveID(ctx, id)
		var r *page.FindResult
		if err == nil {
			f := frameAt(res)
			r, err = c.Session.Pages.Find(ctx, f, page.FindQuery{Role: a.Role, NameContains: a.NameContains, NameExact: a.NameExact,
				Visible: a.Visible, Enabled: a.Enabled, Interactive: a.Interactive, Limit: a.Limit, Text: a.Text})
		}
		switch {
		case err != nil && id == root:
			return err
		case err != nil:
			out.Skipped = append(out.Skipped, id)
		default:
			out.Count += r.Count
			out.RendererReloaded = out.RendererReloaded || r.RendererReloaded
			for _, m := range r.Matches {
				if len(out.Matches) == limit {
					out.Truncated = true
					break
				}
				m.SurfaceID = id
				out.Matches = append(out.Matches, m)
			}
			out.Truncated = out.Truncated || r.Truncated
		}
		for _, ch := range children[id] {
			if err := walk(ch); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	return out, nil
}
