package capture

import (
	"context"

	"github.com/understudy-dev/understudy/internal/errs"
)

// ElementClip is the clip of an element's box (x, y, width, height in CSS
// pixels of the window's viewport, frames included): ELEMENT_NOT_VISIBLE
// for an empty box; beyond says that it reaches past the viewport, so the
// shot must capture beyond it (only then: see Rect.Within).
func (s *Shooter) ElementClip(ctx context.Context, x, y, width, height float64) (clip *Clip, beyond bool, err error) {
	if width <= 0 || height <= 0 {
		return nil, false, errs.New(errs.ElementNotVisible, "the element has an empty box (%gx%g)", width, height)
	}
	clip = &Clip{X: x, Y: y, Width: width, Height: height}
	vw, vh, err := s.Viewport(ctx)
	if err != nil {
		return nil, false, err
	}
	return clip, !clip.Rect().Within(vw, vh), nil
}

// Take shoots the window encoded as enc: clip (nil: the viewport), or with
// fullPage the whole scrollable page, cut at MaxClipSide; beyond captures
// a clip past the viewport (ElementClip). It answers the image, its Shot
// (all but the file and the window) and what a full page left out.
func (s *Shooter) Take(ctx context.Context, enc *Encoding, clip *Clip, fullPage, beyond bool) ([]byte, Shot, Cut, error) {
	format := enc.Name()
	opts := enc.Options()
	var cut Cut // a full page past MaxClipSide: what was left out
	if fullPage {
		w, h, err := s.ContentSize(ctx)
		if err != nil {
			return nil, Shot{}, Cut{}, err
		}
		clip, cut = FullPageClip(w, h)
	}
	if clip != nil {
		opts.Clip = clip.Rect()
		opts.BeyondViewport = fullPage || beyond
	}
	data, err := s.Shot(ctx, opts)
	if err != nil {
		return nil, Shot{}, Cut{}, err
	}
	width, height, err := ImageSize(format, data)
	if err != nil {
		return nil, Shot{}, Cut{}, err
	}
	return data, Shot{Format: format, Width: width, Height: height, Bytes: len(data), Clip: clip}, cut, nil
}
