package visual

import (
	"image"
	"image/color"
	"math"
)

// Rect is a region in image pixels.
type Rect struct {
	X, Y, W, H int
}

// Options tune a comparison.
type Options struct {
	// Threshold is the perceptual colour distance (0..1) under which two
	// pixels count as equal; 0.1 by default when zero.
	Threshold float64
	// CountAA counts anti-aliased pixels as differences.
	CountAA bool
	// Masks are ignored regions.
	Masks []Rect
}

// Result is a comparison's outcome.
type Result struct {
	Width, Height int
	Diff          int     // differing pixels
	AA            int     // differing pixels taken for anti-aliasing
	Masked        int     // pixels inside masks
	Ratio         float64 // Diff / compared pixels
	// Image shows the differences in red, anti-aliasing in yellow, masks
	// in blue, over a faded copy of a.
	Image *image.NRGBA
}

// maxYIQ is the largest possible YIQ distance (black against white).
const maxYIQ = 35215.0

// Compare compares two images of the same size (the caller checks sizes).
func Compare(a, b image.Image, o Options) Result {
	ra, rb := toNRGBA(a), toNRGBA(b)
	w, h := ra.Rect.Dx(), ra.Rect.Dy()
	th := o.Threshold
	if th <= 0 {
		th = 0.1
	}
	maxDelta := maxYIQ * th * th
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	masked := make([]bool, w*h)
	for _, m := range o.Masks {
		for y := max(0, m.Y); y < min(h, m.Y+m.H); y++ {
			for x := max(0, m.X); x < min(w, m.X+m.W); x++ {
				masked[y*w+x] = true
			}
		}
	}
	r := Result{Width: w, Height: h, Image: out}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			if masked[i] {
				r.Masked++
				out.SetNRGBA(x, y, color.NRGBA{80, 120, 255, 255})
				continue
			}
			pa, pb := ra.PixOffset(x, y), rb.PixOffset(x, y)
			if ra.Pix[pa] == rb.Pix[pb] && ra.Pix[pa+1] == rb.Pix[pb+1] && ra.Pix[pa+2] == rb.Pix[pb+2] && ra.Pix[pa+3] == rb.Pix[pb+3] {
				g := 255 - uint8(0.1*(255-brightness(ra, x, y)))
				out.SetNRGBA(x, y, color.NRGBA{g, g, g, 255})
				continue
			}
			d := colorDelta(ra, rb, x, y, x, y, false)
			if math.Abs(d) > maxDelta {
				if !o.CountAA && (antialiased(ra, x, y, rb) || antialiased(rb, x, y, ra)) {
					r.AA++
					out.SetNRGBA(x, y, color.NRGBA{255, 255, 0, 255})
				} else {
					r.Diff++
					out.SetNRGBA(x, y, color.NRGBA{255, 0, 0, 255})
				}
				continue
			}
			// Equal: a faded grey of a.
			g := 255 - uint8(0.1*(255-brightness(ra, x, y)))
			out.SetNRGBA(x, y, color.NRGBA{g, g, g, 255})
		}
	}
	if n := w*h - r.Masked; n > 0 {
		r.Ratio = float64(r.Diff) / float64(n)
	}
	return r
}

func toNRGBA(img image.Image) *image.NRGBA {
	if n, ok := img.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	if rgba, ok := img.(*image.RGBA); ok {
		// Premultiplied: un-premultiply per pixel from the bytes.
		for y := 0; y < b.Dy(); y++ {
			src := rgba.Pix[rgba.PixOffset(b.Min.X, b.Min.Y+y):]
			dst := n.Pix[n.PixOffset(0, y):]
			for x := 0; x < b.Dx(); x++ {
				r, g, bl, a := src[4*x], src[4*x+1], src[4*x+2], src[4*x+3]
				if a != 0 && a != 255 {
					r = uint8(uint32(r) * 255 / uint32(a))
					g = uint8(uint32(g) * 255 / uint32(a))
					bl = uint8(uint32(bl) * 255 / uint32(a))
				}
				dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = r, g, bl, a
			}
		}
		return n
	}
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			n.Set(x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return n
}

// blended returns the pixel's colour over white.
func blended(img *image.NRGBA, x, y int) (r, g, b float64) {
	p := img.Pix[img.PixOffset(x, y):]
	a := float64(p[3]) / 255
	blend := func(c uint8) float64 { return 255 + (float64(c)-255)*a }
	return blend(p[0]), blend(p[1]), blend(p[2])
}

func yOf(r, g, b float64) float64 { return r*0.29889531 + g*0.58662247 + b*0.11448223 }

func brightness(img *image.NRGBA, x, y int) float64 {
	r, g, b := blended(img, x, y)
	return yOf(r, g, b)
}

// colorDelta is the perceptual (YIQ) distance between two pixels, signed
// by which is brighter; yOnly compares brightness only.
func colorDelta(a, b *image.NRGBA, ax, ay, bx, by int, yOnly bool) float64 {
	r1, g1, b1 := blended(a, ax, ay)
	r2, g2, b2 := blended(b, bx, by)
	y1, y2 := yOf(r1, g1, b1), yOf(r2, g2, b2)
	dy := y1 - y2
	if yOnly {
		return dy
	}
	i := (r1*0.59597799 - g1*0.27417610 - b1*0.32180189) - (r2*0.59597799 - g2*0.27417610 - b2*0.32180189)
	q := (r1*0.21147017 - g1*0.52261711 + b1*0.31114694) - (r2*0.21147017 - g2*0.52261711 + b2*0.31114694)
	d := 0.5053*dy*dy + 0.299*i*i + 0.1957*q*q
	if y1 > y2 {
		return -d
	}
	return d
}

func samePixel(img *image.NRGBA, x1, y1, x2, y2 int) bool {
	p, q := img.PixOffset(x1, y1), img.PixOffset(x2, y2)
	return img.Pix[p] == img.Pix[q] && img.Pix[p+1] == img.Pix[q+1] && img.Pix[p+2] == img.Pix[q+2] && img.Pix[p+3] == img.Pix[q+3]
}

// antialiased reports whether the pixel (x, y) of img looks like an
// anti-aliased edge: among its neighbours it has both a darker and a
// brighter one, few equal ones, and the darkest or the brightest
// neighbour sits in a flat area (many identical siblings) in both images.
func antialiased(img *image.NRGBA, x, y int, other *image.NRGBA) bool {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x0, y0, x1, y1 := max(x-1, 0), max(y-1, 0), min(x+1, w-1), min(y+1, h-1)
	zeroes := 0
	if x == x0 || x == x1 || y == y0 || y == y1 {
		zeroes = 1 // an edge pixel has fewer neighbours
	}
	var lo, hi float64
	var loX, loY, hiX, hiY int
	for ny := y0; ny <= y1; ny++ {
		for nx := x0; nx <= x1; nx++ {
			if nx == x && ny == y {
				continue
			}
			d := colorDelta(img, img, x, y, nx, ny, true)
			switch {
			case d == 0:
				zeroes++
				if zeroes > 2 {
					return false
				}
			case d < lo:
				lo, loX, loY = d, nx, ny
			case d > hi:
				hi, hiX, hiY = d, nx, ny
			}
		}
	}
	if lo == 0 || hi == 0 {
		return false
	}
	return (manySiblings(img, loX, loY) && manySiblings(other, loX, loY)) ||
		(manySiblings(img, hiX, hiY) && manySiblings(other, hiX, hiY))
}

// manySiblings reports whether more than two neighbours of (x, y) have its
// exact colour.
func manySiblings(img *image.NRGBA, x, y int) bool {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x0, y0, x1, y1 := max(x-1, 0), max(y-1, 0), min(x+1, w-1), min(y+1, h-1)
	zeroes := 0
	if x == x0 || x == x1 || y == y0 || y == y1 {
		zeroes = 1
	}
	for ny := y0; ny <= y1; ny++ {
		for nx := x0; nx <= x1; nx++ {
			if nx == x && ny == y {
				continue
			}
			if samePixel(img, x, y, nx, ny) {
				zeroes++
			}
			if zeroes > 2 {
				return true
			}
		}
	}
	return false
}

// Paint returns a copy of img with the masks filled in solid blue (what a
// capture with masks shows to a reviewer).
func Paint(img image.Image, masks []Rect) *image.NRGBA {
	n := toNRGBA(img)
	out := image.NewNRGBA(n.Rect)
	copy(out.Pix, n.Pix)
	for _, m := range masks {
		for y := max(0, m.Y); y < min(out.Rect.Dy(), m.Y+m.H); y++ {
			for x := max(0, m.X); x < min(out.Rect.Dx(), m.X+m.W); x++ {
				out.SetNRGBA(x, y, color.NRGBA{80, 120, 255, 255})
			}
		}
	}
	return out
}
