package tool

import (
	"github.com/understudy-dev/understudy/internal/emulation"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

type snapshotArgs struct {
	Common
	page.SnapshotQuery
	Surfaces string `json:"surfaces,omitempty" jsonschema:"'all': the active window's every surface in one text snapshot, each frame or webview under its iframe line; refs act where they point"`
}

// snapshotResult is electron_snapshot's result.
type snapshotResult struct {
	*page.SnapshotResult
	Fallback *surface.Fallback   `json:"surface_fallback,omitempty"`
	Emulated *emulation.Viewport `json:"emulated_viewport,omitempty" jsonschema:"the viewport emulation_set gave the surface's window; viewport is then the emulated one"`
}

type findArgs struct {
	Common
	page.FindQuery
	page.FindScroll
	Surfaces string `json:"surfaces,omitempty" jsonschema:"'all': search the active window's every surface; each match says its surface_id"`
}

// refArg routes a find within a ref of another surface to that surface.
func (a *findArgs) refArg() int { return a.Within }

func (a *findArgs) validate() error {
	if err := a.FindQuery.Check(); err != nil {
		return err
	}
	if a.Within > 0 && a.Surfaces != "" {
		return errs.BadArg("within", "within searches the ref's own surface; leave out surfaces")
	}
	return a.FindScroll.CheckWith(&a.FindQuery)
}
