package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/surface"
)

func registerSurfaces(s *Server) {
	define(s, Def{
		Name: "electron_surfaces_list", Title: "List surfaces", Profiles: "ETD", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Page: pageEveryWindow},
		Short:   "List surfaces (windows, webviews, iframes) parent-first with ids; kinds unverified on Electron.",
		Desc:    "List the live renderer surfaces, parent-first and flat: window roots (kind other; with the main-process inspector window or webcontents_view, from the main process, with webcontents_id, window_id and windows saying which window holds which views — stand-in, unverified on real Electron), <webview> guests (webview), cross-site and same-site iframes (frame), each with its parentId, originRelation and capabilities, and the active_surface_id.",
	}, surfacesList)
	defineOpt(s, Def{
		Name: "electron_switch_surface", Title: "Select a surface", Profiles: "ETD", Class: classLifecycle, Session: true,
		Effects: Effects{Does: kSelect, Page: pageFree},
		Short:   "Select the surface (frame, webview) renderer tools act in; a ref needs none.",
		Desc:    "Select the surface every renderer tool acts on (snapshot, find, reads, clicks, keys, waits, eval). Also makes its window root the active window. A closed surface is SURFACE_CLOSED; an unknown id SURFACE_NOT_FOUND.",
	}, switchSurface)
	defineOpt(s, Def{
		Name: "electron_inject", Title: "Open an app's main-process inspector", Profiles: "ETD", Class: classLifecycle, Session: true,
		Effects: Effects{Does: kOpen, Eval: gateEvalMain, Page: pageFree, Irreversible: true},
		Desc:    "Open the main-process inspector of a running Electron app (SIGUSR1 to pid, inspector on 127.0.0.1:9229) and remember it for this session, so electron_eval_main works on an app you attached to. INJECT_FAILED when the app ignores the signal (fuses).",
	}, inject)
	defineOpt(s, Def{
		Name: "electron_eval_main", Title: "Run JavaScript in the main process", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Eval: gateEvalMain, Page: pageFree, Irreversible: true},
		Desc:    "Evaluate JavaScript in Electron's main process through its Node inspector (require works): an expression, a function body, or a function that receives arg. TRANSPORT_UNSUPPORTED when no inspector is reachable (launch with main, or attach with inspectorUrl/inspectorPort).",
	}, evalMain)
	defineOpt(s, Def{
		Name: "electron_eval_renderer", Title: "Run JavaScript in the page", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kOpen, Eval: gateEvalRenderer, Irreversible: true},
		Desc:    "Evaluate JavaScript in the active surface's main world: an expression, a function body (use return), or a function that receives arg. Promises are awaited; the JSON-serialisable result is returned.",
	}, evalRenderer)
}

func surfacesList(ctx context.Context, c *Call, _ *noArgs) (*surface.Listing, error) {
	return c.Session.SurfaceListing(ctx)
}

func switchSurface(ctx context.Context, c *Call, a *surface.SwitchArgs) (*surface.Switched, error) {
	return c.Session.Surfaces.Switch(a.SurfaceID)
}
