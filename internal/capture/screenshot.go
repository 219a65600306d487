package capture

import (
	"context"
	"encoding/base64"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Shooter takes screenshots of the window behind one socket.
type Shooter struct{ conn *cdp.Conn }

// NewShooter returns a Shooter for the window (page target) on conn.
func NewShooter(conn *cdp.Conn) *Shooter { return &Shooter{conn: conn} }

// Rect is a rectangle in CSS pixels.
type Rect struct {
	X, Y, Width, Height float64
}

// ShotOptions say what to capture and how to encode it.
type ShotOptions struct {
	// Format is "png" or "jpeg".
	Format string
	// Quality is the JPEG quality (0-100); ignored for PNG.
	Quality int
	// Clip, when set, is the rectangle to capture (scale 1).
	Clip *Rect
	// BeyondViewport captures a clip that reaches past the viewport.
	BeyondViewport bool
}

// ContentSize is the page's whole scrollable size in CSS pixels.
func (s *Shooter) ContentSize(ctx context.Context) (width, height float64, err error) {
	var m struct {
		CSSContentSize struct {
			Width  float64 `json:"width"`
			Height float64 `json:"height"`
		} `json:"cssContentSize"`
	}
	if err := s.conn.Call(ctx, "Page.getLayoutMetrics", nil, &m); err != nil {
		return 0, 0, err
	}
	return m.CSSContentSize.Width, m.CSSContentSize.Height, nil
}

// Viewport is the size of the page's layout viewport in CSS pixels.
func (s *Shooter) Viewport(ctx context.Context) (width, height float64, err error) {
	var m struct {
		CSSLayoutViewport struct {
			ClientWidth  float64 `json:"clientWidth"`
			ClientHeight float64 `json:"clientHeight"`
		} `json:"cssLayoutViewport"`
	}
	if err := s.conn.Call(ctx, "Page.getLayoutMetrics", nil, &m); err != nil {
		return 0, 0, err
	}
	return m.CSSLayoutViewport.ClientWidth, m.CSSLayoutViewport.ClientHeight, nil
}

// Within reports whether r lies inside a viewport of width × height CSS
// pixels. A clip that does is captured from what is on screen: capturing
// beyond the viewport makes Chromium resize the view for the shot, and an
// out-of-process iframe may not have drawn at the new size when the shot is
// taken (its area comes out white).
func (r Rect) Within(width, height float64) bool {
	return r.X >= 0 && r.Y >= 0 && r.X+r.Width <= width && r.Y+r.Height <= height
}

// Shot captures the window (from its surface) and returns the encoded
// image.
func (s *Shooter) Shot(ctx context.Context, o ShotOptions) ([]byte, error) {
	params := map[string]any{"format": o.Format, "fromSurface": true}
	if o.Format == "jpeg" {
		params["quality"] = o.Quality
	}
	if c := o.Clip; c != nil {
		params["clip"] = map[string]any{"x": c.X, "y": c.Y, "width": c.Width, "height": c.Height, "scale": 1}
		params["captureBeyondViewport"] = o.BeyondViewport
	}
	var out struct {
		Data string `json:"data"`
	}
	if err := s.conn.Call(ctx, "Page.captureScreenshot", params, &out); err != nil {
		return nil, err
	}
	data, err := base64.StdEncoding.DecodeString(out.Data)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding the screenshot")
	}
	return data, nil
}
