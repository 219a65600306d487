package tool

import (
	"context"
	"runtime"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/input"
	"github.com/understudy-dev/understudy/internal/surface"
)

func registerSurfaces(s *Server) {
	add(s, "electron_surfaces_list", "List the live renderer surfaces, parent-first and flat: window roots (kind other), <webview> guests (webview), cross-site and same-site iframes (frame), each with its parentId, originRelation and capabilities, and the active_surface_id.", true, gateNone, surfacesList)
	add(s, "electron_switch_surface", "Select the surface every renderer tool acts on (snapshot, find, reads, clicks, keys, waits, eval). Also makes its window root the active window. A closed surface is SURFACE_CLOSED; an unknown id SURFACE_NOT_FOUND.", true, gateNone, switchSurface)
	add(s, "electron_inject", "Open the main-process inspector of a running Electron app (SIGUSR1 to pid, inspector on 127.0.0.1:9229) and remember it for this session, so electron_eval_main works on an app you attached to. INJECT_FAILED when the app ignores the signal (fuses).", true, gateEvalMain, inject)
	add(s, "electron_eval_main", "Evaluate JavaScript in Electron's main process through its Node inspector (require works): an expression, a function body, or a function that receives arg. TRANSPORT_UNSUPPORTED when no inspector is reachable (launch with main, or attach with inspectorUrl/inspectorPort).", true, gateEvalMain, evalMain)
	add(s, "electron_eval_renderer", "Evaluate JavaScript in the active surface's main world: an expression, a function body (use return), or a function that receives arg. Promises are awaited; the JSON-serialisable result is returned.", true, gateEvalRenderer, evalRenderer)
}

// surfacesResult is electron_surfaces_list's result.
type surfacesResult struct {
	Surfaces        []surface.Descriptor `json:"surfaces"`
	ActiveSurfaceID string               `json:"active_surface_id"`
	Count           int                  `json:"count"`
}

func surfacesList(ctx context.Context, c *Call, _ *noArgs) (*surfacesResult, error) {
	list, err := c.Session.Surfaces.List(ctx)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []surface.Descriptor{}
	}
	return &surfacesResult{Surfaces: list, ActiveSurfaceID: c.Session.Surfaces.Active(), Count: len(list)}, nil
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

// resolve resolves the active surface for a renderer operation and names
// any automatic fallback in the result.
func resolve(ctx context.Context, c *Call) (*surface.Resolution, error) {
	if c.surface != "" { // the ref's own surface (routeRef)
		return c.Session.Surfaces.ResolveID(ctx, c.surface)
	}
	return c.Session.Surfaces.Resolve(ctx)
}

// modifierMask turns modifier names into CDP's bit mask with the same
// names a key chord accepts (input.ParseModifiers).
func modifierMask(mods []string) (int, error) {
	return input.ParseModifiers(mods, runtime.GOOS)
}
