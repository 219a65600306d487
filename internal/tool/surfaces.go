package tool

import (
	"context"
	"runtime"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/mainproc"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/surface"
)

func registerSurfaces(s *Server) {
	define(s, Def{
		Name: "electron_surfaces_list", Title: "List surfaces", Profiles: "ETD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Page: pageEveryWindow},
		Short:   "List surfaces (windows, webviews, iframes) parent-first with ids; kinds unverified on Electron.",
		Desc:    "List the live renderer surfaces, parent-first and flat: window roots (kind other; with the main-process inspector window or webcontents_view, from the main process, with webcontents_id, window_id and windows saying which window holds which views — stand-in, unverified on real Electron), <webview> guests (webview), cross-site and same-site iframes (frame), each with its parentId, originRelation and capabilities, and the active_surface_id.",
	}, surfacesList)
	define(s, Def{
		Name: "electron_switch_surface", Title: "Select a surface", Profiles: "ETD", Class: classLifecycle, Session: true,
		Effects: Effects{Does: kSelect, Page: pageFree},
		Short:   "Select the surface (frame, webview) renderer tools act in; a ref needs none.",
		Desc:    "Select the surface every renderer tool acts on (snapshot, find, reads, clicks, keys, waits, eval). Also makes its window root the active window. A closed surface is SURFACE_CLOSED; an unknown id SURFACE_NOT_FOUND.",
	}, switchSurface)
	define(s, Def{
		Name: "electron_inject", Title: "Open an app's main-process inspector", Profiles: "ETD", Class: classLifecycle, Session: true,
		Effects: Effects{Does: kOpen, Eval: gateEvalMain, Page: pageFree, Irreversible: true},
		Desc:    "Open the main-process inspector of a running Electron app (SIGUSR1 to pid, inspector on 127.0.0.1:9229) and remember it for this session, so electron_eval_main works on an app you attached to. INJECT_FAILED when the app ignores the signal (fuses).",
	}, inject)
	define(s, Def{
		Name: "electron_eval_main", Title: "Run JavaScript in the main process", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Eval: gateEvalMain, Page: pageFree, Irreversible: true},
		Desc:    "Evaluate JavaScript in Electron's main process through its Node inspector (require works): an expression, a function body, or a function that receives arg. TRANSPORT_UNSUPPORTED when no inspector is reachable (launch with main, or attach with inspectorUrl/inspectorPort).",
	}, evalMain)
	define(s, Def{
		Name: "electron_eval_renderer", Title: "Run JavaScript in the page", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Eval: gateEvalRenderer, Irreversible: true},
		Desc:    "Evaluate JavaScript in the active surface's main world: an expression, a function body (use return), or a function that receives arg. Promises are awaited; the JSON-serialisable result is returned.",
	}, evalRenderer)
}

// surfacesResult is electron_surfaces_list's result.
type surfacesResult struct {
	Surfaces        []surfaceEntry `json:"surfaces"`
	ActiveSurfaceID string         `json:"active_surface_id"`
	Count           int            `json:"count"`
	// KindsFrom says what decided the roots' kinds: "main_process" when
	// the app's main process answered through its inspector, "cdp" when
	// CDP alone did (roots are then "other").
	KindsFrom string `json:"kinds_from" jsonschema:"main_process: the roots' kinds (window, webcontents_view, webview) come from the app's main process (webContents.fromDevToolsTargetId and the windows' content view trees); cdp: CDP alone, which cannot tell a window from a WebContentsView (roots are other)"`
	// Windows says which surfaces each native window holds, when the main
	// process told.
	Windows []nativeWindow `json:"windows,omitempty" jsonschema:"the app's native windows and the root surfaces they hold (its own page first, then its WebContentsViews), when kinds_from is main_process"`
}

// surfaceEntry is a surface with what the main process says of it.
type surfaceEntry struct {
	surface.Descriptor
	WebContentsID *int `json:"webcontents_id,omitempty"`
	WindowID      *int `json:"window_id,omitempty" jsonschema:"the native window (BaseWindow id) that holds this root"`
}

type nativeWindow struct {
	WindowID   int      `json:"window_id"`
	SurfaceIDs []string `json:"surface_ids"`
}

func surfacesList(ctx context.Context, c *Call, _ *noArgs) (*surfacesResult, error) {
	list, err := c.Session.Surfaces.List(ctx)
	if err != nil {
		return nil, err
	}
	res := &surfacesResult{Surfaces: make([]surfaceEntry, 0, len(list)), ActiveSurfaceID: c.Session.Surfaces.Active(), Count: len(list), KindsFrom: "cdp"}
	for _, d := range list {
		res.Surfaces = append(res.Surfaces, surfaceEntry{Descriptor: d})
	}
	classifyRoots(ctx, c, res)
	return res, nil
}

// classifyRoots asks the main process (when the session has its inspector)
// what each root surface is; without one, or when it cannot tell, the
// roots stay as CDP saw them (ADR-029: other).
func classifyRoots(ctx context.Context, c *Call, res *surfacesResult) {
	url := c.Session.InspectorURL
	if url == "" {
		return
	}
	var ids []string
	for _, e := range res.Surfaces {
		if e.ParentID == "" && e.FrameID != "" {
			ids = append(ids, e.FrameID)
		}
	}
	if len(ids) == 0 {
		return
	}
	conn, err := session.Attach(c.Session, mainproc.ConnKey, mainproc.Opener(ctx, url))
	if err != nil {
		return
	}
	kinds, err := mainproc.Kinds(ctx, conn, ids)
	if err != nil || len(kinds) == 0 {
		return
	}
	res.KindsFrom = "main_process"
	byWindow := map[int]*nativeWindow{}
	var order []int
	for i := range res.Surfaces {
		e := &res.Surfaces[i]
		k, ok := kinds[e.FrameID]
		if !ok || e.ParentID != "" {
			continue
		}
		wc := k.WebContentsID
		e.WebContentsID = &wc
		e.WindowID = k.WindowID
		if k.Kind != "other" {
			e.Kind = k.Kind
		}
		if k.WindowID != nil {
			w := byWindow[*k.WindowID]
			if w == nil {
				w = &nativeWindow{WindowID: *k.WindowID}
				byWindow[*k.WindowID] = w
				order = append(order, *k.WindowID)
			}
			if k.Kind == "window" {
				w.SurfaceIDs = append([]string{e.ID}, w.SurfaceIDs...)
			} else {
				w.SurfaceIDs = append(w.SurfaceIDs, e.ID)
			}
		}
	}
	for _, id := range order {
		res.Windows = append(res.Windows, *byWindow[id])
	}
}

type switchSurfaceArgs struct {
	Common
	SurfaceID string `json:"surfaceId" jsonschema:"an id from electron_surfaces_list"`
}

func (a *switchSurfaceArgs) validate() error {
	if strings.TrimSpace(a.SurfaceID) == "" {
		return errs.BadArg("surfaceId", "is required; call electron_surfaces_list for the ids")
	}
	return nil
}

// switchSurfaceResult is electron_switch_surface's result.
type switchSurfaceResult struct {
	Surface         surface.Descriptor `json:"surface"`
	ActiveSurfaceID string             `json:"active_surface_id"`
	ActiveWindowID  string             `json:"active_window_id"`
}

func switchSurface(ctx context.Context, c *Call, a *switchSurfaceArgs) (*switchSurfaceResult, error) {
	d, err := c.Session.Surfaces.Select(a.SurfaceID)
	if err != nil {
		return nil, err
	}
	return &switchSurfaceResult{Surface: d, ActiveSurfaceID: d.ID, ActiveWindowID: c.Session.Surfaces.ActiveWindow()}, nil
}

// modifierMask turns modifier names into CDP's bit mask with the same
// names a key chord accepts (input.ParseModifiers).
func modifierMask(mods []string) (int, error) {
	return input.ParseModifiers(mods, runtime.GOOS)
}
