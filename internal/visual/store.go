package visual

import (
	"bytes"
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

// WriteBaseline writes <dir>/<name>.png and its sidecar, each through a
// temporary file and a rename.
func WriteBaseline(dir, name string, data []byte, m Meta) error {
	sum := sha256.Sum256(data)
	m.SHA256 = hex.EncodeToString(sum[:])
	m.Name = name
	mb, _ := json.MarshalIndent(m, "", " ")
	if err := writeAtomic(filepath.Join(dir, name+".png"), data); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, name+".json"), mb)
}

// WriteNew writes data to a new file path (tmp + rename).
func WriteNew(path string, data []byte) error { return writeAtomic(path, data) }

func writeAtomic(path string, data []byte) error {
	return files.WriteAtomic(path, data, errs.Internal)
}
