package trace

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	cdpproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/surface"
)

// maxFrameDepth bounds the iframe chain walked up from a surface.
const maxFrameDepth = 16

// ownerJS finds, in the parent document, the one <iframe> (or <frame>)
// showing url and returns a CSS selector for it ("" when none or several
// match): by id, name or title, else by its place among its siblings.
const ownerJS = `(function (url) {
  var fs = Array.prototype.slice.call(document.querySelectorAll('iframe, frame'));
  var m = fs.filter(function (f) { return f.src === url; });
  if (m.length !== 1) m = fs.filter(function (f) { try { return f.contentWindow.location.href === url; } catch (e) { return false; } });
  if (m.length !== 1 && fs.length === 1) m = fs;
  if (m.length !== 1) return '';
  var f = m[0], tag = f.tagName.toLowerCase();
  var q = function (s) { return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"'; };
  if (f.id && document.querySelectorAll('#' + CSS.escape(f.id)).length === 1) return '#' + CSS.escape(f.id);
  if (f.name && document.querySelectorAll(tag + '[name=' + q(f.name) + ']').length === 1) return tag + '[name=' + q(f.name) + ']';
  if (f.title && document.querySelectorAll(tag + '[title=' + q(f.title) + ']').length === 1) return tag + '[title=' + q(f.title) + ']';
  var i = fs.indexOf(f);
  return tag + ' >> nth=' + i;
})`

// Locate describes where surface id is: its window and the iframe chain
// from that window down to it. It costs one Runtime.evaluate per iframe
// level (in the parent document); callers cache it per surface.
func Locate(ctx context.Context, reg *surface.Registry, id string) (*Place, error) {
	d, ok := reg.Describe(id)
	if !ok {
		return nil, errs.New(errs.SurfaceNotFound, "no surface %s", id)
	}
	p := &Place{SurfaceID: id, Kind: d.Kind, URL: d.URL}
	var chain []Frame
	cur := d
	for i := 0; cur.Kind == "frame" && cur.ParentID != ""; i++ {
		if i == maxFrameDepth {
			return nil, errs.New(errs.Internal, "surface %s is nested deeper than %d frames", id, maxFrameDepth)
		}
		parent, ok := reg.Describe(cur.ParentID)
		if !ok {
			return nil, errs.New(errs.SurfaceClosed, "the parent of surface %s is gone", cur.ID)
		}
		sel, err := ownerSelector(ctx, reg, parent.ID, cur.URL)
		if err != nil {
			return nil, err
		}
		chain = append([]Frame{{Selector: sel}}, chain...)
		cur = parent
	}
	p.WindowID, p.WindowURL, p.Frames = cur.FrameID, cur.URL, chain
	return p, nil
}

func ownerSelector(ctx context.Context, reg *surface.Registry, parentID, url string) (string, error) {
	res, err := reg.ResolveID(ctx, parentID)
	if err != nil {
		return "", err
	}
	byValue, silent := true, true
	p := runtime.EvaluateParams{Expression: ownerJS + "(" + strconv.Quote(url) + ")", ContextID: res.ContextID,
		ReturnByValue: &byValue, Silent: &silent}
	r, err := cdpproto.Call(ctx, cdpproto.Session(res.Eval), runtime.Evaluate, p)
	if err != nil {
		return "", errs.Wrap(errs.Internal, err, "finding the iframe of "+url)
	}
	if r.ExceptionDetails != nil || r.Result == nil {
		return "", errs.New(errs.Internal, "finding the iframe of %s failed", url)
	}
	var sel string
	if err := json.Unmarshal(r.Result.Value, &sel); err != nil || sel == "" {
		return "", errs.New(errs.Internal, "no single iframe in surface %s shows %s", parentID, url)
	}
	return sel, nil
}

// SamePlace says whether p is where q was: the same window URL and the
// same iframe chain from it.
func (p *Place) SamePlace(q *Place) bool {
	return p != nil && q != nil && p.WindowURL == q.WindowURL && slices.Equal(p.Frames, q.Frames)
}

// surfaceWait bounds how long a replay waits for a recorded surface to
// show (a frame attaches after its page loads).
const surfaceWait = 10 * time.Second

// MatchSurface finds the live surface of reg that is where place was: the one
// surface of the same URL and kind, or among several, the one in the same
// window behind the same iframe chain (Locate, as recorded), else
// the first of them. It
// waits up to surfaceWait for one to show. The caller holds the session
// (shared). It returns the surface id, or why there is none.
func MatchSurface(ctx context.Context, reg *surface.Registry, place *Place) (string, string) {
	deadline := time.Now().Add(surfaceWait)
	for {
		list, err := reg.List(ctx)
		if err != nil {
			return "", "listing surfaces: " + err.Error()
		}
		var cands []string
		for _, d := range list {
			if d.URL == place.URL && (place.Kind == "" || d.Kind == place.Kind) {
				cands = append(cands, d.ID)
			}
		}
		if len(cands) == 1 {
			return cands[0], ""
		}
		for _, id := range cands {
			if p, err := Locate(ctx, reg, id); err == nil && p.SamePlace(place) {
				return id, ""
			}
		}
		if len(cands) > 1 {
			// None is provably in the recorded place (an iframe chain that
			// cannot be told apart): the first, as a replay always took.
			return cands[0], ""
		}
		if time.Now().After(deadline) {
			return "", "no surface shows " + place.URL + " now"
		}
		select {
		case <-ctx.Done():
			return "", "no surface shows " + place.URL + " now"
		case <-time.After(100 * time.Millisecond):
		}
	}
}
