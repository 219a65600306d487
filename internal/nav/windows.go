package nav

import (
	"context"
	"errors"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// OpenWindow asks the browser for a new window (a page target) showing url
// and returns its target id. browser is the browser-level socket.
func OpenWindow(ctx context.Context, browser *cdp.Conn, url string) (string, error) {
	if browser == nil {
		return "", errs.New(errs.TransportUnsupported, "this connection has no browser-level socket to open windows on")
	}
	var out struct {
		TargetID string `json:"targetId"`
	}
	err := browser.Call(ctx, "Target.createTarget", map[string]any{"url": url}, &out)
	var pe *cdp.ProtocolError
	if errors.As(err, &pe) {
		return "", errs.New(errs.WindowOpenRefused, "the browser refused to open a window: %s", pe.Message)
	}
	return out.TargetID, err
}

// CloseWindow asks the browser to close a window (a page target).
func CloseWindow(ctx context.Context, browser *cdp.Conn, targetID string) error {
	if browser == nil {
		return errs.New(errs.TransportUnsupported, "this connection has no browser-level socket to close windows on")
	}
	var out struct {
		Success bool `json:"success"`
	}
	if err := browser.Call(ctx, "Target.closeTarget", map[string]any{"targetId": targetID}, &out); err != nil {
		var pe *cdp.ProtocolError
		if errors.As(err, &pe) {
			return errs.New(errs.SurfaceClosed, "the browser could not close %s: %s", targetID, pe.Message)
		}
		return err
	}
	return nil
}
