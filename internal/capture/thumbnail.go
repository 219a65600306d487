package capture

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os"
)

// Thumbnail is an image scaled to fit a budget, for a caller that shows it
// inline (an MCP image content) beside the file it came from.
type Thumbnail struct {
	Data          []byte
	MIMEType      string
	Width, Height int
	Scaled        bool // smaller than the original
}

// Thumb decodes a PNG or JPEG and, when its longer side exceeds maxSide
// pixels, scales it down to maxSide (averaging each source box, so text
// stays legible rather than aliased). The result keeps the source's
// format.
func Thumb(data []byte, maxSide int) (*Thumbnail, error) {
	if maxSide < 1 {
		return nil, fmt.Errorf("maxSide must be at least 1")
	}
	src, format, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode screenshot: %w", err)
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	mime := "image/png"
	if format == "jpeg" {
		mime = "image/jpeg"
	}
	if w <= maxSide && h <= maxSide {
		return &Thumbnail{Data: data, MIMEType: mime, Width: w, Height: h}, nil
	}
	nw, nh := maxSide, h*maxSide/w
	if h > w {
		nw, nh = w*maxSide/h, maxSide
	}
	nw, nh = max(nw, 1), max(nh, 1)
	dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
	for y := range nh {
		y0, y1 := b.Min.Y+y*h/nh, b.Min.Y+(y+1)*h/nh
		y1 = max(y1, y0+1)
		for x := range nw {
			x0, x1 := b.Min.X+x*w/nw, b.Min.X+(x+1)*w/nw
			x1 = max(x1, x0+1)
			var r, g, bl, a, n uint64
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					cr, cg, cb, ca := src.At(sx, sy).RGBA()
					r, g, bl, a, n = r+uint64(cr), g+uint64(cg), bl+uint64(cb), a+uint64(ca), n+1
				}
			}
			i := dst.PixOffset(x, y)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = uint8(r/n>>8), uint8(g/n>>8), uint8(bl/n>>8), uint8(a/n>>8)
		}
	}
	var out bytes.Buffer
	if mime == "image/jpeg" {
		err = jpeg.Encode(&out, dst, &jpeg.Options{Quality: 80})
	} else {
		err = png.Encode(&out, dst)
	}
	if err != nil {
		return nil, fmt.Errorf("encode thumbnail: %w", err)
	}
	return &Thumbnail{Data: out.Bytes(), MIMEType: mime, Width: nw, Height: nh, Scaled: true}, nil
}

// MaxThumbSource bounds the file ThumbFile reads.
const MaxThumbSource = 64 << 20

// ThumbFile reads back the image file a screenshot wrote (at most
// MaxThumbSource bytes) and Thumbs it to maxSide.
func ThumbFile(path string, maxSide int) (*Thumbnail, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read back: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxThumbSource))
	if err != nil {
		return nil, fmt.Errorf("read back: %w", err)
	}
	th, err := Thumb(data, maxSide)
	if err != nil {
		return nil, fmt.Errorf("scale: %w", err)
	}
	return th, nil
}
