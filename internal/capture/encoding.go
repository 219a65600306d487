package capture

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Encoding is how a screenshot is encoded, as callers give it
// (docs/adr/045): png, or jpeg at a quality.
type Encoding struct {
	Format  string `json:"format,omitempty" jsonschema:"png (default) or jpeg"`
	Quality *int   `json:"quality,omitempty" jsonschema:"jpeg quality 0-100 (default 80)"`
}

// Check refuses an unknown format, a quality for png, and a quality
// outside 0-100.
func (e *Encoding) Check() error {
	switch e.Format {
	case "", "png":
		if e.Quality != nil {
			return errs.BadArg("quality", "quality is for jpeg; png is lossless")
		}
	case "jpeg", "jpg":
		if e.Quality != nil && (*e.Quality < 0 || *e.Quality > 100) {
			return errs.BadArg("quality", "must be between 0 and 100")
		}
	default:
		return errs.BadArg("format", "%s is not a format; use png or jpeg", errs.Quote(e.Format))
	}
	return nil
}

// Name is the format's one name: "png" (the default) or "jpeg".
func (e *Encoding) Name() string {
	if e.Format == "jpeg" || e.Format == "jpg" {
		return "jpeg"
	}
	return "png"
}

// Options are the ShotOptions of the encoding: a jpeg's quality is 80
// unless given.
func (e *Encoding) Options() ShotOptions {
	opts := ShotOptions{Format: e.Name()}
	if opts.Format == "jpeg" {
		opts.Quality = 80
		if e.Quality != nil {
			opts.Quality = *e.Quality
		}
	}
	return opts
}

// FileName is the name of a screenshot file taken at now in format
// ("png" or "jpeg"): screenshot-<time>.png or .jpg.
func FileName(format string, now time.Time) string {
	ext := map[string]string{"png": ".png", "jpeg": ".jpg"}[format]
	return "screenshot-" + now.UTC().Format("20060102-150405.000") + ext
}

// ImageSize reads the pixel size of an encoded png or jpeg image.
func ImageSize(format string, data []byte) (width, height int, err error) {
	var cfg image.Config
	if format == "png" {
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	} else {
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	}
	if err != nil {
		return 0, 0, errs.Wrap(errs.Internal, err, "reading the screenshot's size")
	}
	return cfg.Width, cfg.Height, nil
}

// Cut says what a full-page screenshot past MaxClipSide left out.
type Cut struct {
	Truncated  bool    `json:"truncated,omitempty" jsonschema:"a full page larger than max_side on a side was cut"`
	FullWidth  float64 `json:"full_width,omitempty"`
	FullHeight float64 `json:"full_height,omitempty"`
	MaxSide    int     `json:"max_side,omitempty"`
}

// FullPageClip is the clip of a whole page of width × height CSS pixels,
// at most MaxClipSide on a side, and what that cut off.
func FullPageClip(width, height float64) (*Clip, Cut) {
	clip := &Clip{Width: math.Min(width, MaxClipSide), Height: math.Min(height, MaxClipSide)}
	var cut Cut
	if clip.Width < width || clip.Height < height {
		cut = Cut{Truncated: true, FullWidth: math.Ceil(width), FullHeight: math.Ceil(height), MaxSide: MaxClipSide}
	}
	return clip, cut
}

// Shot is a screenshot written to a file: what a screenshot tool answers
// before the window's emulated viewport and the Cut.
type Shot struct {
	Path      string `json:"path"`
	Format    string `json:"format"`
	Width     int    `json:"width" jsonschema:"in image pixels"`
	Height    int    `json:"height" jsonschema:"in image pixels"`
	Bytes     int    `json:"bytes"`
	WindowID  string `json:"window_id"`
	SurfaceID string `json:"surface_id,omitempty" jsonschema:"for an element: the surface it is in"`
	Clip      *Clip  `json:"clip,omitempty" jsonschema:"the part of the window captured, in its viewport's CSS pixels"`
}
