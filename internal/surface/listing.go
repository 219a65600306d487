package surface

import (
	"context"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The listing and selection of surfaces as the MCP tools answer them
// (electron_surfaces_list, electron_switch_surface): their JSON names and
// descriptions, and the selection's argument with its check.

// Listing is the session's surfaces, parent-first, with the active one
// and what decided the roots' kinds.
type Listing struct {
	Surfaces        []Entry `json:"surfaces"`
	ActiveSurfaceID string  `json:"active_surface_id"`
	Count           int     `json:"count"`
	// KindsFrom says what decided the roots' kinds: "main_process" when
	// the app's main process answered through its inspector, "cdp" when
	// CDP alone did (roots are then "other").
	KindsFrom string `json:"kinds_from" jsonschema:"main_process: the roots' kinds (window, webcontents_view, webview) come from the app's main process (webContents.fromDevToolsTargetId and the windows' content view trees); cdp: CDP alone, which cannot tell a window from a WebContentsView (roots are other)"`
	// Windows says which surfaces each native window holds, when the main
	// process told.
	Windows []NativeWindow `json:"windows,omitempty" jsonschema:"the app's native windows and the root surfaces they hold (its own page first, then its WebContentsViews), when kinds_from is main_process"`
}

// Entry is a surface with what the main process says of it.
type Entry struct {
	Descriptor
	WebContentsID *int `json:"webcontents_id,omitempty"`
	WindowID      *int `json:"window_id,omitempty" jsonschema:"the native window (BaseWindow id) that holds this root"`
}

// NativeWindow is one of the app's native windows and the root surfaces
// it holds.
type NativeWindow struct {
	WindowID   int      `json:"window_id"`
	SurfaceIDs []string `json:"surface_ids"`
}

// RootKind is what the app's main process says a root surface is.
type RootKind struct {
	WebContentsID int
	Kind          string // window, webcontents_view, webview, other
	WindowID      *int   // the native window that holds it, when known
}

// Listing lists the surfaces (List) with the active one; the roots' kinds
// are CDP's until [Listing.Classify].
func (r *Registry) Listing(ctx context.Context) (*Listing, error) {
	list, err := r.List(ctx)
	if err != nil {
		return nil, err
	}
	l := &Listing{Surfaces: make([]Entry, 0, len(list)), ActiveSurfaceID: r.Active(), Count: len(list), KindsFrom: "cdp"}
	for _, d := range list {
		l.Surfaces = append(l.Surfaces, Entry{Descriptor: d})
	}
	return l, nil
}

// Roots are the frame ids (target ids) of the listing's root surfaces.
func (l *Listing) Roots() []string {
	var ids []string
	for _, e := range l.Surfaces {
		if e.ParentID == "" && e.FrameID != "" {
			ids = append(ids, e.FrameID)
		}
	}
	return ids
}

// Classify sets the roots' kinds from what the main process said of each
// (by frame id) and lists the native windows that hold them, each
// window's own page first. With no kinds the listing stays as CDP saw it.
func (l *Listing) Classify(kinds map[string]RootKind) {
	if len(kinds) == 0 {
		return
	}
	l.KindsFrom = "main_process"
	byWindow := map[int]*NativeWindow{}
	var order []int
	for i := range l.Surfaces {
		e := &l.Surfaces[i]
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
				w = &NativeWindow{WindowID: *k.WindowID}
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
		l.Windows = append(l.Windows, *byWindow[id])
	}
}

// SwitchArgs name the surface to select.
type SwitchArgs struct {
	SurfaceID string `json:"surfaceId" jsonschema:"an id from electron_surfaces_list"`
}

// Check refuses a blank surface id.
func (a *SwitchArgs) Check() error {
	if strings.TrimSpace(a.SurfaceID) == "" {
		return errs.BadArg("surfaceId", "is required; call electron_surfaces_list for the ids")
	}
	return nil
}

// Switched is the surface selected and the active surface and window
// after it.
type Switched struct {
	Surface         Descriptor `json:"surface"`
	ActiveSurfaceID string     `json:"active_surface_id"`
	ActiveWindowID  string     `json:"active_window_id"`
}

// Switch selects the surface id (Select) and says what is active now.
func (r *Registry) Switch(id string) (*Switched, error) {
	d, err := r.Select(id)
	if err != nil {
		return nil, err
	}
	return &Switched{Surface: d, ActiveSurfaceID: d.ID, ActiveWindowID: r.ActiveWindow()}, nil
}
