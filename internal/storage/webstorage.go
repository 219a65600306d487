package storage

import (
	"context"
	"errors"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/target"
)

// Host is a document that holds an origin: the target whose socket reaches
// it and the frame.
type Host struct {
	TargetID string `json:"target_id"`
	FrameID  string `json:"frame_id"`
	URL      string `json:"url"`
}

// Origin is an origin some document of the app has open, with the
// documents that hold it (first the target's root frames, then in order).
type Origin struct {
	Origin string `json:"origin"`
	Hosts  []Host `json:"hosts"`
}

// Item is one Web Storage entry, in Playwright's shape.
type Item struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Scope names one of the two Web Storage areas.
type Scope string

// The two scopes.
const (
	Local   Scope = "local"
	Session Scope = "session"
)

// NormalizeOrigin turns an origin or any URL of it into scheme://host[:port];
// field names the argument in errors.
func NormalizeOrigin(field, raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", errs.BadArg(field, "must be an origin like https://example.com (scheme, host and port)")
	}
	switch u.Scheme {
	case "http", "https":
	default:
		return "", errs.BadArg(field, "must be an http(s) origin, not %s:", u.Scheme)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// Origins lists every http(s) origin a document of the app has open: the
// frame trees of every renderer target (pages, webview guests and OOPIFs),
// read in parallel.
func Origins(ctx context.Context, pool *target.Pool) ([]Origin, error) {
	ts, err := pool.List(ctx)
	if err != nil {
		return nil, err
	}
	type frames struct {
		t  target.Info
		fs []frameInfo
	}
	got := make([]frames, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		got[i].t = t
		wg.Go(func() {
			conn, err := pool.Conn(ctx, t.ID)
			if err != nil {
				return
			}
			got[i].fs, _ = frameTree(ctx, conn)
		})
	}
	wg.Wait()
	byOrigin := map[string]*Origin{}
	var order []string
	for _, g := range got {
		for _, f := range g.fs {
			o, err := NormalizeOrigin("origin", f.SecurityOrigin)
			if err != nil {
				continue // opaque, about:, data:, chrome: documents hold no storage we name
			}
			e := byOrigin[o]
			if e == nil {
				e = &Origin{Origin: o}
				byOrigin[o] = e
				order = append(order, o)
			}
			e.Hosts = append(e.Hosts, Host{TargetID: g.t.ID, FrameID: f.ID, URL: f.URL})
		}
	}
	out := make([]Origin, 0, len(order))
	for _, o := range order {
		out = append(out, *byOrigin[o])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Origin < out[j].Origin })
	return out, nil
}

type frameInfo struct {
	ID             string `json:"id"`
	URL            string `json:"url"`
	SecurityOrigin string `json:"securityOrigin"`
}

// frameTree reads the frames a target hosts in its own process.
func frameTree(ctx context.Context, conn *cdp.Conn) ([]frameInfo, error) {
	type node struct {
		Frame       frameInfo `json:"frame"`
		ChildFrames []node    `json:"childFrames"`
	}
	var out struct {
		FrameTree node `json:"frameTree"`
	}
	if err := conn.Call(ctx, "Page.getFrameTree", nil, &out); err != nil {
		return nil, err
	}
	var fs []frameInfo
	var walk func(n node)
	walk = func(n node) {
		fs = append(fs, n.Frame)
		for _, c := range n.ChildFrames {
			walk(c)
		}
	}
	walk(out.FrameTree)
	return fs, nil
}

// Find returns the open origin o, or ORIGIN_NOT_OPEN naming field and the
// origins that are open.
func Find(origins []Origin, field, o string) (*Origin, error) {
	for i := range origins {
		if origins[i].Origin == o {
			return &origins[i], nil
		}
	}
	open := make([]string, len(origins))
	for i := range origins {
		open[i] = origins[i].Origin
	}
	return nil, errs.New(errs.OriginNotOpen, "%s: no document of the app has %s open", field, o).
		With("field", field).With("open_origins", open)
}

// Area is the Web Storage of one origin in one scope, reached through the
// socket of a target that holds a document of that origin.
type Area struct {
	conn   *cdp.Conn
	origin string
	scope  Scope
}

// Open returns the area of origin o in scope, through the first document
// that holds it.
func Open(ctx context.Context, pool *target.Pool, o *Origin, scope Scope) (*Area, error) {
	var last error
	for _, h := range o.Hosts {
		conn, err := pool.Conn(ctx, h.TargetID)
		if err != nil {
			last = err
			continue
		}
		return &Area{conn: conn, origin: o.Origin, scope: scope}, nil
	}
	if last == nil {
		last = errs.New(errs.OriginNotOpen, "no document holds %s", o.Origin)
	}
	return nil, last
}

func (a *Area) id() map[string]any {
	return map[string]any{"securityOrigin": a.origin, "isLocalStorage": a.scope == Local}
}

// call runs a DOMStorage command; the renderer's refusals (no frame of the
// origin any more) become ORIGIN_NOT_OPEN.
func (a *Area) call(ctx context.Context, method string, params map[string]any, result any) error {
	params["storageId"] = a.id()
	err := a.conn.Call(ctx, method, params, result)
	var pe *cdp.ProtocolError
	if errors.As(err, &pe) {
		return errs.New(errs.OriginNotOpen, "%s: the renderer has no document of %s any more (%s)", method, a.origin, pe.Message).With("origin", a.origin)
	}
	return err
}

// Items reads every entry, in the renderer's order.
func (a *Area) Items(ctx context.Context) ([]Item, error) {
	var out struct {
		Entries [][]string `json:"entries"`
	}
	if err := a.call(ctx, "DOMStorage.getDOMStorageItems", map[string]any{}, &out); err != nil {
		return nil, err
	}
	items := make([]Item, 0, len(out.Entries))
	for _, e := range out.Entries {
		if len(e) == 2 {
			items = append(items, Item{Name: e[0], Value: e[1]})
		}
	}
	return items, nil
}

// Set writes one entry.
func (a *Area) Set(ctx context.Context, key, value string) error {
	return a.call(ctx, "DOMStorage.setDOMStorageItem", map[string]any{"key": key, "value": value}, nil)
}

// Remove deletes one entry (absent is fine).
func (a *Area) Remove(ctx context.Context, key string) error {
	return a.call(ctx, "DOMStorage.removeDOMStorageItem", map[string]any{"key": key}, nil)
}

// Clear deletes every entry.
func (a *Area) Clear(ctx context.Context) error {
	return a.call(ctx, "DOMStorage.clear", map[string]any{}, nil)
}
