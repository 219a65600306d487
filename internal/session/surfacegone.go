package session

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// SurfaceGone turns a disconnect, a timeout, an internal failure or a
// refused evaluation of a call whose
// surface went away meanwhile (its window navigated, the frame was removed)
// into SURFACE_CLOSED: the app is healthy, the frame is gone.
func (s *Session) SurfaceGone(surfaceID string, err error) error {
	if surfaceID == "" {
		return err
	}
	switch errs.CodeOf(err) {
	case errs.CDPDisconnected, errs.Internal, errs.EvalRuntimeError, errs.CDPTimeout, errs.PageNavigating:
		// What a call sees when its frame goes under it: "Inspected target
		// navigated or closed", "Execution context was destroyed", a socket
		// that closed.
	default:
		return err
	}
	if alive, _ := s.Alive(); !alive {
		return err
	}
	// The frame tree can lag a moment behind a navigation that has already
	// cut the call off: look again briefly before calling it a failure.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for i := 0; !s.Surfaces.Gone(ctx, surfaceID); i++ {
		if i == 3 {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(250 * time.Millisecond):
		}
	}
	e := errs.Wrap(errs.SurfaceClosed, err, "surface "+surfaceID+" went away during the call (its window navigated or the frame was removed)").With("surfaceId", surfaceID)
	e.Hint = "The selected frame is gone; the app is fine. Call electron_surfaces_list and electron_switch_surface (or electron_switch_window) to pick a live surface, then call again."
	return e
}
