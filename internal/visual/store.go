package visual

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
)

// maxPixels bounds a decoded image (16 million pixels).
const maxPixels = 16 << 20

// Env is where an image was taken: a comparison across environments is
// refused instead of failing on pixels that differ for that reason.
type Env struct {
	Browser     string  `json:"browser"`
	DeviceScale float64 `json:"device_scale"`
	ViewportW   int     `json:"viewport_width"`
	ViewportH   int     `json:"viewport_height"`
}

// Meta is a baseline's sidecar (<name>.json).
type Meta struct {
	Name      string    `json:"name"`
	Width     int       `json:"width"`
	Height    int       `json:"height"`
	Env       Env       `json:"env"`
	SHA256    string    `json:"sha256"`
	CreatedAt time.Time `json:"created_at"`
}

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`) }) // compiled on first use, not at start

// CheckName refuses a baseline name that is not a plain leaf name.
func CheckName(name string) error {
	if !nameRE().MatchString(name) || name == "." || name == ".." {
		return errs.BadArg("name", "must be 1-100 letters, digits, '.', '_' or '-' (a name, not a path), starting with a letter or digit")
	}
	return nil
}

// EnvDiff lists the fields in which two environments differ.
func EnvDiff(a, b Env) []string {
	var d []string
	if a.Browser != b.Browser {
		d = append(d, "browser")
	}
	if a.DeviceScale != b.DeviceScale {
		d = append(d, "device_scale")
	}
	if a.ViewportW != b.ViewportW || a.ViewportH != b.ViewportH {
		d = append(d, "viewport")
	}
	return d
}

// Decode reads a PNG, bounded in size.
func Decode(data []byte) (image.Image, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, errs.New(errs.ImageInvalid, "not a PNG: %v", err)
	}
	if cfg.Width*cfg.Height > maxPixels {
		return nil, errs.New(errs.ImageInvalid, "the PNG has %dx%d pixels, more than %d", cfg.Width, cfg.Height, maxPixels)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, errs.New(errs.ImageInvalid, "the PNG is corrupt: %v", err)
	}
	return img, nil
}

// Encode writes an image as PNG.
func Encode(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding a PNG")
	}
	return b.Bytes(), nil
}

// ReadBaseline reads <dir>/<name>.png and its sidecar, checking that they
// belong together.
func ReadBaseline(dir, name string) (image.Image, Meta, error) {
	img, m, _, err := ReadBaselinePNG(dir, name)
	return img, m, err
}

// ReadBaselinePNG is ReadBaseline that also returns the PNG's bytes.
func ReadBaselinePNG(dir, name string) (image.Image, Meta, []byte, error) {
	var m Meta
	pngPath, metaPath := filepath.Join(dir, name+".png"), filepath.Join(dir, name+".json")
	data, err := readRegular(pngPath)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, m, nil, errs.New(errs.BaselineNotFound, "no baseline %q in %s", name, dir).With("name", name)
		}
		return nil, m, nil, errs.New(errs.ImageInvalid, "baseline %q: %v", name, err).With("name", name)
	}
	mb, err := readRegular(metaPath)
	if err != nil || json.Unmarshal(mb, &m) != nil {
		return nil, m, nil, errs.New(errs.ImageInvalid, "baseline %q has no readable %s", name, filepath.Base(metaPath)).With("name", name)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != m.SHA256 {
		return nil, m, nil, errs.New(errs.ImageInvalid, "baseline %q: the PNG is not the one its sidecar describes (changed by hand or half written)", name).With("name", name)
	}
	img, err := Decode(data)
	if err != nil {
		return nil, m, nil, err
	}
	return img, m, data, nil
}

// readRegular reads a regular file, refusing symbolic links.
func readRegular(p string) ([]byte, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errs.New(errs.ImageInvalid, "%s is not a regular file", p)
	}
	return os.ReadFile(p)
}

// WriteBaseline writes <dir>/<name>.png and its sidecar <name>.json
// through the one writer and reports whether it replaced a baseline. An
// existing pair is replaced only when it is a baseline (its sidecar
// describes its PNG) or this server wrote it; any other file of either
// name (a project's package.json) is left as it is:
// VISUAL_BASELINE_CONFLICT.
func WriteBaseline(ctx context.Context, roots *files.Roots, dir, name string, data []byte, m Meta) (replaced bool, err error) {
	sum := sha256.Sum256(data)
	m.SHA256 = hex.EncodeToString(sum[:])
	m.Name = name
	mb, _ := json.MarshalIndent(m, "", " ")
	_, old, _, rerr := ReadBaselinePNG(dir, name)
	isBaseline := rerr == nil && old.Name == name
	outs := []files.Out{
		{Field: "name", Path: filepath.Join(dir, name+".png"), Overwrite: isBaseline},
		{Field: "name", Path: filepath.Join(dir, name+".json"), Overwrite: isBaseline},
	}
	if _, err := roots.WriteAll(ctx, outs, [][]byte{data, mb}); err != nil {
		if errs.CodeOf(err) == errs.FileExists {
			return false, errs.New(errs.BaselineConflict, "%s holds a file named like baseline %q (%s.png or %s.json) that is not a baseline; nothing was written", dir, name, name, name).
				With("field", "name").With("baselineDir", dir)
		}
		return false, err
	}
	return isBaseline, nil
}
