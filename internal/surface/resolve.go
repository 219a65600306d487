package surface

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/target"
)

func unmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// Resolution is where a renderer operation on one surface goes. It is a
// snapshot: resolve again for the next operation.
type Resolution struct {
	SurfaceID string
	FrameID   string
	// Eval is the socket that hosts the frame: its own target's for page,
	// webview and OOPIF surfaces, the owning target's for an in-process
	// frame.
	Eval *cdp.Conn
	// ContextID is the frame's default main-world execution context on
	// Eval, or 0 for a target's root frame (evaluate without a contextId).
	ContextID runtime.ExecutionContextID
	// Document is the frame's default execution context as the registry
	// last saw it, for a target's root frame too: it changes with every
	// new document (0: not known yet). page.Frame.Document takes it.
	Document int64
	// InputRoot is the nearest page or webview target at or above the
	// surface: every Input.dispatch* goes there. nil when no window root is
	// known above the surface (an orphan frame).
	InputRoot   *cdp.Conn
	InputRootID string
	// Fallback is set when the selected root page had closed and the
	// registry selected another root to resolve this call.
	Fallback *Fallback

	r    *Registry
	hops []hop // from the surface up to the input root
}

// Fallback reports an automatic reselection after the active root closed
// (page's type: a page.Frame carries it into the answers of waits).
type Fallback = page.Fallback

// On is the page.OnSurface of an answer acting on r's surface.
func (r *Resolution) On() page.OnSurface {
	return page.OnSurface{SurfaceID: r.SurfaceID, Fallback: r.Fallback}
}

// hop is one target boundary of the offset chain: the <iframe> owner of
// frameID, asked on the socket that hosts the frame's parent.
type hop struct {
	frameID string
	owner   *cdp.Conn
}

// IsInputRoot reports whether the surface is its own input root (a page or
// webview target): it needs no offset and no window.focus().
func (res *Resolution) IsInputRoot() bool { return res.InputRootID == res.FrameID }

// Mixed says the window holds frames rendered by another process than its
// own (out-of-process iframes): the browser then picks the renderer for
// each pointer event by hit-test data that follows the page's layout only
// once a frame is presented. Pointer actions ask; resolving does not pay
// for it.
func (res *Resolution) Mixed() bool {
	if res.r == nil || res.InputRootID == "" {
		return false
	}
	res.r.mu.Lock()
	defer res.r.mu.Unlock()
	root := res.r.byFrame[res.InputRootID]
	return root != nil && res.r.mixedLocked(root)
}

// SteadyOffset records the frame's offset (dx, dy) in its window's
// viewport, as a pointer action computed it, and says whether it is the
// offset the surface's previous pointer action saw: no enclosing document
// moved the frame since, so the browser's routing of input to it has had
// no layout to catch up with.
func (res *Resolution) SteadyOffset(dx, dy float64) bool {
	if res.r == nil {
		return false
	}
	res.r.mu.Lock()
	defer res.r.mu.Unlock()
	n := res.r.byID[res.SurfaceID]
	if n == nil {
		return false
	}
	same := n.offSeen && n.offX == dx && n.offY == dy
	n.offX, n.offY, n.offSeen = dx, dy, true
	return same
}

// CrossesTargets reports whether the surface is rendered by another target
// than its input root (an out-of-process frame, or a frame inside one).
func (res *Resolution) CrossesTargets() bool { return len(res.hops) > 0 }

// Resolve resolves the active surface. It costs no CDP call when the
// sockets involved are open and the frame's context is known; it waits (up
// to Options.ContextWait, within ctx) for a context that is being replaced.
// With no surface selected it lists first. A closed frame surface is
// SURFACE_CLOSED until another is selected; a closed root page falls back to
// the first live root, reported in Resolution.Fallback.
func (r *Registry) Resolve(ctx context.Context) (*Resolution, error) {
	return r.resolve(ctx, "")
}

// ResolveID resolves one surface without selecting it.
func (r *Registry) ResolveID(ctx context.Context, id string) (*Resolution, error) {
	if id == "" {
		return nil, errs.BadArg("surfaceId", "a surface id is required")
	}
	return r.resolve(ctx, id)
}

// errWait means: the state is moving; wait for the next change.
var errWait = errors.New("surface: waiting for state")

func (r *Registry) resolve(ctx context.Context, id string) (*Resolution, error) {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	listed, verified := false, false
	for {
		r.mu.Lock()
		if id == "" && r.active == nil && !listed {
			r.mu.Unlock()
			listed = true
			if _, err := r.List(ctx); err != nil {
				return nil, err
			}
			continue
		}
		res, need, err := r.tryResolveLocked(id)
		changed := r.changed
		r.mu.Unlock()
		switch {
		case err == nil && len(need) == 0:
			return res, nil
		case err != nil && !errors.Is(err, errWait):
			if res != nil && res.Fallback != nil && !listed {
				// No live root is known: a listing may find one.
				listed = true
				if _, lerr := r.List(ctx); lerr != nil {
					return nil, lerr
				}
				continue
			}
			return nil, err
		}
		for _, tid := range need {
			if _, err := r.ensure(ctx, tid); err != nil {
				return nil, err
			}
		}
		if len(need) > 0 {
			continue
		}
		if !verified {
			// No context: the frame may be gone without an event saying so
			// (its window navigated). Ask its host once.
			verified = true
			if r.dropIfGone(ctx, id) {
				continue
			}
		}
		if timer == nil {
			timer = time.NewTimer(r.contextWait)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, errs.FromContext(ctx, errs.CDPTimeout, "waiting for the surface's execution context")
		case <-timer.C:
			return nil, errs.New(errs.SurfaceUnsupported, "the surface has no document (no default execution context) yet")
		}
	}
}

// tryResolveLocked resolves from state alone. It returns the targets whose
// sockets must be opened first (need), or errWait when the frame's context
// is not known yet.
func (r *Registry) tryResolveLocked(id string) (*Resolution, []string, error) {
	var fb *Fallback
	n := r.active
	if id != "" {
		n = r.byID[id]
		if n == nil {
			return nil, nil, r.unknownLocked(id)
		}
	}
	if n == nil {
		return nil, nil, errs.New(errs.SurfaceNotFound, "no surface is selected and none was found")
	}
	if !n.live {
		if id != "" || !(n.isTarget && target.IsWindow(n.targetType) || n.listedAsRoot) {
			e := closedErr(n)
			e.Message += "; select another"
			return nil, nil, e
		}
		to := r.firstLiveRootLocked()
		if to == nil {
			e := closedErr(n)
			e.Message += " and no other window is open"
			return &Resolution{Fallback: &Fallback{From: n.id}}, nil, e
		}
		fb = &Fallback{From: n.id, To: to.id, Reason: "the selected window closed; selected the first open window"}
		r.selectLocked(to)
		n = to
	}
	var need []string
	st := r.current[n.host]
	if !st.usable() {
		need = append(need, n.host)
	}
	root := r.inputRootLocked(n)
	var hops []hop
	if root != nil {
		if rs := r.current[root.host]; !rs.usable() && root.host != n.host {
			need = append(need, root.host)
		}
		for cur, steps := n, 0; cur != root && steps <= len(r.byFrame); steps++ {
			p := r.byFrame[cur.parent]
			if p == nil {
				root = nil // the chain broke since inputRootLocked: no root
				break
			}
			ps := r.current[p.host]
			if !ps.usable() {
				need = append(need, p.host)
			} else {
				hops = append(hops, hop{frameID: cur.frameID, owner: ps.sock.Conn()})
			}
			cur = r.byFrame[p.host]
			if cur == nil {
				root = nil
				break
			}
		}
	}
	if len(need) > 0 {
		return nil, dedupe(need), nil
	}
	res := &Resolution{
		SurfaceID: n.id,
		FrameID:   n.frameID,
		Eval:      st.sock.Conn(),
		Fallback:  fb,
		r:         r,
		hops:      hops,
	}
	if !n.isTarget {
		ctxID, ok := st.defaults[n.frameID]
		if !ok {
			return nil, nil, errWait
		}
		res.ContextID = runtime.ExecutionContextID(ctxID)
	}
	res.Document = st.defaults[n.frameID]
	if root != nil {
		res.InputRootID = root.frameID
		res.InputRoot = r.current[root.host].sock.Conn()
	}
	return res, nil, nil
}

// mixedLocked reports whether a live out-of-process frame has root as its
// input root.
func (r *Registry) mixedLocked(root *node) bool {
	for _, n := range r.byFrame {
		if n.live && n.isTarget && !target.IsWindow(n.targetType) && r.inputRootLocked(n) == root {
			return true
		}
	}
	return false
}

// Gone reports whether surface id is closed: a tombstone already, or an
// in-process frame its host's frame tree no longer has (then it becomes
// one). A call that failed with a disconnect or an internal error asks it,
// to tell a frame that went away from a broken app.
func (r *Registry) Gone(ctx context.Context, id string) bool {
	r.mu.Lock()
	n := r.byID[id]
	closed := n != nil && !n.live
	r.mu.Unlock()
	if n == nil {
		return false
	}
	return closed || r.dropIfGone(ctx, id)
}

// dropIfGone checks that the in-process frame of surface id (the active
// one when id is "") is still in its host's frame tree, and makes it a
// tombstone when it is not. It reports whether it did.
func (r *Registry) dropIfGone(ctx context.Context, id string) bool {
	r.mu.Lock()
	n := r.active
	if id != "" {
		n = r.byID[id]
	}
	if n == nil || n.isTarget || !n.live {
		r.mu.Unlock()
		return false
	}
	host, frameID := n.host, n.frameID
	r.mu.Unlock()
	// The host's socket may have closed with the navigation: ask a new one.
	st, err := r.ensure(ctx, host)
	if err != nil {
		return false
	}
	var t struct {
		FrameTree frameTree `json:"frameTree"`
	}
	if err := r.call(ctx, st.sock.Conn(), "Page.getFrameTree", nil, &t); err != nil {
		return false
	}
	var has func(f frameTree) bool
	has = func(f frameTree) bool {
		if f.Frame.ID == frameID {
			return true
		}
		for _, k := range f.ChildFrames {
			if has(k) {
				return true
			}
		}
		return false
	}
	if has(t.FrameTree) {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if n.live && !n.isTarget && n.host == host && r.current[host] == st {
		n.live = false
		r.touchLocked(n)
		r.bumpLocked()
		return true
	}
	return false
}

func dedupe(ids []string) []string {
	out := ids[:0]
	seen := map[string]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// firstLiveRootLocked returns the first live window root in listing order,
// then in surface-number order for roots born after the last listing.
func (r *Registry) firstLiveRootLocked() *node {
	for _, n := range r.order {
		if n.live && n.isTarget && target.IsWindow(n.targetType) && r.parentLocked(n) == nil {
			return n
		}
	}
	return nil
}

// Offset returns the point, in the input root's viewport, of the surface's
// top-left corner: the content boxes of the <iframe> owners summed from the
// surface up to the input root, one DOM.getFrameOwner and one
// DOM.getBoxModel per target boundary, read now (frames move between
// operations). Add it to a point from getBoundingClientRect inside the
// frame.
//
// Boxes are read on the socket hosting the owner and are in that socket's
// root viewport, already including every in-process ancestor: so an
// in-process frame adds its own owner box once, and nothing is added for the
// in-process frames above it.
func (res *Resolution) Offset(ctx context.Context) (x, y float64, err error) {
	boxes, err := res.ownerBoxes(ctx)
	if err != nil {
		return 0, 0, err
	}
	for _, b := range boxes {
		x += b.x
		y += b.y
	}
	return x, y, nil
}

// ownerBox is one hop's <iframe> owner: its backend node on the hop's
// owner socket and the top-left corner of its content box in that socket's
// root viewport.
type ownerBox struct {
	hop
	node int64
	x, y float64
}

// ownerBoxes reads the owner of every hop, from the surface up.
func (res *Resolution) ownerBoxes(ctx context.Context) ([]ownerBox, error) {
	if err := res.TakesInput(); err != nil {
		return nil, err
	}
	out := make([]ownerBox, 0, len(res.hops))
	for _, h := range res.hops {
		var owner struct {
			BackendNodeID int64 `json:"backendNodeId"`
		}
		if err := res.r.call(ctx, h.owner, "DOM.getFrameOwner", map[string]any{"frameId": h.frameID}, &owner); err != nil {
			return nil, frameErr(err, res.SurfaceID, "finding the frame's <iframe>")
		}
		var box struct {
			Model struct {
				Content []float64 `json:"content"`
			} `json:"model"`
		}
		if err := res.r.call(ctx, h.owner, "DOM.getBoxModel", map[string]any{"backendNodeId": owner.BackendNodeID}, &box); err != nil {
			return nil, frameErr(err, res.SurfaceID, "measuring the frame's <iframe>")
		}
		q := box.Model.Content
		if len(q) < 8 {
			return nil, errs.New(errs.ElementNotVisible, "the <iframe> of surface %s has no box", res.SurfaceID)
		}
		out = append(out, ownerBox{hop: h, node: owner.BackendNodeID, x: min(q[0], q[2], q[4], q[6]), y: min(q[1], q[3], q[5], q[7])})
	}
	return out, nil
}

// Reach turns a point of the surface's own viewport (fx, fy, as
// getBoundingClientRect inside the frame reports it) into the input root's
// viewport, as Offset does, and hit-tests it in every document that
// encloses the surface, as the browser will for a pointer event there: in
// each it must reach the surface's <iframe> (or, for an in-process frame, a
// node inside it). cover is nil when nothing in an enclosing document takes
// the point, else what does (Enclosing set, no ref; no tag when the point is
// outside the enclosing document). The surface's own
// document is not looked at: the renderer's actionability check does that.
// It costs one DOM.getNodeForLocation per hop besides Offset's calls.
func (res *Resolution) Reach(ctx context.Context, fx, fy float64) (x, y float64, cover *page.Covering, err error) {
	boxes, err := res.ownerBoxes(ctx)
	if err != nil {
		return 0, 0, nil, err
	}
	x, y = fx, fy
	for _, b := range boxes {
		x += b.x
		y += b.y
	}
	// From the top down: the point in each owner socket's root viewport is
	// the point less the owner corners of the hops above it.
	px, py := x, y
	for i := len(boxes) - 1; i >= 0; i-- {
		b := boxes[i]
		var hit struct {
			BackendNodeID int64  `json:"backendNodeId"`
			FrameID       string `json:"frameId"`
		}
		err := res.r.call(ctx, b.owner, "DOM.getNodeForLocation", map[string]any{
			"x": int(math.Floor(px)), "y": int(math.Floor(py)), "ignorePointerEventsNone": true,
		}, &hit)
		if err != nil {
			if errors.Is(err, cdp.ErrNotFound) {
				return x, y, &page.Covering{Enclosing: true}, nil
			}
			return x, y, nil, err
		}
		if hit.BackendNodeID != b.node && hit.FrameID != b.frameID {
			return x, y, res.describeNode(ctx, b.owner, hit.BackendNodeID), nil
		}
		px, py = px-b.x, py-b.y
	}
	return x, y, nil, nil
}

// describeNode describes a node of an enclosing document as a cover: its
// tag, a tag#id.class selector and its aria-label or title as the name.
func (res *Resolution) describeNode(ctx context.Context, c *cdp.Conn, backendNodeID int64) *page.Covering {
	var out struct {
		Node struct {
			LocalName  string   `json:"localName"`
			NodeName   string   `json:"nodeName"`
			Attributes []string `json:"attributes"`
		} `json:"node"`
	}
	if err := res.r.call(ctx, c, "DOM.describeNode", map[string]any{"backendNodeId": backendNodeID}, &out); err != nil {
		return &page.Covering{Tag: "unknown", Enclosing: true}
	}
	n := out.Node
	tag := n.LocalName
	if tag == "" {
		tag = strings.ToLower(n.NodeName)
	}
	name := tag
	var label string
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		switch v := n.Attributes[i+1]; n.Attributes[i] {
		case "id":
			name += "#" + v
		case "class":
			if f := strings.Fields(v); len(f) > 0 {
				name += "." + f[0]
			}
		case "aria-label", "title":
			if label == "" {
				label = v
			}
		}
	}
	return &page.Covering{Tag: tag, Selector: name, Name: label, Enclosing: true}
}

func frameErr(err error, surfaceID, what string) error {
	switch {
	case errors.Is(err, cdp.ErrNotFound):
		return errs.Wrap(errs.SurfaceClosed, err, what).With("surfaceId", surfaceID)
	case errors.Is(err, cdp.ErrNoBoxModel):
		return errs.Wrap(errs.ElementNotVisible, err, what).With("surfaceId", surfaceID)
	}
	return err
}

// FocusFrame gives a non-root frame the focus (window.focus() in it), as a
// key press without a selector needs. On an input root it does nothing.
func (res *Resolution) FocusFrame(ctx context.Context) error {
	if res.IsInputRoot() {
		return nil
	}
	p := map[string]any{"expression": "window.focus()"}
	if res.ContextID != 0 {
		p["contextId"] = res.ContextID
	}
	var out struct {
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if err := res.r.call(ctx, res.Eval, "Runtime.evaluate", p, &out); err != nil {
		return err
	}
	if len(out.ExceptionDetails) > 0 {
		return errs.New(errs.EvalRuntimeError, "window.focus() threw in surface %s", res.SurfaceID)
	}
	return nil
}

// TakesInput refuses, with SURFACE_UNSUPPORTED, a surface that has no
// window root to send input events to.
func (res *Resolution) TakesInput() error {
	if res.InputRoot == nil {
		return errs.New(errs.SurfaceUnsupported, "surface %s has no window root to take input", res.SurfaceID)
	}
	return nil
}
