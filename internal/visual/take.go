package visual

import (
	"context"
)

// Source is what a capture is taken from: the window's shot, the
// environment it is taken in and where a mask's selector shows.
type Source struct {
	// Shoot takes one PNG of the capture (the same clip every time).
	Shoot func(ctx context.Context) ([]byte, error)
	// Browser names the browser (BrowserOf).
	Browser string
	// ViewportW and ViewportH are the viewport's size in CSS pixels.
	ViewportW, ViewportH float64
	// Clip is the captured rectangle of the viewport; nil: all of it.
	Clip *CSSRect
	// Locate is the box of the element(s) a mask's selector matches, in
	// CSS pixels of the viewport.
	Locate func(ctx context.Context, selector string) (CSSRect, error)
}

// Take shoots src, works out the environment and the masks in image
// pixels and settles the shot (Shot.Settle) with accept.
func Take(ctx context.Context, src Source, masks []Mask, accept func(data []byte, masks []Rect) bool) (*Shot, error) {
	data, err := src.Shoot(ctx)
	if err != nil {
		return nil, err
	}
	shot, err := NewShot(data, src.Browser, src.ViewportW, src.ViewportH, src.Clip)
	if err != nil {
		return nil, err
	}
	for _, m := range masks {
		if m.Selector == "" {
			shot.MaskInCapture(*m.X, *m.Y, m.Width, m.Height)
			continue
		}
		box, err := src.Locate(ctx, m.Selector)
		if err != nil {
			return nil, err
		}
		shot.Mask(box.X, box.Y, box.Width, box.Height)
	}
	if err := shot.Settle(ctx, func() ([]byte, error) { return src.Shoot(ctx) }, accept); err != nil {
		return nil, err
	}
	return shot, nil
}
